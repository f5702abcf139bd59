import type { SqlStateUpdate, SqlStateValue } from "../state/sql-state.ts";
import { type ModelCallRecord, usageOfCalls } from "../state/usage.ts";
import { type ChatInput, callModel } from "../tools/llm.ts";
import type { ModelProvider } from "../tools/models.ts";
import { extractSql } from "../tools/reply.ts";

/** A model node's update: its own fields plus the records of its calls and their usage (the node contract). */
export function withCalls(update: SqlStateUpdate, records: ModelCallRecord[]): SqlStateUpdate {
  return records.length ? { ...update, calls: records, usage: usageOfCalls(records) } : update;
}

/**
 * The step every SQL-writing node shares: ask a role, take the SQL out of its reply, and on an unusable reply keep
 * the previous SQL and say why. `extra` joins the update either way (e.g. a round counter).
 */
export async function writeSqlStep(
  models: ModelProvider,
  role: string,
  prompt: ChatInput[],
  node: string,
  state: Pick<SqlStateValue, "sql">,
  extra: SqlStateUpdate = {},
): Promise<SqlStateUpdate> {
  const call = await callModel(models, role, prompt);
  const sql = call.ok ? extractSql(call.text) : null;
  if (!sql) {
    const why = call.record.error ?? "reply holds no SQL";
    call.record.error = why;
    return withCalls({ ...extra, attempts: [{ node, sql: state.sql, ok: false, note: `${why}; kept the previous SQL` }] }, [call.record]);
  }
  return withCalls({ ...extra, sql, attempts: [{ node, sql, ok: true }] }, [call.record]);
}

export const DEFAULTS = {
  maxFixRounds: 3,
  fewShot: 0,
  schemaMaxChars: 24_000,
  previewRows: 10,
  timeoutMs: 30_000,
} as const;
