import { SqlInputState } from "../state/sql-state.js";
import { START, StateGraph, Send } from "@langchain/langgraph";
import { MemoState, STRATEGIES } from "../state/memo.js";
import { contextOf } from "../nodes/memo/common.js";
import { collectNode, criticNode, memoryStoreFor, refineNode, voteNode } from "../nodes/memo/correct.js";
import { MEMO_SQL_OPTIONS } from "../nodes/memo/options.js";
import { actNode, decomposeNode, MAX_SUB_QUESTIONS, pathsNode, reflectNode, reviseNode } from "../nodes/memo/solve.js";
import { writeNode } from "../nodes/memo/write.js";
import { memoSqlManifest } from "./manifests/memo.js";
import { readOptions } from "../core/options.js";
import { SHARED_FACTORIES } from "./slots.js";
import { memoPreflight } from "./memo-preflight.js";
import { memoSqlOutcome } from "./memo-outcome.js";
import { defineSpec } from "./spec.js";
// Memo-SQL's own nodes take a branch payload (Send) and return a Command naming the next step; they are slots
// like any other, with that contract (see ARCHITECTURE.md).
/** Memo-SQL's own factories by slot (memo-refine reuses critic and refine). */
export const MEMO_FACTORIES = {
    decompose: decomposeNode,
    paths: pathsNode,
    act: actNode,
    reflect: reflectNode,
    revise: reviseNode,
    write: writeNode,
    collect: collectNode,
    critic: criticNode,
    refine: refineNode,
    vote: voteNode,
};
/**
 * Memo-SQL (Figure 2): link → schema → three decompositions in parallel → the paths gate (identical plans solved
 * once) → per path, each sub-question through
 * act → reflect → (revise once) → the final SQL in three styles → nine candidates → per candidate, critic ↔ refiner
 * with the error-correction memory → majority vote over execution results.
 */
export const memoSqlSpec = defineSpec(memoSqlManifest, {
    state: MemoState,
    factories: { link: SHARED_FACTORIES.link, schema: SHARED_FACTORIES.schema, ...MEMO_FACTORIES },
    outcome: memoSqlOutcome,
    preflight: memoPreflight,
    // link, schema, decompose, paths; per sub-question (at most MAX_SUB_QUESTIONS) act → reflect → revise; write, collect;
    // per refinement round critic → refine; the last critic, vote.
    steps: (options) => 4 + 3 * MAX_SUB_QUESTIONS + 2 + 2 * readOptions(MEMO_SQL_OPTIONS, options).refineRounds + 2,
    build(deps, options, node) {
        const o = readOptions(MEMO_SQL_OPTIONS, options);
        if (o.memory && o.retrieval !== "none")
            memoryStoreFor(o.memory, deps.embeddings, options); // a bad file fails here, in one line
        const fanOut = (state) => STRATEGIES.map((strategy) => new Send("decompose", { ctx: contextOf(state, !o.noLinking), strategy }));
        const graph = new StateGraph(MemoState, { input: SqlInputState })
            .addNode("schema", node("schema"))
            .addNode("decompose", node("decompose"), { ends: ["paths"] })
            .addNode("paths", node("paths"), { ends: ["act", "write"] })
            .addNode("act", node("act"), { ends: ["act", "reflect", "write"] })
            .addNode("reflect", node("reflect"), { ends: ["act", "revise", "write"] })
            .addNode("revise", node("revise"), { ends: ["act", "write"] })
            .addNode("write", node("write"), { ends: ["collect"] })
            .addNode("collect", node("collect"), { ends: ["critic", "vote"] })
            .addNode("critic", node("critic"), { ends: ["refine", "vote"] })
            .addNode("refine", node("refine"), { ends: ["critic", "vote"] })
            .addNode("vote", node("vote"));
        if (o.noLinking)
            graph.addEdge(START, "schema");
        else
            graph.addNode("link", node("link")).addEdge(START, "link").addEdge("link", "schema");
        const compiled = graph.addConditionalEdges("schema", fanOut, ["decompose"]).compile({ checkpointer: options.checkpointer });
        return compiled;
    },
});
