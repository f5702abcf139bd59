import path from "node:path";
import type { Benchmark } from "../../state/question.ts";
import { SPLITS, type Split } from "../../state/splits.ts";
import { type BenchmarkSource, loadSource } from "../../tools/benchmarks/benchmark.ts";
import { resolveBenchmarkDir } from "../../tools/benchmarks/resolve.ts";
import { UsageError } from "../../core/errors.ts";
import { SAMPLE_FLAGS } from "./question-sample.ts";
import { opt, optionUsageError } from "../../core/config.ts";
import type { SelectionConfig } from "./run-config.ts";

// The flags of commands that run many questions into an output directory (`eval`, `magic guideline`, `memo build`,
// `ts-sql audit`), and the benchmark they name.

/** The flags every such command takes, for the commands that still read flag values (their typed declaration: `RUN_DIR_CONFIG`, run-config.ts). */
export const RUN_DIR_FLAGS = {
  bench: { type: "string" },
  split: { type: "string" },
  questions: { type: "string" },
  "db-dir": { type: "string" },
  limit: { type: "string" },
  ids: { type: "string", multiple: true },
  ...SAMPLE_FLAGS,
  concurrency: { type: "string" },
  out: { type: "string" },
  resume: { type: "boolean" },
} as const;

/** How the run flags' question selection reads in a usage text: score's, until its usage moves to cli/ (cli/usage/run-usage.ts has eval's, from `SELECTION_CONFIG`). */
export const SELECTION_USAGE = `  --bench DIR|minibench     Spider or BIRD layout (BIRD mini-dev and Spider's test split included), or the
                            project's own small benchmark
  --split dev|train|test|minidev   default dev (a layout without dev: its one evaluation split)
  --questions FILE          another question file (Spider or BIRD format, e.g. a Spider variant) over the
                            --bench split's databases; with --db-dir DIR: your own questions (.jsonl, .csv
                            or .json: question, db_id, optional gold, evidence, difficulty, id) over DIR's
                            databases (DIR/<db_id>.sqlite or DIR/<db_id>/<db_id>.sqlite)`;

/** `--split`, checked: dev, train, test (Spider) or minidev (BIRD). For the commands that still read flag values. */
export function splitFrom(value: string | undefined, fallback: Split): Split {
  const split = value ?? fallback;
  if (!(SPLITS as readonly string[]).includes(split)) throw new UsageError(`--split takes ${SPLITS.join(", ")}, not '${value}'`);
  return split as Split;
}

/**
 * The benchmark a run's selection names: `bench` DIR|minibench (with `split`, and `questions` for another question
 * file over its databases), or `questions` with `dbDir` (own data). `source` is what run.json records.
 */
export async function benchmarkOf(
  config: Pick<SelectionConfig, "bench" | "split" | "questions" | "dbDir">,
  io: { env: NodeJS.ProcessEnv; cwd: string },
  fallbackSplit: Split,
  opts: { cacheDir?: string } = {},
): Promise<{ bench: Benchmark; source: BenchmarkSource; benchDir: string | undefined }> {
  const split = config.split ?? fallbackSplit;
  const questions = config.questions !== undefined ? path.resolve(io.cwd, config.questions) : undefined;
  if (config.dbDir !== undefined) {
    if (config.bench !== undefined) throw optionUsageError`${opt("dbDir")} takes the place of ${opt("bench")}: give one of them`;
    if (questions === undefined) throw optionUsageError`${opt("dbDir")} DIR needs ${opt("questions")} FILE`;
    if (config.split !== undefined) throw optionUsageError`${opt("split")} applies to ${opt("bench")} layouts, not to ${opt("dbDir")}`;
    const source: BenchmarkSource = { questions, dbDir: path.resolve(io.cwd, config.dbDir) };
    return { bench: await loadSource(source, opts), source, benchDir: undefined };
  }
  if (config.bench === undefined) throw benchRequired();
  const benchDir = await resolveBenchmarkDir(config.bench, io.env, io.cwd);
  const bench = await loadSource({ bench: benchDir, ...(config.split !== undefined || fallbackSplit !== "dev" ? { split } : {}), ...(questions ? { questions } : {}) }, opts);
  return { bench, source: { bench: benchDir, split: bench.split, ...(questions ? { questions } : {}) }, benchDir };
}

/** A run with neither `bench` nor `dbDir`. */
export const benchRequired = () => optionUsageError`${opt("bench")} DIR is required (or ${opt("questions")} FILE ${opt("dbDir")} DIR)`;

/** `benchmarkOf` from flag values (by flag name): for the commands that still read them (score, loadBenchmark). */
export async function benchmarkFromFlags(
  values: { bench?: string | undefined; split?: string | undefined; questions?: string | undefined; "db-dir"?: string | undefined },
  io: { env: NodeJS.ProcessEnv; cwd: string },
  fallbackSplit: Split,
  opts: { cacheDir?: string } = {},
): Promise<{ bench: Benchmark; source: BenchmarkSource; benchDir: string | undefined }> {
  splitFrom(values.split, fallbackSplit);
  return benchmarkOf({ bench: values.bench, split: values.split as Split | undefined, questions: values.questions, dbDir: values["db-dir"] }, io, fallbackSplit, opts);
}
