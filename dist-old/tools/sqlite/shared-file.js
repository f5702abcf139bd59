/**
 * SQLite files that several sqlmend processes open at once (the response cache, the vector cache, a memory, the
 * checkpoints of shards): WAL and a busy timeout, and a set-up that waits for the other process instead of failing.
 *
 * Two processes creating the same new file race on the switch to WAL and on CREATE TABLE: SQLite may answer
 * SQLITE_BUSY at once there, without waiting (its deadlock avoidance), so those steps are retried until the deadline.
 * A busy file is never damaged: callers must not set it aside (`isSqliteBusy`).
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { firstLineOf } from "../../core/errors.js";
const codeOf = (error) => {
    const code = error?.code;
    return typeof code === "string" ? code : "";
};
/** Another connection holds the file: wait or give up, but the file is fine. */
export const isSqliteBusy = (error) => /^SQLITE_(BUSY|LOCKED)/.test(codeOf(error));
/** SQLite's own word that the file is not a database or is corrupt. */
export const isSqliteDamaged = (error) => /^SQLITE_(CORRUPT|NOTADB)/.test(codeOf(error));
/** Runs `step`, again while SQLite says the file is busy, until `deadline` (then the busy error is thrown). */
export function retryWhileBusy(step, deadline) {
    for (let wait = 5;; wait = Math.min(wait * 2, 200)) {
        try {
            return step();
        }
        catch (error) {
            if (!isSqliteBusy(error) || Date.now() + wait > deadline)
                throw error;
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait); // open is synchronous; so is this short pause
        }
    }
}
/** Opens `file` (creating its folder) for sharing with other processes. Errors are SQLite's, for the caller to name. */
export function openSharedSqlite(file, options) {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const deadline = Date.now() + options.busyMs;
    const db = new Database(file);
    try {
        db.pragma(`busy_timeout = ${options.busyMs}`);
        options.before?.(db);
        retryWhileBusy(() => db.pragma("journal_mode = WAL"), deadline);
        if (options.synchronousNormal)
            db.pragma("synchronous = NORMAL");
        const schema = options.schema;
        if (schema)
            retryWhileBusy(() => db.transaction(() => db.exec(schema)).immediate(), deadline);
        return db;
    }
    catch (error) {
        db.close();
        throw error;
    }
}
/** Thrown by a cache's `verify`: a file of an older layout, set aside like a damaged one. */
export class StaleCacheFile extends Error {
}
/**
 * A cache file (replies, vectors): what is lost with it can be asked again, so it never stops a run. Opened shared;
 * `verify` (prepare statements, check the layout) runs on it. A damaged file — SQLite's "corrupt" or "not a
 * database", or `StaleCacheFile` — is renamed `<file>.damaged-<time>` and a new one started; a busy or unreadable one
 * is left alone and not used. Each is said through `warn`; `broken` is the reason when there is no database.
 */
export function openCacheFile(file, options, warn) {
    const open = () => {
        const db = openSharedSqlite(file, options);
        try {
            options.verify?.(db);
            return db;
        }
        catch (error) {
            db.close();
            throw error;
        }
    };
    const unusable = (broken) => {
        warn(broken);
        return { broken };
    };
    try {
        return { db: open() };
    }
    catch (error) {
        // Another process holds the file longer than we wait: the file is fine, this run goes without it.
        if (isSqliteBusy(error))
            return unusable(`${options.what} ${file} is busy (another process held it for over ${options.busyMs / 1000} s): running without it`);
        if (!isSqliteDamaged(error) && !(error instanceof StaleCacheFile))
            return unusable(`${options.what} ${file} cannot be used (${firstLineOf(error)}): running without it`);
        const aside = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`;
        try {
            fs.renameSync(file, aside);
            for (const suffix of ["-wal", "-shm"])
                if (fs.existsSync(file + suffix))
                    fs.renameSync(file + suffix, aside + suffix);
            warn(`${options.what} ${file} is damaged (${firstLineOf(error)}): moved to ${aside}, starting a new one`);
            return { db: open() };
        }
        catch (again) {
            return unusable(`${options.what} ${file} cannot be used (${firstLineOf(again)}): running without it`);
        }
    }
}
