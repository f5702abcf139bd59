import { type MemoStateValue, type MemoVote } from "../../state/memo.ts";
import type { Candidate, Execution } from "../../state/sql-state.ts";
import type { Embedder } from "../../tools/models/embeddings.ts";
import { MemoryStore } from "../../tools/retrieval/memory-store.ts";
import type { GraphOptions } from "../types.ts";
import { type MemoContext } from "./common.ts";
import type { MemoNodeFactory } from "./solve.ts";
/**
 * Memo-SQL's correction half (§3.5): each candidate, in parallel, goes critic ↔ refiner until the critic accepts or
 * `refineRounds` refinements were made; then a majority vote over execution fingerprints picks the answer.
 */
export interface CandidatePayload {
    ctx: MemoContext;
    candidate: Candidate;
    /** Refinements made so far. */
    round: number;
    /** The critic's verdict, on the way to the refiner. */
    verdict?: {
        errorTypes: string[];
        suggestions: string;
    };
}
/**
 * One open store per memory file and embedder, shared by the nodes of every graph built in this process. A relative
 * `--memory` resolves against the launcher's working directory (`options.cwd`), as other file options do.
 */
export declare function memoryStoreFor(file: string, embedder: Embedder | undefined, options?: GraphOptions): MemoryStore;
/**
 * Slot `critic` (role `critic`). In: { ctx, candidate, round }. Shown the memory entries retrieved for question +
 * skeleton of the candidate (mode `retrieval`; none without a memory file), it answers {wrong, errorTypes,
 * suggestions}. Wrong with rounds left → refine; else the candidate is final → vote. A bad reply accepts the SQL.
 */
export declare const criticNode: MemoNodeFactory<CandidatePayload>;
/** Slot `refine` (role `refiner`): rewrites the candidate per the critic's verdict and executes it; back to the critic while rounds remain. */
export declare const refineNode: MemoNodeFactory<CandidatePayload>;
/**
 * Slot `collect`: the gate between generation and correction. Paths finish at different steps, so it runs each time
 * a writer finishes and passes only when every path × style candidate is in; then one critic per candidate (or the
 * vote under noRefine).
 */
export declare const collectNode: MemoNodeFactory<MemoStateValue>;
/**
 * memo-refine's first node: the given SQL, executed, as the one candidate; or, with `candidates` (a file), the
 * question's fixed candidates, each executed; then one critic per candidate. A question missing from the file fails
 * (its record says why) rather than being corrected on other candidates than the other variants'.
 */
export declare const seedNode: MemoNodeFactory<MemoStateValue>;
/**
 * The vote (§3.5, A.4): candidates grouped by the fingerprint of their full result; execution errors excluded; empty
 * results kept (`keep`) or left out unless nothing else ran (`discard`, Alpha-SQL's protocol). The biggest group
 * wins. Tie-break: the group whose first member comes earliest in candidate order (paths table-wise → hierarchical →
 * atomic, styles flat JOIN → CTE → nested); that member is the answer. Nothing ran: the first candidate with SQL.
 */
export declare function majorityVote(candidates: Candidate[], voteEmpty: "keep" | "discard"): MemoVote & {
    sql: string;
    execution: Execution | null;
};
/**
 * Slot `vote`: the gate after correction (it runs as each candidate finishes and decides once all are final), then
 * the majority vote. Out: sql, execution, memoVote.
 */
export declare const voteNode: MemoNodeFactory<MemoStateValue>;
