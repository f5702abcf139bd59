import type { R3NodeFactory } from "./types.ts";
/**
 * Slot `write` (role "writer"): y = LLM(x, S), the first SQL, with the k training questions most similar to this one
 * (dense embeddings when `deps.embeddings` is set, BM25 otherwise), never the question itself. Out: sql, history [y],
 * shots, shotsRanking, shotsPool (the pool drawn from, and what it left out). Without a training split it writes
 * zero-shot and says so; an empty pool is an error.
 */
export declare const writeNode: R3NodeFactory;
