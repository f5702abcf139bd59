import type { ScratchExecutor, SqlExecutor } from "./types.ts";
export interface ExecutorOptions {
    /** Worker processes at most. Default: os.availableParallelism(). */
    size?: number;
    /** Time limit when run() is given none. Default 30 000 ms. */
    defaultTimeoutMs?: number;
    /** Start every worker now, so their start-up overlaps the caller's own work (e.g. reading a benchmark). */
    prestart?: boolean;
    /**
     * How a worker stuck in a query dies with this process: "pdeathsig" (Linux with setpriv; the kernel kills it) or
     * "thread" (a watchdog thread in the worker). Default: pdeathsig where available.
     */
    orphanGuard?: "pdeathsig" | "thread";
    /**
     * Rows per side a comparison reads at most (compare()); past it the outcome is `tooLarge`. Default and ceiling:
     * tools/sqlite/digest.js MAX_COMPARE_ROWS. Lower it for a tighter memory budget (8–16 bytes a row and side).
     */
    maxCompareRows?: number;
    /** How long a query waits for another process's lock on its database before failing as "database is locked". Default 5000. */
    busyTimeoutMs?: number;
}
export { singleQuoteLiteral } from "./dqs.js";
/**
 * Starts `count` worker processes now, for the next pools to adopt (createExecutor): the launcher calls it before
 * loading a command that runs SQL, so the workers start while that command's modules load, and from a process still
 * small enough to fork quickly. Spares nobody adopts stay idle and die with this process. Returns the live spares' pids.
 */
export declare function prestartWorkers(count: number): number[];
/** A new pool of worker processes. Call close() when done (idle workers never hold the process open). */
export declare function createExecutor(options?: ExecutorOptions): SqlExecutor & ScratchExecutor & {
    workerPids(): number[];
    readonly isClosed: boolean;
    readonly orphanGuard: "pdeathsig" | "thread";
};
/** The process-wide executor, created on first use (and again if someone closed it). */
export declare function getSharedExecutor(): SqlExecutor & ScratchExecutor;
