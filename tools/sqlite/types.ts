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
  /**
   * Keep rows only up to this many bytes (text counts its UTF-16 units, a blob its bytes, other cells 8); rowCount
   * still counts all. Default 32 MiB (./keep.js MAX_KEPT_BYTES).
   */
  maxBytes?: number;
  /** Shorten each kept cell to this many bytes (text: UTF-16 units). Default 1 MiB (./keep.js MAX_CELL_BYTES). */
  maxCellBytes?: number;
  /** Run the statement this many times and report each run's time (VES). Default 1. */
  repeat?: number;
  /**
   * Also return the whole result's fingerprint (tools/sqlite/digest.js resultFingerprint), computed in the worker as
   * rows stream out, so maxRows can keep few rows. Absent when the result is past the digest's row cap.
   */
  fingerprint?: boolean;
}

export interface ExecSuccess {
  ok: true;
  columns: string[];
  rows: Row[];
  /** Rows the statement produced, including any beyond maxRows. */
  rowCount: number;
  /** True when rows were left out (maxRows, maxBytes) or a kept cell was shortened (maxCellBytes). */
  truncated: boolean;
  /** Kept cells shortened to maxCellBytes (absent when none was). */
  cellsShortened?: number;
  /** Rows were left out because the kept rows reached maxBytes (absent otherwise). */
  bytesCut?: boolean;
  /** Wall time of one run inside the worker, milliseconds. */
  elapsedMs: number;
  /** With repeat > 1: every run's time, milliseconds. */
  runTimesMs?: number[];
  /** Set when the executor rewrote double-quoted string literals ("x" → 'x') as Python's sqlite3 accepts them. */
  executedSql?: string;
  /** With the `fingerprint` option: the whole result's fingerprint (absent past the row cap). */
  fingerprint?: string;
}

export interface ExecFailure {
  ok: false;
  kind: ExecErrorKind;
  /** One line, says why. */
  message: string;
  elapsedMs: number;
}

export type ExecResult = ExecSuccess | ExecFailure;

export interface CompareOptions {
  /** bird: set of row tuples; spider: test-suite-sql-eval's result_eq (bags, permutable columns). */
  semantics: "bird" | "spider";
  /** Spider semantics: rows must come in the same order (gold has ORDER BY). */
  orderMatters?: boolean;
  /** Milliseconds per query (gold and prediction each), from that query's start. Default: the executor's. */
  timeoutMs?: number;
  /** Also return the predicted result's fingerprint (tools/sqlite/digest.js resultFingerprint). */
  fingerprint?: boolean;
}

/** One side of a comparison: its outcome without rows, and the SQL actually run (double-quoted literals rewritten). */
export type SideOutcome = Omit<ExecSuccess, "rows" | "executedSql" | "fingerprint"> | ExecFailure;
export type CompareSide = SideOutcome & { sql: string };

export interface CompareOutcome {
  pred: CompareSide;
  gold: CompareSide;
  /** Both ran and their results match under the semantics. */
  correct: boolean;
  /**
   * Set when a side returned more rows than the comparison keeps hashes of (tools/sqlite/digest.js MAX_COMPARE_ROWS,
   * MAX_PERMUTATION_CELLS): the worker stopped reading it, `correct` is false, and this says which side and why.
   */
  tooLarge?: string;
  /** Right past the cap: the sides were read whole and their streamed digests are identical (which cap, said). */
  streamed?: string;
  /** With `fingerprint`: the predicted result's fingerprint when it ran. */
  fingerprint?: string;
}

export interface TimeOptions {
  /** Timed rounds at most; each round runs every query, the order reversed every other round (ABBA). */
  iterations: number;
  /** Stop adding rounds once this much time went by (after at least 10 rounds); none: every round. */
  budgetMs?: number;
  /** Milliseconds per run of a query. Default: the executor's. */
  timeoutMs?: number;
}

/** Each query's run times, milliseconds, by query then round. */
export type TimedRuns = { ok: true; timesMs: number[][] } | ExecFailure;

export interface SqlExecutor {
  /** Runs one untrusted statement against a SQLite file, read-only. Never throws for bad SQL or files. */
  run(dbPath: string, sql: string, options?: ExecOptions): Promise<ExecResult>;
  /**
   * Runs a prediction and its gold query on one database and compares the results where they were produced: only
   * the verdict, row counts and errors come back, never the rows. Optional: the scorer falls back to two run()s.
   */
  compare?(dbPath: string, predSql: string, goldSql: string, options: CompareOptions): Promise<CompareOutcome>;
  /**
   * Times the queries as BIRD's evaluation_ves.py does — each run on a fresh connection, `cursor.execute` timed (the
   * statement prepared and stepped to its first row) — alternating them (ABBA) and keeping the fastest of a few runs
   * per timed run, so a busy machine weighs on both alike: one untimed round, then `iterations` rounds (fewer past
   * `budgetMs`). Optional: the scorer falls back to run() in the same order.
   */
  time?(dbPath: string, queries: string[], options: TimeOptions): Promise<TimedRuns>;
  /** Ends the idle worker processes that ran at least `minJobs` jobs (new ones start if more queries come); how many. Optional. */
  releaseIdle?(minJobs?: number): Promise<number>;
  /** Kills the worker processes. Pending queries fail with kind "internal". */
  close(): Promise<void>;
}

/** A JSON cell of a scratch table: what model-written test data may hold. */
export type ScratchCell = null | number | string | boolean;

export interface ScratchOptions {
  /** Milliseconds for building, loading and querying. Default: the executor's default. */
  timeoutMs?: number;
  /** Keep at most this many rows per query result. */
  maxRows?: number;
}

export interface ScratchSuccess {
  ok: true;
  /** Rows kept per table (rows that violate the schema are not kept). */
  loaded: Record<string, number>;
  /** One line per rejected row or table: which, and the constraint it violates. */
  errors: string[];
  /** Schema objects the scratch database could not build (e.g. a virtual table whose module is missing). */
  skipped: string[];
  /** One result per query, in order. */
  results: ExecResult[];
  elapsedMs: number;
}

export type ScratchResult = ScratchSuccess | ExecFailure;

/**
 * Scratch databases (TS-SQL's test data): an in-memory database built from the real file's CREATE statements
 * (constraints enforced, foreign keys on), loaded with the given rows, queried read-only, then discarded. The real
 * file is read for its schema only.
 */
export interface ScratchExecutor {
  runScratch(dbPath: string, tables: Record<string, Record<string, ScratchCell>[]>, queries: string[], options?: ScratchOptions): Promise<ScratchResult>;
}
