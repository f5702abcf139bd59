import path from "node:path";
import type { Benchmark } from "../../state/question.ts";
import type { Split } from "../../state/splits.ts";
import { type BenchmarkSource, loadSource } from "../../tools/benchmarks/benchmark.ts";
import { resolveBenchmarkDir } from "../../tools/benchmarks/resolve.ts";
import { opt, optionUsageError } from "../../core/config.ts";
import type { SelectionConfig } from "./run-config.ts";

// The benchmark a run's selection names (`eval`, `magic guideline`, `memo build`, `ts-sql audit`, `score`): its options
// are declared in run-config.ts (`SELECTION_CONFIG`).

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
