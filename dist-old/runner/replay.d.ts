import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { Benchmark } from "../state/question.ts";
import { type Usage } from "../state/usage.ts";
import type { Semantics } from "../tools/benchmarks/score.ts";
import { type RunIO } from "./progress.ts";
import { type GraphRunner } from "./question.ts";
import { type QuestionRunResult } from "./question-runner.ts";
import { type EvalRecord } from "./report.ts";
/**
 * `sqlmend replay`: counterfactual runs on recorded states. Each question of an eval run is forked from its recorded
 * thread at the last checkpoint before a slot first ran (LangGraph time travel, onto a thread of the replay's own: the
 * original's threads are only read), and only the rest runs, with the replay's graph (swapped nodes). The output is an
 * eval run folder; each record's counts are the suffix's, the prefix's are kept apart in its `replay` field.
 */
export declare const REPLAY_SELECTIONS: readonly ["all", "wrong", "right", "failed"];
export type ReplaySelection = (typeof REPLAY_SELECTIONS)[number];
/** What an eval's output folder recorded: its run.json and its records. */
export interface RecordedRun {
    dir: string;
    runId: string;
    graph: string;
    bench: string | null;
    split: string;
    questions: string | null;
    dbDir: string | null;
    semantics: Semantics;
    models: Record<string, unknown>;
    /** The answer-shaping settings under their flag names (`answerSettings` + `graphSettings`). */
    settings: Record<string, unknown>;
    preflight: Record<string, unknown>;
    /** Where its threads were checkpointed, when run.json says (a PostgreSQL URL without its password). */
    checkpoints?: string;
    records: Map<string, EvalRecord>;
}
/** Reads an eval output folder (run.json and results.jsonl); one line when it is not one. */
export declare function readRecordedRun(dir: string): RecordedRun;
/** Where a question's recorded thread is forked, or why it is not replayed. */
export type ForkPlan = {
    kind: "fork";
    checkpointId: string;
    step: number;
    prefix: Usage;
} | {
    kind: "not reached";
    why: string;
} | {
    kind: "prefix failed";
    why: string;
} | {
    kind: "no thread";
};
interface HistoryGraph {
    getStateHistory(config: Record<string, unknown>): AsyncIterable<{
        values: unknown;
        next: string[];
        config: {
            configurable?: Record<string, unknown>;
        };
        metadata?: Record<string, unknown>;
    }>;
}
/**
 * The last checkpoint of `threadId` before `slot` first ran: the oldest whose next step runs it (time travel from
 * there re-runs that whole step, the slot's parallel siblings included). Reads the thread, never writes it.
 */
export declare function forkPoint(graph: HistoryGraph, threadId: string, slot: string): Promise<ForkPlan>;
/**
 * Copies checkpoint `checkpointId` of thread `from` as the first checkpoint of thread `to` (its metadata saying where
 * it came from). The recorded writes of the step after it are not copied, so that step runs again, in full.
 */
export declare function forkThread(saver: BaseCheckpointSaver, from: string, checkpointId: string, to: string): Promise<void>;
export interface ReplayArgs {
    /** The eval output folder to replay. */
    runDir: string;
    /** The slot before whose first run each thread is forked. */
    from: string;
    outDir: string;
    /**
     * The graph the replay continues the threads with, given what the original recorded (its benchmark loaded; the
     * checkpoint store holding its threads): the CLI builds the registered graph with the recorded options and the
     * swapped nodes. The one place the graph comes from.
     */
    runnerFor(original: RecordedRun, ctx: {
        bench: Benchmark;
        benchDir: string | undefined;
        checkpointer: BaseCheckpointSaver;
        nodes: string[];
        warn: (line: string) => void;
    }): Promise<GraphRunner>;
    /** The node swaps (`SLOT=FILE`), as run.json and the report record them. */
    nodes?: string[];
    only?: ReplaySelection;
    ids?: string[];
    concurrency?: number;
    resume?: boolean;
    /** Where the original's threads are (default: where its run.json says, else the data directory's file). */
    checkpoints?: string;
    env: NodeJS.ProcessEnv;
    cwd: string;
    io: RunIO & {
        stdout?: (text: string) => void;
    };
    /** The command line, for report.md. */
    command?: string;
    /** More settings for report.md (the response cache's mode, ...). */
    reportSettings?: Record<string, unknown>;
}
export interface ReplayResult extends QuestionRunResult<EvalRecord> {
    /** Selected questions not replayed, and why (never reached the slot; a prefix with failed calls). */
    notReplayed: {
        id: string;
        why: string;
    }[];
    /** What the prefixes held (reused, not re-run) and what the suffixes cost. */
    reused: {
        steps: number;
        calls: number;
        inputTokens: number;
        outputTokens: number;
    };
    suffix: {
        calls: number;
        inputTokens: number;
        outputTokens: number;
    };
}
/** The replay of an eval run from a slot (module comment). Writes an eval output folder in `outDir`. */
export declare function replayRun(args: ReplayArgs): Promise<ReplayResult>;
export {};
