import { type EvalRecord } from "./report.ts";
import type { Paper, Recipe, RecipeRun } from "./experiment.ts";
/** An experiment's rows (one per run: its figures, over repeats too) and table.md. */
export interface Prices {
    /** USD per million input tokens. */
    input: number;
    /** USD per million output tokens. */
    output: number;
}
/** A run's figures over its repeats (`--repeats N`): each repeat a full replication with its own seed. */
export interface RepeatFigures {
    seeds: number[];
    /** EX of each repeat, in seed order; null for a repeat that answered no question (all failed): left out of the mean. */
    ex: (number | null)[];
    mean: number;
    /** Sample standard deviation (n − 1); 0 for one repeat. */
    sd: number;
    /** Questions answered in every repeat, and those among them right in some repeats and wrong in others. */
    compared: number;
    flips: number;
}
export interface RunRow {
    run: string;
    graph: string;
    initial: string | null;
    scenario: string | null;
    questions: number;
    correct: number;
    /** EX % over the answered questions (a failed question has no answer; counted in `failed`). Mean over repeats. */
    ex: number;
    /** EX per difficulty over the answered questions (mean over repeats). */
    byDifficulty: {
        difficulty: string;
        count: number;
        ex: number;
    }[];
    /** EX per database over the answered questions (MAGIC Figure 4; mean over repeats). */
    byDatabase: {
        db: string;
        count: number;
        ex: number;
    }[];
    /** Correctors with gold: EX of the initial SQL on the same questions, and the flips. */
    initialEx: number | null;
    wrongToRight: number | null;
    rightToWrong: number | null;
    correctionsApplied: number | null;
    /** The method's tokens per question: spent plus those the response cache served (the same on a cached rerun). */
    tokensPerQuestion: number;
    inputTokensPerQuestion: number;
    outputTokensPerQuestion: number;
    /** Tokens spent by this run (not served by the cache). */
    spentTokens: number;
    /** USD per question for the method's tokens at the given prices; null without prices. */
    costPerQuestion: number | null;
    callsPerQuestion: number;
    cachedCalls: number;
    calls: number;
    failed: number;
    /** The graph's outcome summary lines over the run's questions (what they went through: fallbacks, limits hit...). */
    outcomes: string[];
    /** The paper's figures for this row (from the recipe). */
    paper: Paper | null;
    /** Why the run did not run (a method sqlmend lacks, a `--set` value not given): its row has no figures of ours. */
    notRun: string | null;
    /** magic-guideline runs: stats.json's figures (Table 4's EX after the cycle and AVG_i, Figure 3's corrected within k). */
    guideline: GuidelineFigures | null;
    /** `--repeats N` (N > 1): the figures per repeat; the numbers above are means over them. */
    repeats: RepeatFigures | null;
    /** `--hold`: the run was made once, in repeat 1 with this seed, and every repeat read it (its figures are that run's). */
    held: {
        seed: number;
    } | null;
}
export interface GuidelineFigures {
    questions: number;
    failures: number;
    corrected: number;
    exAfter: number;
    avgIterations: number;
    correctedWithin: number[];
    maxIter: number;
    noManager: boolean;
}
/** A row for a run that did not run, or a guideline run (its figures from stats.json): no eval records. */
export declare function otherRowOf(run: string, spec: RecipeRun, what: {
    notRun?: string;
    guideline?: GuidelineFigures;
}): RunRow;
export declare const mean: (xs: number[]) => number;
export declare function rowOf(run: string, spec: RecipeRun, records: EvalRecord[], prices?: Prices): RunRow;
/**
 * One row over a run's repeats (records per repeat, seed order): EX and costs are means; EX's sample sd and the
 * questions whose verdict changes between repeats (among those every repeat answered) say how stable the figure is.
 */
export declare function repeatedRowOf(run: string, spec: RecipeRun, perRepeat: EvalRecord[][], seeds: number[], prices?: Prices): RunRow;
/**
 * table.md: the recipe's table when it has one, ours beside the paper's, rows not run, guideline runs, the
 * correctors × scenarios grid, every eval run (with cost at --price-in/--price-out), EX by difficulty, the spread
 * over repeats, and each run's outcome summary.
 */
export declare function renderTable(recipe: Recipe, rows: RunRow[], opts?: {
    prices?: Prices;
    repeats?: number;
}): string;
