// The training examples a run retrieves from: the benchmark's train split, loaded once.
import type { GraphInfo } from "../../graphs/spec.ts";
import { createExampleStore, type ExampleStore } from "../../tools/retrieval/examples.ts";
import { loadBenchmark } from "../../tools/benchmarks/benchmark.ts";
import type { Benchmark } from "../../state/question.ts";
import { firstLineOf } from "../../core/errors.ts";
import { examplesWantedBy } from "./run-options.ts";
import { opt, type OptionText, optionUserError } from "../../core/config.ts";
import { type RunConfig } from "./run-config.ts";

/**
 * The training examples a run retrieves from (`--few-shot`, or a graph option such as R³'s `--k-shot`), or undefined
 * when none is wanted: the benchmark's train split, loaded once (the split itself when the run is on train).
 */
export async function examplesFor(spec: GraphInfo, config: RunConfig, graphOptions: Record<string, unknown>, benchDir: string | undefined, split: string, bench: Benchmark): Promise<ExampleStore | undefined> {
  const wantedBy = examplesWantedBy(spec, config, graphOptions);
  if (!wantedBy) return undefined;
  let train = bench;
  if (split !== "train" || bench.customQuestions) {
    if (benchDir === undefined) throw optionUserError`${wantedBy} needs a training split: run on a ${opt("bench")} layout that has one (${opt("dbDir")} data has none)`;
    try {
      train = await loadBenchmark(benchDir, { split: "train" });
    } catch (error) {
      throw optionUserError`${wantedBy} needs the train split of ${benchDir}: ${firstLineOf(error)}`;
    }
  }
  return examplePoolOf(train, wantedBy);
}

/**
 * The example pool of a train split: its questions whose database is on disk (the reader skips the others; each
 * question's state says how many were left out). An empty pool is an error, never a silent zero-shot run.
 */
export function examplePoolOf(train: Benchmark, wantedBy: OptionText | string): ExampleStore {
  const store = createExampleStore(train.questions, { count: train.skipped.length, reason: "database not found locally" });
  if (!store.size) {
    const why = train.skipped.length ? `: all ${train.skipped.length} of its questions lack their database (${train.skipped[0]!.reason}, ...)` : "";
    throw optionUserError`${wantedBy} needs training examples, but the train split of ${train.dir} has none with gold SQL${why}`;
  }
  return store;
}
