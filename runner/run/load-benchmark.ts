import { checkConfig, type ConfigInput, inApiWords } from "../../core/config.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import type { Benchmark } from "../../state/question.ts";
import { BENCHMARK_CONFIG } from "./run-config.ts";
import { benchmarkOf } from "./output-dir-flags.ts";

export { BENCHMARK_CONFIG };

/**
 * A benchmark's questions as every command reads them: `bench` a Spider or BIRD folder or "minibench" (built on first
 * use in the data directory), `split` (default dev), `questions` another question file over its databases, or
 * `questions` with `dbDir` for your own data. Questions whose database is missing are in `skipped`, with the reason.
 */
export async function loadBenchmark(options: ConfigInput<typeof BENCHMARK_CONFIG>, io: CliIO = defaultIO()): Promise<Benchmark> {
  return inApiWords("loadBenchmark", async () => (await benchmarkOf(checkConfig("loadBenchmark", BENCHMARK_CONFIG, options), io, "dev")).bench);
}
