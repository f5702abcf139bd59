import type { GraphSpec } from "../graphs/index.ts";
import { type Outcome } from "../graphs/outcome.ts";
import type { NodeDeps } from "../nodes/types.ts";
import type { Question } from "../state/question.ts";
import type { SqlInput, SqlStateValue } from "../state/sql-state.ts";
import { type Usage } from "../state/usage.ts";
import { type Semantics } from "../tools/benchmarks/score.ts";
export interface RunnableGraph {
    invoke(input: unknown, config: Record<string, unknown>): Promise<unknown>;
    getState(config: Record<string, unknown>): Promise<{
        values: unknown;
        next: string[];
        tasks: unknown[];
    }>;
    /** The compiled graph's checkpointer: a thread whose checkpoints do not read is deleted through it and restarted. */
    checkpointer?: unknown;
    /** Set by `GraphSpec.build` from the graph's loop bounds (`defineSpec`'s `steps`). */
    recursionLimit?: number;
}
export type InitialSource = {
    kind: "graph";
    spec: GraphSpec;
    graph: RunnableGraph;
} | {
    kind: "predictions";
    file: string;
    predictions: Map<string, string>;
    /** Predictions that were not plain SQL: the SQL was extracted from the text, or it held none (then ""). */
    extraction?: Map<string, "extracted" | "none">;
    /**
     * Ids the file's own run did not answer (a sqlmend run's `results.jsonl` beside the file says so), with why:
     * their "" in the file is no SQL of the initial method's, so they are not corrected.
     */
    unanswered?: Map<string, string>;
};
/** MAGIC's three scenarios (Table 1): correct all SQL, only SQL that fails to execute, or only SQL the gold says is wrong. */
export type CorrectScenario = "all" | "errors" | "incorrect";
/** A built graph ready to answer questions: the graph, its dependencies (models, executor), and a corrector's initial SQL and scenario. */
export interface GraphRunner {
    spec: GraphSpec;
    /** The graphs whose declared options shape this run's answers: the graph, and a corrector's initial generator. */
    graphSpecs: GraphSpec[];
    graph: RunnableGraph;
    deps: NodeDeps;
    /** Correctors only: where the initial SQL comes from, and which of it to correct. */
    initial?: InitialSource;
    scenario: CorrectScenario;
    semantics: Semantics;
    queryTimeoutMs?: number;
    /** What each question's trace carries (tracing itself is LangChain's: LANGSMITH_TRACING, or these callbacks). */
    trace?: {
        run?: string;
        settings?: Record<string, unknown>;
        callbacks?: unknown[];
    };
}
export interface QuestionRun {
    threadId: string;
    sql: string;
    /** Correctors: the SQL before correction. */
    initialSql?: string;
    /** Correctors: "applied", or why correction was skipped under the scenario. */
    correction?: string;
    /** Correctors under the oracle scenario: the gold's verdict on the initial SQL (so it is not scored twice). */
    initialCorrect?: boolean;
    state?: SqlStateValue;
    /** What the question went through (the graph's declared outcome over the shared one), when its graph finished. */
    outcome?: Outcome;
    usage: Usage;
    latencyMs: number;
    iterations: number;
    /** One line, when the question could not be run to the end. */
    error?: string;
    /** The root run id of the graph's trace (the corrector's, for a corrector). */
    traceRunId?: string;
    /** `--initial FILE`: the prediction was not plain SQL, and its SQL was extracted from the text, or it held none. */
    initialExtraction?: "extracted" | "none";
    /** What was done about damaged checkpoints (a thread deleted and restarted), a line each. */
    checkpointNotes?: string[];
    /**
     * Correctors: why the question has no initial SQL to correct ("the initial run failed (…)", "not in FILE"). Such a
     * question is failed, not corrected: correcting "" would credit the corrector with the initial method's failure.
     */
    noInitial?: string;
}
export declare const inputOf: (q: Question, graph: string, sql?: string) => SqlInput;
/**
 * Runs a graph on a thread: continues an unfinished thread from its last checkpoint, returns a finished thread's
 * state as it is, or starts the thread with the input. This is what makes `eval --resume` redo nothing.
 *
 * A thread whose checkpoints do not read (a truncated or changed file) never blocks a run for good: its checkpoints
 * are deleted and the question starts again from scratch on the same thread; `notes` hears what was done (the
 * caller records it for the question). If they cannot be deleted, the question fails (not the run), saying so.
 */
export declare function runThread(graph: RunnableGraph, input: SqlInput, threadId: string, trace?: TraceConfig, notes?: string[]): Promise<SqlStateValue>;
/**
 * Runs a thread that already holds state (a fork of a recorded thread: `sqlmend replay`) to its end, or returns it as
 * it is when finished. Damaged checkpoints are an error here, never a restart from the input: that would run the
 * whole question again under the fork's name.
 */
export declare function continueThread(graph: RunnableGraph, threadId: string, trace?: TraceConfig): Promise<SqlStateValue>;
/** What a traced run carries (LangChain's run config): its name, tags, metadata, root run id and handlers. */
export interface TraceConfig {
    runName?: string;
    tags?: string[];
    metadata?: Record<string, unknown>;
    runId?: string;
    callbacks?: unknown[];
}
export declare const iterationsOf: (state: SqlStateValue | undefined) => number;
/** One question through the runner's graph (and, for a corrector, its initial SQL and scenario). Never throws. */
export declare function answerQuestion(runner: GraphRunner, q: Question, threadId: string): Promise<QuestionRun>;
