import type { Comparison } from "./compare.ts";
import type { EvalRecord } from "./report.ts";
export interface ExperimentHtmlRow {
    run: string;
    graph: string;
    questions: number;
    ex: number;
    /** Sample sd over repeats, or null for one. */
    sd: number | null;
    /** `--repeats N`: EX per repeat (null: the repeat answered nothing) and its seed; null for one run or a held run. */
    repeats: {
        seeds: number[];
        ex: (number | null)[];
    } | null;
    tokensPerQuestion: number;
    callsPerQuestion: number;
    costPerQuestion: number | null;
    failed: number;
}
/** The data a page drew, per run: what the test checks the marks against. */
export interface HtmlData {
    kind: "eval" | "compare";
    title: string;
    runs: {
        key: string;
        label: string;
        questions: number;
        correct: number;
        ex: number;
        tokensPerQuestion: number;
        callsPerQuestion: number;
        latencyMsPerQuestion: number;
        byDifficulty: {
            difficulty: string;
            count: number;
            correct: number;
            ex: number;
        }[];
        /** Correctors with gold: wrong→right and right→wrong among the questions with a known initial verdict. */
        flips: {
            wrongToRight: number;
            rightToWrong: number;
        } | null;
        byDatabase: {
            db: string;
            count: number;
            correct: number;
            ex: number;
        }[];
        /** What the questions went through: the run's outcome lines, as its report.md has them. */
        outcomes: string[];
    }[];
    /** An experiment's rows as its table.json has them (every answered question of each run, means over repeats). */
    experiment?: ExperimentHtmlRow[];
    /** An experiment's MAGIC guideline runs: failures corrected within k = 1.. iterations (Figure 3). */
    guidelines?: {
        run: string;
        maxIter: number;
        failures: number;
        correctedWithin: number[];
    }[];
    pairs: {
        a: string;
        b: string;
        onlyA: number;
        onlyB: number;
        mcnemarP: number;
        holmP: number;
    }[];
}
/** report.html of one eval run (beside its report.md). */
export declare function renderEvalHtml(records: EvalRecord[], ctx: {
    graph: string;
    dataset: string;
    split: string;
    command: string;
}): string;
/** The page of a comparison (`sqlmend compare --html`, an experiment's table). */
export declare function renderCompareHtml(comparison: Comparison, ctx: {
    command: string;
    title?: string;
    experiment?: ExperimentHtmlRow[];
    guidelines?: HtmlData["guidelines"];
    note?: string;
}): string;
