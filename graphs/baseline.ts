import { END, START, StateGraph } from "@langchain/langgraph";
import { SqlState } from "../state/sql-state.ts";
import { defaultDeps } from "./deps.ts";
import { routeAfterExecute } from "./routes.ts";
import { SHARED_SLOTS } from "./slots.ts";
import { type BuildOptions, type GraphSpec, slotNode } from "./spec.ts";

/**
 * The baseline: schema → generate → execute → fix on error (at most maxFixRounds) → done.
 * The initial text-to-SQL method that correctors revise, and the control in every comparison.
 */
export const baselineSpec: GraphSpec = {
  name: "baseline",
  summary: "generate SQL (zero- or few-shot), execute, fix execution errors up to N times",
  kind: "generator",
  slots: { schema: SHARED_SLOTS.schema, generate: SHARED_SLOTS.generate, execute: SHARED_SLOTS.execute, fix: SHARED_SLOTS.fix },
  build(deps, options: BuildOptions = {}) {
    const node = (slot: string) => slotNode(baselineSpec, slot, deps, options);
    const graph = new StateGraph(SqlState)
      .addNode("schema", node("schema"))
      .addNode("generate", node("generate"))
      .addNode("execute", node("execute"))
      .addNode("fix", node("fix"))
      .addEdge(START, "schema")
      .addEdge("schema", "generate")
      .addEdge("generate", "execute")
      .addConditionalEdges("execute", routeAfterExecute(options.maxFixRounds), ["fix", END])
      .addEdge("fix", "execute")
      .compile({ checkpointer: options.checkpointer });
    graph.name = "baseline";
    return graph;
  },
};

/** For langgraph.json (`npx @langchain/langgraph-cli dev`): models and executor from the environment. */
export const graph = baselineSpec.build(defaultDeps());
