import { END, START, StateGraph } from "@langchain/langgraph";
import { SqlState, SqlInputState } from "../state/sql-state.js";
import { maxFixRoundsOf, routeAfterExecute } from "./routes.js";
import { SHARED_FACTORIES } from "./slots.js";
import { asGivenManifest, repairManifest } from "./manifests/baseline.js";
import { defineSpec } from "./spec.js";
/**
 * The debug loop alone, as a corrector: execute the given SQL, fix execution errors up to maxFixRounds.
 * The simplest corrector, and the reference for how correctors take initial SQL (`--initial`).
 */
export const repairSpec = defineSpec(repairManifest, {
    state: SqlState,
    factories: { schema: SHARED_FACTORIES.schema, execute: SHARED_FACTORIES.execute, fix: SHARED_FACTORIES.fix },
    steps: (options) => 2 + 2 * maxFixRoundsOf(options),
    build(_deps, options, node) {
        const graph = new StateGraph(SqlState, { input: SqlInputState })
            .addNode("schema", node("schema"))
            .addNode("execute", node("execute"))
            .addNode("fix", node("fix"))
            .addEdge(START, "schema")
            .addEdge("schema", "execute")
            .addConditionalEdges("execute", routeAfterExecute(options.maxFixRounds), ["fix", END])
            .addEdge("fix", "execute")
            .compile({ checkpointer: options.checkpointer });
        return graph;
    },
});
/**
 * The given SQL, executed and left as it is: another system's predictions (`--initial FILE --correct all`) become a
 * run with eval's outputs — results.jsonl, report.md, report.html — that `compare` and experiments put beside ours.
 */
export const asGivenSpec = defineSpec(asGivenManifest, {
    state: SqlState,
    factories: { execute: SHARED_FACTORIES.execute },
    steps: () => 1,
    build(_deps, options, node) {
        const graph = new StateGraph(SqlState, { input: SqlInputState })
            .addNode("execute", node("execute"))
            .addEdge(START, "execute")
            .addEdge("execute", END)
            .compile({ checkpointer: options.checkpointer });
        return graph;
    },
});
