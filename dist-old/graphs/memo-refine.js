import { SqlInputState } from "../state/sql-state.js";
import { START, StateGraph } from "@langchain/langgraph";
import { MemoState } from "../state/memo.js";
import { memoryStoreFor, seedNode, voteNode } from "../nodes/memo/correct.js";
import { MEMO_REFINE_OPTIONS } from "../nodes/memo/options.js";
import { loadCandidateSets } from "../nodes/memo/candidates.js";
import { memoRefineManifest } from "./manifests/memo.js";
import { readOptions } from "../core/options.js";
import { MEMO_FACTORIES } from "./memo-sql.js";
import { SHARED_FACTORIES } from "./slots.js";
import { memoPreflight } from "./memo-preflight.js";
import { memoRefineOutcome } from "./memo-outcome.js";
import { defineSpec } from "./spec.js";
/**
 * Memo-SQL's correction module alone, as a corrector (Table 3): link → schema → the given SQL → critic ↔ refiner with the
 * error-correction memory → the final SQL. Comparable with the other correctors on the same `--initial` SQL.
 */
export const memoRefineSpec = defineSpec(memoRefineManifest, {
    state: MemoState,
    factories: {
        link: SHARED_FACTORIES.link,
        schema: SHARED_FACTORIES.schema,
        seed: seedNode,
        critic: MEMO_FACTORIES.critic,
        refine: MEMO_FACTORIES.refine,
        vote: voteNode,
    },
    outcome: memoRefineOutcome,
    preflight: memoPreflight,
    // link, schema, seed; per refinement round critic → refine; the last critic, vote.
    steps: (options) => 3 + 2 * readOptions(MEMO_REFINE_OPTIONS, options).refineRounds + 2,
    build(deps, options, node) {
        const o = readOptions(MEMO_REFINE_OPTIONS, options);
        if (o.memory && o.retrieval !== "none")
            memoryStoreFor(o.memory, deps.embeddings, options);
        if (o.candidates)
            loadCandidateSets(o.candidates, options.cwd); // a bad file fails here, in one line
        const graph = new StateGraph(MemoState, { input: SqlInputState })
            .addNode("schema", node("schema"))
            .addNode("seed", node("seed"), { ends: ["critic", "vote"] })
            .addNode("critic", node("critic"), { ends: ["refine", "vote"] })
            .addNode("refine", node("refine"), { ends: ["critic", "vote"] })
            .addNode("vote", node("vote"))
            .addEdge("schema", "seed");
        // Linking first, as memo-sql does: the schema text and the critic's context are then the pipeline's own (Table 3).
        if (o.noLinking)
            graph.addEdge(START, "schema");
        else
            graph.addNode("link", node("link")).addEdge(START, "link").addEdge("link", "schema");
        const compiled = graph.compile({ checkpointer: options.checkpointer });
        return compiled;
    },
});
