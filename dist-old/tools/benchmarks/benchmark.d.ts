import type { Benchmark, Split } from "../../state/question.ts";
export interface LoadOptions {
    /** Default dev; when the layout has no dev split, its only evaluation split (BIRD mini-dev, Spider test). */
    split?: Split;
    cacheDir?: string;
    /** A question file (Spider, BIRD, JSONL or CSV format) to read instead of the layout's own, over its databases. */
    questions?: string;
}
/**
 * Reads a Spider or BIRD benchmark directory (layout detected), or with `questions` another question file over that
 * split's databases (Spider variants such as Spider-Syn, -DK, -Realistic). Throws UserError on bad files. With
 * `cacheDir`, the parsed question files are cached there (see readItems) so later loads skip parsing and hardness.
 */
export declare function loadBenchmark(dir: string, opts?: LoadOptions): Promise<Benchmark>;
/**
 * Your own data: a question file (`.jsonl`, `.csv` or a JSON array; fields `question`, `db_id`, optional `gold`,
 * `evidence`, `difficulty`, `id`) over a folder of databases, each `DIR/<db_id>.sqlite` or `DIR/<db_id>/<db_id>.sqlite`.
 */
export declare function loadQuestionFile(questionsFile: string, dbDir: string, opts?: {
    cacheDir?: string;
}): Promise<Benchmark>;
/** Where a run's questions come from (what run.json records, so `--resume` and `merge` read them again). */
export interface BenchmarkSource {
    /** A layout directory (absolute), absent for own data. */
    bench?: string;
    split?: Split;
    questions?: string;
    dbDir?: string;
}
/** Loads what a source names: a layout (maybe with another question file) or own data. */
export declare function loadSource(source: BenchmarkSource, opts?: {
    cacheDir?: string;
}): Promise<Benchmark>;
