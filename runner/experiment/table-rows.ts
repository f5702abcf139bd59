import path from "node:path";
import { emptyInitial } from "../report/eval-report.ts";
import { type EvalRecord, isFailed, methodCalls, methodTokens } from "../run/results-record.ts";
import { exByDatabase, exByDifficulty } from "../../tools/benchmarks/score.ts";
import { summarizeOutcomes } from "../../graphs/outcome.ts";
import { bootstrapInterval } from "../report/statistics.ts";
import { type Interval, wilsonInterval } from "../report/eval-report.ts";
import type { Paper, RecipeRun } from "./recipe.ts";

// An experiment's rows, one per run: its figures (over repeats too), as table.json holds them and runExperiment returns.

export interface Prices {
  /** USD per million input tokens. */
  input: number;
  /** USD per million output tokens. */
  output: number;
}

/** A run's figures over its repeats (`--repeats N`): each repeat a full replication with its own seed. */
export interface RepeatFigures {
  seeds: number[];
  /** EX of each repeat (over all its selected questions), in seed order; null only in tables from before failures counted. */
  ex: (number | null)[];
  mean: number;
  /** Sample standard deviation (n − 1); 0 for one repeat. */
  sd: number;
  /** Questions answered in every repeat, and those among them right in some repeats and wrong in others. */
  compared: number;
  flips: number;
}

/** EX's 95 % interval: Wilson over the selected questions, or a bootstrap over questions × repeats (`--repeats`). */
export interface ExInterval extends Interval {
  over: "questions" | "repeats";
  /** Questions it is over (with repeats: the questions, each drawn with its repeats). */
  n: number;
}

/** One exact McNemar test of a row against its reference (one per repeat with --repeats). */
export interface PlannedTest {
  /** The repeat's seed; null for one run. */
  seed: number | null;
  /** Questions both answered, with gold: the pairs tested. */
  compared: number;
  /** Right in this row only (a corrector against its initial SQL: wrong → right), and in the reference only. */
  onlyRow: number;
  onlyReference: number;
  p: number;
  /** The row's EX minus the reference's on the pairs, in percentage points, and its paired 95 % interval (Newcombe). */
  difference: number;
  differenceInterval: Interval;
  /** Holm-adjusted over the experiment's planned comparisons (in this repeat): `family` tests. */
  holmP: number;
  family: number;
}

/** A row's planned comparison: its reference (a run, or a corrector's initial SQL) and the tests. */
export interface PlannedComparison {
  /** The reference run's name, or "initial SQL (NAME)" for a corrector's own initial SQL. */
  reference: string;
  tests: PlannedTest[];
  /** With repeats: the test pooled over them (per question, its share of right answers), Holm over the pooled tests. */
  pooled: PlannedTest | null;
  /** Why there is no test (the reference did not run, no pair). */
  notTested: string | null;
}

export interface RunRow {
  run: string;
  graph: string;
  initial: string | null;
  scenario: string | null;
  questions: number;
  /** Selected questions that never ran (no record: the run stopped, or was killed): wrong in EX, as a missing prediction. */
  unrun: number;
  correct: number;
  /**
   * EX % over every selected question: a failed or missing prediction is wrong, as the official scorers count it.
   * Mean over repeats.
   */
  ex: number;
  /** EX % over the answered questions only (null when none was answered); beside `ex` when they differ. */
  answeredEx: number | null;
  /** Questions failed or never run: the row's EX is a floor, not the method's figure (`--resume` completes it). */
  partial: boolean;
  /** EX's 95 % interval; null without questions. */
  exInterval: ExInterval | null;
  /** EX per difficulty over the questions that ran, a failed one wrong (mean over repeats), with its 95 % interval as EX's. */
  byDifficulty: { difficulty: string; count: number; ex: number; interval: ExInterval | null }[];
  /** EX per database over the answered questions (MAGIC Figure 4; mean over repeats). */
  byDatabase: { db: string; count: number; ex: number }[];
  /** Correctors with gold: EX of the initial SQL on the same questions, and the flips. */
  initialEx: number | null;
  wrongToRight: number | null;
  rightToWrong: number | null;
  correctionsApplied: number | null;
  /** The method's tokens per question: spent plus those the response cache served (the same on a cached rerun). */
  tokensPerQuestion: number;
  inputTokensPerQuestion: number;
  outputTokensPerQuestion: number;
  /** Tokens spent by this run (not served by the cache). */
  spentTokens: number;
  /** USD per question for the method's tokens at the given prices; null without prices. */
  costPerQuestion: number | null;
  callsPerQuestion: number;
  cachedCalls: number;
  calls: number;
  failed: number;
  /** The graph's outcome summary lines over the run's questions (what they went through: fallbacks, limits hit...). */
  outcomes: string[];
  /** The paper's figures for this row (from the recipe). */
  paper: Paper | null;
  /** Why the run did not run (a method sqlmend lacks, a `--set` value not given): its row has no figures of ours. */
  notRun: string | null;
  /** magic-guideline runs: stats.json's figures (Table 4's EX after the cycle and AVG_i, Figure 3's corrected within k). */
  guideline: GuidelineFigures | null;
  /** `--repeats N` (N > 1): the figures per repeat; the numbers above are means over them. */
  repeats: RepeatFigures | null;
  /** `--hold`: the run was made once, in repeat 1 with this seed, and every repeat read it (its figures are that run's). */
  held: { seed: number } | null;
  /** The row against its reference (`plannedComparisons`); null for a row with none. */
  versus: PlannedComparison | null;
  /** The recipe's `metrics` for the run (e.g. VES, TS), by name: the figure (mean over repeats), or "not computed: ..." with what it needs. */
  metrics: Record<string, number | string> | null;
  /** The model(s) the run ran with, from its run.json (a table over several models says which one ran each row). */
  model: string | null;
}

export interface GuidelineFigures {
  questions: number;
  failures: number;
  corrected: number;
  exAfter: number;
  avgIterations: number;
  correctedWithin: number[];
  maxIter: number;
  noManager: boolean;
}

/** A row for a run that did not run, or a guideline run (its figures from stats.json): no eval records. */
export function otherRowOf(run: string, spec: RecipeRun, what: { notRun?: string; guideline?: GuidelineFigures }): RunRow {
  return {
    ...rowOf(run, spec, []),
    graph: spec.graph ?? spec.kind,
    questions: what.guideline?.questions ?? 0,
    notRun: what.notRun ?? null,
    guideline: what.guideline ?? null,
  };
}

export const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const sampleSd = (xs: number[]) => (xs.length < 2 ? 0 : Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1)));

/**
 * A run's row over its records; `selected`: the questions the run was given (its run.json's, default the records'),
 * those without a record counted wrong as never run.
 */
export function rowOf(run: string, spec: RecipeRun, records: EvalRecord[], prices?: Prices, selected = records.length): RunRow {
  const answered = records.filter((r) => !isFailed(r));
  const n = records.length;
  const correct = answered.filter((r) => r.correct).length;
  const unrun = Math.max(0, selected - n);
  const all = n + unrun;
  // A failed question's record may still carry a verdict on partial SQL: it is wrong here, whatever it says.
  const scored = records.map((r) => (isFailed(r) ? { ...r, correct: false } : r));
  // The initial SQL's verdicts on the questions the corrector answered: the EX beside it is over the same ones.
  // A question written from an empty initial SQL corrected nothing: no flip of its is credited.
  const known = answered.filter((r) => r.initialCorrect !== undefined && !emptyInitial(r));
  // An as-given row scores its file: the file is what it reports, not SQL it corrects.
  const scoresFile = spec.graph === "as-given";
  const corrector = spec.initial !== undefined && !scoresFile;
  const sum = (f: (r: EvalRecord) => number) => records.reduce((a, r) => a + f(r), 0);
  const inTok = n ? sum((r) => methodTokens(r).input) / n : 0;
  const outTok = n ? sum((r) => methodTokens(r).output) / n : 0;
  return {
    run,
    graph: spec.graph ?? spec.kind,
    initial: scoresFile && spec.initial ? `file ${path.basename(spec.initial)}` : (spec.initial ?? null),
    scenario: corrector ? (spec.correct ?? "all") : null,
    questions: n,
    unrun,
    correct,
    ex: all ? (correct / all) * 100 : 0,
    answeredEx: answered.length ? (correct / answered.length) * 100 : null,
    partial: unrun > 0 || answered.length < n,
    exInterval: overQuestions(correct, all),
    byDifficulty: exByDifficulty(scored).map(({ difficulty, count, correct, ex }) => ({ difficulty, count, ex, interval: overQuestions(correct, count) })),
    byDatabase: exByDatabase(scored).map(({ db, count, ex }) => ({ db, count, ex })),
    initialEx: corrector && known.length ? (known.filter((r) => r.initialCorrect).length / known.length) * 100 : null,
    wrongToRight: corrector ? known.filter((r) => !r.initialCorrect && r.correct).length : null,
    rightToWrong: corrector ? known.filter((r) => r.initialCorrect && !r.correct).length : null,
    correctionsApplied: corrector ? records.filter((r) => r.correction === "applied").length : null,
    tokensPerQuestion: inTok + outTok,
    inputTokensPerQuestion: inTok,
    outputTokensPerQuestion: outTok,
    spentTokens: sum((r) => r.inputTokens + r.outputTokens),
    costPerQuestion: prices ? (inTok * prices.input + outTok * prices.output) / 1e6 : null,
    callsPerQuestion: n ? sum(methodCalls) / n : 0,
    cachedCalls: sum((r) => r.cachedCalls ?? 0),
    // Chat-model calls (the response cache's to serve); embedding requests are the vector cache's.
    calls: sum(methodCalls),
    failed: records.filter(isFailed).length,
    outcomes: summarizeOutcomes(records.map((r) => r.outcome)),
    paper: spec.paper ?? null,
    notRun: null,
    guideline: null,
    repeats: null,
    held: null,
    versus: null,
    metrics: null,
    model: null,
  };
}

const overQuestions = (correct: number, n: number): ExInterval | null => {
  const w = wilsonInterval(correct, n);
  return w && { ...w, over: "questions", n };
};
/**
 * Over questions × repeats: each question's verdict in every repeat (failed or missing: wrong), `extra` questions
 * selected but never run in any repeat counted wrong; a seeded bootstrap (`bootstrapInterval`).
 */
const overRepeats = (perRepeat: EvalRecord[][], keep: (r: EvalRecord) => boolean, extra: number): ExInterval | null => {
  const ids = [...new Set(perRepeat.flatMap((records) => records.filter(keep).map((r) => r.id)))];
  const byId = perRepeat.map((records) => new Map(records.map((r) => [r.id, r])));
  const verdicts = ids.map((id) => byId.map((m) => { const r = m.get(id); return r !== undefined && !isFailed(r) && r.correct; }));
  for (let i = 0; i < extra; i++) verdicts.push(perRepeat.map(() => false));
  const b = bootstrapInterval(verdicts);
  return b && { ...b, over: "repeats", n: verdicts.length };
};

/**
 * One row over a run's repeats (records per repeat, seed order): EX and costs are means; EX's sample sd and the
 * questions whose verdict changes between repeats (among those every repeat answered) say how stable the figure is.
 */
export function repeatedRowOf(run: string, spec: RecipeRun, perRepeat: EvalRecord[][], seeds: number[], prices?: Prices, selected?: number[]): RunRow {
  const all = perRepeat.map((records, k) => rowOf(run, spec, records, prices, selected?.[k] ?? records.length));
  if (all.length < 2) return all[0]!;
  // Every repeat counts, one whose questions all failed too (its EX is 0: a failed prediction is wrong).
  const rows = all;
  const answered = (r: RunRow) => r.questions - r.failed > 0;
  const first = rows[0]!;
  const avg = (f: (r: RunRow) => number) => mean(rows.map(f));
  const avgOrNull = (f: (r: RunRow) => number | null) => (rows.every((r) => f(r) !== null) ? avg((r) => f(r)!) : null);
  // Flips among the repeats that answered: a question answered by each of them, right in some and wrong in others.
  const verdicts = perRepeat.filter((_, i) => answered(all[i]!)).map((records) => new Map(records.filter((r) => !isFailed(r)).map((r) => [r.id, r.correct])));
  const ids = verdicts.length ? [...verdicts[0]!.keys()].filter((id) => verdicts.every((v) => v.has(id))) : [];
  const flips = ids.filter((id) => new Set(verdicts.map((v) => v.get(id))).size > 1).length;
  const difficulties = [...new Set(rows.flatMap((r) => r.byDifficulty.map((d) => d.difficulty)))];
  return {
    ...first,
    correct: avg((r) => r.correct),
    unrun: all.reduce((a, r) => a + r.unrun, 0),
    ex: avg((r) => r.ex),
    answeredEx: avgOrNull((r) => r.answeredEx),
    partial: all.some((r) => r.partial),
    exInterval: overRepeats(perRepeat, () => true, Math.max(0, ...all.map((r) => r.questions + r.unrun)) - new Set(perRepeat.flat().map((r) => r.id)).size),
    byDifficulty: difficulties.map((difficulty) => {
      const at = rows.map((r) => r.byDifficulty.find((d) => d.difficulty === difficulty)).filter((d) => d !== undefined);
      return { difficulty, count: at[0]!.count, ex: mean(at.map((d) => d.ex)), interval: overRepeats(perRepeat, (r) => (r.difficulty ?? "unknown") === difficulty, 0) };
    }),
    byDatabase: [...new Set(rows.flatMap((r) => r.byDatabase.map((d) => d.db)))].sort().map((db) => {
      const at = rows.map((r) => r.byDatabase.find((d) => d.db === db)).filter((d) => d !== undefined);
      return { db, count: at[0]!.count, ex: mean(at.map((d) => d.ex)) };
    }),
    initialEx: avgOrNull((r) => r.initialEx),
    wrongToRight: avgOrNull((r) => r.wrongToRight),
    rightToWrong: avgOrNull((r) => r.rightToWrong),
    correctionsApplied: avgOrNull((r) => r.correctionsApplied),
    tokensPerQuestion: avg((r) => r.tokensPerQuestion),
    inputTokensPerQuestion: avg((r) => r.inputTokensPerQuestion),
    outputTokensPerQuestion: avg((r) => r.outputTokensPerQuestion),
    spentTokens: all.reduce((a, r) => a + r.spentTokens, 0),
    costPerQuestion: avgOrNull((r) => r.costPerQuestion),
    callsPerQuestion: avg((r) => r.callsPerQuestion),
    cachedCalls: all.reduce((a, r) => a + r.cachedCalls, 0),
    calls: all.reduce((a, r) => a + r.calls, 0),
    failed: all.reduce((a, r) => a + r.failed, 0),
    outcomes: summarizeOutcomes(perRepeat.flat().map((r) => r.outcome)),
    repeats: { seeds, ex: all.map((r) => r.ex), mean: avg((r) => r.ex), sd: sampleSd(rows.map((r) => r.ex)), compared: ids.length, flips },
  };
}
