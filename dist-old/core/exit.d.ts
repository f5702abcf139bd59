/**
 * sqlmend's exit statuses, defined once: what the launcher returns and what the run API reports as `exitCode`.
 * Scripts and CI tell them apart: 3 (work failed or not run, `--resume` retries it) is neither a user error nor usage.
 */
export declare const EXIT: {
    /** Done: everything asked for was done. */
    readonly ok: 0;
    /** A user error (one line on stderr): a missing file, a refused resume, an unknown model. */
    readonly error: 1;
    /** Wrong flags or arguments: the command's usage is printed. */
    readonly usage: 2;
    /** Finished, but some work failed or was not run (questions, a merge): `--resume` runs it again. */
    readonly incomplete: 3;
};
/**
 * The signals that stop a run as Ctrl-C does — a batch scheduler's or a container's stop (SIGTERM), a closed terminal
 * (SIGHUP) — and the exit status each gives: 128 + the signal's number, as a shell reports a job it killed.
 */
export declare const STOP_SIGNALS: {
    readonly SIGINT: 130;
    readonly SIGTERM: 143;
    readonly SIGHUP: 129;
};
export type StopSignal = keyof typeof STOP_SIGNALS;
/** Whether an exit status says a stop signal stopped the run (130, 143, 129). */
export declare const isStopStatus: (code: number) => boolean;
