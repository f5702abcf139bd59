import { END, START, Send, StateGraph } from "@langchain/langgraph";
import { R3State, type R3StateValue } from "../state/r3.ts";
import { debugNode } from "../nodes/r3/debug.ts";
import { finishNode, stopReasonOf } from "../nodes/r3/finish.ts";
import { R3_LOOP_OPTIONS, R3_OPTIONS } from "../nodes/r3/options.ts";
import { personasNode } from "../nodes/r3/personas.ts";
import { reviewNode } from "../nodes/r3/review.ts";
import { reviseNode } from "../nodes/r3/revise.ts";
import { asSlot } from "../nodes/r3/types.ts";
import { writeNode } from "../nodes/r3/write.ts";
import { defaultDeps } from "./deps.ts";
import { readOptions } from "./options.ts";
import { SHARED_SLOTS } from "./slots.ts";
import { type BuildOptions, type GraphSpec, slotNode } from "./spec.ts";

/** R³'s agents as slots (after `schema`); `write` only in the generator. */
const WRITE_SLOT = { summary: "the writer's first SQL, with k similar training examples (role: writer)", factory: asSlot(writeNode) };
const LOOP_SLOTS = {
  execute: SHARED_SLOTS.execute,
  debug: { summary: "the writer rewrites SQL that failed to execute, error appended to its history (role: writer)", factory: asSlot(debugNode) },
  persona: { summary: "n reviewer professions suited to the schema and SQL, once per question (role: persona)", factory: asSlot(personasNode) },
  review: { summary: "one reviewer, in its persona, reviews the SQL and its result table; n run in parallel (role: reviewer)", factory: asSlot(reviewNode) },
  revise: { summary: "the writer reads the reviews and revises, or rebuts and keeps its SQL (role: writer)", factory: asSlot(reviseNode) },
  finish: { summary: "records why the loop stopped", factory: asSlot(finishNode) },
};

type LoopOptions = { reviewers: number; maxDebugTurns: number; maxReviewTurns: number };

/**
 * One `Send` per reviewer: they run in the same step, in parallel, each told which persona it is. A reviewer gets
 * what the `review` slot reads, not the writer's history: Send arguments are stored in checkpoints, n per round.
 */
const REVIEW_INPUT = ["graph", "questionId", "question", "evidence", "dbId", "dbPath", "descriptionDir", "schemaText", "sql", "execution", "personas", "rounds"] as const;
const reviewerSends = (opts: LoopOptions) => (state: R3StateValue) =>
  Array.from({ length: opts.reviewers }, (_, i) => new Send("review", { ...Object.fromEntries(REVIEW_INPUT.map((key) => [key, state[key]])), reviewerIndex: i }));

/** After execute: the debug loop while the SQL fails and turns remain; then stop, make the panel, or review. */
const routeAfterExecute = (opts: LoopOptions) => (state: R3StateValue) => {
  if (state.execution && !state.execution.ok && state.roundDebugTurns < opts.maxDebugTurns) return "debug";
  if (stopReasonOf(state, opts)) return "finish";
  if (state.personas.length < opts.reviewers) return "persona";
  return reviewerSends(opts)(state);
};

/** After revise: consensus (or no review to answer) ends the loop; a revision is executed (and debugged) first. */
const routeAfterRevise = (state: R3StateValue) => {
  const outcome = state.roundLog.at(-1)?.outcome;
  return outcome === "kept" || outcome === "no-reviews" ? "finish" : "execute";
};

/**
 * Algorithm 1 as a graph. Generator: schema → write → execute ⇄ debug → persona → review ×n (Send) → revise →
 * (finish | execute …). Corrector: the same from execute, the given SQL standing as the writer's first answer.
 */
function buildR3(spec: GraphSpec, withWriter: boolean, deps: Parameters<GraphSpec["build"]>[0], options: BuildOptions = {}) {
  const opts = readOptions(R3_LOOP_OPTIONS, options);
  const node = (slot: string, extra: Record<string, unknown> = {}) => slotNode(spec, slot, deps, { ...options, ...extra });
  const graph = new StateGraph(R3State)
    .addNode("schema", node("schema"))
    .addNode("execute", node("execute", { previewRows: Math.max(opts.resultRows, options.previewRows ?? 0) }))
    .addNode("debug", node("debug"))
    .addNode("persona", node("persona"))
    .addNode("review", node("review"))
    .addNode("revise", node("revise"))
    .addNode("finish", node("finish"));
  const wired = withWriter
    ? graph.addNode("write", node("write")).addEdge(START, "schema").addEdge("schema", "write").addEdge("write", "execute")
    : graph.addEdge(START, "schema").addEdge("schema", "execute");
  const compiled = wired
    .addConditionalEdges("execute", routeAfterExecute(opts), ["debug", "finish", "persona", "review"])
    .addEdge("debug", "execute")
    .addConditionalEdges("persona", reviewerSends(opts), ["review"])
    .addEdge("review", "revise")
    .addConditionalEdges("revise", routeAfterRevise, ["execute", "finish"])
    .addEdge("finish", END)
    .compile({ checkpointer: options.checkpointer });
  compiled.name = spec.name;
  return compiled;
}

export const r3Spec: GraphSpec = {
  name: "r3",
  summary: "R³: a SQL writer with memory and n generated reviewer personas review, rebut and revise until consensus",
  kind: "generator",
  slots: { schema: SHARED_SLOTS.schema, write: WRITE_SLOT, ...LOOP_SLOTS },
  options: R3_OPTIONS,
  needsExamples: (options) => {
    const k = readOptions(R3_OPTIONS, options).kShot;
    return k > 0 ? `r3 --k-shot ${k}${options.kShot === undefined ? " (the default; --k-shot 0 for zero-shot)" : ""}` : undefined;
  },
  build: (deps, options) => buildR3(r3Spec, true, deps, options),
};

export const r3ReviewSpec: GraphSpec = {
  name: "r3-review",
  summary: "corrector: R³'s review loop (debug, personas, n reviewers, rebuttal or revision) on the given SQL",
  kind: "corrector",
  slots: { schema: SHARED_SLOTS.schema, ...LOOP_SLOTS },
  options: R3_LOOP_OPTIONS,
  build: (deps, options) => buildR3(r3ReviewSpec, false, deps, options),
};

/** For langgraph.json. */
export const graph = r3Spec.build(defaultDeps());
export const reviewGraph = r3ReviewSpec.build(defaultDeps());
