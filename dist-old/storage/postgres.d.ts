import type { RunnableConfig } from "@langchain/core/runnables";
import type { ChannelVersions, Checkpoint, CheckpointListOptions, CheckpointMetadata, PendingWrite } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
/**
 * Checkpoints in PostgreSQL (`--checkpoints postgres://…`), through LangGraph's own saver, so several machines and a
 * LangGraph server can share threads. Loaded only when such a location is used (`./checkpoints.ts`: ~25–100 ms). The schema is created on first use; a server that cannot be reached or a URL
 * that is wrong is one line naming the server (password hidden), before any question runs.
 */
/** LangGraph's PostgresSaver that creates its schema (once) before its first read or write. */
export declare class SetupOnFirstUse extends PostgresSaver {
    private readonly where;
    private ready;
    constructor(pool: pg.Pool, where: string);
    ensureReady(): Promise<void>;
    getTuple(config: RunnableConfig): Promise<import("@langchain/langgraph-checkpoint").CheckpointTuple | undefined>;
    list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<import("@langchain/langgraph-checkpoint").CheckpointTuple, void, any>;
    put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig<Record<string, any>>>;
    putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void>;
    deleteThread(threadId: string): Promise<void>;
}
export interface PostgresCheckpointer {
    saver: SetupOnFirstUse;
    pool: pg.Pool;
    location: string;
}
export declare function openPostgres(url: string): PostgresCheckpointer;
/** Threads in the database, newest first, as `listThreads` gives them for a SQLite file. */
export declare function listPostgresThreads(store: PostgresCheckpointer, limit: number, prefix?: string): Promise<{
    threadId: string;
    checkpoints: number;
}[]>;
