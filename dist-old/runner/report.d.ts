import { z } from "zod";
import { type DifficultyScore } from "../tools/benchmarks/score.ts";
/** One line of an eval's results.jsonl: everything known about one question's run. */
export declare const EvalRecordSchema: z.ZodObject<{
    id: z.ZodString;
    dbId: z.ZodString;
    difficulty: z.ZodOptional<z.ZodString>;
    question: z.ZodString;
    sql: z.ZodString;
    initialSql: z.ZodOptional<z.ZodString>;
    correction: z.ZodOptional<z.ZodString>;
    correct: z.ZodBoolean;
    initialCorrect: z.ZodOptional<z.ZodBoolean>;
    predError: z.ZodOptional<z.ZodString>;
    goldError: z.ZodOptional<z.ZodString>;
    inputTokens: z.ZodNumber;
    outputTokens: z.ZodNumber;
    calls: z.ZodNumber;
    latencyMs: z.ZodNumber;
    iterations: z.ZodNumber;
    usageByRole: z.ZodRecord<z.ZodString, z.ZodObject<{
        calls: z.ZodNumber;
        inputTokens: z.ZodNumber;
        outputTokens: z.ZodNumber;
        latencyMs: z.ZodNumber;
    }, z.core.$strip>>;
    failedCalls: z.ZodOptional<z.ZodNumber>;
    callFailure: z.ZodOptional<z.ZodString>;
    cachedCalls: z.ZodOptional<z.ZodNumber>;
    savedTokens: z.ZodOptional<z.ZodNumber>;
    savedInputTokens: z.ZodOptional<z.ZodNumber>;
    savedOutputTokens: z.ZodOptional<z.ZodNumber>;
    error: z.ZodOptional<z.ZodString>;
    failure: z.ZodOptional<z.ZodString>;
    initialExtraction: z.ZodOptional<z.ZodEnum<{
        none: "none";
        extracted: "extracted";
    }>>;
    checkpointRestart: z.ZodOptional<z.ZodString>;
    outcome: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodString, z.ZodNumber, z.ZodBoolean, z.ZodNull]>>>;
    replay: z.ZodOptional<z.ZodObject<{
        from: z.ZodString;
        originalThread: z.ZodString;
        checkpointId: z.ZodString;
        prefixSteps: z.ZodNumber;
        prefixCalls: z.ZodNumber;
        prefixInputTokens: z.ZodNumber;
        prefixOutputTokens: z.ZodNumber;
        originalCorrect: z.ZodOptional<z.ZodBoolean>;
    }, z.core.$strip>>;
    trace: z.ZodOptional<z.ZodObject<{
        runId: z.ZodString;
        feedback: z.ZodString;
    }, z.core.$strip>>;
    thread: z.ZodString;
}, z.core.$strip>;
export type EvalRecord = z.infer<typeof EvalRecordSchema>;
/**
 * The chat-model tokens the method used for a question: those spent now plus those the response cache served, so a
 * method's tokens and cost are the same on a rerun served from the cache. Embedding requests are left out: the vector
 * cache shares vectors across questions and runs, so what they cost depends on what ran before. (Records from before
 * the saved-token split count all saved tokens as input.)
 */
export declare function methodTokens(r: EvalRecord): {
    input: number;
    output: number;
};
/** The chat-model calls the method made for a question, cache-served ones included; embedding requests left out (as in `methodTokens`). */
export declare const methodCalls: (r: EvalRecord) => number;
/** results.jsonl → records by id (a later line for an id wins); unreadable lines are counted, not fatal. */
export declare function parseResults(text: string): {
    records: Map<string, EvalRecord>;
    dropped: number;
};
export { formatUsage } from "./progress.ts";
/** A failed question: no answer of the method's, so not scored (records before `failure` existed: `error`). */
export declare const isFailed: (record: EvalRecord) => boolean;
/** Why a failed record failed. */
export declare const failureOf: (record: EvalRecord) => string | undefined;
export interface ReportContext {
    graph: string;
    /** What fell back during the run: the response cache turned off, a damaged checkpoint file set aside. */
    notes?: string[];
    dataset: string;
    split: string;
    semantics: string;
    version: string;
    settings: Record<string, unknown>;
    models: Record<string, unknown>;
    skipped: {
        id: string;
        dbId: string;
        reason: string;
    }[];
    selected: number;
    startedAt: string;
    finishedAt: string;
    command: string;
    /** The graph's summary of its questions' outcomes (`GraphSpec.outcome`), a line each. */
    outcomes?: string[];
    /** The folder the questions' databases came from, and the question file, for the metrics line. */
    databases?: string;
    questionsFile?: string;
    /** The command that made the run, in the title (default "eval"; a replay says so). */
    kind?: string;
    /** Sections of the command's own after the headline figures (a replay: what was reused, what was not replayed). */
    sections?: {
        title: string;
        lines: string[];
    }[];
    /** How its failed questions are run again, where not by `--resume` of this folder (a merged run: its shards'). */
    rerun?: string;
}
export interface Summary {
    /** Answered questions with gold SQL: EX is over these. */
    total: number;
    correct: number;
    ex: number;
    /** Failed questions (`isFailed`): counted apart, not in EX. */
    failed: number;
    byDifficulty: DifficultyScore[];
    /** Questions run without gold SQL (own data): not scored, not in total. */
    noGold: number;
}
/** A record whose question had no gold SQL: run, not scored. */
export declare const unscored: (r: Pick<EvalRecord, "goldError">) => boolean;
/** EX over the answered questions that have gold SQL; failed ones counted apart (a down endpoint is not an EX of 0). */
export declare function summarize(records: EvalRecord[]): Summary;
/** "EX 61.20% (120/197 answered, bird semantics); 3 failed — --resume retries them", or that EX is not available. */
export declare function exLine(s: Summary, extra?: string, rerun?: string): string;
/** report.md: EX overall and per difficulty, cost per question, skipped questions, and every setting that shaped the run. */
export declare function renderReport(records: EvalRecord[], ctx: ReportContext): string;
/**
 * "Response cache: H of N model calls served (P%), T tokens saved (not counted as spent)". N counts chat-model calls
 * only: embedding requests are the vector cache's, never the response cache's to serve.
 */
export declare function cacheSummary(records: EvalRecord[]): string;
/** "Model calls that got no reply: F of N, in Q questions (first: ERROR)", or "" when every call got one. */
export declare function callFailures(records: EvalRecord[]): string;
/** "Failed questions (not scored; --resume runs them again): N (first: ID: WHY)", or "" when none failed. */
export declare function failedRuns(records: EvalRecord[], rerun?: string): string;
