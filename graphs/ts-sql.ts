import { END, Send, START, StateGraph } from "@langchain/langgraph";
import { asSlotFactory, codersOf } from "../nodes/ts-sql/common.ts";
import { coderNode, inspectNode } from "../nodes/ts-sql/code.ts";
import { checkDataNode, dataNode, sampleDataNode } from "../nodes/ts-sql/data.ts";
import { TS_SQL_OPTIONS } from "../nodes/ts-sql/options.ts";
import { reviseNode, testNode } from "../nodes/ts-sql/revise.ts";
import { voteNode } from "../nodes/ts-sql/vote.ts";
import { readOptions } from "./options.ts";
import { defaultDeps } from "./deps.ts";
import { SHARED_SLOTS } from "./slots.ts";
import { type BuildOptions, type GraphSpec, type SlotSpec, slotNode } from "./spec.ts";
import { TsSqlState, type TsSqlStateValue } from "../state/ts-sql.ts";
import type { NodeDeps } from "../nodes/types.ts";

/** TS-SQL's own agents and tools as slots (shared by the generator and the corrector). */
export const TS_SQL_SLOTS = {
  data: { summary: "write synthetic test rows for the relevant tables (role: data)", factory: asSlotFactory(dataNode) },
  sample: { summary: "ablation noDataAgent: sample test rows from the real database", factory: asSlotFactory(sampleDataNode) },
  check: { summary: "load the rows into an in-memory copy of the schema; schema violations and non-duality", factory: asSlotFactory(checkDataNode) },
  coder: { summary: "one coder model writes JavaScript computing the expected answer (role: coder)", factory: asSlotFactory(coderNode) },
  inspect: { summary: "run the test code in the sandbox; errors and implausible results back to the coder", factory: asSlotFactory(inspectNode) },
  vote: { summary: "choose among coder models' test codes: majority or A/B selection (role: selector)", factory: asSlotFactory(voteNode) },
  test: { summary: "run the SQL on the test data and compare with the expected result (Algorithm 1)", factory: asSlotFactory(testNode) },
  revise: { summary: "revise the SQL from the failed test case (role: reviser)", factory: asSlotFactory(reviseNode) },
} satisfies Record<string, SlotSpec>;

type Route = "data" | "sample" | "execute" | Send;

/**
 * After the data check: back to the data agent while rounds remain and the rows violate the schema or the SQL finds
 * nothing in them (non-duality); then one `coder` task per coder model (Send); without usable rows, no test case.
 */
export const routeAfterCheck =
  (options: BuildOptions) =>
  (state: TsSqlStateValue): Route | Route[] => {
    const opts = readOptions(TS_SQL_OPTIONS, options);
    const data = state.testData;
    const more = !opts.noDataAgent && state.dataRounds < opts.maxDataRounds;
    if (!data) return more ? "data" : "execute";
    if (data.loadError) return "execute";
    const rows = Object.values(data.loaded).reduce((a, b) => a + b, 0);
    if (more && (data.violations.length > 0 || rows === 0 || (data.sqlRan && data.sqlRows === 0))) return "data";
    if (rows === 0) return "execute";
    return codersOf(opts.coderModels).map((model) => new Send("coder", { ...state, coderTask: { model, round: 0 } }));
  };

/** After the test: done when the SQL passes or the revisions are used up; else revise. */
export const routeAfterTest =
  (options: BuildOptions) =>
  (state: TsSqlStateValue): "revise" | "execute" => {
    const opts = readOptions(TS_SQL_OPTIONS, options);
    return !state.testRun || state.testRun.match || !state.testCode || state.rounds >= opts.maxRevisions ? "execute" : "revise";
  };

/**
 * The test-case phase and the revision loop, wired after `entry` (the node whose SQL the test case is built for):
 *   entry → data|sample → check → (data)* → coder×models ⇄ inspect → vote → test → (revise → test)* → execute → END
 */
function buildTsSql(spec: GraphSpec, deps: NodeDeps, options: BuildOptions, generator: boolean) {
  const node = (slot: string) => slotNode(spec, slot, deps, options);
  const opts = readOptions(TS_SQL_OPTIONS, options);
  const dataSlot = opts.noDataAgent ? "sample" : "data";
  const graph = new StateGraph(TsSqlState)
    .addNode("link", node("link"))
    .addNode(dataSlot, node(dataSlot))
    .addNode("check", node("check"))
    .addNode("coder", node("coder"), { ends: ["inspect"] })
    .addNode("inspect", node("inspect"), { ends: ["coder", "vote"] })
    .addNode("vote", node("vote"), { ends: ["test", "execute"] })
    .addNode("test", node("test"))
    .addNode("revise", node("revise"))
    .addNode("execute", node("execute"));
  if (generator) {
    graph
      .addNode("schema", node("schema"))
      .addNode("generate", node("generate"))
      // Linking first, so the schema the generator sees carries the matched values beside their columns.
      .addEdge(START, "link")
      .addEdge("link", "schema")
      .addEdge("schema", "generate")
      .addEdge("generate", dataSlot);
  } else {
    graph.addEdge(START, "link").addEdge("link", dataSlot);
  }
  const compiled = graph
    .addEdge(dataSlot, "check")
    .addConditionalEdges("check", routeAfterCheck(options), [dataSlot, "coder", "execute"])
    .addConditionalEdges("test", routeAfterTest(options), ["revise", "execute"])
    .addEdge("revise", "test")
    .addEdge("execute", END)
    .compile({ checkpointer: options.checkpointer });
  compiled.name = spec.name;
  return compiled;
}

/** TS-SQL as a generator: its own initial SQL (A.1), then the test case and Algorithm 1's revision loop. */
export const tsSqlSpec: GraphSpec = {
  name: "ts-sql",
  summary: "TS-SQL: synthetic test data and voted test code (sandboxed JavaScript) drive SQL revision",
  kind: "generator",
  slots: { link: SHARED_SLOTS.link, schema: SHARED_SLOTS.schema, generate: SHARED_SLOTS.generate, ...TS_SQL_SLOTS, execute: SHARED_SLOTS.execute },
  options: TS_SQL_OPTIONS,
  build: (deps, options: BuildOptions = {}) => buildTsSql(tsSqlSpec, deps, options, true),
};

/** TS-SQL as a corrector (Table 5): builds the test case for the given SQL and revises it. */
export const tsSqlRefineSpec: GraphSpec = {
  name: "ts-sql-refine",
  summary: "corrector: TS-SQL's test case and revision loop on given SQL (Table 5)",
  kind: "corrector",
  slots: { link: SHARED_SLOTS.link, ...TS_SQL_SLOTS, execute: SHARED_SLOTS.execute },
  options: TS_SQL_OPTIONS,
  build: (deps, options: BuildOptions = {}) => buildTsSql(tsSqlRefineSpec, deps, options, false),
};

export const graph = tsSqlSpec.build(defaultDeps());
export const refineGraph = tsSqlRefineSpec.build(defaultDeps());
