/** Model replies (response-cache.ts) and embedding vectors (embeddings.ts), in `<data dir>/`. */
export declare const RESPONSE_CACHE_FILE = "responses.sqlite";
export declare const VECTOR_CACHE_FILE = "embeddings.sqlite";
export interface ModelReplies {
    model: string;
    replies: number;
    /** The tokens the replies cost when they were made (what serving them saves). */
    inputTokens: number;
    outputTokens: number;
    first: string;
    last: string;
}
export interface CacheFilesInfo {
    responses: {
        file: string;
        exists: boolean;
        bytes: number;
        replies: number;
        threads: number;
        byModel: ModelReplies[];
    };
    vectors: {
        file: string;
        exists: boolean;
        bytes: number;
        vectors: number;
        byModel: {
            model: string;
            vectors: number;
        }[];
    };
}
export declare function describeCacheFiles(responsesFile: string, vectorsFile: string): CacheFilesInfo;
export interface ClearFilter {
    /** Every reply and vector (and the occurrence counters). */
    all?: boolean;
    /** A model's replies, and its vectors (stored as `model`, `model@alias:NAME`, or by earlier versions `model@URL`). */
    model?: string;
    /** Made before this instant (ISO text compares as time). */
    before?: string;
}
/**
 * Removes what the filter names (filters combine: a model's replies made before a day), then gives the space back
 * unless another process has the file open (`compacted` false). A removed reply is asked of the model again on the
 * next run that needs it.
 */
export declare function clearCacheFiles(responsesFile: string, vectorsFile: string, filter: ClearFilter): {
    replies: number;
    vectors: number;
    compacted: boolean;
};
