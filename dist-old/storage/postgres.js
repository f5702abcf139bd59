import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
import { firstLineOf, UserError } from "../core/errors.js";
import { redactUrl } from "./location.js";
/**
 * Checkpoints in PostgreSQL (`--checkpoints postgres://…`), through LangGraph's own saver, so several machines and a
 * LangGraph server can share threads. Loaded only when such a location is used (`./checkpoints.ts`: ~25–100 ms). The schema is created on first use; a server that cannot be reached or a URL
 * that is wrong is one line naming the server (password hidden), before any question runs.
 */
/** LangGraph's PostgresSaver that creates its schema (once) before its first read or write. */
export class SetupOnFirstUse extends PostgresSaver {
    where;
    ready;
    constructor(pool, where) {
        super(pool);
        this.where = where;
    }
    ensureReady() {
        this.ready ??= this.setup().catch((error) => {
            this.ready = undefined; // a later call tries again (the server may come up)
            throw new UserError(`cannot use PostgreSQL checkpoints at ${this.where}: ${describePgError(error)}`);
        });
        return this.ready;
    }
    async getTuple(config) {
        await this.ensureReady();
        return super.getTuple(config);
    }
    async *list(config, options) {
        await this.ensureReady();
        yield* super.list(config, options);
    }
    async put(config, checkpoint, metadata, newVersions) {
        await this.ensureReady();
        return super.put(config, checkpoint, metadata, newVersions);
    }
    async putWrites(config, writes, taskId) {
        await this.ensureReady();
        return super.putWrites(config, writes, taskId);
    }
    async deleteThread(threadId) {
        await this.ensureReady();
        return super.deleteThread(threadId);
    }
}
function describePgError(error) {
    const code = error.code;
    const hints = {
        ECONNREFUSED: "connection refused (is the server running, on that host and port?)",
        ENOTFOUND: "no such host",
        ETIMEDOUT: "connection timed out",
        "28P01": "password authentication failed",
        "28000": "this user may not connect",
        "3D000": "no such database",
    };
    return (code && hints[code]) ?? firstLineOf(error);
}
export function openPostgres(url) {
    const location = redactUrl(url);
    let pool;
    try {
        pool = new pg.Pool({ connectionString: url, max: 8, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 5_000 });
    }
    catch (error) {
        throw new UserError(`--checkpoints ${location}: not a PostgreSQL URL (${firstLineOf(error)})`);
    }
    // An idle client whose server went away emits 'error' on the pool: the next query reports it, it must not crash.
    pool.on("error", () => { });
    return { saver: new SetupOnFirstUse(pool, location), pool, location };
}
/** Threads in the database, newest first, as `listThreads` gives them for a SQLite file. */
export async function listPostgresThreads(store, limit, prefix) {
    await store.saver.ensureReady();
    const like = prefix ? `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : "%";
    const { rows } = await store.pool.query(`SELECT thread_id, count(*) AS checkpoints, max(checkpoint_id) AS last FROM checkpoints
     WHERE checkpoint_ns = '' AND thread_id LIKE $1 GROUP BY thread_id ORDER BY last DESC LIMIT $2`, [like, limit]);
    return rows.map((row) => ({ threadId: row.thread_id, checkpoints: Number(row.checkpoints) }));
}
