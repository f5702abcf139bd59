import { Command, Send } from "@langchain/langgraph";
import { type MemoStateValue, type MemoStep, type Strategy, type Style } from "../../state/memo.ts";
import type { GraphOptions, NodeFactory } from "../types.ts";
import { type MemoContext } from "./common.ts";
import { MAX_SUB_QUESTIONS } from "./options.ts";
/**
 * Memo-SQL's generation half (§3.3–3.4): three decompositions in parallel, each path's sub-questions in order through
 * act (reason → sub-SQL → execute) → reflect → revise once. Nodes reached by `Send` see only their payload (the
 * branch), write their records to the shared state, and name the next step with a `Command`.
 */
/** What a path's first `Send` carries: the question's context and the paradigm to decompose by. */
export interface DecomposePayload {
    ctx: MemoContext;
    strategy: Strategy;
}
export interface PathPayload {
    ctx: MemoContext;
    strategy: Strategy;
    plan: string[];
    index: number;
    /** This path's steps so far (act, reflect, revise records). */
    steps: MemoStep[];
    /** Later paths whose plan is the same as this one's: solved once, here, and given this path's candidates. */
    sharedWith?: Strategy[];
}
export interface WritePayload {
    ctx: MemoContext;
    strategy: Strategy;
    steps: MemoStep[];
    style: Style;
    /** Candidate order (strategy-major): the vote's tie-break. */
    order: number;
    /** The path's sub-questions (the writer's only guide under noReact, when there are no steps). */
    plan: string[];
    /** Later paths with the same plan: the writer's candidate is theirs too (`meta.sharedFrom`). */
    sharedWith?: Strategy[];
}
/** A Memo-SQL node: given its branch's payload (a `Send`), it returns the Command naming the branch's next step. */
export type MemoNodeFactory<P> = NodeFactory<P, Command>;
export { MAX_SUB_QUESTIONS };
/** The first step of every path, or the next sub-question, or — once all are solved — the writers, one per style. */
export declare function advance(payload: PathPayload, steps: MemoStep[], options: GraphOptions): Send[];
/**
 * Slot `decompose` (role `decomposer`), once per paradigm. In: { ctx, strategy }. Out: memoPlans (what was applied:
 * the paradigm; `none` when the model judges the question simple; `random` when it judges the paradigm a bad fit, or
 * under `decomposition random`), then the `paths` gate. A bad reply falls back to no decomposition.
 */
export declare const decomposeNode: MemoNodeFactory<DecomposePayload>;
/**
 * Slot `paths`: the gate after decomposition. It waits for every path's plan; paths with the same plan (a simple
 * question: every decomposer says so) are solved once, by the earliest path in candidate order, whose candidates
 * count for the others too (memoPlans[].solvedBy; the writer copies them). Then each distinct plan's first act, or
 * — under noReact (Table 5's "w/o ReAct+Reflect": no sub-SQL written, run or reflected on) — its writers.
 */
export declare const pathsNode: NodeFactory<MemoStateValue, Command>;
/** Slot `act` (role `solver`): reason about the current sub-question, write its sub-SQL, execute it. Then reflect (or move on under noReflect). */
export declare const actNode: MemoNodeFactory<PathPayload>;
/** Slot `reflect` (role `reflector`): shown the current step and every earlier one; a problem sends the step to revise (once). */
export declare const reflectNode: MemoNodeFactory<PathPayload>;
/** Slot `revise` (role `solver`): rewrite the step's sub-SQL once, given the reflection, and execute it; then the path moves on. */
export declare const reviseNode: MemoNodeFactory<PathPayload>;
