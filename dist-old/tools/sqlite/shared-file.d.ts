import Database from "better-sqlite3";
/** Another connection holds the file: wait or give up, but the file is fine. */
export declare const isSqliteBusy: (error: unknown) => boolean;
/** SQLite's own word that the file is not a database or is corrupt. */
export declare const isSqliteDamaged: (error: unknown) => boolean;
/** Runs `step`, again while SQLite says the file is busy, until `deadline` (then the busy error is thrown). */
export declare function retryWhileBusy<T>(step: () => T, deadline: number): T;
export interface SharedFileOptions {
    /** How long a statement waits for another process's lock (SQLite's busy timeout), and the set-up's deadline. */
    busyMs: number;
    /** `synchronous = NORMAL`: a killed process loses nothing committed; a power cut at most the last writes. */
    synchronousNormal?: boolean;
    /** Runs first, before WAL is switched on: refuse a foreign file before anything is written to it, size a new file's pages. */
    before?: (db: Database.Database) => void;
    /** Creates the tables; run in one IMMEDIATE transaction, retried while another process holds the file. */
    schema?: string;
}
/** Opens `file` (creating its folder) for sharing with other processes. Errors are SQLite's, for the caller to name. */
export declare function openSharedSqlite(file: string, options: SharedFileOptions): Database.Database;
/** Thrown by a cache's `verify`: a file of an older layout, set aside like a damaged one. */
export declare class StaleCacheFile extends Error {
}
/**
 * A cache file (replies, vectors): what is lost with it can be asked again, so it never stops a run. Opened shared;
 * `verify` (prepare statements, check the layout) runs on it. A damaged file — SQLite's "corrupt" or "not a
 * database", or `StaleCacheFile` — is renamed `<file>.damaged-<time>` and a new one started; a busy or unreadable one
 * is left alone and not used. Each is said through `warn`; `broken` is the reason when there is no database.
 */
export declare function openCacheFile(file: string, options: SharedFileOptions & {
    what: string;
    verify?: (db: Database.Database) => void;
}, warn: (line: string) => void): {
    db: Database.Database;
    broken?: undefined;
} | {
    db?: undefined;
    broken: string;
};
