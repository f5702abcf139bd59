import type { SqlStateUpdate } from "../state/sql-state.ts";
import { type ModelCallRecord, usageOfCalls } from "../state/usage.ts";

/** A model node's update: its own fields plus the records of its calls and their usage (the node contract). */
export function withCalls(update: SqlStateUpdate, records: ModelCallRecord[]): SqlStateUpdate {
  return records.length ? { ...update, calls: records, usage: usageOfCalls(records) } : update;
}

export const DEFAULTS = {
  maxFixRounds: 3,
  fewShot: 0,
  schemaMaxChars: 24_000,
  previewRows: 10,
  timeoutMs: 30_000,
} as const;
