import { type CliIO } from "../core/io.ts";
import { type FlagValues } from "./run-values.ts";
/** A subcommand's flag values (the launcher's parse, or the API's options turned into flags by `flagValuesOf`). */
export interface MemoInput {
    values: FlagValues;
    positionals: string[];
    argv?: string[];
}
/** `memo build`'s flags: the model's, the selection's (bench, split, questions, limit, ids, concurrency, resume), its own. */
export declare const memoBuildFlags: {
    readonly samples: {
        readonly type: "string";
    };
    readonly elicit: {
        readonly type: "string";
    };
    readonly "sample-temperature": {
        readonly type: "string";
    };
    readonly semantics: {
        readonly type: "string";
    };
    readonly "query-timeout-ms": {
        readonly type: "string";
    };
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
    readonly seed: {
        readonly type: "string";
    };
    readonly model: {
        readonly type: "string";
    };
    readonly temperature: {
        readonly type: "string";
    };
    readonly config: {
        readonly type: "string";
    };
    readonly stream: {
        readonly type: "boolean";
    };
    readonly cache: {
        readonly type: "string";
    };
    readonly "base-url": {
        readonly type: "string";
    };
    readonly "role-model": {
        readonly type: "string";
        readonly multiple: true;
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
    readonly "structured-method": {
        readonly type: "string";
    };
    readonly "embedding-model": {
        readonly type: "string";
    };
    readonly "embedding-base-url": {
        readonly type: "string";
    };
};
export declare const memoAddFlags: {
    readonly memory: {
        readonly type: "string";
    };
    readonly db: {
        readonly type: "string";
    };
    readonly question: {
        readonly type: "string";
    };
    readonly evidence: {
        readonly type: "string";
    };
    readonly wrong: {
        readonly type: "string";
    };
    readonly correct: {
        readonly type: "string";
    };
    readonly "description-dir": {
        readonly type: "string";
    };
    readonly seed: {
        readonly type: "string";
    };
    readonly model: {
        readonly type: "string";
    };
    readonly temperature: {
        readonly type: "string";
    };
    readonly config: {
        readonly type: "string";
    };
    readonly stream: {
        readonly type: "boolean";
    };
    readonly cache: {
        readonly type: "string";
    };
    readonly "base-url": {
        readonly type: "string";
    };
    readonly "role-model": {
        readonly type: "string";
        readonly multiple: true;
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
    readonly "structured-method": {
        readonly type: "string";
    };
    readonly "embedding-model": {
        readonly type: "string";
    };
    readonly "embedding-base-url": {
        readonly type: "string";
    };
};
export declare const memoShowFlags: {
    readonly entries: {
        readonly type: "string";
    };
    readonly json: {
        readonly type: "boolean";
    };
    readonly seed: {
        readonly type: "string";
    };
    readonly model: {
        readonly type: "string";
    };
    readonly temperature: {
        readonly type: "string";
    };
    readonly config: {
        readonly type: "string";
    };
    readonly stream: {
        readonly type: "boolean";
    };
    readonly cache: {
        readonly type: "string";
    };
    readonly "base-url": {
        readonly type: "string";
    };
    readonly "role-model": {
        readonly type: "string";
        readonly multiple: true;
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
    readonly "structured-method": {
        readonly type: "string";
    };
    readonly "embedding-model": {
        readonly type: "string";
    };
    readonly "embedding-base-url": {
        readonly type: "string";
    };
};
export declare const memoSearchFlags: {
    readonly sql: {
        readonly type: "string";
    };
    readonly retrieval: {
        readonly type: "string";
    };
    readonly "exclude-id": {
        readonly type: "string";
    };
    readonly json: {
        readonly type: "boolean";
    };
    readonly seed: {
        readonly type: "string";
    };
    readonly model: {
        readonly type: "string";
    };
    readonly temperature: {
        readonly type: "string";
    };
    readonly config: {
        readonly type: "string";
    };
    readonly stream: {
        readonly type: "boolean";
    };
    readonly cache: {
        readonly type: "string";
    };
    readonly "base-url": {
        readonly type: "string";
    };
    readonly "role-model": {
        readonly type: "string";
        readonly multiple: true;
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
    readonly "structured-method": {
        readonly type: "string";
    };
    readonly "embedding-model": {
        readonly type: "string";
    };
    readonly "embedding-base-url": {
        readonly type: "string";
    };
};
export declare const memoCandidatesFlags: {
    readonly run: {
        readonly type: "string";
    };
    readonly out: {
        readonly type: "string";
    };
    readonly checkpoints: {
        readonly type: "string";
    };
};
/**
 * The options of `sqlmend memo build`, by name (camelCase): `bench` (a folder, or "minibench") or `questions` with
 * `dbDir`, `out` (the memory file), `split` (default train), `limit`, `ids`, `concurrency`, `resume`, `elicit`
 * ("sampling" or "pipeline"), `samples`, `sampleTemperature`, `semantics`, `queryTimeoutMs`, and the model's
 * (`model`, `baseUrl`, `config`, `roleModel: { ROLE: MODEL }`, `temperature`, `seed`, `cache`, `embeddingModel`, ...).
 */
export interface MemoryBuildOptions {
    bench?: string;
    out: string;
    split?: string;
    limit?: number;
    ids?: string | string[];
    concurrency?: number;
    resume?: boolean;
    elicit?: "sampling" | "pipeline";
    samples?: number;
    sampleTemperature?: number;
    semantics?: "bird" | "spider";
    [flag: string]: unknown;
}
/** What a memory build did: the figures its summary prints. */
export interface MemoryBuildResult {
    /** The launcher's exit status: 0 every selected question done, 3 some failed or not run (--resume runs them), 130/143/129 stopped. */
    exitCode: number;
    /** The memory file. */
    file: string;
    /** Entries the file holds now, and how many this run added. */
    entries: number;
    added: number;
    /** Selected questions (those with gold SQL), and how many of them are done (by this or an earlier run of the build). */
    questions: number;
    done: number;
    /** Questions this run ran (failed ones included). */
    ranNow: number;
    /** This run's questions that failed (a model call got no reply, an error): not marked done, --resume runs them again. */
    failed: number;
    /** Selected but not run (stopped, or the endpoint looked down). */
    notRun: number;
    /** Every done question of the file by outcome (entry, all-correct, none-executable, ...). */
    outcomes: Record<string, number>;
    /** The file's entries by error type. */
    errorTypes: Record<string, number>;
    /** The memory's content hash, as `memo show` and eval's report name it. */
    sha256: string;
    /** How retrieval will rank its entries. */
    ranking: "embeddings" | "lexical";
    /** This run's model calls (sampling or the pipeline, and labelling), as its "Tokens this run" line. */
    inputTokens: number;
    outputTokens: number;
    calls: number;
}
/**
 * Builds (or, with `resume`, continues) Memo-SQL's error-correction memory from a benchmark split's gold SQL, as
 * `sqlmend memo build` does: the same memory file and lock, and the figures its summary prints.
 */
export declare function buildMemory(options: MemoryBuildOptions, io?: CliIO): Promise<MemoryBuildResult>;
/** `memo build` from its flag values: the one body the launcher and `buildMemory` run. */
export declare function memoBuild(input: MemoInput, io: CliIO): Promise<MemoryBuildResult>;
/** `memo add` from its flag values: label one correction (user feedback) and store it. */
export declare function memoAdd(input: MemoInput, io: CliIO): Promise<number>;
/** `memo show` from its flag values: a memory's counts, error types and latest entries. */
export declare function memoShow(input: MemoInput, io: CliIO): Promise<number>;
/** `memo search` from its flag values: what retrieval returns for a question and SQL. */
export declare function memoSearch(input: MemoInput, io: CliIO): Promise<number>;
/** The options of `sqlmend memo candidates`, by name: `run` (a memo-sql eval's folder), `out` (the file), `checkpoints`. */
export interface CandidatesOptions {
    run: string;
    out: string;
    /** Where the eval's threads are, as its --checkpoints (default: the eval's own store). */
    checkpoints?: string;
}
/** What `memo candidates` wrote. */
export interface CandidatesResult {
    exitCode: number;
    file: string;
    /** Questions with their candidates as written, and those candidates in all. */
    questions: number;
    candidates: number;
    /** Questions of the run left out: no candidates as written in their thread. */
    missing: string[];
}
/**
 * Each question's candidates as its writers wrote them, from a finished memo-sql eval (its threads in the checkpoint
 * store), for memo-refine's `candidates` option — so Table 3's variants all correct the same nine candidates (A.8).
 * `sqlmend memo candidates` is this.
 */
export declare function writeCandidates(options: CandidatesOptions, io?: CliIO): Promise<CandidatesResult>;
/** `memo candidates` from its flag values: the one body the launcher and `writeCandidates` run. */
export declare function memoCandidates(input: MemoInput, io: CliIO): Promise<CandidatesResult>;
