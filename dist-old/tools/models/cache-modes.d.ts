/** `--cache` modes (apart from response-cache.ts so flag checks load no SQLite or LangChain). */
export declare const CACHE_MODES: readonly ["on", "off", "read", "refresh"];
export type CacheMode = (typeof CACHE_MODES)[number];
/** Per provider (one command's run): lookups, hits, writes, tokens saved. */
export interface CacheStats {
    mode: CacheMode;
    file: string;
    lookups: number;
    hits: number;
    writes: number;
    savedInputTokens: number;
    savedOutputTokens: number;
    /** Set when the cache was turned off mid-run (the warning's text). */
    disabled?: string;
}
export declare const emptyCacheStats: (mode: CacheMode, file: string) => CacheStats;
/** "cache 97% (185/190), saved 41k tokens". */
export declare function cacheLine(stats: CacheStats | undefined): string;
