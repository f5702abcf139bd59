import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { UsageError } from "../../core/errors.ts";
import { EXIT } from "../../core/exit.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import { checkConfig, type ConfigInput, type ConfigOf, defineConfig } from "../../core/config.ts";
import { asApiErrors } from "../run/api-options.ts";
import { BENCHMARK_CONFIG, benchmarkOf } from "../run/load-benchmark.ts";
import { fileOrder } from "../run/question-sample.ts";
import {
  DEFAULT_VES_ITERATIONS,
  databaseErrorOf,
  NO_GOLD,
  pairPredictions,
  predictionPairing,
  type Metric,
  METRICS,
  readPredictionFile,
  type ScoreReport,
  scoreAll,
  type Semantics,
} from "../../tools/benchmarks/score.ts";
import { createExecutor } from "../../tools/sqlite/executor.ts";
import { addSpiderHardness } from "../../tools/benchmarks/hardness.ts";
import { dataDir } from "../../tools/paths.ts";
import type { Benchmark } from "../../state/question.ts";

/** `score`'s options, declared once: the API's type, the launcher's flags and usage lines (cli/commands/score.ts). */
export const SCORE_CONFIG = defineConfig({
  ...BENCHMARK_CONFIG,
  pred: {
    type: "string",
    metavar: "FILE|gold",
    help: `BIRD's predict_dev.json ({"id": "SQL\\t----- bird -----\\tdb_id"}), paired by
question id (mini-dev's predict_minidev.json by position, as its
official scorer pairs it), or Spider's text format (one SQL per line,
paired by position in the question file: a line per question, a
blank line an empty prediction, a trailing "\\tdb_id" dropped);
'gold' scores the gold SQL itself (a self-check: 100%)`,
  },
  semantics: {
    type: "string",
    choices: ["bird", "spider"],
    help: `result comparison (default: the benchmark's own layout; spider also gives
--db-dir questions Spider's hardness levels)
  bird:   set of rows, column order matters (BIRD evaluation.py)
  spider: bag of rows, row order when gold has ORDER BY, columns may be
          permuted, DISTINCT removed (test-suite-sql-eval exec_eval.py)`,
  },
  keepDistinct: { type: "boolean", help: "spider semantics: keep DISTINCT" },
  metrics: {
    type: "list",
    metavar: "LIST",
    help: `any of ${METRICS.join(",")} (default ex; ex is always computed)
  ves, r-ves: BIRD's VES and mini-dev's R-VES (timed runs of correct predictions)
  soft-f1:    BIRD mini-dev's Soft F1 (partial credit by matching cell values)
  ts:         test-suite accuracy: right only when right on every database
              variant in --ts-dir (Spider's test-suite-sql-eval)`,
  },
  tsDir: { type: "string", metavar: "DIR", help: "test-suite databases: DIR/<db_id>/*.sqlite or DIR/database/<db_id>/*.sqlite\n(implies ts)" },
  ves: { type: "boolean", help: "the same as --metrics ex,ves,r-ves" },
  vesIterations: { type: "int", min: 1, help: `timed rounds per question for VES (default ${DEFAULT_VES_ITERATIONS}, as BIRD; fewer past 2 s)` },
  concurrency: { type: "int", min: 1, help: "worker processes running queries (default: CPUs)" },
  timeoutMs: { type: "int", min: 1, help: "per-query time limit (default 30000)" },
  onlyPredicted: {
    type: "boolean",
    help: `score only the questions that have a prediction (a subset run, e.g. eval --limit;
a positional file then pairs with the first questions); otherwise a
question without one counts as wrong`,
  },
  json: { type: "boolean", help: "print the whole report, with per-question verdicts, as JSON" },
});

/** score's typed config, as the launcher parses it and `score` checks it. */
export type ScoreConfig = ConfigOf<typeof SCORE_CONFIG>;

const fmtPct = (x: number) => x.toFixed(2);

function renderTable(report: ScoreReport, shown: Set<Metric>): string {
  const ves = report.ves !== undefined && shown.has("ves");
  const rves = report.ves !== undefined && shown.has("r-ves");
  const f1 = report.softF1 !== undefined;
  const ts = report.testSuite !== undefined;
  const head = ["difficulty", "count", "correct", "EX %", ...(ves ? ["VES"] : []), ...(rves ? ["R-VES"] : []), ...(f1 ? ["Soft F1"] : []), ...(ts ? ["TS %"] : [])];
  const rows = report.byDifficulty.map((d) => [
    d.difficulty,
    String(d.count),
    String(d.correct),
    fmtPct(d.ex),
    ...(ves ? [fmtPct(d.ves ?? 0)] : []),
    ...(rves ? [fmtPct(d.rves ?? 0)] : []),
    ...(f1 ? [fmtPct(d.softF1 ?? 0)] : []),
    ...(ts ? [fmtPct(d.ts ?? 0)] : []),
  ]);
  rows.push([
    "all",
    String(report.count),
    String(report.correct),
    report.count ? fmtPct(report.ex) : "n/a",
    ...(ves ? [fmtPct(report.ves!.ves)] : []),
    ...(rves ? [fmtPct(report.ves!.rves)] : []),
    ...(f1 ? [fmtPct(report.softF1!)] : []),
    ...(ts ? [fmtPct(report.testSuite!.accuracy)] : []),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ").trimEnd();
  return [line(head), ...rows.map(line)].join("\n");
}

const listed = (items: string[], max = 5) => items.slice(0, max).join(", ") + (items.length > max ? `, ... (${items.length - max} more)` : "");

function renderText(report: ScoreReport, bench: Benchmark, predLabel: string, extra: { unmatched: string[]; notes: string[]; shown: Set<Metric> }): string {
  const out: string[] = [];
  out.push(`benchmark:   ${bench.name} (${bench.layout} layout, ${bench.dir})`);
  if (bench.questionsFile) out.push(`questions:   ${bench.questionsFile}`);
  out.push(`predictions: ${predLabel}`);
  out.push(`semantics:   ${report.semantics}${report.semantics === "spider" ? (report.keepDistinct ? ", DISTINCT kept" : ", DISTINCT removed") : ""}`);
  out.push(`metrics:     ${[...extra.shown].join(", ")} on the databases in ${report.databases ?? bench.dbDir ?? bench.dir}${report.testSuite ? `; ts also on the variants in ${report.testSuite.dir}` : ""}`);
  out.push("");
  if (!report.count && report.noGold) {
    out.push(`EX: not available (no question has gold SQL; ${report.noGold} predictions not scored)`);
    return `${out.join("\n")}\n`;
  }
  out.push(renderTable(report, extra.shown));
  if (report.noGold) out.push(`no gold SQL: ${report.noGold} questions not scored (not counted)`);
  if (report.databaseErrors.length) out.push(`database could not be read: ${report.databaseErrors.length} questions not scored (not counted): ${listed(report.databaseErrors.map((d) => `${d.id}: ${d.error}`), 3)}`);
  const retried = report.verdicts.filter((v) => v.lockRetries);
  if (retried.length) out.push(`database locked by another process: ${retried.length} questions scored again after a wait (ids ${listed(retried.map((v) => v.id))})`);
  if (report.testSuite) {
    const t = report.testSuite;
    out.push(`test-suite: ${t.correct}/${t.count} right on every variant${t.noVariants ? `; ${t.noVariants} questions whose database has no variant in ${t.dir} not counted` : ""}`);
  }
  if (report.softF1 !== undefined) out.push("Soft F1: BIRD mini-dev's calculate_f1_score, checked question by question against the official function (docs/benchmarks-and-scoring.md: bench/official-agreement.ts)");
  if (report.ves) {
    out.push(`VES: ${report.ves.iterations} timed runs per query (BIRD's evaluation_ves.py uses ${report.ves.officialIterations})`);
  }
  const wrong = report.verdicts.filter((v) => !v.correct);
  const errors = wrong.filter((v) => v.predError && v.predError !== "no prediction" && !databaseErrorOf(v));
  const goldErrors = report.verdicts.filter((v) => v.goldError && v.goldError !== NO_GOLD && !databaseErrorOf(v));
  if (errors.length) out.push(`prediction failed to run: ${errors.length} (${listed(errors.map((v) => `${v.id}: ${v.predError}`), 3)})`);
  if (goldErrors.length) out.push(`gold SQL failed to run: ${goldErrors.length} (${listed(goldErrors.map((v) => `${v.id}: ${v.goldError}`), 3)})`);
  if (report.writingPredictions.length) out.push(`predictions that write (scored as errors, never run): ${report.writingPredictions.length} (ids ${listed(report.writingPredictions)})`);
  if (report.emptyPredictions.count) out.push(`no statement (empty or comments only): ${report.emptyPredictions.count} predictions, ${report.emptyPredictions.credited} right because their gold returns no rows (as the official BIRD scorers, through Python's sqlite3)`);
  if (report.severalStatements) out.push(`several statements (anything but comments after the first ';', ';;' too): ${report.severalStatements} predictions scored wrong, as Python's sqlite3 refuses them`);
  if (report.droppedStatements.length) out.push(`several statements: ${report.droppedStatements.length} predictions scored on their first statement only, as test-suite-sql-eval does (ids ${listed(report.droppedStatements)})`);
  if (report.missingPredictions) out.push(`no prediction: ${report.missingPredictions} questions, scored wrong`);
  if (report.noAnswers) out.push(`no answer (marked failed or not run by the run that wrote the file): ${report.noAnswers} questions, scored wrong`);
  const large = report.verdicts.filter((v) => v.tooLarge);
  if (large.length) out.push(`too large to compare: ${large.length}, scored wrong (${listed(large.map((v) => `${v.id}: ${v.tooLarge}`), 3)})`);
  if (report.rescoredAlone) out.push(`stopped at the time limit beside other questions: ${report.rescoredAlone} scored again alone (their verdicts do not depend on --concurrency)`);
  if (report.streamed) out.push(`past the cap, compared whole by streamed digests: ${report.streamed} identical results scored right`);
  const softLarge = report.verdicts.filter((v) => v.softF1Note);
  if (softLarge.length) out.push(`Soft F1 scored 0 as too large: ${softLarge.length} (${listed(softLarge.map((v) => `${v.id}: ${v.softF1Note}`), 3)})`);
  if (report.timeouts) out.push(`stopped at the time limit: ${report.timeouts} (counted in the failures above)`);
  if (bench.skipped.length) {
    out.push(`skipped: ${bench.skipped.length} questions not scored`);
    for (const s of bench.skipped.slice(0, 5)) out.push(`  ${s.id} (${s.dbId}): ${s.reason}`);
    if (bench.skipped.length > 5) out.push(`  ... and ${bench.skipped.length - 5} more`);
  }
  if (extra.unmatched.length) out.push(`predictions matching no question: ${extra.unmatched.length} (ids ${listed(extra.unmatched)})`);
  for (const note of extra.notes) out.push(`note: ${note}`);
  return `${out.join("\n")}\n`;
}

function progress(io: CliIO) {
  if (!io.isTTY) return undefined;
  let last = 0;
  return (done: number, total: number) => {
    const now = Date.now();
    if (done < total && now - last < 100) return;
    last = now;
    io.stderr(`\rscoring ${done}/${total}${done === total ? "\n" : ""}`);
  };
}

/**
 * What a script passes to `score` (closed: a misspelt option does not compile): bench ("minibench" too), split,
 * questions, dbDir, pred, semantics, keepDistinct, metrics, tsDir, ves, vesIterations, concurrency, timeoutMs,
 * onlyPredicted, json.
 */
export type ScoreOptions = ConfigInput<typeof SCORE_CONFIG> & { pred: string };

/**
 * Scores a predictions file (or the gold itself: `pred: "gold"`) against a benchmark, as `sqlmend score` does: prints
 * the table (or JSON) and returns the report — EX and any asked metric, overall and per difficulty, per question.
 */
export async function score(options: ScoreOptions, io: CliIO = defaultIO()): Promise<{ exitCode: number; report: ScoreReport }> {
  return asApiErrors("score", () => scoreFrom(checkConfig("score", SCORE_CONFIG, options), io));
}

/** score's body, from its typed config (the launcher's parse, or `score`'s check). */
export async function scoreFrom(config: ScoreConfig, io: CliIO): Promise<{ exitCode: number; report: ScoreReport }> {
  if (!config.bench && !config.dbDir) throw new UsageError("--bench DIR|minibench is required (or --questions FILE --db-dir DIR)");
  if (!config.pred) throw new UsageError("--pred FILE|gold is required");
  const asked = new Set<Metric>(["ex"]);
  for (const m of (config.metrics ?? []).map((x) => x.toLowerCase())) {
    if (!(METRICS as readonly string[]).includes(m)) throw new UsageError(`--metrics takes ${METRICS.join(",")}, not '${m}'`);
    asked.add(m as Metric);
  }
  if (config.ves) ["ves", "r-ves"].forEach((m) => asked.add(m as Metric));
  if (config.tsDir !== undefined) asked.add("ts");
  if (asked.has("ts") && config.tsDir === undefined) throw new UsageError("--metrics ts needs --ts-dir DIR (the test-suite databases)");
  const shown = new Set(METRICS.filter((m) => asked.has(m)));
  const concurrency = config.concurrency ?? os.availableParallelism();
  const timeoutMs = config.timeoutMs ?? 30_000;
  const vesIterations = config.vesIterations ?? DEFAULT_VES_ITERATIONS;

  // The workers start while the benchmark is read.
  const executor = createExecutor({ size: concurrency, defaultTimeoutMs: timeoutMs, prestart: true });
  try {
    const { bench } = await benchmarkOf(config, io, { cacheDir: path.join(dataDir(io.env, io.cwd), "cache") });
    const semantics: Semantics = config.semantics ?? (bench.layout === "spider" ? "spider" : "bird");
    // Spider semantics asked of another set (own databases): its hardness levels too, as for Spider's own files.
    if (semantics === "spider") addSpiderHardness(bench);
    const tsDir = config.tsDir !== undefined ? path.resolve(io.cwd, config.tsDir) : undefined;
    if (tsDir !== undefined && !fs.existsSync(tsDir)) throw new UsageError(`--ts-dir ${config.tsDir}: no such directory`);
    const notes: string[] = [];
    if (config.keepDistinct && semantics === "bird") notes.push("--keep-distinct has no effect under bird semantics");

    let predictions: Map<string, string>;
    let predLabel: string;
    if (config.pred === "gold") {
      predictions = new Map(bench.questions.map((q) => [q.id, q.goldSql ?? ""]));
      predLabel = "gold SQL (self-check)";
    } else {
      const file = path.resolve(io.cwd, config.pred);
      const read = await readPredictionFile(file);
      const pairing = predictionPairing(bench);
      predictions = pairPredictions(file, read, fileOrder([...bench.questions, ...bench.skipped]), {
        pairing,
        onlyPredicted: config.onlyPredicted ?? false,
        hint: "; to score the first ones only, add --only-predicted",
      });
      predLabel = `${file} (${read.format} format, paired by ${read.format === "spider" || pairing === "position" ? "position in the question file" : "question id"})`;
    }
    const skippedIds = new Set(bench.skipped.map((s) => s.id));

    const tick = progress(io);
    const questions = config.onlyPredicted ? bench.questions.filter((q) => predictions.has(q.id)) : bench.questions;
    const report: ScoreReport = await scoreAll(questions, predictions, {
      executor,
      semantics,
      timeoutMs,
      keepDistinct: config.keepDistinct ?? false,
      ...(asked.has("ves") || asked.has("r-ves") ? { ves: { iterations: vesIterations } } : {}),
      ...(asked.has("soft-f1") ? { softF1: true } : {}),
      ...(tsDir ? { testSuiteDir: tsDir } : {}),
      ...(bench.dbDir ? { databases: bench.dbDir } : {}),
      ...(tick ? { onVerdict: (_v, done, total) => tick(done, total) } : {}),
    });
    const unmatched = report.unmatchedPredictions.filter((id) => !skippedIds.has(id));

    if (config.json) {
      const out = {
        benchmark: { dir: bench.dir, name: bench.name, layout: bench.layout, split: bench.split, ...(bench.questionsFile ? { questions: bench.questionsFile } : {}) },
        predictions: predLabel,
        ...report,
        unmatchedPredictions: unmatched,
        skipped: bench.skipped,
        notes,
      };
      io.stdout(`${JSON.stringify(out, null, 2)}\n`);
    } else {
      io.stdout(renderText(report, bench, predLabel, { unmatched, notes, shown }));
    }
    // Not every question was scored as asked: the figures leave those out, and say so; the exit status too.
    if (report.databaseErrors.length) {
      const locked = report.databaseErrors.filter((d) => /database is locked/.test(d.error)).length;
      const what = locked === report.databaseErrors.length ? "not scored: database locked (another process held it through the retries)" : locked ? `not scored: database locked (${locked}) or unreadable` : "not scored: their database could not be read";
      io.stderr(`sqlmend score: ${report.databaseErrors.length} questions ${what} (first: ${report.databaseErrors[0]!.error}); score again once nothing else holds or damages it\n`);
      return { exitCode: EXIT.error, report };
    }
    return { exitCode: EXIT.ok, report };
  } finally {
    await executor.close();
  }
}
