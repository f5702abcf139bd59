// The histogram of a memory's error types, as `memo build` and `memo show` print it.
import { ERROR_TYPES } from "../../../tools/retrieval/memory-store.ts";

/** A line per error type: its count, its share and a bar. */
export function errorTypeHistogram(counts: Record<string, number>): string {
  const max = Math.max(1, ...Object.values(counts));
  const total = Object.values(counts).reduce((a, b) => a + b, 0) || 1;
  return ERROR_TYPES.map((t) => `  ${t.padEnd(26)} ${String(counts[t] ?? 0).padStart(6)}  ${(((counts[t] ?? 0) / total) * 100).toFixed(1).padStart(5)}%  ${"#".repeat(Math.round(((counts[t] ?? 0) / max) * 30))}`).join("\n");
}
