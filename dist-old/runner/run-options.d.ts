import type { GraphInfo, GraphManifest, GraphSpec } from "../graphs/spec.ts";
import type { AnyNodeFactory, GraphOptions } from "../nodes/types.ts";
import type { CliIO } from "../core/io.ts";
import type { CorrectScenario } from "./question.ts";
export type { CorrectScenario };
import type { ModelFlags } from "../tools/models/models.ts";
import { type CacheMode } from "../tools/models/cache-modes.ts";
import { type OptionDefs } from "../core/options.ts";
/** Flags shared by `ask` and `eval`: the model, the graph's knobs, node swaps, checkpoints, correction set-up. */
export declare const runFlags: {
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
    readonly "max-fix-rounds": {
        readonly type: "string";
    };
    readonly "few-shot": {
        readonly type: "string";
    };
    readonly "schema-max-chars": {
        readonly type: "string";
    };
    readonly "query-timeout-ms": {
        readonly type: "string";
    };
    readonly node: {
        readonly type: "string";
        readonly multiple: true;
    };
    readonly graph: {
        readonly type: "string";
    };
    readonly checkpoints: {
        readonly type: "string";
    };
    readonly initial: {
        readonly type: "string";
    };
    readonly correct: {
        readonly type: "string";
    };
};
export declare const RUN_FLAGS_USAGE = "Model:\n  --model NAME              model on an OpenAI-compatible endpoint (or SQLMEND_MODEL)\n  --base-url URL            endpoint, e.g. http://127.0.0.1:11434/v1 (or OPENAI_BASE_URL); key from OPENAI_API_KEY\n  --config FILE             model config JSON (default ./sqlmend.config.json when present)\n  --role-model ROLE=NAME    a different model for one agent role (repeatable)\n  --temperature T  --request-timeout-ms N  --max-retries N  --max-requests N (in flight, all roles)\n  --seed N                  sent as the requests' seed, recorded in run.json, part of the response cache's key\n  --stream                  stream replies  --structured-method auto|jsonSchema|functionCalling|jsonMode|text\n  --embedding-model NAME    embeddings for linking and few-shot retrieval (or SQLMEND_EMBEDDING_MODEL; default: lexical)\n  --embedding-base-url URL  the embedding endpoint when it is not --base-url (or SQLMEND_EMBEDDING_BASE_URL)\n  --embedding-fallback lexical  rank lexically when the embedding endpoint fails, counted per question and in the\n                            report (default: such a question is failed, and --resume asks again)\n  --endpoint-alias NAME     names the server in the run's identity and the cache key (or SQLMEND_ENDPOINT_ALIAS);\n                            without it a URL is recorded, not compared: servers of one model are interchangeable\n  --cache on|off|read|refresh  model replies cached in <data dir>/responses.sqlite (default on, or SQLMEND_CACHE):\n                            read uses hits and never writes, refresh never reads and overwrites;\n                            --cache redis://HOST:PORT keeps it in Redis, shared by every machine that names it\nGraph:\n  --max-fix-rounds N        execution-error fix rounds (default 3)\n  --few-shot K              examples retrieved from the training split (default 0)\n  --schema-max-chars N      schema size budget in prompts (default 24000)\n  --query-timeout-ms N      per-query time limit (default 30000)\n  --node SLOT=MODULE        replace a node: MODULE's default export is a NodeFactory (repeatable); its\n                            `export const options = defineOptions({...})` become flags of the run\n  --graph MODULE            run a graph of your own: MODULE's default export is a graph made with defineGraph\n                            (instead of naming a built-in graph)\n  --checkpoints FILE|memory|postgres://USER:PASS@HOST:PORT/DB\n                            checkpoint store (default .sqlmend/checkpoints.sqlite)\nCorrection (corrector graphs):\n  --initial GRAPH|FILE      initial SQL from a generator graph (default baseline) or a predictions file\n  --correct all|errors|incorrect   which initial SQL to correct (incorrect: eval only, gold as oracle)";
export type RunValues = {
    [K in keyof typeof runFlags]?: (typeof runFlags)[K] extends {
        multiple: true;
    } ? string[] : (typeof runFlags)[K]["type"] extends "boolean" ? boolean : string;
};
export declare function intFlag(values: Record<string, unknown>, name: string, min?: number): number | undefined;
export declare function numberFlag(values: Record<string, unknown>, name: string): number | undefined;
export declare function pairs(list: string[] | undefined, flag: string): Record<string, string>;
export declare function modelFlagsFrom(values: RunValues): ModelFlags;
/** `--cache`, else SQLMEND_CACHE, else on. A Redis URL is "on", kept in that Redis (`cacheRedisFrom`). */
export declare function cacheModeFrom(values: {
    cache?: string;
}, env: NodeJS.ProcessEnv): CacheMode;
/** The Redis URL the cache lives in (`--cache redis://…`, or SQLMEND_CACHE), or undefined for the local file. */
export declare function cacheRedisFrom(values: {
    cache?: string;
}, env: NodeJS.ProcessEnv): string | undefined;
export declare function graphOptionsFrom(values: RunValues): GraphOptions;
/** parseArgs declarations for every graph's own options (its slots' included), so any graph's flags parse (and can be checked per graph), plus those the run's own modules declare. */
export declare const graphFlags: (modules?: RunModules) => Record<string, {
    type: "string" | "boolean";
}>;
/** A user's modules a run names (`--node SLOT=FILE`, `--graph FILE`), loaded before its flags are parsed: their options become flags. */
export interface RunModules {
    /** By slot: the factory (the default export) and the options it declares (its `options` export). */
    nodes: Record<string, {
        module: string;
        file: string;
        factory: AnyNodeFactory;
        options: OptionDefs;
    }>;
    /** A graph module: its spec (the default export, made with `defineGraph`). */
    graph?: {
        module: string;
        file: string;
        spec: GraphSpec;
    };
}
/** A recipe's `graph:` that names a module file (run with `--graph`) rather than a built-in graph. */
export declare const isGraphModule: (graph: string) => boolean;
/**
 * `--node` and `--graph` as `loadRunModules` reads them, from options or flag values: `node` as `SLOT=FILE` items, one
 * such string, or a record `{ SLOT: FILE }` (the run API's form); `graph` a module file.
 */
export declare function moduleArgsOf(given: {
    node?: unknown;
    graph?: unknown;
}): string[];
/**
 * Loads the modules `argv` names with `--node SLOT=FILE` and `--graph FILE` (read before the flags are parsed, since
 * their options are flags). Each fails in one line: a module that does not load, or exports the wrong thing.
 */
export declare function loadRunModules(argv: string[], cwd: string): Promise<RunModules>;
/**
 * The graph a run names — a built-in by name, or `--graph FILE` — as the run sees it: its options are the graph's,
 * its slots' (but not a replaced slot's: a `--node` replacement does not read them) and the replacement modules'.
 */
export declare function runGraph(name: string | undefined, modules: RunModules): GraphManifest;
/**
 * The values of `spec`'s declared options given on the command line (defaults are the nodes' business, via
 * readOptions). A flag that only other graphs declare is refused, naming them, unless `alsoAllowed` (the initial
 * generator of a corrector run) declares it.
 */
export declare function declaredOptionsFrom(spec: GraphInfo, values: Record<string, unknown>, alsoAllowed?: GraphInfo[]): Record<string, unknown>;
/** The graph's declared options from the flags, checked before anything slow starts (a corrector may also take its initial generator's). */
export declare function graphOptionsOf(spec: GraphInfo, values: Record<string, unknown>): Record<string, unknown>;
/**
 * Why this run needs the training split's examples, or undefined: `--few-shot K`, or a graph of the run (the graph,
 * and a corrector's initial generator) whose `needsExamples` says so for its options (e.g. r3's `--k-shot`).
 */
export declare function examplesWantedBy(spec: GraphInfo, values: Record<string, unknown>): string | undefined;
/**
 * The answer-changing shared flags a run was given (`except`: those its command records elsewhere in run.json). With
 * `where` (a run folder), files are recorded as `--resume` compares them: each `--node SLOT=MODULE` as
 * `{ SLOT: { path, sha256 } }` (`moduleIdentity`: the module's content, wherever it is), and `--initial FILE` by its
 * place from the run folder or its absolute path (`runPlace`), so a moved run still resumes.
 */
export declare function answerSettings(values: Record<string, unknown>, except?: readonly string[], where?: {
    cwd: string;
    runDir: string;
}): Record<string, unknown>;
/** Every `--node SLOT=MODULE` as run.json records it: by slot, the module's path (from the run when inside it) and sha256. */
export declare function nodeIdentities(list: string[], where: {
    cwd: string;
    runDir: string;
}): Record<string, {
    path: string;
    sha256: string;
}>;
/**
 * A graph's options as the report and `--resume` record them: every declared option that changes answers, with its
 * default filled in, under its flag name.
 */
export declare function graphSettings(specs: GraphInfo[], values: Record<string, unknown>, cwd?: string, runDir?: string): Record<string, unknown>;
/** `--help` of ask/eval for a named graph: its own options after the shared ones. */
export declare function graphUsage(argv: string[], io: CliIO): Promise<string>;
export declare function requireGraph(name: string | undefined): GraphManifest;
/** Loads `--node SLOT=MODULE` replacements for `spec` (each module default-exports a node factory), by slot. */
export declare function loadSlotModules(spec: Pick<GraphInfo, "name" | "slots">, list: string[] | undefined, cwd: string): Promise<Record<string, AnyNodeFactory>>;
export declare function scenarioFrom(value: string | undefined, allowOracle: boolean): CorrectScenario;
