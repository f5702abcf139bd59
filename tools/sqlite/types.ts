/**
 * The contract of the SQL executor (tools/sqlite/executor.ts).
 *
 * Cells keep SQLite's storage classes exactly:
 *   INTEGER -> bigint (always, so 64-bit values keep their precision and 1 is not 1.0)
 *   REAL    -> number
 *   TEXT    -> string
 *   BLOB    -> Uint8Array
 *   NULL    -> null
 */
export type SqlValue = null | bigint | number | string | Uint8Array;
export type Row = SqlValue[];

export type ExecErrorKind =
  /** The statement is not a single read-only statement (or uses a refused feature). */
  | "rejected"
  /** The time limit ran out; the query was stopped. */
  | "timeout"
  /** SQLite raised an error while preparing or running the statement. */
  | "sql"
  /** The database file is missing, unreadable or corrupt. */
  | "database"
  /** The executor itself failed (worker crash, closed pool). */
  | "internal";

export interface ExecOptions {
  /** Milliseconds before the query is stopped. Default 30 000 (BIRD's scorer). */
  timeoutMs?: number;
  /** Keep at most this many rows in `rows` (rowCount still counts all). Default: all rows. */
  maxRows?: number;
  /** Run the statement this many times and report each run's time (VES). Default 1. */
  repeat?: number;
}

export interface ExecSuccess {
  ok: true;
  columns: string[];
  rows: Row[];
  /** Rows the statement produced, including any beyond maxRows. */
  rowCount: number;
  /** True when maxRows cut rows off. */
  truncated: boolean;
  /** Wall time of one run inside the worker, milliseconds. */
  elapsedMs: number;
  /** With repeat > 1: every run's time, milliseconds. */
  runTimesMs?: number[];
  /** Set when the executor rewrote double-quoted string literals ("x" → 'x') as Python's sqlite3 accepts them. */
  executedSql?: string;
}

export interface ExecFailure {
  ok: false;
  kind: ExecErrorKind;
  /** One line, says why. */
  message: string;
  elapsedMs: number;
}

export type ExecResult = ExecSuccess | ExecFailure;

export interface SqlExecutor {
  /** Runs one untrusted statement against a SQLite file, read-only. Never throws for bad SQL or files. */
  run(dbPath: string, sql: string, options?: ExecOptions): Promise<ExecResult>;
  /** Kills the worker processes. Pending queries fail with kind "internal". */
  close(): Promise<void>;
}
