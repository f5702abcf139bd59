import { previewResult } from "../tools/format.ts";
import { resultFingerprint } from "../tools/benchmarks/score.ts";
import type { SqlExecutor } from "../tools/sqlite/types.ts";
import type { Execution } from "../state/sql-state.ts";
import type { NodeFactory } from "./types.ts";
import { DEFAULTS } from "./defaults.ts";

/** Runs one SQL string and keeps what a graph needs: a preview for prompts and a fingerprint for comparisons. */
export async function executeSql(
  executor: SqlExecutor,
  dbPath: string,
  sql: string,
  options: { timeoutMs?: number; previewRows?: number } = {},
): Promise<Execution> {
  if (!sql.trim()) return { sql, ok: false, errorKind: "sql", error: "no SQL to run", elapsedMs: 0 };
  const result = await executor.run(dbPath, sql, { timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs });
  if (!result.ok) return { sql, ok: false, errorKind: result.kind, error: result.message, elapsedMs: result.elapsedMs };
  return {
    sql,
    ok: true,
    preview: previewResult(result, { maxRows: options.previewRows ?? DEFAULTS.previewRows }),
    fingerprint: resultFingerprint(result.rows),
    elapsedMs: result.elapsedMs,
  };
}

/** Slot `execute`. In: dbPath, sql. Out: execution, and an attempt entry saying whether it ran. No model calls. */
export const executeNode: NodeFactory = (deps, options) => async (state) => {
  const execution = await executeSql(deps.executor, state.dbPath, state.sql, options);
  return {
    execution,
    attempts: [{ node: "execute", sql: state.sql, ok: execution.ok, note: execution.ok ? undefined : `${execution.errorKind}: ${execution.error}` }],
  };
};
