import { type CliIO } from "../core/io.ts";
import type { Benchmark } from "../state/question.ts";
/**
 * A benchmark's questions as every command reads them: `bench` a Spider or BIRD folder or "minibench" (built on first
 * use in the data directory), `split` (default dev), `questions` another question file over its databases, or
 * `questions` with `dbDir` for your own data. Questions whose database is missing are in `skipped`, with the reason.
 */
export declare function loadBenchmark(options: {
    bench?: string;
    split?: string;
    questions?: string;
    dbDir?: string;
}, io?: CliIO): Promise<Benchmark>;
