import { type DifficultyScore } from "../tools/benchmarks/score.ts";
import { type EvalRecord } from "./report.ts";
import { type Outcome } from "../graphs/outcome.ts";
/**
 * N eval runs side by side on the questions all of them answered (a failed question has no answer to compare: it is
 * left out and counted per run): EX overall and per difficulty, cost per question, and
 * per pair the questions only one got right with an exact McNemar test, Holm-corrected over the pairs. `sqlmend
 * compare`, experiments' table and report.html read it.
 */
/** Exact two-sided McNemar test: binomial on the discordant pairs. */
export declare function mcnemarP(onlyA: number, onlyB: number): number;
/** Holm's step-down adjustment of m p-values (same order as given): p_(i) · (m − i + 1), kept monotone, capped at 1. */
export declare function holm(ps: number[]): number[];
export interface CompareInput {
    /** A, B, C, ... */
    key: string;
    label: string;
    dir: string;
    records: Map<string, EvalRecord>;
    run: Record<string, unknown>;
    /** The run's graph's summary of outcomes (`GraphSpec.outcome.summarize`); default `summarizeOutcomes`. */
    summarizeOutcomes?: (outcomes: Outcome[]) => string[];
}
export interface RunSummary {
    key: string;
    label: string;
    dir: string;
    /** Over the common questions with gold SQL. */
    correct: number;
    /** Common questions whose prediction failed to run (any, gold or not). */
    predErrors: number;
    ex: number;
    byDifficulty: DifficultyScore[];
    tokensPerQuestion: number;
    inputTokensPerQuestion: number;
    outputTokensPerQuestion: number;
    callsPerQuestion: number;
    latencyMsPerQuestion: number;
    /** USD per question at the given prices (per million input / output tokens), or null without prices. */
    costPerQuestion: number | null;
    /** Calls the response cache served (not spent), per question. */
    cachedCallsPerQuestion: number;
    /** Questions of this run outside the common set. */
    notCommon: number;
    /** Ids of this run's failed questions (left out of the comparison; --resume retries them). */
    failed: string[];
    /**
     * What the common questions went through (results.jsonl's `outcome`, summed as the run's report.md sums them), a
     * line each; over `outcomesOf` questions (those of the common ones that have an outcome).
     */
    outcomes: string[];
    outcomesOf: number;
    /** Per common question, whether it was right, and its tokens (for charts). */
    perQuestion: {
        id: string;
        dbId: string;
        difficulty?: string;
        correct: boolean;
        tokens: number;
        initialCorrect?: boolean;
    }[];
}
export interface PairComparison {
    a: string;
    b: string;
    bothCorrect: number;
    neitherCorrect: number;
    onlyACorrect: string[];
    onlyBCorrect: string[];
    /** Common questions (gold or not) where both runs gave the same SQL (whitespace aside). */
    sameSql: number;
    mcnemarP: number;
    /** Holm-adjusted over all pairs of the comparison. */
    holmP: number;
}
export interface Comparison {
    /** Questions all runs answered (what is compared). */
    common: number;
    /** Questions all runs hold a record of, failed ones included. */
    inAll: number;
    /** Common questions without gold SQL (own data): compared on SQL and cost, never counted as wrong. */
    noGold: number;
    runs: RunSummary[];
    pairs: PairComparison[];
    warnings: string[];
}
export declare function compareRuns(inputs: CompareInput[], prices?: {
    input: number;
    output: number;
}): Comparison;
/** The comparison as plain text: one table of the runs, then per pair the flips and the test. */
export declare function renderComparison(c: Comparison, show: number): string;
