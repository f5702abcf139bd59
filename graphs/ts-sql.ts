import { END, Send, START, StateGraph } from "@langchain/langgraph";
import { asSlotFactory, codersOf } from "../nodes/ts-sql/common.ts";
import { coderNode, inspectNode } from "../nodes/ts-sql/code.ts";
import { checkDataNode, dataNode, sampleDataNode } from "../nodes/ts-sql/data.ts";
import { TS_SQL_OPTIONS } from "../nodes/ts-sql/options.ts";
import { reviseNode, testNode } from "../nodes/ts-sql/revise.ts";
import { voteNode } from "../nodes/ts-sql/vote.ts";
import { readOptions } from "../core/options.ts";
import { tsSqlManifest, tsSqlRefineManifest } from "./manifests/ts-sql.ts";
import { SHARED_FACTORIES } from "./slots.ts";
import { type BuildOptions, type GraphSpec, slotNode, specOf } from "./spec.ts";
import { TsSqlState, type TsSqlStateValue } from "../state/ts-sql.ts";
import type { NodeDeps } from "../nodes/types.ts";

/** TS-SQL's own agents' and tools' factories by slot (shared by the generator and the corrector). */
const TS_SQL_FACTORIES = {
  link: SHARED_FACTORIES.link,
  data: asSlotFactory(dataNode),
  sample: asSlotFactory(sampleDataNode),
  check: asSlotFactory(checkDataNode),
  coder: asSlotFactory(coderNode),
  inspect: asSlotFactory(inspectNode),
  vote: asSlotFactory(voteNode),
  test: asSlotFactory(testNode),
  revise: asSlotFactory(reviseNode),
  execute: SHARED_FACTORIES.execute,
};

type Route = "data" | "sample" | "execute" | Send;

/**
 * After the data check: back to the data agent while rounds remain and the rows violate the schema or miss what the
 * linking found (coverage gaps; the candidate SQL has no say, see `checkDataNode`); then one `coder` task per coder
 * model (Send); without usable rows, no test case.
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
    if (more && (data.violations.length > 0 || rows === 0 || (data.gaps ?? []).length > 0)) return "data";
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
export const tsSqlSpec: GraphSpec = specOf(tsSqlManifest, {
  factories: { ...TS_SQL_FACTORIES, schema: SHARED_FACTORIES.schema, generate: SHARED_FACTORIES.generate },
  build: (deps, options: BuildOptions = {}) => buildTsSql(tsSqlSpec, deps, options, true),
});

/** TS-SQL as a corrector (Table 5): builds the test case for the given SQL and revises it. */
export const tsSqlRefineSpec: GraphSpec = specOf(tsSqlRefineManifest, {
  factories: TS_SQL_FACTORIES,
  build: (deps, options: BuildOptions = {}) => buildTsSql(tsSqlRefineSpec, deps, options, false),
});
