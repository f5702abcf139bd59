/**
 * Execution accuracy under BIRD's or Spider's (test-suite-sql-eval) semantics, BIRD's VES,
 * and the prediction file formats of both benchmarks.
 *
 * Values are compared the way the official Python scorers compare what sqlite3 returns:
 * int and float compare numerically (1 == 1.0, exactly, also beyond 2^53), str never equals a
 * number ('1' != 1), None == None, bytes never equal str.
 */
import { stat, writeFile } from "node:fs/promises";
import os from "node:os";
import { UserError } from "../../core/errors.ts";
import type { Benchmark, Question } from "../../state/question.ts";
import type { CompareOutcome, ExecOptions, ExecResult, SqlExecutor } from "../sqlite/types.ts";
import { describeJsonError } from "./json-errors.ts";
import { readTextFile } from "./question-files.ts";
import { tokenizeSql } from "../sql-tokens.ts";
import path from "node:path";
import { softF1, testSuiteVariants } from "./metrics.ts";
import { describeCut } from "../format.ts";
import { DEFAULT_VES_ITERATIONS, type Metric, METRICS } from "./metric-names.ts";

export { DEFAULT_VES_ITERATIONS, type Metric, METRICS };

export type Semantics = "bird" | "spider";

// ---------------------------------------------------------------------------
// Values and result comparison: tools/sqlite/compare.js (plain JavaScript, so the executor's worker processes
// compare results where they are, and only verdicts cross the process boundary).
// ---------------------------------------------------------------------------

import { resultsMatch } from "../sqlite/compare.js";

export { pyFloatRepr, pySortKey, resultsMatch, valueKey } from "../sqlite/compare.js";
// One fingerprint for rows held here and rows streamed through a digest in a worker.
export { resultFingerprint } from "../sqlite/digest.js";

// ---------------------------------------------------------------------------
// Query rewriting done by test-suite-sql-eval before execution
// ---------------------------------------------------------------------------

/**
 * The first statement of the text: up to its first top-level ";" (kept), with the whitespace and comments after it;
 * `dropped` when a statement follows. test-suite-sql-eval's remove_distinct parses only sqlparse's first statement.
 */
export function firstStatement(sql: string): { sql: string; dropped: boolean } {
  // No ";", or one that only whitespace follows (nearly every query): nothing can be dropped, nothing to tokenize.
  if (!sql.includes(";") || onlyTrailingSemicolon(sql)) return { sql, dropped: false };
  const tokens = tokenizeSql(sql);
  const semicolon = tokens.findIndex((t) => t.type === "punct" && t.text === ";");
  if (semicolon < 0) return { sql, dropped: false };
  let end = semicolon + 1;
  while (end < tokens.length && (tokens[end]!.type === "ws" || tokens[end]!.type === "comment")) end++;
  const dropped = tokens.slice(end).some((t) => t.type !== "ws" && t.type !== "comment" && t.text !== ";");
  return { sql: dropped ? tokens.slice(0, end).map((t) => t.text).join("") : sql, dropped };
}

/** The text's one ";" is its last character but whitespace (a string or comment may hold it: the callers' verdicts agree). */
function onlyTrailingSemicolon(sql: string): boolean {
  const at = sql.indexOf(";");
  return at >= 0 && at === sql.lastIndexOf(";") && !sql.slice(at + 1).trim();
}

/**
 * Its remove_distinct: the first statement only (see firstStatement), every DISTINCT keyword token dropped (not
 * inside strings, quoted names or comments).
 */
export function removeDistinct(sql: string): string {
  const first = firstStatement(sql).sql;
  // No "distinct" anywhere: no token to drop, the text stays as it is.
  if (!/distinct/i.test(first)) return first;
  return tokenizeSql(first)
    .filter((t) => !(t.type === "word" && t.lower === "distinct"))
    .map((t) => t.text)
    .join("");
}

/**
 * How Python's sqlite3 (the official BIRD scorers' `cursor.execute`) takes a text: "empty" when it holds no statement
 * (whitespace, comments, semicolons: it runs and returns no rows), "several" when anything but whitespace and comments
 * follows the first statement's `;` (`;;` and `; ;` too: "You can only execute one statement at a time."), else "one".
 */
export function pythonStatements(sql: string): "empty" | "one" | "several" {
  // Without comment marks, and no ";" but one at the end, only whitespace can stand beside the statement (\s is
  // trim()'s set): no tokens needed. (A ";" inside a string is then also the end: "one" either way.)
  if (!sql.includes("--") && !sql.includes("/*")) {
    if (!sql.includes(";")) return sql.trim() ? "one" : "empty";
    if (onlyTrailingSemicolon(sql)) return sql.slice(0, sql.indexOf(";")).trim() ? "one" : "empty";
  }
  const tokens = tokenizeSql(sql).filter((t) => t.type !== "ws" && t.type !== "comment");
  if (tokens.every((t) => t.type === "punct" && t.text === ";")) return "empty";
  const end = tokens.findIndex((t) => t.type === "punct" && t.text === ";");
  return end >= 0 && end < tokens.length - 1 ? "several" : "one";
}

/** Verdict notes of the official BIRD scorers' Python rules (counted in the reports). */
export const EMPTY_PREDICTION = "no statement (empty or comments only): it returns no rows, as in Python's sqlite3, so it is right when the gold returns none (the official BIRD scorers credit it)";
export const SEVERAL_STATEMENTS = "sql: several statements: You can only execute one statement at a time. (Python's sqlite3, as the official BIRD scorers run it: anything but comments after the first ';')";

/** The verdict's note when test-suite-sql-eval's DISTINCT removal kept only the first statement of a prediction. */
export const DROPPED_STATEMENTS = "statements after the first dropped, as test-suite-sql-eval's DISTINCT removal (its default) keeps only the first";

/** Its postprocess ('> =' → '>=' ...) and replace_cur_year (YEAR(CURDATE()) → 2020). */
export function spiderRewrite(sql: string): string {
  return sql
    .replaceAll("> =", ">=")
    .replaceAll("< =", "<=")
    .replaceAll("! =", "!=")
    .replace(/YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s*/gi, "2020");
}

// ---------------------------------------------------------------------------
// Scoring one question
// ---------------------------------------------------------------------------

export interface Verdict {
  id: string;
  correct: boolean;
  /** One line: kind + message. */
  predError?: string;
  goldError?: string;
  predRows?: number;
  goldRows?: number;
  difficulty?: string;
  /** VES: mean gold/pred time ratio after outlier removal (0 when not correct or timing failed). */
  timeRatio?: number;
  /** R-VES reward bucket (BIRD mini-dev) of timeRatio. */
  reward?: number;
  /** The prediction is a statement that writes (INSERT, DROP, ...): scored as an error, never run. */
  writes?: boolean;
  /** What the scorer changed in the prediction before running it, as the official scorer does (DROPPED_STATEMENTS). */
  note?: string;
  /** Scored again this many times because another process held a lock on the database (scoreAll). */
  lockRetries?: number;
  /** BIRD mini-dev's Soft F1 of this prediction, 0..1 (when asked). */
  softF1?: number;
  /** Why Soft F1 is 0 without being computed: a side past SOFT_F1_MAX_ROWS. */
  softF1Note?: string;
  /** Test-suite accuracy: matched the gold on every variant (absent when not asked or no variant was found). */
  testSuite?: boolean;
  /** The variant where the test-suite check failed, or why it could not run. */
  testSuiteNote?: string;
  /**
   * Scored wrong because a side returned more rows than the scorer compares (tools/sqlite/digest.js
   * MAX_COMPARE_ROWS, or MAX_PERMUTATION_CELLS for Spider's column permutations): which side, and the cap.
   */
  tooLarge?: string;
  /** Right past the row or cell cap: both results read whole and identical by their streamed digests (which cap). */
  streamed?: string;
  /** Stopped at the time limit while other questions ran beside it, then scored again alone: this is that verdict. */
  rescoredAlone?: boolean;
}

/** First keywords of statements that change a database or the connection. */
const WRITING = /^(INSERT|UPDATE|DELETE|REPLACE|UPSERT|MERGE|DROP|CREATE|ALTER|ATTACH|DETACH|PRAGMA|VACUUM|REINDEX|ANALYZE|BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|TRUNCATE)$/i;

/** The first keyword of a prediction that writes ("DROP"), or undefined; leading comments and parentheses skipped. */
export function writingStatement(sql: string): string | undefined {
  const text = sql.replace(/^(\s+|\(|--[^\n]*(\n|$)|\/\*[\s\S]*?\*\/)+/, "");
  const word = /^[A-Za-z]+/.exec(text)?.[0];
  return word && WRITING.test(word) ? word.toUpperCase() : undefined;
}

/** The executor refused it as a writer (e.g. `WITH ... DELETE`, whose first keyword reads). */
const refusedAsWriter = (predError: string | undefined) => predError !== undefined && /writes to the database/.test(predError);

/**
 * What eval writes in its prediction files for a question that has no answer (failed, or not run): SQL that fails in
 * any SQLite (RAISE outside a trigger), so the official scorers count it wrong — never "" (which they credit when the
 * gold returns no rows) nor a failed run's partial SQL. `score` and `--initial` read it as no answer, whatever is
 * beside the file.
 */
export const NO_ANSWER = "no answer";
export const noAnswerSql = (why: "failed" | "not run") => `SELECT RAISE(FAIL, 'sqlmend: no answer (${why})')`;
/** Why a prediction is eval's no-answer mark ("failed", "not run"), or undefined. */
export const noAnswerOf = (sql: string | undefined): string | undefined => (sql === undefined ? undefined : /^\s*SELECT RAISE\(FAIL, 'sqlmend: no answer \(([^)]*)\)'\)\s*;?\s*$/.exec(sql)?.[1]);

/** A question with no gold SQL (own data): run, never scored. */
export const NO_GOLD = "no gold SQL";

/** A side could not read the database (locked, corrupt, unreadable): the question is not scored, it is not wrong. */
export const databaseErrorOf = (v: Pick<Verdict, "predError" | "goldError">): string | undefined =>
  [v.goldError, v.predError].find((e) => e?.startsWith("database: "));
const lockedDatabase = (v: Verdict) => /^database: database is locked/.test(databaseErrorOf(v) ?? "");
/** Pauses before scoring a question again whose database another process holds locked (each after SQLite's own wait). */
export const LOCK_RETRY_DELAYS_MS = [1000, 3000];

export interface VesOptions {
  /** Timed runs of each query (BIRD's evaluation_ves.py uses 100). */
  iterations?: number;
}

export interface ScoreOptions {
  executor: SqlExecutor;
  semantics: Semantics;
  /** Per query. Default 30 000 (BIRD's meta_time_out). */
  timeoutMs?: number;
  /** Spider semantics: keep DISTINCT (test-suite-sql-eval's --keep_distinct). */
  keepDistinct?: boolean;
  /** Measure VES for correct predictions. */
  ves?: boolean | VesOptions;
  goldCache?: GoldCache;
}

/** Timing time per question after which no more rounds start (the executor's `budgetMs`). */
export const VES_BUDGET_MS = 2_000;
export const OFFICIAL_VES_ITERATIONS = 100;

/** A query as actually run (the executor may rewrite double-quoted literals), and its result. */
export interface CompatRun {
  sql: string;
  result: ExecResult;
}

async function runQuery(executor: SqlExecutor, dbPath: string, sql: string, options: ExecOptions = {}): Promise<CompatRun> {
  const result = await executor.run(dbPath, sql, options);
  return { sql: (result.ok && result.executedSql) || sql, result };
}

/** Caches gold results per (database file, its size and mtime, SQL). */
export class GoldCache {
  private readonly entries = new Map<string, Promise<CompatRun>>();
  constructor(private readonly maxEntries = 256) {}

  async get(executor: SqlExecutor, dbPath: string, sql: string, timeoutMs: number): Promise<CompatRun> {
    let version = "";
    try {
      const s = await stat(dbPath);
      version = `${s.size}:${s.mtimeMs}`;
    } catch {
      // Missing file: the executor reports it; do not cache.
      return runQuery(executor, dbPath, sql, { timeoutMs });
    }
    const key = `${dbPath}\0${version}\0${sql}`;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const pending = runQuery(executor, dbPath, sql, { timeoutMs });
    this.entries.set(key, pending);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    const run = await pending;
    // Timeouts, executor failures and database errors (a lock) may be transient: do not keep them.
    if (!run.result.ok && (run.result.kind === "timeout" || run.result.kind === "internal" || run.result.kind === "database")) this.entries.delete(key);
    return run;
  }
}

const defaultGoldCache = new GoldCache(128);

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
const failureText = (r: ExecResult) => (r.ok ? "" : `${r.kind}: ${oneLine(r.message)}`);

/** BIRD's clean_abnormal: keeps values strictly within mean ± 3 population std. */
export function cleanAbnormal(values: number[]): number[] {
  if (!values.length) return [];
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const std = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
  const kept = values.filter((x) => x < mean + 3 * std && x > mean - 3 * std);
  // All equal (std 0) keeps nothing officially, then divides by zero and scores 0; we keep them.
  return kept.length ? kept : values;
}

/** BIRD mini-dev's R-VES reward for a time ratio (0 when incorrect). */
export function vesReward(timeRatio: number): number {
  if (timeRatio <= 0) return 0;
  if (timeRatio >= 2) return 1.25;
  if (timeRatio >= 1) return 1;
  if (timeRatio >= 0.5) return 0.75;
  if (timeRatio >= 0.25) return 0.5;
  return 0.25;
}

/**
 * gold/pred time ratio as BIRD's evaluation_ves.py computes it: per round the ratio of the gold's time to the
 * prediction's, clean_abnormal over the rounds (mean ± 3 sd), then the mean. The times are taken so that load on the
 * machine weighs on both sides alike (`SqlExecutor.time`: alternating order, the fastest of a few runs on fresh
 * connections per timed run): with gold-equal predictions VES stays about 100 with CPU-bound processes beside it.
 */
export async function measureTimeRatio(
  executor: SqlExecutor,
  dbPath: string,
  predSql: string,
  goldSql: string,
  iterations: number,
  timeoutMs: number,
): Promise<number> {
  let pt: number[];
  let gt: number[];
  if (executor.time) {
    const timed = await executor.time(dbPath, [predSql, goldSql], { iterations, timeoutMs, budgetMs: VES_BUDGET_MS });
    if (!timed.ok) return 0;
    [pt, gt] = timed.timesMs as [number[], number[]];
  } else {
    pt = [];
    gt = [];
    for (let round = 0; round < iterations; round++) {
      // Alternating order, as the executor's timing does.
      const sides = round % 2 ? [goldSql, predSql] : [predSql, goldSql];
      const times: number[] = [];
      for (const sql of sides) {
        const r = await executor.run(dbPath, sql, { timeoutMs, maxRows: 0 });
        if (!r.ok) return 0;
        times.push(r.elapsedMs);
      }
      pt.push(round % 2 ? times[1]! : times[0]!);
      gt.push(round % 2 ? times[0]! : times[1]!);
    }
  }
  const n = Math.min(pt.length, gt.length);
  if (!n) return 0;
  const ratios = Array.from({ length: n }, (_, i) => gt[i]! / Math.max(pt[i]!, 1e-6));
  const kept = cleanAbnormal(ratios);
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}

/** The queries actually executed, and whether row order matters, under the given semantics. */
export function prepareQueries(
  predSql: string,
  goldSql: string,
  semantics: Semantics,
  keepDistinct = false,
): { pred: string; gold: string; orderMatters: boolean } {
  if (semantics === "bird") return { pred: predSql, gold: goldSql, orderMatters: false };
  let pred = spiderRewrite(predSql);
  let gold = spiderRewrite(goldSql);
  if (!keepDistinct) {
    pred = removeDistinct(pred);
    gold = removeDistinct(gold);
  }
  // exec_eval.py: order_matters = 'order by' in g_str.lower()
  return { pred, gold, orderMatters: gold.toLowerCase().includes("order by") };
}

/** The verdict from a comparison (inside the executor, or of rows here), plus VES when asked. */
async function withVes(verdict: Verdict, outcome: CompareOutcome, q: Question, opts: ScoreOptions): Promise<Verdict> {
  const { pred: p, gold: g } = outcome;
  if (g.ok) verdict.goldRows = g.rowCount;
  else verdict.goldError = failureText(g);
  if (p.ok) verdict.predRows = p.rowCount;
  else {
    verdict.predError = failureText(p);
    if (refusedAsWriter(verdict.predError)) verdict.writes = true;
  }
  if (!g.ok || !p.ok) return opts.ves ? { ...verdict, timeRatio: 0, reward: 0 } : verdict;
  verdict.correct = outcome.correct;
  if (outcome.tooLarge) verdict.tooLarge = outcome.tooLarge;
  if (outcome.streamed) verdict.streamed = outcome.streamed;
  if (opts.ves) {
    const iterations = typeof opts.ves === "object" && opts.ves.iterations ? opts.ves.iterations : DEFAULT_VES_ITERATIONS;
    verdict.timeRatio = verdict.correct
      ? await measureTimeRatio(opts.executor, q.dbPath, outcome.pred.sql, outcome.gold.sql, iterations, opts.timeoutMs ?? 30_000)
      : 0;
    verdict.reward = vesReward(verdict.timeRatio);
  }
  return verdict;
}

/**
 * Scores one prediction against the question's gold SQL. Never throws for bad SQL or files. With an executor that
 * compares in its workers (compare()), the rows never leave them; otherwise both results come back and compare here.
 */
export async function scoreQuestion(q: Question, predSql: string, opts: ScoreOptions): Promise<Verdict> {
  const verdict: Verdict = { id: q.id, correct: false, ...(q.difficulty ? { difficulty: q.difficulty } : {}) };
  if (!q.goldSql) return { ...verdict, goldError: NO_GOLD };
  const writes = writingStatement(predSql);
  if (writes) return { ...verdict, writes: true, predError: `rejected: the prediction writes (a ${writes} statement): scored as an error, never run`, ...(opts.ves ? { timeRatio: 0, reward: 0 } : {}) };
  const timeoutMs = opts.timeoutMs ?? 30_000;
  if (opts.semantics === "bird") {
    // The official BIRD scorers run the text through Python's sqlite3: its rules on statements, not SQLite's.
    const statements = pythonStatements(predSql);
    if (statements === "several") return { ...verdict, predError: SEVERAL_STATEMENTS, ...(opts.ves ? { timeRatio: 0, reward: 0 } : {}) };
    if (statements === "empty") {
      const g = await opts.executor.run(q.dbPath, q.goldSql, { timeoutMs, maxRows: 0 });
      if (!g.ok) return { ...verdict, goldError: failureText(g), note: EMPTY_PREDICTION, ...(opts.ves ? { timeRatio: 0, reward: 0 } : {}) };
      // Its VES is not measured (nothing to time): 0, as for a wrong one.
      return { ...verdict, correct: g.rowCount === 0, predRows: 0, goldRows: g.rowCount, note: EMPTY_PREDICTION, ...(opts.ves ? { timeRatio: 0, reward: 0 } : {}) };
    }
  }
  const { pred, gold, orderMatters } = prepareQueries(predSql, q.goldSql, opts.semantics, opts.keepDistinct);
  if (opts.semantics === "spider" && !opts.keepDistinct && firstStatement(spiderRewrite(predSql)).dropped) verdict.note = DROPPED_STATEMENTS;
  if (opts.executor.compare) return withVes(verdict, await opts.executor.compare(q.dbPath, pred, gold, { semantics: opts.semantics, orderMatters, timeoutMs }), q, opts);
  const cache = opts.goldCache ?? defaultGoldCache;
  const [goldRun, predRun] = await Promise.all([
    cache.get(opts.executor, q.dbPath, gold, timeoutMs),
    runQuery(opts.executor, q.dbPath, pred, { timeoutMs }),
  ]);
  const g = goldRun.result;
  const p = predRun.result;
  // The same verdict as a comparison inside the executor: both sides, then correctness from the rows here.
  const outcome: CompareOutcome = { pred: { ...p, sql: predRun.sql }, gold: { ...g, sql: goldRun.sql }, correct: g.ok && p.ok && resultsMatch(p.rows, g.rows, opts.semantics, { orderMatters }) };
  return withVes(verdict, outcome, q, opts);
}

// ---------------------------------------------------------------------------
// Metrics beside EX (the pure parts are in ./metrics.ts)
// ---------------------------------------------------------------------------

/** Rows a side Soft F1 reads at most (it needs the rows themselves, here). */
export const SOFT_F1_MAX_ROWS = 200_000;

/**
 * Soft F1 of one prediction (0 when either query fails, or a side is past SOFT_F1_MAX_ROWS). The rows come back from the executor: Soft F1 needs both
 * results, not a verdict. The queries run as written, whatever the EX semantics (as the official script runs them).
 */
export async function softF1Of(q: Question, predSql: string, opts: Pick<ScoreOptions, "executor" | "semantics" | "timeoutMs" | "keepDistinct">): Promise<{ f1: number; error?: string }> {
  if (!q.goldSql) return { f1: 0, error: "no gold SQL" };
  // As mini-dev's evaluation_f1.py runs them: as written (Spider's DISTINCT stripping would change which rows pair up).
  const { pred, gold } = prepareQueries(predSql, q.goldSql, "bird", true);
  const timeoutMs = opts.timeoutMs ?? 30_000;
  // The rows come here: at most SOFT_F1_MAX_ROWS a side, else "too large" (no size may exhaust memory).
  const limits = { timeoutMs, maxRows: SOFT_F1_MAX_ROWS };
  const [p, g] = await Promise.all([opts.executor.run(q.dbPath, pred, limits), opts.executor.run(q.dbPath, gold, limits)]);
  if (!g.ok) return { f1: 0, error: `gold: ${g.kind}` };
  if (!p.ok) return { f1: 0, error: `prediction: ${p.kind}` };
  // A cell shortened or rows left out by the executor's byte budget (tools/sqlite/keep.js): no exact F1 either.
  const cut = [g, p].map((r) => describeCut(r)).find(Boolean);
  if (cut) return { f1: 0, error: `too large: Soft F1 reads the rows here, and the executor's byte budget cut them (${cut})` };
  if (g.truncated || p.truncated) return { f1: 0, error: `too large: Soft F1 reads at most ${SOFT_F1_MAX_ROWS} rows a side` };
  return { f1: softF1(p.rows, g.rows) };
}

export interface TestSuiteVerdict {
  /** Undefined when the folder has no variant of the question's database (not counted). */
  correct?: boolean;
  variants: number;
  /** The first variant where the prediction failed or differed, and why. */
  failedOn?: string;
}

/**
 * Test-suite accuracy of one prediction: right only when it matches the gold on every variant (test-suite-sql-eval's
 * eval_exec_match), each compared as EX compares (the scorer's semantics; official: spider). Stops at the first miss.
 */
export async function testSuiteVerdict(q: Question, predSql: string, variants: string[], opts: ScoreOptions): Promise<TestSuiteVerdict> {
  if (!variants.length) return { variants: 0 };
  for (const variant of variants) {
    const v = await scoreQuestion({ ...q, dbPath: variant }, predSql, { ...opts, ves: false });
    if (!v.correct) {
      const why = v.goldError ? `gold failed: ${v.goldError}` : v.predError ? `prediction failed: ${v.predError}` : "results differ";
      return { correct: false, variants: variants.length, failedOn: `${path.basename(variant)} (${why})` };
    }
  }
  return { correct: true, variants: variants.length };
}

// ---------------------------------------------------------------------------
// Scoring a set of questions
// ---------------------------------------------------------------------------

export interface DifficultyScore {
  difficulty: string;
  count: number;
  correct: number;
  /** Percentage 0..100. */
  ex: number;
  ves?: number;
  rves?: number;
  /** Mean Soft F1, percentage 0..100. */
  softF1?: number;
  /** Test-suite accuracy, percentage 0..100, over the questions that had variants. */
  ts?: number;
}

export interface ScoreReport {
  semantics: Semantics;
  keepDistinct: boolean;
  count: number;
  correct: number;
  /** Execution accuracy, percentage 0..100. */
  ex: number;
  byDifficulty: DifficultyScore[];
  /**
   * VES as BIRD's evaluation_ves.py: mean over questions of 100·sqrt(time ratio), 0 when wrong;
   * rves as BIRD mini-dev's R-VES: mean of 100·sqrt(reward bucket). iterations: timed runs per query.
   */
  ves?: { iterations: number; officialIterations: number; ves: number; rves: number };
  /** The metrics computed (ex always; ves, r-ves, soft-f1, ts when asked) and the databases they ran on. */
  metrics: Metric[];
  databases?: string;
  /** Mean Soft F1 over the scored questions, percentage 0..100. */
  softF1?: number;
  /** Test-suite accuracy: over questions whose database has variants in `dir`; `noVariants` had none (not counted). */
  testSuite?: { dir: string; count: number; correct: number; accuracy: number; noVariants: number };
  /** Questions without gold SQL: run, not scored (not in count). */
  noGold: number;
  /** Questions not scored because their database could not be read (locked after the retries, corrupt): not in count. */
  databaseErrors: Array<{ id: string; error: string }>;
  /** Questions with no prediction (scored wrong). */
  missingPredictions: number;
  /** Questions whose prediction is eval's no-answer mark (a failed or unrun question; scored wrong). */
  noAnswers: number;
  /** Questions scored wrong because a result was past the scorer's row cap (Verdict.tooLarge). */
  tooLarge: number;
  /** Questions past the cap whose results were identical by their streamed digests: right (Verdict.streamed). */
  streamed: number;
  /** Questions stopped at the time limit among others, scored again alone (Verdict.rescoredAlone). */
  rescoredAlone: number;
  /** Questions whose prediction (or gold query) was stopped at the time limit (an error kind "timeout"). */
  timeouts: number;
  /** Prediction ids that match no question. */
  unmatchedPredictions: string[];
  /** Questions whose prediction writes (INSERT, DROP, ...): scored as errors, never run. */
  writingPredictions: string[];
  /** Questions whose prediction had statements after the first, dropped as the official scorer drops them. */
  droppedStatements: string[];
  /** BIRD semantics: predictions with no statement (empty, comments only), and those right because the gold returns no rows. */
  emptyPredictions: { count: number; credited: number };
  /** BIRD semantics: predictions with anything after the first statement's `;` (`;;` too), wrong as in Python's sqlite3. */
  severalStatements: number;
  verdicts: Verdict[];
  elapsedMs: number;
}

export interface ScoreAllOptions {
  executor: SqlExecutor;
  semantics: Semantics;
  /**
   * Questions in flight. Default: all of them when the executor compares in its workers (its pool bounds real
   * parallelism, and a full queue lets it send comparisons in large batches, so workers rarely wait for this
   * process); otherwise 16 × CPUs, as every result then comes back here.
   */
  concurrency?: number;
  timeoutMs?: number;
  keepDistinct?: boolean;
  ves?: boolean | VesOptions;
  /** Which metrics to compute beyond EX (ves and r-ves both come from `ves`). */
  softF1?: boolean;
  /** A test-suite folder (variants per db_id, see testSuiteVariants): adds test-suite accuracy. */
  testSuiteDir?: string;
  /** Said in the report: the folder the questions' databases came from. */
  databases?: string;
  /** Pauses before scoring a locked database's question again (default LOCK_RETRY_DELAYS_MS). */
  lockRetryDelaysMs?: number[];
  onVerdict?: (verdict: Verdict, done: number, total: number) => void;
}


const DIFFICULTY_ORDER = ["simple", "moderate", "challenging", "easy", "medium", "hard", "extra"];

const pct = (n: number, d: number) => (d ? (100 * n) / d : 0);
const vesOf = (vs: Verdict[]) => (vs.length ? vs.reduce((a, v) => a + Math.sqrt(v.timeRatio ?? 0) * 100, 0) / vs.length : 0);
const rvesOf = (vs: Verdict[]) => (vs.length ? vs.reduce((a, v) => a + Math.sqrt(v.reward ?? 0) * 100, 0) / vs.length : 0);

/** EX per difficulty level, in the benchmarks' order (BIRD's levels, Spider's, then any other by name). */
export function exByDifficulty<T extends { correct: boolean; difficulty?: string }>(items: T[], extra?: (group: T[]) => Partial<DifficultyScore>): DifficultyScore[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const d = item.difficulty ?? "unknown";
    if (!groups.has(d)) groups.set(d, []);
    groups.get(d)!.push(item);
  }
  const rank = (d: string) => (DIFFICULTY_ORDER.includes(d) ? DIFFICULTY_ORDER.indexOf(d) : DIFFICULTY_ORDER.length);
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([difficulty, group]) => {
      const correct = group.filter((v) => v.correct).length;
      return { difficulty, count: group.length, correct, ex: pct(correct, group.length), ...extra?.(group) };
    });
}

/** EX per database (MAGIC's Figure 4), databases by name. */
export function exByDatabase<T extends { correct: boolean; dbId: string }>(items: T[]): { db: string; count: number; correct: number; ex: number }[] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(item.dbId, [...(groups.get(item.dbId) ?? []), item]);
  return [...groups.keys()].sort().map((db) => {
    const group = groups.get(db)!;
    const correct = group.filter((v) => v.correct).length;
    return { db, count: group.length, correct, ex: pct(correct, group.length) };
  });
}

/** Scores every question (in parallel); a question without a prediction is wrong ("no prediction"). */
export async function scoreAll(questions: Question[], predictions: Map<string, string>, opts: ScoreAllOptions): Promise<ScoreReport> {
  const started = performance.now();
  // Without compare() every result comes back here: then only a few questions at a time.
  const concurrency = Math.max(1, opts.concurrency ?? (opts.executor.compare ? questions.length : 16 * os.availableParallelism()));
  const goldCache = new GoldCache(Math.max(256, concurrency * 4));
  const verdicts: Verdict[] = new Array(questions.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= questions.length) return;
      const q = questions[i]!;
      const base: Verdict = { id: q.id, correct: false, ...(q.difficulty ? { difficulty: q.difficulty } : {}) };
      const pred = predictions.get(q.id);
      let verdict: Verdict;
      // Without gold there is nothing to score, prediction or not (never "wrong").
      if (!q.goldSql) verdict = { ...base, goldError: NO_GOLD };
      else if (pred === undefined) verdict = { ...base, predError: "no prediction", ...(opts.ves ? { timeRatio: 0, reward: 0 } : {}) };
      else if (noAnswerOf(pred)) verdict = { ...base, predError: `${NO_ANSWER}: the run that wrote it has no answer (${noAnswerOf(pred)})`, ...(opts.ves ? { timeRatio: 0, reward: 0 } : {}) };
      else {
        const score = async (): Promise<Verdict> => {
          try {
            return await scoreQuestion(q, pred, {
              executor: opts.executor,
              semantics: opts.semantics,
              goldCache,
              ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
              ...(opts.keepDistinct !== undefined ? { keepDistinct: opts.keepDistinct } : {}),
              ...(opts.ves !== undefined ? { ves: opts.ves } : {}),
            });
          } catch (error) {
            return { ...base, predError: `internal: ${oneLine(error instanceof Error ? error.message : String(error))}` };
          }
        };
        verdict = await score();
        // Another process holds the database: wait and score again (the gold result is not cached when it failed).
        const delays = opts.lockRetryDelaysMs ?? LOCK_RETRY_DELAYS_MS;
        for (let retry = 0; lockedDatabase(verdict) && retry < delays.length; retry++) {
          await new Promise((resolve) => setTimeout(resolve, delays[retry]));
          verdict = { ...(await score()), lockRetries: retry + 1 };
        }
      }
      if (q.goldSql && (opts.softF1 || opts.testSuiteDir)) {
        const scoreOpts = { executor: opts.executor, semantics: opts.semantics, goldCache, ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}), ...(opts.keepDistinct !== undefined ? { keepDistinct: opts.keepDistinct } : {}) };
        try {
          if (opts.softF1) {
            const soft = pred === undefined ? { f1: 0 } : await softF1Of(q, pred, scoreOpts);
            verdict.softF1 = soft.f1;
            if (soft.error?.startsWith("too large")) verdict.softF1Note = soft.error; // scored 0, and says why
          }
          if (opts.testSuiteDir) {
            const variants = testSuiteVariants(opts.testSuiteDir, q.dbId);
            if (!variants.length) verdict.testSuiteNote = `no variants of ${q.dbId} in ${opts.testSuiteDir}`;
            else if (pred === undefined) Object.assign(verdict, { testSuite: false, testSuiteNote: "no prediction" });
            else {
              const ts = await testSuiteVerdict(q, pred, variants, scoreOpts);
              verdict.testSuite = ts.correct ?? false;
              if (ts.failedOn) verdict.testSuiteNote = ts.failedOn;
            }
          }
        } catch (error) {
          verdict.testSuiteNote = `internal: ${oneLine(error instanceof Error ? error.message : String(error))}`;
        }
      }
      verdicts[i] = verdict;
      done++;
      opts.onVerdict?.(verdict, done, questions.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, questions.length)) }, worker));
  // A query stopped at the time limit while others ran beside it may only have been slowed by them (a huge result
  // read on a shared CPU): such questions are scored again alone, one at a time, so the verdict does not depend on
  // --concurrency. The second verdict stands, and says so.
  const timedOut = (v: Verdict | undefined) => v !== undefined && (v.predError?.startsWith("timeout:") || v.goldError?.startsWith("timeout:"));
  if (concurrency > 1) {
    for (let i = 0; i < questions.length; i++) {
      if (!timedOut(verdicts[i])) continue;
      const q = questions[i]!;
      const pred = predictions.get(q.id)!;
      try {
        const again = await scoreQuestion(q, pred, { executor: opts.executor, semantics: opts.semantics, goldCache, ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}), ...(opts.keepDistinct !== undefined ? { keepDistinct: opts.keepDistinct } : {}), ...(opts.ves !== undefined ? { ves: opts.ves } : {}) });
        verdicts[i] = { ...verdicts[i]!, ...again, rescoredAlone: true };
        if (!again.predError) delete verdicts[i]!.predError;
        if (!again.goldError) delete verdicts[i]!.goldError;
      } catch {
        // The first verdict stands.
      }
    }
  }

  const ids = new Set(questions.map((q) => q.id));
  // Questions without gold (own data) were run but cannot be scored, nor those whose database could not be read:
  // every figure is over the others.
  const unreadable = verdicts.flatMap((v) => (databaseErrorOf(v) ? [{ id: v.id, error: databaseErrorOf(v)! }] : []));
  const scored = verdicts.filter((v) => v.goldError !== NO_GOLD && !databaseErrorOf(v));
  const f1Of = (vs: Verdict[]) => (vs.length ? (100 * vs.reduce((a, v) => a + (v.softF1 ?? 0), 0)) / vs.length : 0);
  const tsOf = (vs: Verdict[]) => {
    const with_ = vs.filter((v) => v.testSuite !== undefined);
    return pct(with_.filter((v) => v.testSuite).length, with_.length);
  };
  const byDifficulty = exByDifficulty(scored, (vs) => ({
    ...(opts.ves ? { ves: vesOf(vs), rves: rvesOf(vs) } : {}),
    ...(opts.softF1 ? { softF1: f1Of(vs) } : {}),
    ...(opts.testSuiteDir ? { ts: tsOf(vs) } : {}),
  }));
  const correct = scored.filter((v) => v.correct).length;
  const tsCounted = scored.filter((v) => v.testSuite !== undefined);
  const metrics: Metric[] = ["ex", ...(opts.ves ? (["ves", "r-ves"] as const) : []), ...(opts.softF1 ? (["soft-f1"] as const) : []), ...(opts.testSuiteDir ? (["ts"] as const) : [])];
  const iterations = typeof opts.ves === "object" && opts.ves.iterations ? opts.ves.iterations : DEFAULT_VES_ITERATIONS;
  return {
    semantics: opts.semantics,
    keepDistinct: opts.keepDistinct ?? false,
    count: scored.length,
    correct,
    ex: pct(correct, scored.length),
    byDifficulty,
    metrics,
    ...(opts.databases ? { databases: opts.databases } : {}),
    noGold: verdicts.filter((v) => v.goldError === NO_GOLD).length,
    databaseErrors: unreadable,
    ...(opts.ves
      ? { ves: { iterations, officialIterations: OFFICIAL_VES_ITERATIONS, ves: vesOf(scored), rves: rvesOf(scored) } }
      : {}),
    ...(opts.softF1 ? { softF1: f1Of(scored) } : {}),
    ...(opts.testSuiteDir
      ? {
          testSuite: {
            dir: path.resolve(opts.testSuiteDir),
            count: tsCounted.length,
            correct: tsCounted.filter((v) => v.testSuite).length,
            accuracy: tsOf(scored),
            noVariants: scored.length - tsCounted.length,
          },
        }
      : {}),
    missingPredictions: verdicts.filter((v) => v.predError === "no prediction").length,
    noAnswers: verdicts.filter((v) => v.predError?.startsWith(NO_ANSWER)).length,
    tooLarge: verdicts.filter((v) => v.tooLarge).length,
    streamed: verdicts.filter((v) => v.streamed).length,
    rescoredAlone: verdicts.filter((v) => v.rescoredAlone).length,
    timeouts: verdicts.filter((v) => v.predError?.startsWith("timeout:") || v.goldError?.startsWith("timeout:")).length,
    unmatchedPredictions: [...predictions.keys()].filter((id) => !ids.has(id)),
    writingPredictions: verdicts.filter((v) => v.writes).map((v) => v.id),
    droppedStatements: verdicts.filter((v) => v.note === DROPPED_STATEMENTS).map((v) => v.id),
    emptyPredictions: { count: verdicts.filter((v) => v.note === EMPTY_PREDICTION).length, credited: verdicts.filter((v) => v.note === EMPTY_PREDICTION && v.correct).length },
    severalStatements: verdicts.filter((v) => v.predError === SEVERAL_STATEMENTS).length,
    verdicts,
    elapsedMs: performance.now() - started,
  };
}

// ---------------------------------------------------------------------------
// Prediction files
// ---------------------------------------------------------------------------

export const BIRD_SEPARATOR = "\t----- bird -----\t";

export type PredictionFormat = "bird" | "spider";

/** One prediction of a file, in file order: its key (a JSON key, or the 0-based line), and its SQL (none: 0 or null). */
export interface PredictionEntry {
  key: string;
  sql: string | undefined;
  /** Text format: the line as written, a trailing "\tdb_id" included (pairPredictions drops it knowing the db_ids). */
  line?: string;
}

export interface PredictionRead {
  format: PredictionFormat;
  /** By key (JSON) or line index (text, a trailing "\tdb_id"-shaped token dropped): for callers without questions. */
  predictions: Map<string, string>;
  /** Every entry in file order: a JSON object's keys as written (the order Python's json.load keeps), or the lines. */
  entries: PredictionEntry[];
  /** Text format: the line count. */
  lines?: number;
}

/**
 * A JSON object's keys in the order written, each once (first place, as a Python dict keeps it; JSON.parse lists
 * integer-like keys first, in numeric order). The text is valid JSON.
 */
export function jsonObjectKeys(text: string): string[] {
  const keys: string[] = [];
  const seen = new Set<string>();
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (depth === 1 && expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (!seen.has(key)) keys.push(key);
        seen.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === "{" || c === "[") {
      depth++;
      if (depth === 1) expectKey = c === "{";
    } else if (c === "}" || c === "]") depth--;
    else if (c === "," && depth === 1) expectKey = true;
  }
  return keys;
}

/**
 * Reads predictions: BIRD's predict_dev.json ({"id": "SQL\t----- bird -----\tdb_id"}, a 0 or null
 * value meaning none) or Spider's text format (one SQL per line, in question order; a trailing "\tdb_id" is dropped).
 * In the text format every line is a question's: a blank line is an empty prediction, never skipped (skipping one
 * would shift every later prediction onto the wrong question); only the newline that ends the last line ends no line.
 * `entries` keeps the file's order; pairPredictions pairs them with questions. Malformed → UserError.
 */
export async function readPredictionFile(file: string): Promise<PredictionRead> {
  const text = await readTextFile(file);
  const predictions = new Map<string, string>();
  const entries: PredictionEntry[] = [];
  const trimmed = text.trimStart();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new UserError(`${file}: ${describeJsonError(text)}`);
    }
    const pairs: Array<[string, unknown]> = Array.isArray(data)
      ? data.map((v, i) => [String(i), v])
      : data !== null && typeof data === "object"
        ? jsonObjectKeys(text).map((key) => [key, (data as Record<string, unknown>)[key]])
        : [];
    for (const [key, value] of pairs) {
      if (value === 0 || value === null) {
        entries.push({ key, sql: undefined }); // BIRD writes 0 for a question with no prediction
        continue;
      }
      if (typeof value !== "string") {
        const got = Array.isArray(value) ? "array" : typeof value;
        throw new UserError(`${file}: key "${key}": expected a string "SQL\\t----- bird -----\\tdb_id" (got ${got})`);
      }
      const cut = value.indexOf(BIRD_SEPARATOR);
      const sql = (cut >= 0 ? value.slice(0, cut) : value).trim();
      predictions.set(key, sql);
      entries.push({ key, sql });
    }
    return { format: "bird", predictions, entries };
  }
  if (!text.trim()) throw new UserError(`${file}: no predictions in the file`);
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop(); // the last line's newline
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    if (line.includes("\0")) throw new UserError(`${file}: line ${n + 1}: binary data, not a prediction`);
    const tab = line.lastIndexOf("\t");
    const sql = (tab >= 0 && /^[\w.-]+$/.test(line.slice(tab + 1).trim()) ? line.slice(0, tab) : line).trim();
    predictions.set(String(n), sql);
    entries.push({ key: String(n), sql, line });
  }
  return { format: "spider", predictions, entries, lines: lines.length };
}

/**
 * A text line's SQL: a trailing "\tdb_id" is dropped when it names one of the benchmark's databases and the query
 * before it is not waiting for a name (`FROM\tpoker_player` is the table, where a database shares its name); any other
 * tab is whitespace of the query, kept whole.
 */
export function textLineSql(line: string, dbIds: ReadonlySet<string>): string {
  const tab = line.lastIndexOf("\t");
  if (tab < 0 || !dbIds.has(line.slice(tab + 1).trim())) return line.trim();
  const before = tokenizeSql(line.slice(0, tab)).filter((t) => t.type !== "ws" && t.type !== "comment").at(-1);
  const wantsName = !before || (before.type === "word" && NAME_BEFORE.has(before.lower)) || (before.type === "punct" && (before.text === "," || before.text === "." || before.text === "("));
  return (wantsName ? line : line.slice(0, tab)).trim();
}

/** Words a table (or column) name follows: a last tab token after them is the query's, not a db_id. */
const NAME_BEFORE = new Set(["from", "join", "into", "table", "update", "as", "on", "by", "select", "where", "and", "or", "not", "distinct", "=", "in"]);

/** How a predictions file is paired with the questions: "position" (the n-th entry is the n-th question's) or "key". */
export type Pairing = "position" | "key";

/**
 * Predictions by question id, paired as the official scorers pair them. `ordered`: every question of the selected
 * question file in file order (those skipped for a missing database included: they keep their place).
 * - Text format: by position, always (Spider's evaluation.py zips lines with questions).
 * - JSON with `pairing` "position" (BIRD mini-dev: its evaluation_ex.py zips the dict's values, in file order, with
 *   mini_dev_sqlite.json): the n-th entry is the n-th question's, whatever its key; otherwise by key (question id).
 * A positional file must have an entry per question, unless `onlyPredicted` (then it pairs with the first ones, as
 * the official zip does). Fails with a one-line UserError.
 */
export function pairPredictions(
  file: string,
  read: PredictionRead,
  ordered: ReadonlyArray<{ id: string; dbId: string }>,
  opts: { pairing: Pairing; onlyPredicted?: boolean; hint?: string },
): Map<string, string> {
  if (read.format === "bird" && opts.pairing === "key") return read.predictions;
  const entries = read.entries;
  if (entries.length !== ordered.length && !(opts.onlyPredicted && entries.length < ordered.length)) {
    const what = read.format === "spider" ? "prediction lines" : "predictions";
    const how = read.format === "spider" ? "a text-format file needs one line per question, in order (a blank line is an empty prediction)" : "mini-dev predictions pair by position, as its official scorer pairs them: one entry per question of the file, in its order (0 or null for none)";
    throw new UserError(`${file}: ${entries.length} ${what} for ${ordered.length} questions: ${how}${opts.hint ?? ""}`);
  }
  const dbIds = new Set(ordered.map((q) => q.dbId));
  const paired = new Map<string, string>();
  entries.forEach((entry, n) => {
    const q = ordered[n];
    if (!q || entry.sql === undefined) return;
    paired.set(q.id, entry.line !== undefined ? textLineSql(entry.line, dbIds) : entry.sql);
  });
  return paired;
}

/** How a benchmark's JSON predictions pair with its questions: BIRD mini-dev's by position (its official scorer's way). */
export function predictionPairing(bench: Pick<Benchmark, "layout" | "split" | "customQuestions">): Pairing {
  return bench.layout === "bird" && bench.split === "minidev" && !bench.customQuestions ? "position" : "key";
}

/** Predictions by question id (see readPredictionFile). */
export async function readPredictions(file: string): Promise<Map<string, string>> {
  return (await readPredictionFile(file)).predictions;
}

/** Writes BIRD's predict_<split>.json: {"id": "SQL\t----- bird -----\tdb_id"}. */
export async function writeBirdPredictions(file: string, rows: Array<{ id: string; sql: string; dbId: string }>): Promise<void> {
  const out: Record<string, string> = {};
  for (const r of rows) out[r.id] = `${r.sql.trim()}${BIRD_SEPARATOR}${r.dbId}`;
  await writeFile(file, `${JSON.stringify(out, null, 4)}\n`);
}

/**
 * Writes Spider's text format: one line per question, in order ("SQL\tdb_id" when dbId is given).
 * Line breaks and tabs inside a query become spaces; an empty query is written as "SELECT"
 * (which fails to execute) so lines stay aligned with questions.
 */
export async function writeSpiderPredictions(file: string, rows: Array<{ sql: string; dbId?: string }>): Promise<void> {
  const lines = rows.map((r) => {
    const sql = r.sql.replace(/[\r\n\t]+/g, " ").trim() || "SELECT";
    return r.dbId ? `${sql}\t${r.dbId}` : sql;
  });
  await writeFile(file, lines.length ? `${lines.join("\n")}\n` : "");
}
