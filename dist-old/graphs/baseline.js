import { END, START, StateGraph } from "@langchain/langgraph";
import { SqlInputState, SqlState } from "../state/sql-state.js";
import { maxFixRoundsOf, routeAfterExecute } from "./routes.js";
import { SHARED_FACTORIES } from "./slots.js";
import { readOptions } from "../core/options.js";
import { baselineManifest, baselineOptions } from "./manifests/baseline.js";
import { defineSpec } from "./spec.js";
export { baselineOptions };
/**
 * The baseline: [link →] schema → generate → execute → fix on error (at most maxFixRounds) → done.
 * With --link, the link slot first finds the columns and stored values the question names, and the schema shows them.
 * The initial text-to-SQL method that correctors revise, and the control in every comparison.
 */
export const baselineSpec = defineSpec(baselineManifest, {
    state: SqlState,
    factories: SHARED_FACTORIES,
    // link, schema, generate, execute, then (fix → execute) per fix round.
    steps: (options) => 4 + 2 * maxFixRoundsOf(options),
    build(_deps, options, node) {
        const { link } = readOptions(baselineOptions, options);
        const graph = new StateGraph(SqlState, { input: SqlInputState })
            .addNode("link", node("link"))
            .addNode("schema", node("schema"))
            .addNode("generate", node("generate"))
            .addNode("execute", node("execute"))
            .addNode("fix", node("fix"))
            .addConditionalEdges(START, () => (link ? "link" : "schema"), ["link", "schema"])
            .addEdge("link", "schema")
            .addEdge("schema", "generate")
            .addEdge("generate", "execute")
            .addConditionalEdges("execute", routeAfterExecute(options.maxFixRounds), ["fix", END])
            .addEdge("fix", "execute")
            .compile({ checkpointer: options.checkpointer });
        return graph;
    },
});
