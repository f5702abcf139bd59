import Database from "better-sqlite3";
import type { RunnableConfig } from "@langchain/core/runnables";
import { BaseCheckpointSaver } from "@langchain/langgraph";
import type { ChannelVersions, Checkpoint, CheckpointListOptions, CheckpointMetadata, PendingWrite } from "@langchain/langgraph-checkpoint";
export interface OpenedCheckpointer {
    saver: BaseCheckpointSaver;
    /** The file, "memory", or a PostgreSQL URL (password hidden). */
    location: string;
    /** The raw database, for listing threads (null in memory and in PostgreSQL). */
    db: Database.Database | null;
    /** PostgreSQL: the saver, which opens the connection on first use. */
    postgres?: LazyPostgresSaver;
    /** Resolves once the store can be used (PostgreSQL: the server answered and the schema exists); one line if not. */
    ready(): Promise<void>;
    close(): void;
}
export declare const defaultCheckpointFile: (env: NodeJS.ProcessEnv, cwd: string) => string;
/**
 * "memory", a PostgreSQL URL (`postgres://user:password@host:port/db`, `./postgres.ts`), or a SQLite file of its own (default: the data directory's checkpoints.sqlite). A file that is some other
 * SQLite database — a benchmark's, say — is refused, so checkpoints never land inside it.
 */
export declare function openCheckpointer(spec: string | undefined, env: NodeJS.ProcessEnv, cwd: string, options?: {
    mustExist?: boolean;
    /**
     * Runs pass this: a file SQLite calls corrupt (e.g. truncated) is renamed `<file>.damaged-<time>` (kept for
     * `inspect --checkpoints`) and a new one started, so a damaged file never blocks a run for good; told here.
     */
    onDamagedFile?: (note: string) => void;
}): OpenedCheckpointer;
/**
 * `openCheckpointer`, ready to use: a PostgreSQL server that cannot be reached is one line here, before any question
 * runs, not an error per question (the store is closed again on that failure).
 */
export declare function openReadyCheckpointer(...args: Parameters<typeof openCheckpointer>): Promise<OpenedCheckpointer>;
/**
 * LangGraph's PostgreSQL saver (`./postgres.ts`), loaded with its driver on first use: a run that checkpoints to a
 * file never pays for them. Every call is passed on unchanged.
 */
export declare class LazyPostgresSaver extends BaseCheckpointSaver {
    private readonly url;
    private opened;
    private module;
    constructor(url: string);
    private open;
    ready(): Promise<void>;
    listThreads(limit: number, prefix?: string): Promise<{
        threadId: string;
        checkpoints: number;
    }[]>;
    close(): void;
    getTuple(config: RunnableConfig): Promise<import("@langchain/langgraph").CheckpointTuple | undefined>;
    list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<import("@langchain/langgraph").CheckpointTuple, void, any>;
    put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig<Record<string, any>>>;
    putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void>;
    deleteThread(threadId: string): Promise<void>;
}
export interface ThreadSummary {
    threadId: string;
    checkpoints: number;
    graph?: string;
    question?: string;
    /** The latest checkpoint's time. */
    updatedAt?: string;
}
/** What the latest checkpoint of a thread says: its graph (from state), question and time. */
export declare function describeThread(saver: BaseCheckpointSaver, threadId: string): Promise<{
    graph: string | undefined;
    question: string | undefined;
    updatedAt: string;
} | undefined>;
/** Threads in a checkpoint file, newest first (checkpoint ids are time-ordered). */
export declare function listThreads(store: OpenedCheckpointer, limit?: number, prefix?: string): Promise<ThreadSummary[]>;
