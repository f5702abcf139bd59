import { type CliIO, defaultIO } from "../../core/io.ts";
import type { Benchmark } from "../../state/question.ts";
import { benchmarkFromFlags, RUN_DIR_FLAGS } from "./output-dir-flags.ts";
import { type FlagTable, flagValuesOf } from "./api-options.ts";

/**
 * A benchmark's questions as every command reads them: `bench` a Spider or BIRD folder or "minibench" (built on first
 * use in the data directory), `split` (default dev), `questions` another question file over its databases, or
 * `questions` with `dbDir` for your own data. Questions whose database is missing are in `skipped`, with the reason.
 */
export async function loadBenchmark(options: { bench?: string; split?: string; questions?: string; dbDir?: string }, io: CliIO = defaultIO()): Promise<Benchmark> {
  const { bench, split, questions, "db-dir": dbDir } = RUN_DIR_FLAGS;
  const values = flagValuesOf("loadBenchmark", options, { bench, split, questions, "db-dir": dbDir } as FlagTable);
  return (await benchmarkFromFlags(values as Parameters<typeof benchmarkFromFlags>[0], io, "dev")).bench;
}
