import { type OutcomeSpec } from "../graphs/outcome.ts";
import type { Benchmark, Question } from "../state/question.ts";
import { type Semantics } from "../tools/benchmarks/score.ts";
import { type GraphRunner, type QuestionRun } from "./question.ts";
import { type QuestionRunConfig } from "./question-runner.ts";
import { type EvalRecord } from "./report.ts";
/**
 * What `eval` gives the question runner: one question through the runner's graph (a corrector's initial SQL and
 * scenario included), scored against the gold; its record is a line of `results.jsonl`. Experiments and shard merges
 * run questions and write outputs through the same functions.
 */
export declare const EVAL_RESULTS = "results.jsonl";
/** `outDir/results.jsonl` as the question runner's record store. */
export declare const evalRecordStore: (outDir: string) => import("./question-runner.ts").RecordStore<{
    id: string;
    dbId: string;
    question: string;
    sql: string;
    correct: boolean;
    inputTokens: number;
    outputTokens: number;
    calls: number;
    latencyMs: number;
    iterations: number;
    usageByRole: Record<string, {
        calls: number;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
    }>;
    thread: string;
    difficulty?: string | undefined;
    initialSql?: string | undefined;
    correction?: string | undefined;
    initialCorrect?: boolean | undefined;
    predError?: string | undefined;
    goldError?: string | undefined;
    failedCalls?: number | undefined;
    callFailure?: string | undefined;
    cachedCalls?: number | undefined;
    savedTokens?: number | undefined;
    savedInputTokens?: number | undefined;
    savedOutputTokens?: number | undefined;
    error?: string | undefined;
    failure?: string | undefined;
    initialExtraction?: "none" | "extracted" | undefined;
    checkpointRestart?: string | undefined;
    outcome?: Record<string, string | number | boolean | null> | undefined;
    replay?: {
        from: string;
        originalThread: string;
        checkpointId: string;
        prefixSteps: number;
        prefixCalls: number;
        prefixInputTokens: number;
        prefixOutputTokens: number;
        originalCorrect?: boolean | undefined;
    } | undefined;
    trace?: {
        runId: string;
        feedback: string;
    } | undefined;
}>;
/** The question runner's config for an eval of `runner` (thread `eval:<runId>:<question id>`). */
export declare function evalQuestions(runner: GraphRunner, ctx: {
    runId: string;
    semantics: Semantics;
    keepDistinct: boolean;
}): Pick<QuestionRunConfig<EvalRecord>, "run" | "failed" | "endpointDown" | "note" | "progress">;
/**
 * Why a question's run is failed rather than answered, or undefined. The rule: the graph could not finish, or any
 * model call got no reply after the client's retries (endpoint down, timeouts, 5xx, 429 beyond the budget, a reply
 * without choices). Nodes go on without such a call (a Memo-SQL branch, an R³ reviewer), but the answer is then not
 * the method's answer, so it is not scored: `--resume` asks again. A reply that came but was unusable is the
 * method's business, not a failure.
 */
export declare function failureOfRun(run: QuestionRun): string | undefined;
export declare function evaluateQuestion(runner: GraphRunner, q: Question, threadId: string, semantics: Semantics, keepDistinct: boolean): Promise<EvalRecord>;
/** A question's run, scored against the gold (its oracle outcome and trace feedback too): its line of results.jsonl. */
export declare function recordOfRun(runner: GraphRunner, q: Question, run: QuestionRun, threadId: string, semantics: Semantics, keepDistinct: boolean): Promise<EvalRecord>;
/** Predictions in both official formats (every selected question, in file order; "" where none) and `report.md`. */
export declare function writeEvalOutputs(outDir: string, records: EvalRecord[], ctx: {
    graph: string;
    /** What fell back during the run (report.md lists them). */
    notes?: string[];
    /** The graph's outcome summary (default: every declared key summed by type). */
    outcome?: OutcomeSpec;
    bench: Benchmark;
    split: string;
    questions: Question[];
    skipped: Benchmark["skipped"];
    semantics: Semantics;
    startedAt: string;
    settings: Record<string, unknown>;
    models: Record<string, unknown>;
    command: string;
    /** report.md's title and sections of the command's own (`ReportContext`). */
    kind?: string;
    sections?: {
        title: string;
        lines: string[];
    }[];
    /** How failed questions are run again, where not by this folder's `--resume` (`ReportContext.rerun`). */
    rerun?: string;
}): Promise<void>;
