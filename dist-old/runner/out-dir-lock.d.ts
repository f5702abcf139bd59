/** The lock file of an output directory: one process writes a directory at a time. */
export declare const LOCK_FILE = "run.lock";
/**
 * Takes `outDir/run.lock` (created with O_EXCL: pid, host, start time, command), or refuses with a one-line error
 * naming the process that holds it. A lock whose process is gone (killed) is taken over under a second O_EXCL file
 * (`run.lock.takeover`), so two processes finding the same stale lock do not both take it. Released on `release()`
 * and on exit. Returns a note when a stale lock was taken over. `file`: another lock file, for an output that is one
 * file (`memo build`'s memory locks `<memory>.lock`).
 */
export declare function lockOutDir(outDir: string, command: string, file?: string): {
    release: () => void;
    note?: string;
};
