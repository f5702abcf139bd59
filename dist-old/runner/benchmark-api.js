import { defaultIO } from "../core/io.js";
import { benchmarkFromFlags, RUN_DIR_FLAGS } from "./run-dir-flags.js";
import { flagValuesOf } from "./run-values.js";
/**
 * A benchmark's questions as every command reads them: `bench` a Spider or BIRD folder or "minibench" (built on first
 * use in the data directory), `split` (default dev), `questions` another question file over its databases, or
 * `questions` with `dbDir` for your own data. Questions whose database is missing are in `skipped`, with the reason.
 */
export async function loadBenchmark(options, io = defaultIO()) {
    const { bench, split, questions, "db-dir": dbDir } = RUN_DIR_FLAGS;
    const values = flagValuesOf("loadBenchmark", options, { bench, split, questions, "db-dir": dbDir });
    return (await benchmarkFromFlags(values, io, "dev")).bench;
}
