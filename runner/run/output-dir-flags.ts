import path from "node:path";
import type { Benchmark } from "../../state/question.ts";
import { SPLITS, type Split } from "../../state/splits.ts";
import { type BenchmarkSource, loadSource } from "../../tools/benchmarks/benchmark.ts";
import { resolveBenchmarkDir } from "../../tools/benchmarks/resolve.ts";
import { UsageError } from "../../core/errors.ts";
import { SAMPLE_FLAGS } from "./question-sample.ts";

// The flags of commands that run many questions into an output directory (`eval`, `magic guideline`, `memo build`,
// `ts-sql audit`), and the benchmark they name.

/** The flags every such command takes: the benchmark split, the subset, the output directory, resuming. */
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

/** How the run flags' question selection reads in a usage text. */
export const SELECTION_USAGE = `  --bench DIR|minibench     Spider or BIRD layout (BIRD mini-dev and Spider's test split included), or the
                            project's own small benchmark
  --split dev|train|test|minidev   default dev (a layout without dev: its one evaluation split)
  --questions FILE          another question file (Spider or BIRD format, e.g. a Spider variant) over the
                            --bench split's databases; with --db-dir DIR: your own questions (.jsonl, .csv
                            or .json: question, db_id, optional gold, evidence, difficulty, id) over DIR's
                            databases (DIR/<db_id>.sqlite or DIR/<db_id>/<db_id>.sqlite)`;

/** `--split`, checked: dev, train, test (Spider) or minidev (BIRD). */
export function splitFrom(value: string | undefined, fallback: Split): Split {
  const split = value ?? fallback;
  if (!(SPLITS as readonly string[]).includes(split)) throw new UsageError(`--split takes ${SPLITS.join(", ")}, not '${value}'`);
  return split as Split;
}

/**
 * The benchmark the run flags name: `--bench DIR|minibench` (with `--split`, and `--questions FILE` for another question
 * file over its databases), or `--questions FILE --db-dir DIR` (own data). `source` is what run.json records.
 */
export async function benchmarkFromFlags(
  values: { bench?: string | undefined; split?: string | undefined; questions?: string | undefined; "db-dir"?: string | undefined },
  io: { env: NodeJS.ProcessEnv; cwd: string },
  fallbackSplit: Split,
  opts: { cacheDir?: string } = {},
): Promise<{ bench: Benchmark; source: BenchmarkSource; benchDir: string | undefined }> {
  const split = splitFrom(values.split, fallbackSplit);
  const questions = values.questions !== undefined ? path.resolve(io.cwd, values.questions) : undefined;
  if (values["db-dir"] !== undefined) {
    if (values.bench !== undefined) throw new UsageError("--db-dir takes the place of --bench: give one of them");
    if (questions === undefined) throw new UsageError("--db-dir DIR needs --questions FILE");
    if (values.split !== undefined) throw new UsageError("--split applies to --bench layouts, not to --db-dir");
    const source: BenchmarkSource = { questions, dbDir: path.resolve(io.cwd, values["db-dir"]) };
    return { bench: await loadSource(source, opts), source, benchDir: undefined };
  }
  if (values.bench === undefined) throw new UsageError("--bench DIR is required (or --questions FILE --db-dir DIR)");
  const benchDir = await resolveBenchmarkDir(values.bench, io.env, io.cwd);
  const bench = await loadSource({ bench: benchDir, ...(values.split !== undefined || fallbackSplit !== "dev" ? { split } : {}), ...(questions ? { questions } : {}) }, opts);
  return { bench, source: { bench: benchDir, split: bench.split, ...(questions ? { questions } : {}) }, benchDir };
}
