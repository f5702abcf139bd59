import path from "node:path";
import { type ConfigInput, type ConfigOf, checkConfig, defineConfig, inApiWords, opt, optionUsageError } from "../../core/config.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import { describeCut } from "../../tools/format.ts";
import { createExecutor } from "../../tools/sqlite/executor.ts";
import type { ExecErrorKind, ExecSuccess } from "../../tools/sqlite/types.ts";

// `sqlmend exec` as a function: one untrusted statement run the way the methods run SQL (read-only, in a killable
// worker process), its result or its error returned as data. Loads no LangChain: the command starts fast.

/** `exec`'s options (the statement and the database are required). */
export const EXEC_CONFIG = defineConfig({
  db: { type: "string", metavar: "FILE", help: "the .sqlite file (required)" },
  sql: { type: "string", metavar: "SQL", help: "the statement: one read-only SELECT/WITH/VALUES (required)" },
  timeoutMs: { type: "int", min: 1, metavar: "N", help: "stop the query after N milliseconds (default 30000)" },
  maxRows: { type: "int", min: 0, metavar: "N", help: "rows to show (default 50; 0 shows all)" },
});

export type ExecConfig = ConfigOf<typeof EXEC_CONFIG>;
export type ExecOptions = ConfigInput<typeof EXEC_CONFIG> & { db: string; sql: string };

/**
 * A statement's result: the executor's (columns, kept rows in SQLite's storage classes, the row count, what was
 * truncated, the time) and what the byte budget cut in one line; or why it failed.
 */
export type ExecOutcome =
  | (Pick<ExecSuccess, "ok" | "columns" | "rows" | "rowCount" | "truncated" | "cellsShortened" | "bytesCut" | "elapsedMs"> & { cut?: string })
  | { ok: false; kind: ExecErrorKind; message: string; elapsedMs: number };

/** Runs one statement on a SQLite file (paths from `io.cwd`). A refused statement, a timeout or a bad file is `ok: false`, never a throw. */
export async function exec(options: ExecOptions, io: CliIO = defaultIO()): Promise<ExecOutcome> {
  return inApiWords("exec", () => execSql(checkConfig("exec", EXEC_CONFIG, options), io));
}

/** The body `exec` and the launcher share, on a checked config. */
export async function execSql(config: ExecConfig, io: Pick<CliIO, "cwd">): Promise<ExecOutcome> {
  if (config.db === undefined) throw optionUsageError`${opt("db")} FILE is required`;
  if (config.sql === undefined) throw optionUsageError`${opt("sql")} is required: one statement`;
  const maxRows = config.maxRows ?? 50;
  // A private one-process pool, closed at once, so the command exits promptly.
  const executor = createExecutor({ size: 1 });
  let result;
  try {
    result = await executor.run(path.resolve(io.cwd, config.db), config.sql, { timeoutMs: config.timeoutMs ?? 30_000, ...(maxRows > 0 ? { maxRows } : {}) });
  } finally {
    await executor.close();
  }
  if (!result.ok) return { ok: false, kind: result.kind, message: result.message, elapsedMs: result.elapsedMs };
  // What the worker's byte budget cut (tools/sqlite/keep.js) is said, never silent.
  const cut = describeCut(result);
  return {
    ok: true,
    columns: result.columns,
    rows: result.rows,
    rowCount: result.rowCount,
    truncated: result.truncated,
    ...(result.cellsShortened !== undefined ? { cellsShortened: result.cellsShortened } : {}),
    ...(result.bytesCut !== undefined ? { bytesCut: result.bytesCut } : {}),
    ...(cut ? { cut } : {}),
    elapsedMs: result.elapsedMs,
  };
}
