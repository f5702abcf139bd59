import { type CliIO } from "../core/io.ts";
import { type FlagValues } from "./run-values.ts";
import { type ScoreReport } from "../tools/benchmarks/score.ts";
/** What `sqlmend score` prints for `--help`. */
export declare const SCORE_USAGE: string;
/** `sqlmend score`'s flags. */
export declare const SCORE_FLAGS: {
    readonly bench: {
        readonly type: "string";
    };
    readonly pred: {
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
    readonly metrics: {
        readonly type: "string";
    };
    readonly "ts-dir": {
        readonly type: "string";
    };
    readonly semantics: {
        readonly type: "string";
    };
    readonly "keep-distinct": {
        readonly type: "boolean";
    };
    readonly ves: {
        readonly type: "boolean";
    };
    readonly "ves-iterations": {
        readonly type: "string";
    };
    readonly concurrency: {
        readonly type: "string";
    };
    readonly "timeout-ms": {
        readonly type: "string";
    };
    readonly "only-predicted": {
        readonly type: "boolean";
    };
    readonly json: {
        readonly type: "boolean";
    };
};
/**
 * Scores a predictions file (or the gold itself: `pred: "gold"`) against a benchmark, as `sqlmend score` does: prints
 * the table (or JSON) and returns the report — EX and any asked metric, overall and per difficulty, per question.
 * Options by name: bench ("minibench" too), pred, split, questions, dbDir, metrics, tsDir, semantics, keepDistinct,
 * ves, vesIterations, concurrency, timeoutMs, onlyPredicted, json.
 */
export declare function score(options: {
    pred: string;
    bench?: string;
    [flag: string]: unknown;
}, io?: CliIO): Promise<{
    exitCode: number;
    report: ScoreReport;
}>;
/** score from its flag values (the launcher's parse, or `score`'s). */
export declare function scoreFrom(input: {
    values: FlagValues;
    positionals: string[];
}, io: CliIO): Promise<{
    exitCode: number;
    report: ScoreReport;
}>;
