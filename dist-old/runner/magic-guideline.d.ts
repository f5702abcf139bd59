import { type CliIO } from "../core/io.ts";
import { type FlagValues } from "./run-values.ts";
import { type Semantics } from "../tools/benchmarks/score.ts";
import { type Usage } from "../state/usage.ts";
import { type MagicRecord } from "../state/magic-record.ts";
/** `sqlmend magic guideline`'s flags: the run's (model, graph knobs, node swaps), the graphs' own options, the selection's, its own. */
export declare const MAGIC_GUIDELINE_FLAGS: {
    readonly batch: {
        readonly type: "string";
    };
    readonly semantics: {
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
/**
 * The options of `sqlmend magic guideline`, by name (camelCase): `bench` (a folder, or "minibench"), `out`, `split`
 * (default train), `initial` (a generator graph's name or a predictions file), `batch`, `maxIter`, `noManager`, `limit`,
 * `ids`, `concurrency`, `resume`, `semantics`, the model flags (`model`, `baseUrl`, `roleModel: { ROLE: MODEL }`,
 * `temperature`, `cache`, ...), `checkpoints`, `node: { SLOT: FILE }`, and `options`, the graphs' own (camelCase).
 */
export interface GuidelineOptions {
    bench?: string;
    out: string;
    options?: Record<string, unknown>;
    [flag: string]: unknown;
}
/** The files a guideline run writes in its output folder. */
export interface GuidelineFiles {
    /** A line per question: its initial SQL's verdict and, for a failure, the cycle's outcome. */
    results: string;
    /** A line per agent call (the authors' released interactions' shape). */
    interactions: string;
    stats: string;
    run: string;
    /** The answers after the cycle (BIRD format), for `sqlmend score --ves`. */
    predictions: string;
    /** `guideline-batch-NNN.md`: the guideline after each merged batch, in order. */
    snapshots: string[];
}
/** stats.json: the figures, and what they were learnt on. */
export interface GuidelineStats extends MagicStats {
    /** The initial method: a generator graph's name, or its predictions file (absolute, and from the run folder). */
    initial: string | {
        path: string;
        fromRun: string;
    };
    bench: string | null;
    questionsFile: string | null;
    dbDir: string | null;
    split: string;
    semantics: Semantics;
    batch: number;
    /** What fell back during the run (the response cache turned off, a damaged checkpoint file set aside). */
    fallbacks: string[];
    /** The command line that does what this run did (secrets masked). */
    command: string;
}
/** What a guideline run did. */
export interface GuidelineResult {
    /** `core/exit.ts`: 0 done; 3 some work failed (a question, a merge): --resume retries it; 130/143/129 stopped. */
    exitCode: number;
    outDir: string;
    /** guideline.md, or null when no batch has been merged. */
    guideline: string | null;
    files: GuidelineFiles;
    /** As stats.json holds them. */
    stats: GuidelineStats;
}
/**
 * Learns MAGIC's self-correction guideline on a benchmark's training questions and writes the run folder
 * `sqlmend magic guideline` writes: the launcher's command is this, given its flags.
 */
export declare function learnGuideline(options: GuidelineOptions, io?: CliIO): Promise<GuidelineResult>;
/** magic guideline from its flag values (the launcher's parse, or `learnGuideline`'s): the one body both run. */
export declare function learnFrom(input: {
    values: FlagValues;
    positionals: string[];
    argv?: string[];
}, io: CliIO): Promise<GuidelineResult>;
export interface MagicStats {
    questions: number;
    initiallyCorrect: number;
    /** Failures put through the cycle (finished without a run error). */
    failures: number;
    corrected: number;
    /** AVG_i: mean iterations until a stopping rule fired, over the failures. */
    avgIterations: number;
    /**
     * Figure 3: failures corrected had --max-iter been k, k = 1..maxIter: the verdict on the revision the cycle would
     * have ended with, iteration min(k, where it stopped). With the manager that is "corrected within k iterations";
     * without it the feedback agent may go past a correct revision, so the curve need not rise.
     */
    correctedWithin: number[];
    /** Table 4's EX on the split: initially correct plus corrected, over the questions answered (run errors left out, as everywhere). */
    exAfter: number;
    /** The questions exAfter is over: run without a run error. */
    answered: number;
    maxIter: number;
    noManager: boolean;
    /** Failures not put through the cycle, with the reason; questions whose run failed. */
    notCycled: Record<string, number>;
    errors: number;
    skippedQuestions: number;
    batchesMerged: number;
    /** Why the next batch's merge failed, when it did (a resumed run retries it). */
    mergeFailure?: string;
    /** Merges that failed this run (0 or 1: later batches wait for it), and merge replies refused as unusable. */
    failedMerges: number;
    unusableMergeReplies: number;
    /** Merges whose reply held lines outside its numbered reminders, and those lines: dropped from the guideline. */
    strippedMergeReplies: number;
    strippedMergeLines: number;
    /** The cycles' outcomes summed (results.jsonl's `outcome`), over the failures that entered the cycle. */
    leakRefusals: number;
    redactions: number;
    promptRevisions: {
        feedback: number;
        correction: number;
    };
    /** Revisions that kept the previous prompt (after the re-asks), and manager replies refused as unusable. */
    failedRevisions: number;
    unusableManagerReplies: number;
    tokensByRole: Record<string, {
        calls: number;
        inputTokens: number;
        outputTokens: number;
    }>;
}
export declare function computeStats(records: MagicRecord[], ctx: {
    maxIter: number;
    noManager: boolean;
    batches: number;
    mergeFailure?: string;
    mergeUsage: Usage;
    unusableMergeReplies?: number;
    stripped?: {
        merges: number;
        lines: number;
    };
    skipped: number;
}): MagicStats;
