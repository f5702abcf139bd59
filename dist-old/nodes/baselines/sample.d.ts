import { Command } from "@langchain/langgraph";
import type { SampleVote, VotingStateUpdate, VotingStateValue } from "../../state/baselines.ts";
import type { Candidate } from "../../state/sql-state.ts";
import type { GraphOptions, NodeDeps, NodeFactory } from "../types.ts";
/**
 * The voting baselines of MAGIC Table 1: self-consistency (Wang et al., 2022) samples the generation prompt N times;
 * multiple-prompt (Lee et al., 2024) sends up to N prompts that differ in the order of the schema's tables. Both
 * execute every sample and take the SQL of the most frequent result (`voteNode`).
 */
/** What one sample's `Send` carries: the prompt's parts (a `Send` target sees only its payload). */
export interface SamplePayload {
    index: number;
    question: string;
    evidence: string;
    dbPath: string;
    schemaText: string;
    /** Multiple-prompt: the table order this prompt shows. */
    tableOrder?: string[];
}
type VotingNode<P> = (payload: P) => Promise<Command | Record<string, unknown>>;
/**
 * Slot `prompts` of self-consistency (no model): N samples of the same generation prompt, one `Send` each. The
 * response cache numbers identical requests per thread, so N identical prompts stay N samples. Out: initialSql.
 */
export declare const samePromptNode: NodeFactory<VotingStateValue, Command>;
/**
 * Up to `n` distinct orders of `names`, the schema's own order first. When there are at most n orders in all (n!
 * small) every one is used; otherwise seeded shuffles, repeats skipped.
 */
export declare function tableOrders(names: string[], n: number, seed: string): string[][];
/**
 * Slot `prompts` of multiple-prompt (no model): the schema with its tables in up to N distinct orders (Lee et al.
 * re-order the candidate tables; we re-order every table, as this graph does not link first), one prompt and one
 * `Send` per order. Fewer tables than N orders allow give fewer prompts (`sampleVote.prompts`). Out: initialSql.
 */
export declare const reorderedPromptsNode: NodeFactory<VotingStateValue, Command>;
/**
 * Slot `sample` (role `sampler`, at `--sample-temperature`), one per `Send`: the shared generation prompt (the
 * `generate` slot's, zero-shot) on the payload's schema; the SQL executed at once. Out: one candidate `sample:NN`
 * (meta: index, its seed under `--seed`, and the table order it was shown); a reply without SQL is a candidate without SQL, said in attempts.
 */
export declare const sampleNode: (deps: NodeDeps, options: GraphOptions) => VotingNode<SamplePayload>;
/**
 * The vote (MAGIC §4, "Baselines"): every sample executed, the SQL of the most frequently returned result wins
 * (results compared by fingerprint, `nodes/vote.ts`). Two results with as many votes: the earliest sample's (the
 * paper does not say). One result from several distinct SQL: the fastest of them, by the time its sample ran in (the
 * paper compares their efficiency). No sample executed: the initial SQL is kept and `keptInitial` says so.
 */
export declare function voteOnSamples(candidates: Candidate[], initialSql: string, requested: number): {
    sql: string;
    vote: SampleVote;
};
/** Slot `vote` (no model): runs once all samples are in (they end in one step). Out: sql, sampleVote; then `execute`. */
export declare const voteNode: NodeFactory<VotingStateValue, VotingStateUpdate | Command>;
export {};
