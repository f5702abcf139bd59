import path from "node:path";
import { SPLITS } from "../state/splits.js";
import { loadSource } from "../tools/benchmarks/benchmark.js";
import { resolveBenchmarkDir } from "../tools/benchmarks/resolve.js";
import { UsageError } from "../core/errors.js";
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
    concurrency: { type: "string" },
    out: { type: "string" },
    resume: { type: "boolean" },
};
/** How the run flags' question selection reads in a usage text. */
export const SELECTION_USAGE = `  --bench DIR|minibench     Spider or BIRD layout (BIRD mini-dev and Spider's test split included), or the
                            project's own small benchmark
  --split dev|train|test|minidev   default dev (a layout without dev: its one evaluation split)
  --questions FILE          another question file (Spider or BIRD format, e.g. a Spider variant) over the
                            --bench split's databases; with --db-dir DIR: your own questions (.jsonl, .csv
                            or .json: question, db_id, optional gold, evidence, difficulty, id) over DIR's
                            databases (DIR/<db_id>.sqlite or DIR/<db_id>/<db_id>.sqlite)`;
/** `--split`, checked: dev, train, test (Spider) or minidev (BIRD). */
export function splitFrom(value, fallback) {
    const split = value ?? fallback;
    if (!SPLITS.includes(split))
        throw new UsageError(`--split takes ${SPLITS.join(", ")}, not '${value}'`);
    return split;
}
/**
 * The benchmark the run flags name: `--bench DIR|minibench` (with `--split`, and `--questions FILE` for another question
 * file over its databases), or `--questions FILE --db-dir DIR` (own data). `source` is what run.json records.
 */
export async function benchmarkFromFlags(values, io, fallbackSplit, opts = {}) {
    const split = splitFrom(values.split, fallbackSplit);
    const questions = values.questions !== undefined ? path.resolve(io.cwd, values.questions) : undefined;
    if (values["db-dir"] !== undefined) {
        if (values.bench !== undefined)
            throw new UsageError("--db-dir takes the place of --bench: give one of them");
        if (questions === undefined)
            throw new UsageError("--db-dir DIR needs --questions FILE");
        if (values.split !== undefined)
            throw new UsageError("--split applies to --bench layouts, not to --db-dir");
        const source = { questions, dbDir: path.resolve(io.cwd, values["db-dir"]) };
        return { bench: await loadSource(source, opts), source, benchDir: undefined };
    }
    if (values.bench === undefined)
        throw new UsageError("--bench DIR is required (or --questions FILE --db-dir DIR)");
    const benchDir = await resolveBenchmarkDir(values.bench, io.env, io.cwd);
    const bench = await loadSource({ bench: benchDir, ...(values.split !== undefined || fallbackSplit !== "dev" ? { split } : {}), ...(questions ? { questions } : {}) }, opts);
    return { bench, source: { bench: benchDir, split: bench.split, ...(questions ? { questions } : {}) }, benchDir };
}
