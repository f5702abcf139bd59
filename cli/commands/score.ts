import os from "node:os";
import path from "node:path";
import { type CliIO, type Command, UsageError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { loadBenchmark, resolveBenchmarkDir } from "../../tools/benchmarks/benchmark.ts";
import {
  DEFAULT_VES_ITERATIONS,
  checkPredictionLines,
  readPredictionFile,
  type ScoreReport,
  scoreAll,
  type Semantics,
} from "../../tools/benchmarks/score.ts";
import { createExecutor } from "../../tools/sqlite/executor.ts";
import { dataDir } from "../../tools/paths.ts";
import type { Benchmark, Split } from "../../state/question.ts";

const usage = `Usage: sqlmend score --bench DIR|minibench --pred FILE|gold [options]

Scores predicted SQL by execution accuracy (EX), overall and per difficulty.

Options:
  --bench DIR|minibench   a Spider or BIRD benchmark directory, or the project's own benchmark
  --pred FILE|gold        BIRD's predict_dev.json ({"id": "SQL\\t----- bird -----\\tdb_id"}) or
                          Spider's text format (one SQL per line, in question order: a line
                          per question, a blank line an empty prediction);
                          'gold' scores the gold SQL itself (a self-check: 100%)
  --split dev|train       benchmark split (default dev)
  --semantics bird|spider result comparison (default: the benchmark's own layout)
                            bird:   set of rows, column order matters (BIRD evaluation.py)
                            spider: bag of rows, row order when gold has ORDER BY, columns may be
                                    permuted, DISTINCT removed (test-suite-sql-eval exec_eval.py)
  --keep-distinct         spider semantics: keep DISTINCT
  --ves                   also measure BIRD's VES and R-VES on correct predictions
  --ves-iterations N      timed runs per query for VES (default ${DEFAULT_VES_ITERATIONS}; BIRD uses 100)
  --concurrency N         worker processes running queries (default: CPUs)
  --timeout-ms N          per-query time limit (default 30000)
  --only-predicted        score only the questions that have a prediction (a subset run, e.g. eval --limit);
                          otherwise a question without one counts as wrong
  --json                  print the whole report, with per-question verdicts, as JSON`;

function positiveInt(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw new UsageError(`${flag} needs a positive integer, got '${text}'`);
  return Number(text);
}

const fmtPct = (x: number) => x.toFixed(2);

function renderTable(report: ScoreReport): string {
  const ves = report.ves !== undefined;
  const head = ["difficulty", "count", "correct", "EX %", ...(ves ? ["VES", "R-VES"] : [])];
  const rows = report.byDifficulty.map((d) => [
    d.difficulty,
    String(d.count),
    String(d.correct),
    fmtPct(d.ex),
    ...(ves ? [fmtPct(d.ves ?? 0), fmtPct(d.rves ?? 0)] : []),
  ]);
  rows.push([
    "all",
    String(report.count),
    String(report.correct),
    fmtPct(report.ex),
    ...(ves ? [fmtPct(report.ves!.ves), fmtPct(report.ves!.rves)] : []),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ").trimEnd();
  return [line(head), ...rows.map(line)].join("\n");
}

const listed = (items: string[], max = 5) => items.slice(0, max).join(", ") + (items.length > max ? `, ... (${items.length - max} more)` : "");

function renderText(report: ScoreReport, bench: Benchmark, predLabel: string, extra: { unmatched: string[]; notes: string[] }): string {
  const out: string[] = [];
  out.push(`benchmark:   ${bench.name} (${bench.layout} layout, ${bench.dir})`);
  out.push(`predictions: ${predLabel}`);
  out.push(`semantics:   ${report.semantics}${report.semantics === "spider" ? (report.keepDistinct ? ", DISTINCT kept" : ", DISTINCT removed") : ""}`);
  out.push("");
  out.push(renderTable(report));
  if (report.ves) {
    out.push(`VES: ${report.ves.iterations} timed runs per query (BIRD's evaluation_ves.py uses ${report.ves.officialIterations})`);
  }
  const wrong = report.verdicts.filter((v) => !v.correct);
  const errors = wrong.filter((v) => v.predError && v.predError !== "no prediction");
  const goldErrors = report.verdicts.filter((v) => v.goldError);
  if (errors.length) out.push(`prediction failed to run: ${errors.length} (${listed(errors.map((v) => `${v.id}: ${v.predError}`), 3)})`);
  if (goldErrors.length) out.push(`gold SQL failed to run: ${goldErrors.length} (${listed(goldErrors.map((v) => `${v.id}: ${v.goldError}`), 3)})`);
  if (report.writingPredictions.length) out.push(`predictions that write (scored as errors, never run): ${report.writingPredictions.length} (ids ${listed(report.writingPredictions)})`);
  if (report.missingPredictions) out.push(`no prediction: ${report.missingPredictions} questions, scored wrong`);
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

export const scoreCommand: Command = {
  name: "score",
  usage,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      bench: { type: "string" },
      pred: { type: "string" },
      split: { type: "string" },
      semantics: { type: "string" },
      "keep-distinct": { type: "boolean" },
      ves: { type: "boolean" },
      "ves-iterations": { type: "string" },
      concurrency: { type: "string" },
      "timeout-ms": { type: "string" },
      "only-predicted": { type: "boolean" },
      json: { type: "boolean" },
    });
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    if (!values.bench) throw new UsageError("--bench DIR|minibench is required");
    if (!values.pred) throw new UsageError("--pred FILE|gold is required");
    const split = (values.split ?? "dev") as Split;
    if (split !== "dev" && split !== "train") throw new UsageError(`--split must be dev or train, got '${values.split}'`);
    if (values.semantics !== undefined && values.semantics !== "bird" && values.semantics !== "spider") {
      throw new UsageError(`--semantics must be bird or spider, got '${values.semantics}'`);
    }
    const concurrency = positiveInt(values.concurrency, "--concurrency", os.availableParallelism());
    const timeoutMs = positiveInt(values["timeout-ms"], "--timeout-ms", 30_000);
    const vesIterations = positiveInt(values["ves-iterations"], "--ves-iterations", DEFAULT_VES_ITERATIONS);

    // The workers start while the benchmark is read.
    const executor = createExecutor({ size: concurrency, defaultTimeoutMs: timeoutMs, prestart: true });
    try {
      const bench = await loadBenchmark(await resolveBenchmarkDir(values.bench, io.env, io.cwd), {
        split,
        cacheDir: path.join(dataDir(io.env, io.cwd), "cache"),
      });
      const semantics: Semantics = (values.semantics as Semantics | undefined) ?? bench.layout;
      const notes: string[] = [];
      if (values["keep-distinct"] && semantics === "bird") notes.push("--keep-distinct has no effect under bird semantics");

      let predictions: Map<string, string>;
      let predLabel: string;
      if (values.pred === "gold") {
        predictions = new Map(bench.questions.map((q) => [q.id, q.goldSql ?? ""]));
        predLabel = "gold SQL (self-check)";
      } else {
        const file = path.resolve(io.cwd, values.pred);
        const read = await readPredictionFile(file);
        predictions = read.predictions;
        predLabel = `${file} (${read.format} format)`;
        checkPredictionLines(file, read, bench.questions.length + bench.skipped.length, "; to score a subset, give the .json predictions with --only-predicted");
      }
      const skippedIds = new Set(bench.skipped.map((s) => s.id));

      const tick = progress(io);
      const questions = values["only-predicted"] ? bench.questions.filter((q) => predictions.has(q.id)) : bench.questions;
      const report: ScoreReport = await scoreAll(questions, predictions, {
        executor,
        semantics,
        timeoutMs,
        keepDistinct: values["keep-distinct"] ?? false,
        ...(values.ves ? { ves: { iterations: vesIterations } } : {}),
        ...(tick ? { onVerdict: (_v, done, total) => tick(done, total) } : {}),
      });
      const unmatched = report.unmatchedPredictions.filter((id) => !skippedIds.has(id));

      if (values.json) {
        const out = {
          benchmark: { dir: bench.dir, name: bench.name, layout: bench.layout, split: bench.split },
          predictions: predLabel,
          ...report,
          unmatchedPredictions: unmatched,
          skipped: bench.skipped,
          notes,
        };
        io.stdout(`${JSON.stringify(out, null, 2)}\n`);
      } else {
        io.stdout(renderText(report, bench, predLabel, { unmatched, notes }));
      }
      return 0;
    } finally {
      await executor.close();
    }
  },
};
