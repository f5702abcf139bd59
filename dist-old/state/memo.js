import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { sqlStateFields } from "./sql-state.js";
import { STRATEGIES } from "./memo-names.js";
export { STRATEGIES, STYLES } from "./memo-names.js";
/** One path's decomposition: the paradigm asked for, what was applied (the fallback when the model judged so), and its sub-questions. */
export const MemoPlanSchema = z.object({
    strategy: z.enum(STRATEGIES),
    applied: z.enum(["table", "hierarchical", "atomic", "random", "none"]),
    subQuestions: z.array(z.string()),
    note: z.string().optional(),
    /** A free ("random") decomposition: the seed its prompt carried (one per path, so the three differ). */
    seed: z.string().optional(),
    /** This path's plan was the same as an earlier path's: that path was solved and written once for both (its candidates count for this path too). */
    solvedBy: z.enum(STRATEGIES).optional(),
});
/** One turn of a path's ReAct+Reflect loop: act (reason → sub-SQL → execute), reflect, or revise (once). */
export const MemoStepSchema = z.object({
    strategy: z.enum(STRATEGIES),
    index: z.number().int().nonnegative(),
    kind: z.enum(["act", "reflect", "revise"]),
    subQuestion: z.string(),
    sql: z.string(),
    ok: z.boolean(),
    /** act/revise: a short result (rows, or the error); reflect: what the reflection found. */
    observation: z.string(),
    problem: z.boolean().optional(),
    /** act/revise: the solver's reasoning (its reply without the SQL block), so inspect shows the ReAct trace. */
    reasoning: z.string().optional(),
});
export const MemoVoteSchema = z.object({
    winner: z.string().nullable(),
    /** Result groups by fingerprint, biggest first: the candidate ids in each. */
    groups: z.array(z.object({ fingerprint: z.string(), ids: z.array(z.string()), empty: z.boolean() })),
    /** Candidates left out: why (execution error, empty result under voteEmpty=discard, no SQL). */
    excluded: z.array(z.object({ id: z.string(), reason: z.string() })),
    rule: z.string(),
});
const concat = (a, b) => a.concat(b);
const mergePlans = (a, b) => [...a.filter((p) => !b.some((q) => q.strategy === p.strategy)), ...b];
export const memoStateFields = {
    ...sqlStateFields,
    memoPlans: new ReducedValue(z.array(MemoPlanSchema).default(() => []), { inputSchema: z.array(MemoPlanSchema), reducer: mergePlans }),
    memoSteps: new ReducedValue(z.array(MemoStepSchema).default(() => []), { inputSchema: z.array(MemoStepSchema), reducer: concat }),
    memoVote: MemoVoteSchema.nullable().default(null),
    /** Critic↔refiner refinements made, over all candidates (the launcher reports iterations from it). */
    rounds: new ReducedValue(z.number().int().nonnegative().default(0), { inputSchema: z.number().int().nonnegative(), reducer: (a, b) => a + b }),
};
export const MemoState = new StateSchema(memoStateFields);
