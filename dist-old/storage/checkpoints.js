import fs from "node:fs";
import path from "node:path";
import { BaseCheckpointSaver, MemorySaver } from "@langchain/langgraph";
import { dataDir } from "../tools/paths.js";
import { DamagedCheckpointError, firstLineOf, isDamagedCheckpoint, UserError } from "../core/errors.js";
import { openSharedSqlite } from "../tools/sqlite/shared-file.js";
import { LightSqliteSaver } from "./checkpoint-chunks.js";
import { isPostgresLocation, redactUrl } from "./location.js";
/** Ours and SqliteSaver's; `blobs` holds the large values of files written before `chunks`. */
const OWN_TABLES = new Set(["checkpoints", "writes", "chunks", "blobs"]);
/** Measured on minibench runs (bench/launcher-overhead.ts): 1 KiB pages leave the least slack for rows of ~150 bytes. */
const NEW_FILE_PAGE_SIZE = 1024;
export const defaultCheckpointFile = (env, cwd) => path.join(dataDir(env, cwd), "checkpoints.sqlite");
/**
 * "memory", a PostgreSQL URL (`postgres://user:password@host:port/db`, `./postgres.ts`), or a SQLite file of its own (default: the data directory's checkpoints.sqlite). A file that is some other
 * SQLite database — a benchmark's, say — is refused, so checkpoints never land inside it.
 */
export function openCheckpointer(spec, env, cwd, options = {}) {
    if (spec === "memory")
        return { saver: new MemorySaver(), location: "memory", db: null, ready: async () => { }, close() { } };
    if (isPostgresLocation(spec)) {
        const postgres = new LazyPostgresSaver(spec);
        return { saver: postgres, location: redactUrl(spec), db: null, postgres, ready: () => postgres.ready(), close: () => postgres.close() };
    }
    const file = spec ? path.resolve(cwd, spec) : defaultCheckpointFile(env, cwd);
    try {
        return openFile(file, options);
    }
    catch (error) {
        if (!options.onDamagedFile || !isDamagedCheckpoint(error) || !fs.existsSync(file))
            throw error;
        const aside = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`;
        for (const suffix of ["", "-wal", "-shm"])
            if (fs.existsSync(file + suffix))
                fs.renameSync(file + suffix, aside + suffix);
        options.onDamagedFile(`${file}: ${firstLineOf(error)}; set aside as ${path.basename(aside)}, its threads start again in a new file`);
        return openFile(file, options);
    }
}
/**
 * `openCheckpointer`, ready to use: a PostgreSQL server that cannot be reached is one line here, before any question
 * runs, not an error per question (the store is closed again on that failure).
 */
export async function openReadyCheckpointer(...args) {
    const store = openCheckpointer(...args);
    try {
        await store.ready();
    }
    catch (error) {
        store.close();
        throw error;
    }
    return store;
}
function openFile(file, options) {
    if (!fs.existsSync(file)) {
        if (options.mustExist)
            throw new UserError(`no checkpoints yet: ${file} does not exist`);
        fs.mkdirSync(path.dirname(file), { recursive: true });
    }
    let db;
    try {
        db = openSharedSqlite(file, {
            busyMs: 10_000,
            // Durable enough for checkpoints (WAL survives a killed process); far faster than FULL.
            synchronousNormal: true,
            before: (opened) => {
                const tables = opened.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((t) => t.name);
                const foreign = tables.filter((t) => !OWN_TABLES.has(t));
                if (foreign.length)
                    throw new UserError(`${file} is another database (it has table '${foreign[0]}'); checkpoints need a file of their own`);
                // A new file gets small pages: rows are small now, and each table and index starts with a page of its own.
                if (opened.pragma("page_count", { simple: true }) === 0)
                    opened.pragma(`page_size = ${NEW_FILE_PAGE_SIZE}`);
            },
        });
    }
    catch (error) {
        if (error instanceof UserError)
            throw error;
        const message = `cannot open checkpoint file ${file}: ${error.message}`;
        throw isDamagedCheckpoint(error) ? new DamagedCheckpointError(message) : new UserError(message);
    }
    // What repeats is stored once, in chunks, and checkpoints are deltas of each other (./checkpoint-chunks.ts).
    return { saver: new LightSqliteSaver(db), location: file, db, ready: async () => { }, close: () => db.close() };
}
/**
 * LangGraph's PostgreSQL saver (`./postgres.ts`), loaded with its driver on first use: a run that checkpoints to a
 * file never pays for them. Every call is passed on unchanged.
 */
export class LazyPostgresSaver extends BaseCheckpointSaver {
    url;
    opened;
    module;
    constructor(url) {
        super();
        this.url = url;
    }
    open() {
        this.module ??= import("./postgres.js");
        this.opened ??= this.module.then((m) => m.openPostgres(this.url));
        return this.opened;
    }
    async ready() {
        await (await this.open()).saver.ensureReady();
    }
    async listThreads(limit, prefix) {
        const [m, store] = await Promise.all([this.module ?? (this.module = import("./postgres.js")), this.open()]);
        return m.listPostgresThreads(store, limit, prefix);
    }
    close() {
        void this.opened?.then((store) => store.pool.end()).catch(() => { });
    }
    async getTuple(config) {
        return (await this.open()).saver.getTuple(config);
    }
    async *list(config, options) {
        yield* (await this.open()).saver.list(config, options);
    }
    async put(config, checkpoint, metadata, newVersions) {
        return (await this.open()).saver.put(config, checkpoint, metadata, newVersions);
    }
    async putWrites(config, writes, taskId) {
        return (await this.open()).saver.putWrites(config, writes, taskId);
    }
    async deleteThread(threadId) {
        return (await this.open()).saver.deleteThread(threadId);
    }
}
/** What the latest checkpoint of a thread says: its graph (from state), question and time. */
export async function describeThread(saver, threadId) {
    const tuple = await saver.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } });
    if (!tuple)
        return undefined;
    const values = (tuple.checkpoint.channel_values ?? {});
    return {
        graph: typeof values.graph === "string" && values.graph ? values.graph : undefined,
        question: typeof values.question === "string" ? values.question : undefined,
        updatedAt: tuple.checkpoint.ts,
    };
}
/** Threads in a checkpoint file, newest first (checkpoint ids are time-ordered). */
export async function listThreads(store, limit = 50, prefix) {
    const db = store.db;
    if (!db && !store.postgres)
        return [];
    if (db && !db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'").get())
        return [];
    const rows = store.postgres
        ? await store.postgres.listThreads(limit, prefix)
        : db
            .prepare(`SELECT thread_id AS threadId, count(*) AS checkpoints, max(checkpoint_id) AS lastCheckpointId
       FROM checkpoints WHERE checkpoint_ns = '' ${prefix ? "AND thread_id LIKE ? ESCAPE '\\'" : ""}
       GROUP BY thread_id ORDER BY lastCheckpointId DESC LIMIT ?`)
            .all(...(prefix ? [`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, limit] : [limit]));
    const out = [];
    for (const { lastCheckpointId: _last, ...row } of rows) {
        try {
            out.push({ ...row, ...(await describeThread(store.saver, row.threadId)) });
        }
        catch {
            out.push(row); // a checkpoint this version cannot read: list the thread without details
        }
    }
    return out;
}
