import type { ModelCallRecord } from "../../state/usage.ts";
import type { Embedder } from "../models/embeddings.ts";
import type { Example, ExampleStore } from "./examples.ts";
export interface ExampleSearch {
    examples: Example[];
    /** "embeddings (MODEL)", "bm25", or "bm25 (embeddings failed: ...)". */
    ranking: string;
    /** Embedding requests made for this search (role `embedder`), for the node's `calls` and usage. */
    records: ModelCallRecord[];
}
/**
 * The examples that are this very question (same database, same wording), to keep out of its own prompt. Not by id:
 * a dev question's id also names an unrelated training question (both splits count from 0).
 */
export declare function sameQuestionIds(store: ExampleStore, question: {
    dbId: string;
    question: string;
}): string[];
/**
 * The k training examples most similar to a question: by dense embeddings when an embedder is given (the store's own
 * ranked search, vectors computed once per store and embedder), by BM25 otherwise or when the embedder fails. Says
 * which ranked.
 */
export declare function searchExamples(store: ExampleStore, text: string, k: number, excludeIds: string[], embedder?: Embedder): Promise<ExampleSearch>;
