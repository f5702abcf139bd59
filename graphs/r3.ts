import { SqlInputState } from "../state/sql-state.ts";
import { END, START, Send, StateGraph } from "@langchain/langgraph";
import { R3State, type R3StateValue } from "../state/r3.ts";
import { debugNode } from "../nodes/r3/debug.ts";
import { finishNode, stopReasonOf } from "../nodes/r3/finish.ts";
import { R3_LOOP_OPTIONS } from "../nodes/r3/options.ts";
import { personasNode } from "../nodes/r3/personas.ts";
import { REVIEW_INPUT, reviewNode } from "../nodes/r3/review.ts";
import { reviseNode } from "../nodes/r3/revise.ts";
import { writeNode } from "../nodes/r3/write.ts";
import { r3Manifest, r3ReviewManifest } from "./manifests/r3.ts";
import { readOptions } from "../core/options.ts";
import { SHARED_FACTORIES } from "./slots.ts";
import { type Outcome, type OutcomeSpec, summarizeOutcomes } from "./outcome.ts";
import { type BuildOptions, defineSpec, type SlotNodeOf } from "./spec.ts";

/** R³'s agents' factories by slot (after `schema`); `write` only in the generator. */
const LOOP_FACTORIES = {
  schema: SHARED_FACTORIES.schema,
  execute: SHARED_FACTORIES.execute,
  debug: debugNode,
  persona: personasNode,
  review: reviewNode,
  revise: reviseNode,
  finish: finishNode,
};

type LoopOptions = { reviewers: number; maxDebugTurns: number; maxReviewTurns: number };

/**
 * One `Send` per reviewer: they run in the same step, in parallel, each told which persona it is. A reviewer gets
 * what the `review` slot reads (`ReviewPayload`), not the writer's history.
 */
const reviewerSends = (opts: LoopOptions) => (state: R3StateValue) =>
  Array.from({ length: opts.reviewers }, (_, i) => new Send("review", { ...Object.fromEntries(REVIEW_INPUT.map((key) => [key, state[key]])), reviewerIndex: i }));

/** After execute: the debug loop while the SQL fails and turns remain; then stop, make the panel, or review. */
const routeAfterExecute = (opts: LoopOptions) => (state: R3StateValue) => {
  if (state.execution && !state.execution.ok && state.roundDebugTurns < opts.maxDebugTurns) return "debug";
  if (stopReasonOf(state, opts)) return "finish";
  if (state.personas.length < opts.reviewers) return "persona";
  return reviewerSends(opts)(state);
};

/**
 * After revise: a revision is executed (and debugged) first; consensus, no review to answer, or a writer that gave
 * no SQL even when asked again ends the loop.
 */
const routeAfterRevise = (state: R3StateValue) => {
  const outcome = state.roundLog.at(-1)?.outcome;
  return outcome === "revised" ? "execute" : "finish";
};

/**
 * Algorithm 1 as a graph. Generator: schema → write → execute ⇄ debug → persona → review ×n (Send) → revise →
 * (finish | execute …). Corrector: the same from execute, the given SQL standing as the writer's first answer.
 */
function buildR3(node: SlotNodeOf, withWriter: boolean, options: BuildOptions) {
  const opts = readOptions(R3_LOOP_OPTIONS, options);
  const graph = new StateGraph(R3State, { input: SqlInputState })
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
  return compiled;
}

/**
 * The most steps: schema, write, execute and its debug turns, persona; per review round review (the n reviewers in
 * one step), revise, execute and its debug turns; finish.
 */
const r3Steps = (options: BuildOptions) => {
  const o = readOptions(R3_LOOP_OPTIONS, options);
  const executed = 1 + 2 * o.maxDebugTurns;
  return 2 + executed + 1 + o.maxReviewTurns * (2 + executed) + 1;
};

/** "embeddings (MODEL)", "bm25", "bm25 (embeddings failed: …)", "zero-shot" as a category the report can count. */
const rankingKind = (ranking: string): string => (ranking.startsWith("bm25 (embeddings failed") ? "bm25, embeddings failed" : ranking.replace(/ \(.*\)$/, ""));

/**
 * What an R³ question went through: review rounds and why they stopped, the panel (generated and standby reviewers,
 * failed reviews), the writer's re-asks (debug-loop fixes are the shared `fixRounds`), and the shots (how many, how
 * ranked, from what pool). Values that do not apply (no panel, no shots asked) are null and left out of the sums.
 */
export const r3Outcome: OutcomeSpec = {
  // A review round the writer answered: else the run was its writer (and debug loop) alone.
  defining: { step: "a review round", happened: (o) => typeof o.rounds === "number" && o.rounds > 0 },
  of(raw) {
    const state = raw as unknown as R3StateValue;
    const panel = state.personas.length > 0;
    const kShot = state.shotsRanking !== "zero-shot" || state.shots.length > 0;
    return {
      rounds: state.rounds,
      stopReason: state.stopKind || null,
      personasGenerated: panel ? state.personas.length - state.personasStandby : null,
      personasStandby: panel ? state.personasStandby : null,
      personasDropped: panel ? state.personasDropped : null,
      failedReviews: panel ? state.reviews.filter((r) => !r.ok).length : null,
      writerReasks: state.writerReasks,
      shots: state.shots.length,
      shotsRanking: state.shotsRanking ? rankingKind(state.shotsRanking) : null,
      shotsPool: kShot ? state.shotsPool || null : null,
    };
  },
  // The generic lines, with the panel as totals over the run ("personas: generated 97, standby 3").
  summarize(outcomes: Outcome[]) {
    const lines = summarizeOutcomes(outcomes.map(({ personasGenerated: _g, personasStandby: _s, personasDropped: _d, ...rest }) => rest));
    const panels = outcomes.filter((o) => typeof o.personasGenerated === "number");
    if (panels.length) {
      const sum = (key: string) => panels.reduce((n, o) => n + (o[key] as number), 0);
      const withStandby = panels.filter((o) => (o.personasStandby as number) > 0).length;
      const dropped = panels.reduce((n, o) => n + (typeof o.personasDropped === "number" ? o.personasDropped : 0), 0);
      lines.push(
        `personas: generated ${sum("personasGenerated")}, standby ${sum("personasStandby")} (standby in ${withStandby} of ${panels.length} questions)` +
          (dropped ? `; ${dropped} proposals left out (a profession repeated or of the wrong length)` : ""),
      );
    }
    return lines;
  },
};

export const r3Spec = defineSpec(r3Manifest, {
  state: R3State,
  factories: { ...LOOP_FACTORIES, write: writeNode },
  steps: r3Steps,
  outcome: r3Outcome,
  build: (_deps, options, node) => buildR3(node, true, options),
});

export const r3ReviewSpec = defineSpec(r3ReviewManifest, {
  state: R3State,
  factories: LOOP_FACTORIES,
  steps: r3Steps,
  outcome: r3Outcome,
  build: (_deps, options, node) => buildR3(node, false, options),
});
