/**
 * What one question went through, as `results.jsonl` records it under `outcome` and `report.md`, `compare` and
 * `inspect` show it: flat values a graph's spec reads off a finished thread's state (`GraphSpec.outcome`). The
 * launcher knows no method: it sums whatever keys the graph declares, by their type.
 */
import { UNCHANGED_RETRY } from "../state/unchanged-retry.ts";

export type OutcomeValue = string | number | boolean | null;
export type Outcome = Record<string, OutcomeValue>;

export interface OutcomeSpec {
  /** The outcome of a finished thread (the state as the graph left it). */
  of(state: Record<string, unknown>): Outcome;
  /** Lines that sum a run's outcomes (default: `summarizeOutcomes`). */
  summarize?(outcomes: Outcome[]): string[];
  /**
   * Oracle figures, which need the gold: `eval` calls it (only when the question has gold SQL) with `isGold`, the
   * scorer's verdict on one SQL. The state never holds the gold, so these keys exist only in eval's records; name them
   * `oracle…` so nobody reads them as something the method could know.
   */
  oracle?(state: Record<string, unknown>, isGold: (sql: string) => Promise<boolean>): Promise<Outcome>;
  /**
   * The step that makes the method what it is, read off one question's outcome (TS-SQL: a test case built). A run
   * where it happened for no question is degenerate (`degenerateLine`): the method ran as its fallback throughout.
   */
  defining?: { step: string; happened(outcome: Outcome): boolean };
}

/**
 * The line a degenerate run gets on its summary and in report.md (and `--strict` turns into a non-zero exit): the
 * graph's defining step happened in none of the questions with an outcome; undefined otherwise, or with no outcome.
 */
export function degenerateLine(spec: { defining?: OutcomeSpec["defining"] } | undefined, outcomes: (Outcome | undefined)[]): string | undefined {
  const defining = spec?.defining;
  const present = outcomes.filter((o): o is Outcome => !!o);
  if (!defining || !present.length || present.some((o) => defining.happened(o))) return undefined;
  return `DEGENERATE RUN: ${defining.step} in none of the ${present.length} questions; the method ran as its fallback throughout (see "What the questions went through")`;
}

/** What every graph's state says (`state/sql-state.ts`): execution-error fixes, whether the answer executes, calls that got no reply. */
export function sharedOutcome(state: Record<string, unknown>): Outcome {
  const execution = state.execution as { ok?: boolean; cut?: string } | null | undefined;
  const usage = state.usage as { failed?: number; fallbacks?: number; reused?: number } | undefined;
  return {
    fixRounds: typeof state.fixRounds === "number" ? state.fixRounds : 0,
    finalSqlExecutes: execution ? execution.ok === true : null,
    failedCalls: usage?.failed ?? 0,
    // Only when it happened (--embedding-fallback lexical): ranked lexically after the embedding endpoint failed.
    ...(usage?.fallbacks ? { embeddingFallbacks: usage.fallbacks } : {}),
    // Only when it happened: calls answered with the reply of an identical request this question sent at temperature 0.
    ...(usage?.reused ? { reusedReplies: usage.reused } : {}),
    // Only when it happened: loops that stopped because their next request was one already answered (an unchanged retry).
    ...unchangedRetryStopsOf(state),
    // Only when it happened: the final result's kept rows were cut by bytes (a huge cell, a wide result).
    ...(execution?.cut ? { resultCutByBytes: true } : {}),
  };
}

function unchangedRetryStopsOf(state: Record<string, unknown>): Outcome {
  const attempts = Array.isArray(state.attempts) ? (state.attempts as { note?: string }[]) : [];
  const stops = attempts.filter((a) => a.note?.startsWith(UNCHANGED_RETRY)).length;
  return stops ? { unchangedRetryStops: stops } : {};
}

/** A finished thread's outcome: the shared fields, then what its graph declares (`GraphSpec.outcome`). */
export function outcomeOf(spec: { outcome?: OutcomeSpec }, state: Record<string, unknown>): Outcome {
  return { ...sharedOutcome(state), ...spec.outcome?.of(state) };
}

const pct = (n: number, d: number) => `${d ? ((n / d) * 100).toFixed(1) : "-"} %`;

/**
 * One line per key, over the outcomes that have it: booleans as the share true ("consensus: 81.0 % (81/100)"), numbers
 * as mean and max, strings as their distribution, most frequent first ("stopReason: consensus 81.0 %, round limit 19.0 %").
 */
export function summarizeOutcomes(outcomes: (Outcome | undefined)[]): string[] {
  const present = outcomes.filter((o): o is Outcome => !!o);
  const keys = [...new Set(present.flatMap((o) => Object.keys(o)))];
  const lines: string[] = [];
  for (const key of keys) {
    const values = present.map((o) => o[key]).filter((v) => v !== undefined && v !== null);
    if (!values.length) continue;
    if (values.every((v) => typeof v === "boolean")) {
      const yes = values.filter((v) => v).length;
      lines.push(`${key}: ${pct(yes, values.length)} (${yes}/${values.length})`);
    } else if (values.every((v) => typeof v === "number")) {
      const numbers = values as number[];
      const mean = numbers.reduce((a, b) => a + b, 0) / numbers.length;
      lines.push(`${key}: mean ${mean.toFixed(2)}, max ${Math.max(...numbers)} (${numbers.length} questions)`);
    } else {
      const counts = new Map<string, number>();
      for (const v of values) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
      const shown = [...counts].sort((a, b) => b[1] - a[1]).map(([v, n]) => `${v} ${pct(n, values.length)}`);
      lines.push(`${key}: ${shown.join(", ")} (${values.length} questions)`);
    }
  }
  return lines;
}
