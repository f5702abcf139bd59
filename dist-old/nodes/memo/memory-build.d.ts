import type { Question } from "../../state/question.ts";
import { type Usage } from "../../state/usage.ts";
import type { NewMemoryEntry } from "../../tools/retrieval/memory-store.ts";
import type { ModelProvider } from "../../tools/models/models.ts";
import { type DbSchema } from "../../tools/schema.ts";
import { type Semantics } from "../../tools/benchmarks/score.ts";
import type { SqlExecutor } from "../../tools/sqlite/types.ts";
/**
 * The offline phase (§3.2, Figure 4): per training question, elicit diverse candidates, keep those that execute but
 * are wrong against the gold (the shared scorer), pick one plausible wrong query, have the labeler classify it and
 * suggest fixes. `sqlmend memo build` runs it per question through the question runner and stores each result in one
 * transaction (entry + "done" mark), so a kill loses at most the questions in flight and `--resume` redoes exactly those.
 */
export interface BuildOptions {
    models: ModelProvider;
    executor: SqlExecutor;
    semantics: Semantics;
    /** Candidates sampled per question (role `sampler`, at its own temperature, each asked from another angle). */
    samples: number;
    timeoutMs?: number;
    /**
     * Where candidates come from instead of sampling (e.g. the memo-sql pipeline's nine candidates, uncorrected):
     * SQL strings and what they cost.
     */
    elicit?: (q: Question) => Promise<{
        sqls: string[];
        usage: Usage;
    }>;
    /** The schema of a question's database (`schemaCache` reads each database once per build). */
    schemaOf: (q: Question) => Promise<DbSchema>;
}
export type Outcome = "entry" | "all-correct" | "none-executable" | "no-sql" | "gold-fails" | "label-failed";
/** What one training question gave the memory: an entry to store, or why none (the build marks it done either way). */
export interface BuiltQuestion {
    outcome: Outcome;
    usage: Usage;
    entry?: NewMemoryEntry;
    note?: string;
}
/** Reads each database's schema once, however many questions ask for it. */
export declare function schemaCache(executor: SqlExecutor): (q: Question) => Promise<DbSchema>;
/** One training question through the offline phase. Throws when the question cannot be built (its schema unreadable, ...). */
export declare function buildMemoryEntry(q: Question, options: BuildOptions): Promise<BuiltQuestion>;
