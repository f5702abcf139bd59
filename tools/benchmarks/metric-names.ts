/**
 * The metrics `score` computes, by name, and VES's rounds: what `score`'s options declare (runner/score/score-config.ts),
 * apart from the scorer so `sqlmend score --help` loads nothing that scores.
 */
export type Metric = "ex" | "ves" | "r-ves" | "soft-f1" | "ts";
export const METRICS: readonly Metric[] = ["ex", "ves", "r-ves", "soft-f1", "ts"];

/** Rounds per question (the official 100), fewer for slow queries past VES_BUDGET_MS (at least 10). */
export const DEFAULT_VES_ITERATIONS = 100;
