import type { RunnableConfig } from "@langchain/core/runnables";
import type { ChannelVersions, Checkpoint, CheckpointListOptions, CheckpointMetadata, PendingWrite } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
import { firstLineOf, UserError } from "../core/errors.ts";
import { opt, optionUserError } from "../core/config.ts";
import { redactUrl } from "./location.ts";

/**
 * Checkpoints in PostgreSQL (`--checkpoints postgres://…`), through LangGraph's own saver, so several machines and a
 * LangGraph server can share threads. Loaded only when such a location is used (`./checkpoints.ts`: ~25–100 ms). The schema is created on first use; a server that cannot be reached or a URL
 * that is wrong is one line naming the server (password hidden), before any question runs.
 */

/** LangGraph's PostgresSaver that creates its schema (once) before its first read or write. */
export class SetupOnFirstUse extends PostgresSaver {
  private ready: Promise<void> | undefined;

  constructor(
    pool: pg.Pool,
    private readonly where: string,
  ) {
    super(pool);
  }

  ensureReady(): Promise<void> {
    this.ready ??= this.setup().catch((error: unknown) => {
      this.ready = undefined; // a later call tries again (the server may come up)
      throw new UserError(`cannot use PostgreSQL checkpoints at ${this.where}: ${describePgError(error)}`);
    });
    return this.ready;
  }

  override async getTuple(config: RunnableConfig) {
    await this.ensureReady();
    return super.getTuple(config);
  }

  override async *list(config: RunnableConfig, options?: CheckpointListOptions) {
    await this.ensureReady();
    yield* super.list(config, options);
  }

  override async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions) {
    await this.ensureReady();
    return super.put(config, checkpoint, metadata, newVersions);
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string) {
    await this.ensureReady();
    return super.putWrites(config, writes, taskId);
  }

  override async deleteThread(threadId: string) {
    await this.ensureReady();
    return super.deleteThread(threadId);
  }
}

function describePgError(error: unknown): string {
  const code = (error as { code?: string }).code;
  const hints: Record<string, string> = {
    ECONNREFUSED: "connection refused (is the server running, on that host and port?)",
    ENOTFOUND: "no such host",
    ETIMEDOUT: "connection timed out",
    "28P01": "password authentication failed",
    "28000": "this user may not connect",
    "3D000": "no such database",
  };
  return (code && hints[code]) ?? firstLineOf(error);
}

export interface PostgresCheckpointer {
  saver: SetupOnFirstUse;
  pool: pg.Pool;
  location: string;
}

export function openPostgres(url: string): PostgresCheckpointer {
  const location = redactUrl(url);
  let pool: pg.Pool;
  try {
    pool = new pg.Pool({ connectionString: url, max: 8, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 5_000 });
  } catch (error) {
    throw optionUserError`${opt("checkpoints")} ${location}: not a PostgreSQL URL (${firstLineOf(error)})`;
  }
  // An idle client whose server went away emits 'error' on the pool: the next query reports it, it must not crash.
  pool.on("error", () => {});
  return { saver: new SetupOnFirstUse(pool, location), pool, location };
}

/** Threads in the database, newest first, as `listThreads` gives them for a SQLite file. */
export async function listPostgresThreads(store: PostgresCheckpointer, limit: number, prefix?: string) {
  await store.saver.ensureReady();
  const like = prefix ? `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : "%";
  const { rows } = await store.pool.query<{ thread_id: string; checkpoints: string }>(
    `SELECT thread_id, count(*) AS checkpoints, max(checkpoint_id) AS last FROM checkpoints
     WHERE checkpoint_ns = '' AND thread_id LIKE $1 GROUP BY thread_id ORDER BY last DESC LIMIT $2`,
    [like, limit],
  );
  return rows.map((row) => ({ threadId: row.thread_id, checkpoints: Number(row.checkpoints) }));
}
