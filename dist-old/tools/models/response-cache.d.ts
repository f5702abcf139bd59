import { BaseCache } from "@langchain/core/caches";
import { type AIMessageFields } from "@langchain/core/messages";
import type { Generation } from "@langchain/core/outputs";
import { type CacheMode, type CacheStats } from "./cache-modes.ts";
export { CACHE_MODES, type CacheMode, type CacheStats, cacheLine } from "./cache-modes.ts";
export { RESPONSE_CACHE_FILE } from "./cache-files.ts";
/** What a cache hit says about itself, in the reply's `response_metadata.sqlmendCache` (callModel records it). */
export interface CacheHitNote {
    hit: true;
    /** The tokens the stored reply cost when it was made: saved now, never counted as spent. */
    inputTokens: number;
    outputTokens: number;
}
/** What a store keeps per request and occurrence. */
export interface StoredEntry {
    reply: StoredReply;
    inputTokens: number;
    outputTokens: number;
    model?: string;
}
/** Where replies live: this file's SQLite store, or Redis (`./redis-store.ts`); sync or async. */
export interface ReplyStore {
    /** Where it is, for messages and the report. */
    readonly file: string;
    /** Why it stopped (later calls are misses, writes dropped). */
    broken: string | undefined;
    get(key: string, occurrence: number): StoredEntry | undefined | Promise<StoredEntry | undefined>;
    nextOccurrence(scope: string, key: string): number | undefined | Promise<number | undefined>;
    put(key: string, occurrence: number, entry: StoredEntry, overwrite: boolean): boolean | Promise<boolean>;
    close(): void;
}
interface StoredReply {
    text: string;
    message: {
        content: AIMessageFields["content"];
        tool_calls?: AIMessageFields["tool_calls"];
        additional_kwargs?: Record<string, unknown>;
        response_metadata?: Record<string, unknown>;
    };
}
/** The SQLite file behind the cache: opened once per path in a process, shared by every provider. */
export declare class ResponseStore implements ReplyStore {
    readonly file: string;
    private readonly warn;
    private db;
    private getStmt;
    private putStmt;
    private replaceStmt;
    private useStmt;
    /** Why the store stopped (set once; later calls are misses and writes are dropped). */
    broken: string | undefined;
    constructor(file: string, warn: (line: string) => void);
    get(key: string, occurrence: number): StoredEntry | undefined;
    /** The next occurrence number of `key` in `scope` (a thread), counted in the file; undefined when the store failed. */
    nextOccurrence(scope: string, key: string): number | undefined;
    put(key: string, occurrence: number, entry: StoredEntry, overwrite: boolean): boolean;
    private fail;
    close(): void;
}
/** The store for `file`, opened once per process (commands run in one process share it). */
export declare function openResponseStore(file: string, warn: (line: string) => void): ResponseStore;
/** Closes every store this process opened (tests that remove their temporary home). */
export declare function closeResponseStores(): void;
/**
 * One provider's view of the store: its mode and its statistics. `forEndpoint` gives the `BaseCache` a chat model
 * uses: keyed by the model and its parameters (LangChain's, without the API key and the URL) and the endpoint alias.
 */
export declare class ResponseCache {
    private readonly store;
    readonly mode: Exclude<CacheMode, "off">;
    readonly stats: CacheStats;
    /** Next occurrence per scope and key, for calls outside a graph and in read mode (this process). */
    private readonly next;
    /** Occurrences looked up and missed, waiting for their reply, per scope and key (smallest first). */
    private readonly pending;
    constructor(store: ReplyStore, mode: Exclude<CacheMode, "off">);
    /**
     * `alias`: the endpoint's name when the user keeps servers apart (else none: the key is the model and its
     * parameters, so shards on per-node servers and a server moved to another port share replies). `legacyEndpoint`:
     * the URL that keyed replies stored by earlier versions, read on a miss so reruns are still served.
     */
    forEndpoint(alias: string | undefined, legacyEndpoint?: string): BaseCache<Generation[]>;
    /** @internal */
    keyOf(endpoint: string, prompt: string, llmKey: string): string;
    /** @internal */
    lookup(key: string, legacyKey?: string): Promise<Generation[] | null>;
    /** @internal */
    update(key: string, model: string, value: Generation[]): Promise<void>;
}
