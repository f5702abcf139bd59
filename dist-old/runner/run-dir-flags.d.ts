import type { Benchmark } from "../state/question.ts";
import { type Split } from "../state/splits.ts";
import { type BenchmarkSource } from "../tools/benchmarks/benchmark.ts";
/** The flags every such command takes: the benchmark split, the subset, the output directory, resuming. */
export declare const RUN_DIR_FLAGS: {
    readonly bench: {
        readonly type: "string";
    };
    readonly split: {
        readonly type: "string";
    };
    readonly questions: {
        readonly type: "string";
    };
    readonly "db-dir": {
        readonly type: "string";
    };
    readonly limit: {
        readonly type: "string";
    };
    readonly ids: {
        readonly type: "string";
        readonly multiple: true;
    };
    readonly concurrency: {
        readonly type: "string";
    };
    readonly out: {
        readonly type: "string";
    };
    readonly resume: {
        readonly type: "boolean";
    };
};
/** How the run flags' question selection reads in a usage text. */
export declare const SELECTION_USAGE = "  --bench DIR|minibench     Spider or BIRD layout (BIRD mini-dev and Spider's test split included), or the\n                            project's own small benchmark\n  --split dev|train|test|minidev   default dev (a layout without dev: its one evaluation split)\n  --questions FILE          another question file (Spider or BIRD format, e.g. a Spider variant) over the\n                            --bench split's databases; with --db-dir DIR: your own questions (.jsonl, .csv\n                            or .json: question, db_id, optional gold, evidence, difficulty, id) over DIR's\n                            databases (DIR/<db_id>.sqlite or DIR/<db_id>/<db_id>.sqlite)";
/** `--split`, checked: dev, train, test (Spider) or minidev (BIRD). */
export declare function splitFrom(value: string | undefined, fallback: Split): Split;
/**
 * The benchmark the run flags name: `--bench DIR|minibench` (with `--split`, and `--questions FILE` for another question
 * file over its databases), or `--questions FILE --db-dir DIR` (own data). `source` is what run.json records.
 */
export declare function benchmarkFromFlags(values: {
    bench?: string | undefined;
    split?: string | undefined;
    questions?: string | undefined;
    "db-dir"?: string | undefined;
}, io: {
    env: NodeJS.ProcessEnv;
    cwd: string;
}, fallbackSplit: Split, opts?: {
    cacheDir?: string;
}): Promise<{
    bench: Benchmark;
    source: BenchmarkSource;
    benchDir: string | undefined;
}>;
