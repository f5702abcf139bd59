import { z } from "zod";
import type { ModelCallRecord } from "../../state/usage.ts";
import { type Embedder } from "../models/embeddings.ts";
import { type RetrievalKey } from "./key-index.ts";
/**
 * Memo-SQL's error-correction memory (§3.2): entries ⟨question, gold SQL, wrong SQL, error types, suggestions⟩ in an
 * embedded SQLite file of its own, retrieved by question + skeleton of the wrong SQL. Any method may reuse it.
 */
/** Table 4's nine semantic error types (E1–E9), in the snake_case form of the paper's Figure 7. */
export declare const ERROR_TYPES: readonly ["join_logic_error", "filter_condition_error", "aggregation_grouping_error", "select_output_error", "ordering_limit_error", "subquery_logic_error", "null_handling_error", "temporal_semantics_error", "quantifier_intent_error"];
export type ErrorType = (typeof ERROR_TYPES)[number];
export declare const ERROR_TYPE_HELP: Record<ErrorType, string>;
/** Maps spellings a model may use ("E2", "Filter Condition Error", "filter-condition") onto the enum; else unchanged. */
export declare function normalizeErrorType(value: unknown): unknown;
/** An error type, validated against the taxonomy (after normalising the spelling). */
export declare const ErrorTypeSchema: z.ZodPreprocess<z.ZodEnum<{
    join_logic_error: "join_logic_error";
    filter_condition_error: "filter_condition_error";
    aggregation_grouping_error: "aggregation_grouping_error";
    select_output_error: "select_output_error";
    ordering_limit_error: "ordering_limit_error";
    subquery_logic_error: "subquery_logic_error";
    null_handling_error: "null_handling_error";
    temporal_semantics_error: "temporal_semantics_error";
    quantifier_intent_error: "quantifier_intent_error";
}>, unknown>;
export interface NewMemoryEntry {
    /**
     * Where the entry came from: `<dbId>/<question id>` for a build (benchmarks number train and dev from 0 each, and
     * their databases differ, so the database keeps ids apart), `added:<hash>` for `memo add`. Self-retrieval exclusion
     * checks it (and the question text).
     */
    sourceId: string;
    dbId: string;
    question: string;
    evidence: string;
    goldSql: string;
    wrongSql: string;
    errorTypes: ErrorType[];
    suggestions: string;
}
export interface MemoryEntry extends NewMemoryEntry {
    id: number;
    skeleton: string;
    createdAt: string;
}
export type RetrievalMode = "filtered" | "top4" | "random" | "none";
export interface RankedEntry {
    entry: MemoryEntry;
    score: number;
    /** Kept by the subsumption filter (always true outside `filtered`). */
    kept: boolean;
    /** Filtered mode: the id of the kept entry whose error types contain this one's. */
    subsumedBy?: number;
}
export interface Retrieval {
    mode: RetrievalMode;
    ranking: "embeddings" | "lexical" | "random" | "none";
    /** Why dense ranking was not used, when an embedder was given but failed. */
    note?: string;
    key: RetrievalKey;
    /** The ranked candidates (top 40 in filtered mode), with the filter's decision. */
    ranked: RankedEntry[];
    /** What is shown to the model. */
    entries: MemoryEntry[];
    /** Embedding requests this retrieval made (role `embedder`), for the node's `calls` and usage. */
    records: ModelCallRecord[];
}
/** What embedding the memory's keys did: entries embedded now, their requests, and why it stopped, if it failed. */
export interface EmbedPending {
    embedded: number;
    records: ModelCallRecord[];
    error?: string;
}
export interface MemoryIdentity {
    file: string;
    /** The benchmark and split `memo build` read (null: entries only from `memo add`, or a file from an older build). */
    build: {
        bench: string;
        split: string;
    } | null;
    entries: number;
    /** Questions the builds went through (with or without an entry). */
    questionsDone: number;
    sha256: string;
}
export interface RetrieveRequest {
    question: string;
    sql: string;
    /** Never retrieve entries made from this question: its id(s) and its text. */
    exclude?: {
        ids?: string[];
        question?: string;
    };
}
export declare const MEMORY_KIND = "sqlmend-memo-memory";
/**
 * Walk entries by similarity, best first; drop an entry whose error-type set is contained in that of an entry already
 * kept (§3.5.1's second stage), so the kept entries cover diverse error patterns.
 */
export declare function subsumptionFilter<T extends {
    errorTypes: readonly string[];
}>(ranked: T[]): {
    item: T;
    kept: boolean;
    subsumedBy?: number;
}[];
export declare class MemoryStore {
    readonly file: string;
    private readonly db;
    private readonly embedder?;
    private readonly rows;
    private readonly vectors;
    private readonly index;
    private lastId;
    /** Each row's place in content order (see `tieRank`), rebuilt when rows arrive. */
    private ranks;
    private embedding;
    private constructor();
    /**
     * Opens (or with `create`, creates) a memory file. A SQLite file that is something else is refused with one line,
     * so a memory never lands inside a benchmark's database.
     */
    static open(file: string, options?: {
        create?: boolean;
        embedder?: Embedder;
        readonly?: boolean;
    }): MemoryStore;
    get size(): number;
    entries(): MemoryEntry[];
    /** Loads entries another process (or `memo add`) wrote since the last look: the index grows, never rebuilds. */
    refresh(): void;
    private push;
    /** Adds one entry (validated); it is retrievable at once, here and — after their refresh — in other processes. */
    add(entry: NewMemoryEntry, done?: {
        id: string;
        outcome: string;
        note?: string;
    }): MemoryEntry;
    /** Build bookkeeping: a question (by its benchmark id) finished, with or without an entry. */
    markDone(sourceId: string, outcome: string, note?: string): void;
    private markDoneNow;
    done(): Map<string, {
        outcome: string;
        note?: string;
    }>;
    getMeta(key: string): string | undefined;
    setMeta(key: string, value: string): void;
    /**
     * What this memory is: where its build came from (`memo build` records bench and split), how many entries, and a
     * sha256 over their content in id order (the same entries give the same hash, whatever the file's pages hold).
     */
    identity(): MemoryIdentity;
    /**
     * Entries that could hand the critic an evaluated question's answer, with why (`how`):
     * - `split`: made by a build from the evaluated benchmark and split (the same question file) — any question of it,
     *   evaluated or not: Spider's dev is largely paraphrase pairs sharing their gold SQL;
     * - `question`: (any source, `memo add` included) the same database and question text as an evaluated question;
     * - `gold`: the same database and, in canonical spelling (`normaliseSql`), the same gold SQL as an evaluated
     *   question — a paraphrase from another split or file is the same answer.
     * `question` names the evaluated question's id (for `split`, the one of the same `<db>/<id>` when evaluated).
     */
    entriesFrom(questions: {
        id: string;
        dbId: string;
        question: string;
        goldSql?: string | undefined;
    }[], where: {
        bench: string;
        split: string;
        questions?: string | undefined;
    }): {
        entry: MemoryEntry;
        question: string | null;
        how: "split" | "question" | "gold";
    }[];
    /** Entries and the histogram of their error types. */
    stats(): {
        entries: number;
        histogram: Record<ErrorType, number>;
        done: Record<string, number>;
    };
    /**
     * Retrieval for one SQL: `filtered` — the top `topN` (40) by key similarity, then the subsumption filter;
     * `top4` — the 4 most similar, unfiltered; `random` — 4 entries drawn at random (seeded by the key, so reruns
     * agree); `none` — nothing. Entries made from the question itself (same id or same text) are never returned.
     */
    retrieve(request: RetrieveRequest, options?: {
        mode?: RetrievalMode;
        topN?: number;
        k?: number;
    }): Promise<Retrieval>;
    private rank;
    /**
     * Equal scores and the random mode's draw go by the entries' content, not the order they were written: a concurrent
     * `memo build` writes them in any order, and retrieval (so the critics' prompts and the run's EX) must not depend on
     * it. Rows of identical content fall back to their id.
     */
    private tieRank;
    /** How many entries carry a key vector, by the embedding model that made it. */
    vectorModels(): Record<string, number>;
    /** Entries with a vector for the configured embedding model (dense retrieval ranks only these). */
    get embeddedCount(): number;
    /**
     * Embeds (and stores in the file) the keys of entries that have no vector for the configured model yet. One run at
     * a time: the nine critics of a question retrieve at once, and each must not embed the whole memory again; callers
     * that join a run already under way wait for it (its requests are counted once, by the caller that started it).
     */
    embedPending(): Promise<EmbedPending>;
    private embedMissingNow;
    close(): void;
}
/** One memory entry as a model sees it (critic prompts, `memo show`). */
export declare function renderEntry(entry: MemoryEntry, n?: number): string;
