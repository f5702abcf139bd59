/**
 * sqlmend's exit statuses, defined once: what the launcher returns and what the run API reports as `exitCode`.
 * Scripts and CI tell them apart: 3 (work failed or not run, `--resume` retries it) is neither a user error nor usage.
 */
export const EXIT = {
  /** Done: everything asked for was done. */
  ok: 0,
  /** A user error (one line on stderr): a missing file, a refused resume, an unknown model. */
  error: 1,
  /** Wrong flags or arguments: the command's usage is printed. */
  usage: 2,
  /** Finished, but some work failed or was not run (questions, a merge): `--resume` runs it again. */
  incomplete: 3,
  /** `eval --strict`: finished, but the method's defining step happened in no question (a degenerate run). */
  degenerate: 4,
} as const;

/**
 * The signals that stop a run as Ctrl-C does — a batch scheduler's or a container's stop (SIGTERM), a closed terminal
 * (SIGHUP) — and the exit status each gives: 128 + the signal's number, as a shell reports a job it killed.
 */
export const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

/** Whether an exit status says a stop signal stopped the run (130, 143, 129). */
export const isStopStatus = (code: number): boolean => (Object.values(STOP_SIGNALS) as number[]).includes(code);
