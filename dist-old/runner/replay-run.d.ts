import { type CliIO } from "../core/io.ts";
import type { ReplayResult } from "./replay.ts";
import { type FlagValues } from "./run-values.ts";
/** `sqlmend replay`'s flags. */
export declare const REPLAY_FLAGS: {
    readonly from: {
        readonly type: "string";
    };
    readonly out: {
        readonly type: "string";
    };
    readonly node: {
        readonly type: "string";
        readonly multiple: true;
    };
    readonly graph: {
        readonly type: "string";
    };
    readonly only: {
        readonly type: "string";
    };
    readonly ids: {
        readonly type: "string";
        readonly multiple: true;
    };
    readonly concurrency: {
        readonly type: "string";
    };
    readonly resume: {
        readonly type: "boolean";
    };
    readonly checkpoints: {
        readonly type: "string";
    };
    readonly model: {
        readonly type: "string";
    };
    readonly "base-url": {
        readonly type: "string";
    };
    readonly config: {
        readonly type: "string";
    };
    readonly "role-model": {
        readonly type: "string";
        readonly multiple: true;
    };
    readonly temperature: {
        readonly type: "string";
    };
    readonly seed: {
        readonly type: "string";
    };
    readonly "request-timeout-ms": {
        readonly type: "string";
    };
    readonly "max-retries": {
        readonly type: "string";
    };
    readonly "max-requests": {
        readonly type: "string";
    };
    readonly stream: {
        readonly type: "boolean";
    };
    readonly "structured-method": {
        readonly type: "string";
    };
    readonly "embedding-model": {
        readonly type: "string";
    };
    readonly "embedding-base-url": {
        readonly type: "string";
    };
    readonly "endpoint-alias": {
        readonly type: "string";
    };
    readonly "embedding-fallback": {
        readonly type: "string";
    };
    readonly cache: {
        readonly type: "string";
    };
};
export declare const REPLAY_USAGE = "Usage: sqlmend replay RUN_DIR --from SLOT --out DIR [--node SLOT=FILE ...] [--only wrong|right|failed|all]\n                      [--ids ID,...] [--concurrency K] [--resume] [--checkpoints FILE|postgres://...] [model flags]\n\nCounterfactual runs on recorded states: each question of the eval run in RUN_DIR is forked from its checkpointed\nthread at the last checkpoint before SLOT first ran, onto a thread of its own (the run's threads are only read); the\nprefix stays as recorded and only the rest runs, with the swapped nodes. The graph and its options are the run's\n(run.json); the models are this command's (as eval takes them).\n  --from SLOT              where the threads fork (sqlmend graphs --slots)\n  --out DIR                an eval output folder: results.jsonl (the suffix's tokens and calls; the prefix's in each\n                           record's 'replay'), predictions, report.md (what was reused, what was not replayed), run.json;\n                           'sqlmend compare RUN_DIR DIR' compares it with the original\n  --node SLOT=FILE         replace a node for the suffix (repeatable; over the run's own swaps)\n  --graph FILE             the graph module of a run made with 'eval --graph FILE' (default: the file its\n                           run.json names)\n  --only wrong|right|failed|all   the questions by the original verdict (default all); --ids picks ids\n  --checkpoints LOCATION   where the run's threads are (default: what its run.json says)\n  --cache off              send every suffix request to the model (with the cache on, a request the original's\n                           suffix made alike is served from the cache)\n  model flags              --model, --base-url, --config, --role-model, --temperature, --seed, ... as for eval\n\n  A question whose thread never reached SLOT is not replayed: report.md lists it.\n  Exit status: 0 every replayed question answered; 3 questions failed; 130 Ctrl-C; 1 user error; 2 usage.";
/**
 * Replays an eval run from a slot as `sqlmend replay` does: `run` the run folder, `from` the slot, `out`, and by name
 * `node: { SLOT: FILE }`, `graph`, `only`, `ids`, `concurrency`, `resume`, `checkpoints`, the model options. Writes a
 * run folder `compare` takes and returns what the replay reused and cost.
 */
export declare function replay(options: {
    run: string;
    from: string;
    out: string;
    [name: string]: unknown;
}, io?: CliIO): Promise<ReplayResult>;
/** replay from its flag values and the run folder (the launcher's parse, or `replay`'s): the one body both run. */
export declare function replayFrom(input: {
    values: FlagValues;
    positionals: string[];
    argv?: string[];
}, io: CliIO): Promise<ReplayResult>;
