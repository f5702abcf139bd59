import { type CliIO } from "../core/io.ts";
import type { Comparison } from "./compare.ts";
import { type FlagValues } from "./run-values.ts";
/** `sqlmend compare`'s flags. */
export declare const COMPARE_FLAGS: {
    readonly json: {
        readonly type: "boolean";
    };
    readonly show: {
        readonly type: "string";
    };
    readonly html: {
        readonly type: "string";
    };
    readonly price: {
        readonly type: "string";
    };
};
export declare const COMPARE_USAGE = "Usage: sqlmend compare OUT_A OUT_B [OUT_C ...] [--json] [--html FILE] [--show N] [--price IN,OUT]\n\nCompares 'sqlmend eval' output folders on the questions all of them answered (failed ones are counted apart): one table of EX (overall and per\ndifficulty), tokens, calls, latency and cost per question (tokens and cost are the method's: those the response cache\nserved count too, so a rerun from the cache compares the same); what the questions went through (each run's outcomes,\nsummed as its report.md sums them); per pair the questions only one got right, an exact\nMcNemar test on those, and with three runs or more its Holm-adjusted p-value over all pairs.\n  --json          the comparison as JSON\n  --html FILE     a self-contained page with charts (EX by difficulty, EX against tokens per question, flips)\n  --show N        ids listed per group (default 10)\n  --price IN,OUT  USD per million input and output tokens: a cost column";
/**
 * Compares eval run folders on the questions all of them answered (`sqlmend compare`): prints the table (or JSON),
 * writes the page with `html`, and returns the comparison — EX, cost, outcomes, flips and McNemar tests per pair.
 */
export declare function compare(options: {
    runs: string[];
    json?: boolean;
    html?: string;
    show?: number;
    price?: string;
}, io?: CliIO): Promise<{
    exitCode: number;
    comparison: Comparison;
}>;
/** compare from its flag values and run folders (the launcher's parse, or `compare`'s). */
export declare function compareFrom(input: {
    values: FlagValues;
    positionals: string[];
    argv?: string[];
}, io: CliIO): Promise<{
    exitCode: number;
    comparison: Comparison;
}>;
