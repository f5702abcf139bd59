import type { ModelCallRecord } from "../../state/usage.ts";
/** What one `embedCounted` call cost: requests to the endpoint, their tokens and time, and vectors served from cache. */
export interface EmbedUsage {
    calls: number;
    inputTokens: number;
    latencyMs: number;
    cached: number;
}
export interface Embedder {
    /** The embedding model's name, for reports. */
    readonly model: string;
    /** One vector per text, in order. Throws (one line) when the endpoint fails; callers fall back to lexical. */
    embed(texts: string[]): Promise<number[][]>;
    /** The same, with what it cost (optional: `embedRecorded` works with any Embedder). */
    embedCounted?(texts: string[]): Promise<{
        vectors: number[][];
        usage: EmbedUsage;
    }>;
    /**
     * "lexical": the user allows lexical ranking when the endpoint fails (`--embedding-fallback lexical`). Without it a
     * failure is a failed call (the question is failed, `--resume` asks again): never a weaker method in silence.
     */
    readonly fallback?: "lexical";
}
/** Cosine similarity of two vectors (0 when either is all zeros). */
export declare function cosine(a: readonly number[], b: readonly number[]): number;
import { EMBEDDER_ROLE } from "./embedder-role.ts";
export { EMBEDDER_ROLE };
export type EmbedOutcome = {
    ok: true;
    vectors: number[][];
    records: ModelCallRecord[];
} | {
    ok: false;
    note: string;
    records: ModelCallRecord[];
};
/**
 * Embeds texts for a consumer that can rank lexically instead: never throws; on failure says why in one line.
 * When the endpoint was called, one call record (role `embedder`, tokens, latency) joins the node's `calls`, so
 * embeddings count in usage like any model call. A failure is a record too: a failed call ("model call failed: …",
 * which fails the question under eval's rule), or with the embedder's `fallback` "lexical" a call marked `fallback`
 * (counted per question as `embeddingFallbacks` and in the report).
 */
export declare function embedRecorded(embedder: Embedder, texts: string[]): Promise<EmbedOutcome>;
export interface EmbeddingSettings {
    model: string;
    /** The endpoint, when not OpenAI's own. */
    baseURL?: string;
    /** Environment variable holding the key. */
    apiKeyEnv: string;
    timeoutMs: number;
    maxRetries: number;
    /** `--embedding-fallback lexical`: rank lexically when the endpoint fails (see `Embedder.fallback`). */
    fallback?: "lexical";
    /** `--endpoint-alias`: keeps one model name on two servers apart (the URL itself never does). */
    endpointAlias?: string;
}
/**
 * An Embedder on an OpenAI-compatible endpoint. `cacheFile` (usually `<data dir>/embeddings.sqlite`) keeps vectors
 * across runs; omit it for memory only.
 */
export declare function createOpenAIEmbedder(settings: EmbeddingSettings, opts?: {
    env?: NodeJS.ProcessEnv;
    cacheFile?: string;
    warn?: (line: string) => void;
}): Embedder;
