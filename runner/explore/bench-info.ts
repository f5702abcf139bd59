import path from "node:path";
import { type ConfigInput, type ConfigOf, checkConfig, defineConfig, inApiWords, opt, optionUsageError } from "../../core/config.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import { loadQuestionFile } from "../../tools/benchmarks/benchmark.ts";
import { describeBenchmarkDir, type SplitInfo, summarizeBenchmark } from "../../tools/benchmarks/info.ts";
import { resolveBenchmarkDir } from "../../tools/benchmarks/resolve.ts";

// `sqlmend bench info` as a function: what a benchmark folder (or a question file over a folder of databases) holds.

/** `benchInfo`'s options: a benchmark folder, or a question file with its databases' folder. */
export const BENCH_INFO_CONFIG = defineConfig({
  bench: { type: "string", metavar: "DIR", help: "a Spider or BIRD benchmark folder, or minibench" },
  questions: { type: "string", metavar: "FILE", help: "your own question file (.jsonl, .csv or .json), with --db-dir" },
  dbDir: { type: "string", metavar: "DIR", help: "the folder of its databases, with --questions" },
});

export type BenchInfoConfig = ConfigOf<typeof BENCH_INFO_CONFIG>;
export type BenchInfoOptions = ConfigInput<typeof BENCH_INFO_CONFIG>;

/** One split's (or one question file's) counts: questions, runnable, with gold, databases present and missing, difficulties. */
export type SplitSummary = Omit<SplitInfo, "split" | "file" | "dbFolder">;
export type { SplitInfo };

export type BenchInfo =
  /** A benchmark folder: its layout, each split's question file and databases folder with its counts, other files found. */
  | { layout: "spider" | "bird"; dir: string; splits: SplitInfo[]; extraFiles: string[] }
  /** Own data: a question file over a folder of databases. */
  | { layout: "own"; questionsFile: string; dbDir: string; summary: SplitSummary };

/** What a benchmark holds (paths from `io.cwd`; `bench: "minibench"` builds the project's own once). */
export async function benchInfo(options: BenchInfoOptions, io: Pick<CliIO, "env" | "cwd"> = defaultIO()): Promise<BenchInfo> {
  return inApiWords("benchInfo", () => describeBench(checkConfig("benchInfo", BENCH_INFO_CONFIG, options), io));
}

/** The body `benchInfo` and the launcher share, on a checked config (bench, or questions with dbDir). */
export async function describeBench(config: BenchInfoConfig, io: Pick<CliIO, "env" | "cwd">): Promise<BenchInfo> {
  const own = config.questions !== undefined || config.dbDir !== undefined;
  if (own && config.bench !== undefined) throw optionUsageError`give ${opt("bench")}, or ${opt("questions")} with ${opt("dbDir")}, not both`;
  if (own) {
    if (config.questions === undefined || config.dbDir === undefined) throw optionUsageError`${opt("questions")} FILE and ${opt("dbDir")} DIR go together`;
    const b = await loadQuestionFile(path.resolve(io.cwd, config.questions), path.resolve(io.cwd, config.dbDir));
    return { layout: "own", questionsFile: b.questionsFile ?? path.resolve(io.cwd, config.questions), dbDir: b.dbDir ?? path.resolve(io.cwd, config.dbDir), summary: summarizeBenchmark(b) };
  }
  if (config.bench === undefined) throw optionUsageError`${opt("bench")} DIR is required (or ${opt("questions")} FILE with ${opt("dbDir")} DIR)`;
  return describeBenchmarkDir(await resolveBenchmarkDir(config.bench, io.env, io.cwd));
}
