import path from "node:path";
import { emptyInitial } from "../report/eval-report.ts";
import { type EvalRecord, isFailed, methodCalls, methodTokens } from "../run/results-record.ts";
import { exByDatabase, exByDifficulty, NO_GOLD } from "../../tools/benchmarks/score.ts";
import { summarizeOutcomes } from "../../graphs/outcome.ts";
import { bootstrapInterval, holm, type Interval, mcnemarP, pairedDifference, wilsonInterval } from "../report/comparison.ts";
import { type Paper, type Recipe, type RecipeRun, referenceOf, type TableSpec } from "./recipe.ts";
import type { ExperimentHtmlRow } from "../report/report-html.ts";

/** An experiment's rows (one per run: its figures, over repeats too) and table.md. */

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

/** Names of the metrics a recipe run may ask beyond EX, as the papers print them. */
export const METRIC_TITLES: Record<string, string> = { ves: "VES", "r-ves": "R-VES", "soft-f1": "Soft F1", ts: "TS %" };
const metricText = (value: number | string) => (typeof value === "number" ? f2(value) : value);
/** "; VES 80.12; TS % not computed: needs --ts-dir DIR": the run's metrics after its EX. */
const metricsText = (r: RunRow) => Object.entries(r.metrics ?? {}).map(([m, v]) => `; ${METRIC_TITLES[m] ?? m} ${metricText(v)}`).join("");
const figuresText = (p: Paper) => Object.entries(p.figures).map(([k, v]) => `${k} ${v}`).join("; ");
const f2 = (n: number | null) => (n === null ? "-" : n.toFixed(2));
const intervalText = (i: Interval | null) => (i ? ` [${f2(i.low)}, ${f2(i.high)}]` : "");
/** EX as printed with its 95 % interval: "58.33 [48.10, 67.90]", or "58.33 ± 2.41 [52.30, 64.36]" over repeats. */
const exText = (r: RunRow) => `${r.repeats ? `${f2(r.ex)} ± ${f2(r.repeats.sd)}` : r.held ? `${f2(r.ex)} (held)` : f2(r.ex)}${intervalText(r.exInterval)}${partialText(r)}`;
/** A row with failed or never-run questions: its EX counts them wrong; the answered-only EX beside it. */
export const partialText = (r: RunRow) => {
  if (!r.partial) return "";
  const failed = r.failed ? `${countText(r.failed)} failed` : "";
  const unrun = r.unrun ? `${countText(r.unrun)} not run` : "";
  const answered = r.repeats ? f2(r.answeredEx) : `${f2(r.answeredEx)} (${r.correct} of ${r.questions - r.failed})`;
  return ` partial (${[failed, unrun].filter(Boolean).join(", ")}; answered only: ${answered})`;
};
const countText = (n: number | null) => (n === null ? "" : Number.isInteger(n) ? String(n) : n.toFixed(1));
const usd = (n: number | null) => (n === null ? "-" : `$${n < 0.01 ? n.toFixed(5) : n.toFixed(4)}`);

/** Ours beside the paper's: a line per row that has paper figures, ours first (or why it did not run). */
function besidePaper(rows: RunRow[]): string[] {
  const withPaper = rows.filter((r) => r.paper);
  if (!withPaper.length) return [];
  const lines = ["## Ours beside the paper's", "", "| run | paper's row | ours | paper's figures | paper's table, model | set-up differs from the paper's |", "|---|---|---|---|---|---|"];
  for (const r of withPaper) {
    const difficulties = r.byDifficulty.length > 1 ? `; ${r.byDifficulty.map((d) => `${d.difficulty} ${f2(d.ex)}`).join(", ")}` : "";
    const ours = r.notRun
      ? `not run: ${r.notRun}`
      : r.guideline
        ? `EX ${f2(r.guideline.exAfter)} after the cycle; AVG_i ${r.guideline.avgIterations.toFixed(2)}; corrected within k=1..${r.guideline.maxIter}: ${r.guideline.correctedWithin.join(", ")} of ${r.guideline.failures}`
        : r.repeats
          ? `EX ${exText(r)} over ${r.repeats.ex.filter((x) => x !== null).length} repeats${difficulties}`
          : `EX ${f2(r.ex)} (${r.correct}/${r.questions + r.unrun})${partialText(r)}${difficulties}${r.held ? ", held: one run every repeat read" : ""}`;
    const more = r.notRun ? "" : `${metricsText(r)}${r.model ? `; with ${r.model}` : ""}`;
    lines.push(`| ${r.run} | ${r.paper!.row} | ${ours}${more} | ${figuresText(r.paper!)} | ${r.paper!.source}; ${r.paper!.model}${r.paper!.note ? ` (${r.paper!.note})` : ""} | ${r.paper!.differs ?? "–"} |`);
  }
  lines.push("", "The paper's figures are on its benchmark, model and initial SQL; ours on what this experiment ran (--bench, --model, --limit).", "");
  return lines;
}

const COLUMN_TITLES: Record<string, string> = {
  ex: "EX %",
  "initial-ex": "initial EX %",
  "wrong-to-right": "wrong→right",
  "right-to-wrong": "right→wrong",
  tokens: "tokens/q",
  calls: "calls/q",
  cost: "cost/q",
  failed: "failed",
};

function cell(r: RunRow, column: string): string {
  if (column === "differs") return r.paper?.differs ?? "";
  // The paper's figure stands beside a row that did not run too.
  if (column.startsWith("paper:")) return String(r.paper?.figures[column.slice("paper:".length)] ?? "");
  if (r.notRun) return column === "ex" ? `not run: ${r.notRun}` : "";
  if (column.startsWith("difficulty:")) {
    const d = r.byDifficulty.find((x) => x.difficulty === column.slice("difficulty:".length));
    return d ? `${f2(d.ex)}${intervalText(d.interval)}` : "";
  }
  if (column.startsWith("metric:")) {
    const value = r.metrics?.[column.slice("metric:".length)];
    return value === undefined ? "" : metricText(value);
  }
  switch (column) {
    case "ex":
      return r.guideline ? `${f2(r.guideline.exAfter)} (after the cycle)` : exText(r);
    case "initial-ex":
      return f2(r.initialEx);
    case "wrong-to-right":
      return countText(r.wrongToRight);
    case "right-to-wrong":
      return countText(r.rightToWrong);
    case "tokens":
      return String(Math.round(r.tokensPerQuestion));
    case "calls":
      return r.callsPerQuestion.toFixed(2);
    case "cost":
      return usd(r.costPerQuestion);
    default:
      return String(r.failed);
  }
}

/** The recipe's own table (`table`: rows and columns), first in table.md. */
function recipeTable(spec: TableSpec, rows: RunRow[]): string[] {
  const chosen = spec.rows ? spec.rows.map((name) => rows.find((r) => r.run === name)).filter((r) => r !== undefined) : rows.filter((r) => !r.guideline);
  const columns = spec.columns ?? ["ex", "tokens", "calls", "failed"];
  const title = (c: string) => COLUMN_TITLES[c] ?? (c === "differs" ? "set-up differs from the paper's" : c.startsWith("metric:") ? (METRIC_TITLES[c.slice(7)] ?? c.slice(7)) : c.startsWith("difficulty:") ? `${c.slice(11)} EX %` : `paper ${c.slice(6)}`);
  return [
    `## ${spec.title ?? "Table"}`,
    "",
    `| run | ${columns.map(title).join(" | ")} |`,
    `|---|${columns.map(() => "---:").join("|")}|`,
    ...chosen.map((r) => `| ${r.run} | ${columns.map((c) => cell(r, c)).join(" | ")} |`),
    "",
  ];
}

/**
 * table.md: the recipe's table when it has one, ours beside the paper's, rows not run, guideline runs, the
 * correctors × scenarios grid, every eval run (with cost at --price-in/--price-out), EX by difficulty, the spread
 * over repeats, and each run's outcome summary.
 */
export function renderTable(recipe: Recipe, rows: RunRow[], opts: { prices?: Prices; repeats?: number } = {}): string {
  const lines = [`# sqlmend experiment: ${recipe.name}`, ""];
  if (recipe.description) lines.push(recipe.description, "");
  if (opts.repeats && opts.repeats > 1) {
    const held = rows.filter((r) => r.held);
    const heldText = held.length ? ` Held runs were made once (repeat 1, seed ${held[0]!.held!.seed}) and every repeat read them, so their figures are that one run's: ${held.map((r) => r.run).join(", ")}.` : "";
    lines.push(`Every figure of ours is the mean over ${opts.repeats} repeats (each a replication with its own seed); ± is the sample standard deviation.${heldText}`, "");
  }
  lines.push(intervalLegend(rows), "");
  // Which model answered each row, and every served version seen (more than one is said in the row's entry).
  const modelled = rows.filter((r) => r.model);
  if (modelled.length) lines.push(`Models: ${modelled.map((r) => `${r.run} ${r.model}`).join("; ")}.`, "");
  if (recipe.table) lines.push(...recipeTable(recipe.table, rows));
  lines.push(...besidePaper(rows));
  const notRun = rows.filter((r) => r.notRun);
  const guidelines = rows.filter((r) => r.guideline);
  rows = rows.filter((r) => !r.notRun && !r.guideline);
  if (notRun.length) {
    lines.push("## Not run", "", ...notRun.map((r) => `- ${r.run}: ${r.notRun}`), "");
  }
  if (guidelines.length) {
    lines.push("## Guideline runs (train split)", "", "| run | max_i | manager | questions | failures cycled | corrected | EX after % | AVG_i | corrected within k = 1.. |", "|---|---:|---|---:|---:|---:|---:|---:|---|");
    for (const r of guidelines) {
      const g = r.guideline!;
      lines.push(`| ${r.run} | ${g.maxIter} | ${g.noManager ? "no" : "yes"} | ${g.questions} | ${g.failures} | ${g.corrected} | ${f2(g.exAfter)} | ${g.avgIterations.toFixed(2)} | ${g.correctedWithin.join(", ")} |`);
    }
    lines.push("");
  }
  const correctors = rows.filter((r) => r.scenario !== null);
  if (correctors.length) {
    // A grid row per method: the run's name without its scenario suffix (magic.errors → magic, human-wang.all → human-wang).
    const methodOf = (r: RunRow) => (r.run.endsWith(`.${r.scenario}`) ? r.run.slice(0, -r.scenario!.length - 1) : r.run);
    const graphs = [...new Set(correctors.map(methodOf))];
    const scenarios = [...new Set(correctors.map((r) => r.scenario!))];
    lines.push("## Correctors × scenarios: EX % (wrong → right / right → wrong)", "");
    lines.push(`| corrector | ${scenarios.join(" | ")} |`, `|---|${scenarios.map(() => "---:").join("|")}|`);
    for (const g of graphs) {
      const cells = scenarios.map((s) => {
        const r = correctors.find((x) => methodOf(x) === g && x.scenario === s);
        return r ? `${exText(r)} (+${countText(r.wrongToRight ?? 0)} / −${countText(r.rightToWrong ?? 0)})` : "";
      });
      lines.push(`| ${g} | ${cells.join(" | ")} |`);
    }
    const initials = [...new Set(correctors.map((r) => `${r.initial}: ${f2(r.initialEx)}`))];
    lines.push("", `Initial EX on the same questions: ${initials.join(", ")}`, "");
  }
  const priced = opts.prices !== undefined;
  lines.push(
    "## Runs",
    "",
    `| run | graph | initial | scenario | questions | EX % | initial EX % | wrong→right | right→wrong | corrected | tokens/q | calls/q |${priced ? " cost/q |" : ""} cached calls | failed |`,
    `|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|${priced ? "---:|" : ""}---:|---:|`,
  );
  for (const r of rows) {
    lines.push(
      `| ${r.run} | ${r.graph} | ${r.initial ?? ""} | ${r.scenario ?? ""} | ${r.questions} | ${exText(r)} | ${f2(r.initialEx)} | ${countText(r.wrongToRight)} | ${countText(r.rightToWrong)} | ${countText(r.correctionsApplied)} | ${Math.round(r.tokensPerQuestion)} | ${r.callsPerQuestion.toFixed(2)} |${priced ? ` ${usd(r.costPerQuestion)} |` : ""} ${r.cachedCalls} of ${r.calls} | ${r.failed} |`,
    );
  }
  lines.push("", "tokens/q and calls/q are the method's chat-model tokens and calls per question, those the response cache served included (a cached rerun costs the method the same); embedding requests are left out (the vector cache shares them across questions and runs).");
  if (opts.prices) lines.push(costSummary(rows, opts.prices));
  lines.push("", ...plannedSection(rows));
  const calls = rows.reduce((n, r) => n + r.calls, 0);
  const cached = rows.reduce((n, r) => n + r.cachedCalls, 0);
  lines.push("", `Response cache over the eval runs: ${cached} of ${calls} model calls served (${calls ? ((cached / calls) * 100).toFixed(2) : "-"}%)`, "");
  const difficulties = [...new Set(rows.flatMap((r) => r.byDifficulty.map((d) => d.difficulty)))];
  if (difficulties.length > 1 || (difficulties.length === 1 && difficulties[0] !== "unknown")) {
    lines.push("## EX by difficulty (%)", "", `| run | ${difficulties.map((d) => `${d} (n)`).join(" | ")} | all |`, `|---|${difficulties.map(() => "---:").join("|")}|---:|`);
    for (const r of rows) {
      const at = (d: string) => r.byDifficulty.find((x) => x.difficulty === d);
      lines.push(`| ${r.run} | ${difficulties.map((d) => (at(d) ? `${f2(at(d)!.ex)}${intervalText(at(d)!.interval)} (${at(d)!.count})` : "")).join(" | ")} | ${exText(r)} |`);
    }
    lines.push("");
  }
  const databases = [...new Set(rows.flatMap((r) => r.byDatabase.map((d) => d.db)))].sort();
  if (databases.length > 1) {
    lines.push("## EX per database (%)", "", `| database | ${rows.map((r) => r.run).join(" | ")} |`, `|---|${rows.map(() => "---:").join("|")}|`);
    for (const db of databases) lines.push(`| ${db} | ${rows.map((r) => { const d = r.byDatabase.find((x) => x.db === db); return d ? `${f2(d.ex)} (${d.count})` : ""; }).join(" | ")} |`);
    lines.push("");
  }
  const repeated = rows.filter((r) => r.repeats);
  if (repeated.length) {
    lines.push("## Repeats", "", "| run | seeds | EX % per repeat | mean ± sd | questions that flip |", "|---|---|---|---:|---:|");
    for (const r of repeated) {
      const x = r.repeats!;
      lines.push(`| ${r.run} | ${x.seeds.join(", ")} | ${x.ex.map(f2).join(", ")} | ${f2(x.mean)} ± ${f2(x.sd)} | ${x.flips} of ${x.compared} |`);
    }
    lines.push("", "A question flips when some repeats got it right and others wrong (among the questions every repeat answered).");
    const held = rows.filter((r) => r.held);
    if (held.length) lines.push(`Not repeated (--hold): ${held.map((r) => `${r.run} (EX ${f2(r.ex)}, seed ${r.held!.seed})`).join(", ")}.`);
    lines.push("");
  }
  const withOutcomes = rows.filter((r) => r.outcomes.length);
  if (withOutcomes.length) {
    lines.push("## What the questions went through (each graph's outcome summary)", "");
    for (const r of withOutcomes) lines.push(`- **${r.run}** (${r.graph}): ${r.outcomes.join("; ")}`);
    lines.push("");
  }
  return lines.join("\n");
}

/** What an EX interval is, as the table's legend says it. */
export function intervalLegend(rows: RunRow[]): string {
  const over = new Set(rows.flatMap((r) => (r.exInterval ? [r.exInterval.over] : [])));
  const parts: string[] = [];
  if (over.has("repeats")) parts.push("over repeats: a seeded bootstrap over questions × repeats (questions drawn with replacement, each with one of its repeats; 2,000 draws), never narrower than the Wilson interval of the mean EX over the questions");
  if (over.has("questions")) parts.push(`${over.has("repeats") ? "for a held run or one with a single answered repeat: " : ""}the Wilson score interval over every selected question (a failed or missing prediction is wrong)`);
  return `EX [low, high]: a 95 % interval, ${parts.join("; ") || "none (no question answered)"}.`;
}

/** The experiment's cost at the given prices: the methods' tokens, and those spent (not served by the cache). */
export function costSummary(rows: RunRow[], prices: Prices): string {
  const ran = rows.filter((r) => !r.notRun && !r.guideline);
  const total = ran.reduce((a, r) => a + (r.costPerQuestion ?? 0) * r.questions * (r.repeats?.ex.length ?? 1), 0);
  const spent = ran.reduce((a, r) => a + r.spentTokens, 0);
  return `Cost at $${prices.input} / $${prices.output} per million input / output tokens: ${usd(total)} for the methods' tokens; ${spent} tokens were spent by this experiment (the rest came from the response cache).`;
}

/**
 * Planned comparisons: each row with a reference (its `reference` run; by default a corrector's own initial SQL,
 * from its records' initial verdicts) gets an exact McNemar test on the questions both answered with gold and the EX
 * difference with its paired 95 % interval, per repeat, Holm-adjusted over the experiment's planned comparisons (those
 * of the same repeat) — the family is the comparisons the recipe declares, not every pair of rows. With repeats, a
 * pooled test over them: per question the row's share of right answers across repeats against the reference's, an
 * exact sign test on the questions where they differ, Holm-adjusted over the pooled tests (the family that counts).
 * A comparison with no pair is not tested and no member of any family. Sets each row's `versus`.
 */
export function plannedComparisons(recipe: Recipe, rows: RunRow[], recordsOf: (run: string, repeat: number) => EvalRecord[], opts: { seeds: number[]; held: Set<string> }): void {
  const repeats = Math.max(1, opts.seeds.length);
  type Raw = Omit<PlannedTest, "holmP" | "family">;
  const tests: { row: RunRow; k: number; test: Raw }[] = [];
  const pooled: { row: RunRow; test: Raw }[] = [];
  const scoredOf = (records: EvalRecord[]) => new Map(records.filter((r) => !isFailed(r) && r.goldError !== NO_GOLD).map((r) => [r.id, r.correct]));
  for (const row of rows) {
    const spec = recipe.runs[row.run];
    const ref = spec && !row.notRun && !row.guideline ? referenceOf(spec) : null;
    if (!ref) continue;
    const reference = "run" in ref ? ref.run : `initial SQL (${ref.initial})`;
    const refRow = "run" in ref ? rows.find((r) => r.run === ref.run) : undefined;
    if ("run" in ref && (!refRow || refRow.notRun)) {
      row.versus = { reference, tests: [], pooled: null, notTested: `run ${ref.run} did not run${refRow?.notRun ? `: ${refRow.notRun}` : ""}` };
      continue;
    }
    row.versus = { reference, tests: [], pooled: null, notTested: null };
    const once = opts.held.has(row.run) && ("initial" in ref || opts.held.has(ref.run));
    // Per repeat, the pairs: question → [row right, reference right], on the questions both answered with gold.
    const perRepeat: Map<string, [boolean, boolean]>[] = [];
    for (let k = 1; k <= (once ? 1 : repeats); k++) {
      const records = recordsOf(row.run, k);
      const pairs = new Map<string, [boolean, boolean]>();
      if ("initial" in ref) {
        for (const r of records) if (!isFailed(r) && r.initialCorrect !== undefined && r.goldError !== NO_GOLD && !emptyInitial(r)) pairs.set(r.id, [r.correct, r.initialCorrect]);
      } else {
        const mine = scoredOf(records);
        const theirs = scoredOf(recordsOf(ref.run, k));
        for (const [id, right] of mine) if (theirs.has(id)) pairs.set(id, [right, theirs.get(id)!]);
      }
      perRepeat.push(pairs);
      // No pair: nothing was tested, and an untested comparison is no member of the Holm family.
      if (pairs.size) tests.push({ row, k, test: testOf([...pairs.values()].map(([a, b]) => [Number(a), Number(b)]), repeats > 1 ? opts.seeds[k - 1]! : null) });
    }
    if (!tests.some((t) => t.row === row)) row.versus.notTested = "no question both answered with gold: nothing to pair";
    else if (perRepeat.length > 1) {
      // Pooled: the questions paired in every repeat, each its share of right answers over the repeats.
      const ids = [...perRepeat[0]!.keys()].filter((id) => perRepeat.every((p) => p.has(id)));
      const shares = ids.map((id): [number, number] => [mean(perRepeat.map((p) => Number(p.get(id)![0]))), mean(perRepeat.map((p) => Number(p.get(id)![1])))]);
      if (shares.length) pooled.push({ row, test: testOf(shares, null) });
    }
  }
  for (let k = 1; k <= repeats; k++) {
    const family = tests.filter((t) => t.k === k);
    const adjusted = holm(family.map((t) => t.test.p));
    family.forEach((t, i) => t.row.versus!.tests.push({ ...t.test, holmP: adjusted[i]!, family: family.length }));
  }
  const adjusted = holm(pooled.map((t) => t.test.p));
  pooled.forEach((t, i) => (t.row.versus!.pooled = { ...t.test, holmP: adjusted[i]!, family: pooled.length }));
}

/**
 * One planned test over paired verdicts ([row, reference] per question: 0/1, or shares of right answers over
 * repeats): the exact sign test on the questions where they differ (McNemar's, for one repeat), and the EX difference
 * with Newcombe's paired 95 % interval (for shares, on the table of mean counts).
 */
function testOf(pairs: [number, number][], seed: number | null): Omit<PlannedTest, "holmP" | "family"> {
  const onlyRow = pairs.filter(([a, b]) => a > b).length;
  const onlyReference = pairs.filter(([a, b]) => a < b).length;
  // The 2×2 table's cells as mean counts: a share 2/3 vs 1/3 is right in both 1/3 of the time, only in the row 1/3...
  const both = pairs.reduce((x, [a, b]) => x + Math.min(a, b), 0);
  const rowOnly = pairs.reduce((x, [a, b]) => x + Math.max(0, a - b), 0);
  const refOnly = pairs.reduce((x, [a, b]) => x + Math.max(0, b - a), 0);
  const d = pairedDifference(both, rowOnly, refOnly, pairs.length - both - rowOnly - refOnly)!;
  return { seed, compared: pairs.length, onlyRow, onlyReference, p: mcnemarP(onlyRow, onlyReference), difference: d.difference, differenceInterval: { low: d.low, high: d.high } };
}

/** "+12.50 [-3.10, 27.40]": a planned difference in percentage points with its paired 95 % interval. */
export const differenceText = (t: { difference: number; differenceInterval: Interval }) => `${t.difference >= 0 ? "+" : ""}${f2(t.difference)}${intervalText(t.differenceInterval)}`;

/** table.md's planned comparisons: a line per row (per repeat, and pooled over repeats) against its reference. */
function plannedSection(rows: RunRow[]): string[] {
  const planned = rows.filter((r) => r.versus);
  if (!planned.length) return [];
  const repeated = planned.some((r) => r.versus!.tests.some((t) => t.seed !== null));
  const pooledFamily = Math.max(0, ...planned.map((r) => r.versus!.pooled?.family ?? 0));
  const family = repeated ? pooledFamily : Math.max(0, ...planned.flatMap((r) => r.versus!.tests.map((t) => t.family)));
  const lines = [
    "## Planned comparisons",
    "",
    `Each row against its reference — a corrector against its own initial SQL on the same questions, a row with \`reference\` against that run — by an exact McNemar test on the questions only one of them got right, with the EX difference (row − reference, percentage points) and its paired 95 % interval (Newcombe's hybrid score); p is Holm-adjusted over the ${family} planned comparisons of this experiment${repeated ? " pooled over the repeats (per question its share of right answers over the repeats, an exact sign test: the family that counts; each repeat's own row is Holm-adjusted within its repeat and shows the spread)" : ""}, not over every pair of rows. A comparison with no pair is not tested and outside the family.`,
    "",
    `| run | reference |${repeated ? " seed |" : ""} questions | only run right | only reference right | EX difference [95 %] | McNemar p | Holm p | at 0.05 |`,
    `|---|---|${repeated ? "---:|" : ""}---:|---:|---:|---:|---:|---:|---|`,
  ];
  const line = (r: RunRow, t: PlannedTest, seed: string) =>
    `| ${r.run} | ${r.versus!.reference} |${repeated ? ` ${seed} |` : ""} ${t.compared} | ${t.onlyRow} | ${t.onlyReference} | ${differenceText(t)} | ${t.p.toPrecision(3)} | ${t.holmP.toPrecision(3)} | ${t.holmP < 0.05 ? "significant" : "not significant"} |`;
  for (const r of planned) {
    const v = r.versus!;
    if (v.notTested) lines.push(`| ${r.run} | ${v.reference} |${repeated ? " |" : ""} not tested: ${v.notTested} | | | | | | |`);
    for (const t of v.tests) lines.push(line(r, t, String(t.seed ?? "")));
    if (v.pooled) lines.push(line(r, v.pooled, "pooled"));
  }
  lines.push("");
  return lines;
}

/** report.html's Experiment table: the rows that ran (not the guideline runs), as table.json has them. */
export function experimentHtmlRows(rows: RunRow[]): ExperimentHtmlRow[] {
  return rows
    .filter((r) => !r.notRun && !r.guideline)
    .map((r) => ({
      run: r.run,
      graph: r.graph,
      questions: r.questions,
      ex: r.ex,
      interval: r.exInterval,
      sd: r.repeats ? r.repeats.sd : null,
      repeats: r.repeats ? { seeds: r.repeats.seeds, ex: r.repeats.ex } : null,
      tokensPerQuestion: r.tokensPerQuestion,
      callsPerQuestion: r.callsPerQuestion,
      costPerQuestion: r.costPerQuestion,
      failed: r.failed,
      versus: r.versus,
      model: r.model,
    }));
}
