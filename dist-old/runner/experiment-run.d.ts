import { type CliIO } from "../core/io.ts";
import { type RunModules } from "./run-options.ts";
import { type FlagTable, type FlagValues } from "./run-values.ts";
/** `sqlmend experiment`'s own flags; every other flag goes to every run (`experimentForwardFlags`). */
export declare const EXPERIMENT_FLAGS: {
    readonly bench: {
        readonly type: "string";
    };
    readonly out: {
        readonly type: "string";
    };
    readonly limit: {
        readonly type: "string";
    };
    readonly repeats: {
        readonly type: "string";
    };
    readonly hold: {
        readonly type: "string";
    };
    readonly pilot: {
        readonly type: "string";
    };
    readonly "price-in": {
        readonly type: "string";
    };
    readonly "price-out": {
        readonly type: "string";
    };
    readonly "dry-run": {
        readonly type: "boolean";
    };
    readonly resume: {
        readonly type: "boolean";
    };
    readonly list: {
        readonly type: "boolean";
    };
    readonly print: {
        readonly type: "boolean";
    };
    readonly set: {
        readonly type: "string";
        readonly multiple: true;
    };
};
/** The flags an experiment forwards to its runs: eval's (and its modules' options), magic guideline's and memo build's. */
export declare const experimentForwardFlags: (modules?: RunModules) => FlagTable;
export declare const EXPERIMENT_USAGE: string;
type OwnValues = {
    [K in keyof typeof EXPERIMENT_FLAGS]?: (typeof EXPERIMENT_FLAGS)[K] extends {
        multiple: true;
    } ? string[] : (typeof EXPERIMENT_FLAGS)[K]["type"] extends "boolean" ? boolean : string;
};
/** What an experiment did: its exit status, and where its table is. */
export interface ExperimentResult {
    exitCode: number;
    outDir?: string;
    table?: string;
}
/**
 * Runs a recipe (a built-in's name or a YAML/JSON file) as `sqlmend experiment` does — each run through the run API,
 * never through argv — and writes OUT/table.md, table.json and report.html. Options by name: `recipe`, `bench`, `out`,
 * `limit`, `repeats`, `hold`, `pilot`, `priceIn`, `priceOut`, `dryRun`, `resume`, `set: { NAME: VALUE }`; every other
 * name is a flag forwarded to every run (`model`, `baseUrl`, `concurrency`, `cache`, ...).
 */
export declare function runExperiment(options: {
    recipe: string;
    [name: string]: unknown;
}, io?: CliIO): Promise<ExperimentResult>;
/** experiment from its own flag values, the forwarded ones and the recipe (the launcher's parse, or `runExperiment`'s). */
export declare function experimentFrom(input: {
    own: OwnValues;
    forwarded: FlagValues;
    positionals: string[];
    argv?: string[];
}, io: CliIO): Promise<ExperimentResult>;
export {};
