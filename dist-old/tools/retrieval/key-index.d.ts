/**
 * Retrieval by a (question, SQL skeleton) key — Memo-SQL's memory and exemplars. Lexical: BM25 over question words
 * and skeleton tokens and bigrams, an inverted index built once and extended on every add (never rebuilt per query).
 * Dense: cosine over vectors the caller supplies (from the shared `Embedder`).
 */
export interface RetrievalKey {
    question: string;
    skeleton: string;
}
/** The text an embedder sees for a key. */
export declare const keyText: (key: RetrievalKey) => string;
/** Index terms of a key: question words (q:), skeleton tokens (s:) and skeleton bigrams (b:) for structure. */
export declare function keyTerms(key: RetrievalKey): string[];
export interface Hit {
    /** Position of the document in insertion order. */
    index: number;
    score: number;
}
export declare class LexicalKeyIndex {
    private readonly postings;
    private readonly lengths;
    private totalLength;
    private scores;
    get size(): number;
    /** Adds the next document (its index is the current size). */
    add(key: RetrievalKey): number;
    /** The k best documents by BM25 that `keep` accepts, best first (ties: lower `tieRank` first, default the earlier document). */
    search(key: RetrievalKey, k: number, keep?: (index: number) => boolean, tieRank?: (index: number) => number): Hit[];
}
/**
 * The k best of `items` by score, best first; ties go to the lower `tieRank` (default: the lower index). A bounded
 * heap: O(n log k).
 */
export declare function topK(items: Iterable<number>, scoreOf: (index: number) => number, k: number, keep: (index: number) => boolean, tieRank?: (index: number) => number): Hit[];
/** Dense top-k: cosine of the query vector with each stored vector. */
export declare function denseTopK(query: readonly number[], vectors: readonly (readonly number[] | undefined)[], k: number, keep: (index: number) => boolean): Hit[];
/**
 * Key vectors for dense ranking, one row per document, unit length, in one contiguous Float32Array: a query costs one
 * dot product per row (no norms recomputed, no per-row arrays), which keeps top-k over 10 000 × 768 within a few ms.
 * The first vector fixes the dimension; a vector of another size is refused (the document stays unranked).
 */
export declare class DenseKeyIndex {
    private dim;
    private data;
    private present;
    private count;
    /** Documents with a vector. */
    get size(): number;
    has(index: number): boolean;
    /** Stores the vector of document `index`; false when its dimension differs from the others' or it is all zeros. */
    set(index: number, vector: ArrayLike<number>): boolean;
    /** The k documents of `0..n-1` most similar (cosine) to the query that `keep` accepts, best first. */
    search(query: ArrayLike<number>, n: number, k: number, keep: (index: number) => boolean, tieRank?: (index: number) => number): Hit[];
}
