import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { EXIT } from "../../core/exit.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import { checkConfig, type ConfigInput, type ConfigOf, inApiWords, opt, optionUsageError } from "../../core/config.ts";
import { asApiErrors } from "../run/api-options.ts";
import { SCORE_CONFIG } from "./score-config.ts";
import { benchmarkOf } from "../run/output-dir-flags.ts";
import { fileOrder } from "../run/question-sample.ts";
import { progress, renderText } from "./score-text.ts";
import {
  DEFAULT_VES_ITERATIONS,
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

export { SCORE_CONFIG };

/** score's typed config, as the launcher parses it and `score` checks it. */
export type ScoreConfig = ConfigOf<typeof SCORE_CONFIG>;

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
  return inApiWords("score", () => asApiErrors("score", () => scoreFrom(checkConfig("score", SCORE_CONFIG, options), io)));
}

/** score's body, from its typed config (the launcher's parse, or `score`'s check). */
export async function scoreFrom(config: ScoreConfig, io: CliIO): Promise<{ exitCode: number; report: ScoreReport }> {
  if (!config.bench && !config.dbDir) throw optionUsageError`${opt("bench")} DIR|minibench is required (or ${opt("questions")} FILE ${opt("dbDir")} DIR)`;
  if (!config.pred) throw optionUsageError`${opt("pred")} FILE|gold is required`;
  const asked = new Set<Metric>(["ex"]);
  for (const m of (config.metrics ?? []).map((x) => x.toLowerCase())) {
    if (!(METRICS as readonly string[]).includes(m)) throw optionUsageError`${opt("metrics")} takes ${METRICS.join(",")}, not '${m}'`;
    asked.add(m as Metric);
  }
  if (config.ves) ["ves", "r-ves"].forEach((m) => asked.add(m as Metric));
  if (config.tsDir !== undefined) asked.add("ts");
  if (asked.has("ts") && config.tsDir === undefined) throw optionUsageError`${opt("metrics")} ts needs ${opt("tsDir")} DIR (the test-suite databases)`;
  const shown = new Set(METRICS.filter((m) => asked.has(m)));
  const concurrency = config.concurrency ?? os.availableParallelism();
  const timeoutMs = config.timeoutMs ?? 30_000;
  const vesIterations = config.vesIterations ?? DEFAULT_VES_ITERATIONS;

  // The workers start while the benchmark is read.
  const executor = createExecutor({ size: concurrency, defaultTimeoutMs: timeoutMs, prestart: true });
  try {
    const { bench } = await benchmarkOf(config, io, "dev", { cacheDir: path.join(dataDir(io.env, io.cwd), "cache") });
    const semantics: Semantics = config.semantics ?? (bench.layout === "spider" ? "spider" : "bird");
    // Spider semantics asked of another set (own databases): its hardness levels too, as for Spider's own files.
    if (semantics === "spider") addSpiderHardness(bench);
    const tsDir = config.tsDir !== undefined ? path.resolve(io.cwd, config.tsDir) : undefined;
    if (tsDir !== undefined && !fs.existsSync(tsDir)) throw optionUsageError`${opt("tsDir")} ${config.tsDir}: no such directory`;
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
