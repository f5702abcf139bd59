import type { Question } from "../../state/question.ts";
import type { ModelCallRecord } from "../../state/usage.ts";
import { type Embedder } from "../models/embeddings.ts";
export interface Example {
    id: string;
    dbId: string;
    question: string;
    evidence: string;
    sql: string;
}
/** What a retrieval found and how it ranked: embeddings when configured and reachable, else BM25 (and why, in `note`). */
export interface RankedExamples {
    examples: Example[];
    ranking: "embeddings" | "lexical";
    note?: string;
    /** The embedding requests made (role `embedder`), for the node's `calls` and usage. */
    records: ModelCallRecord[];
}
/** Training questions with gold SQL, searchable by question similarity (BM25, or embeddings when configured). */
export interface ExampleStore {
    readonly size: number;
    /** Training questions the pool could not take (e.g. their database is not on disk), and why: said per question. */
    readonly leftOut?: {
        count: number;
        reason: string;
    };
    /** The k most similar examples; `excludeIds` keeps a question from being its own example. */
    similar(text: string, k: number, excludeIds?: string[]): Promise<Example[]>;
    /** The same, saying how they were ranked and what embedding calls it made (optional for other stores). */
    similarRanked?(text: string, k: number, excludeIds?: string[]): Promise<RankedExamples>;
    all(): Example[];
    /** The same examples, ranked by embedding similarity (BM25 when the endpoint fails); optional for other stores. */
    withEmbeddings?(embedder: Embedder): ExampleStore;
}
/** The store `createExampleStore` makes: both optional members present. */
export interface RankedExampleStore extends ExampleStore {
    similarRanked(text: string, k: number, excludeIds?: string[]): Promise<RankedExamples>;
    withEmbeddings(embedder: Embedder): RankedExampleStore;
}
/** Okapi BM25 over the examples, indexed once (term postings, document lengths) and queried many times. */
export declare class Bm25Index {
    private readonly k1;
    private readonly b;
    private readonly postings;
    private readonly lengths;
    private readonly averageLength;
    constructor(texts: string[], k1?: number, b?: number);
    /** Scores of the documents sharing a term with the query, best first (ties: earlier document first). */
    search(query: string): Array<[number, number]>;
}
export declare function createExampleStore(questions: Question[], leftOut?: {
    count: number;
    reason: string;
}): RankedExampleStore;
