import { describeCut, previewResult } from "../tools/format.ts";
import { resultFingerprint } from "../tools/benchmarks/score.ts";
import { MAX_COMPARE_ROWS } from "../tools/sqlite/digest.js";
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
  const previewRows = options.previewRows ?? DEFAULTS.previewRows;
  // Only the preview's rows come back; the worker fingerprints the whole result as it streams (no size exhausts memory).
  const result = await executor.run(dbPath, sql, { timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs, maxRows: previewRows, fingerprint: true });
  if (!result.ok) return { sql, ok: false, errorKind: result.kind, error: result.message, elapsedMs: result.elapsedMs };
  // An executor that ignores the options returns every row: fingerprint them here, as before.
  const fingerprint = result.fingerprint ?? (result.truncated ? undefined : resultFingerprint(result.rows));
  // The fingerprint covers the whole result; only the rows kept for the preview were cut: said in the state.
  const cut = describeCut(result);
  return {
    sql,
    ok: true,
    preview: previewResult(result, { maxRows: previewRows }),
    ...(cut ? { cut } : {}),
    ...(fingerprint
      ? { fingerprint }
      : {
          error:
            result.rowCount > MAX_COMPARE_ROWS
              ? `not fingerprinted: ${result.rowCount} rows is past the fingerprint's cap of ${MAX_COMPARE_ROWS}`
              : "not fingerprinted: the executor kept only the preview's rows and sent no fingerprint",
        }),
    elapsedMs: result.elapsedMs,
  };
}

/** Slot `execute`. In: dbPath, sql. Out: execution, and an attempt entry saying whether it ran. No model calls. */
export const executeNode: NodeFactory = (deps, options) => async (state) => {
  const execution = await executeSql(deps.executor, state.dbPath, state.sql, options);
  return {
    execution,
    attempts: [{ node: "execute", sql: state.sql, ok: execution.ok, note: execution.ok ? execution.error : `${execution.errorKind}: ${execution.error}` }],
  };
};
