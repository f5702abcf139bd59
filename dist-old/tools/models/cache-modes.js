/** `--cache` modes (apart from response-cache.ts so flag checks load no SQLite or LangChain). */
export const CACHE_MODES = ["on", "off", "read", "refresh"];
export const emptyCacheStats = (mode, file) => ({ mode, file, lookups: 0, hits: 0, writes: 0, savedInputTokens: 0, savedOutputTokens: 0 });
/** "cache 97% (185/190), saved 41k tokens". */
export function cacheLine(stats) {
    if (!stats || stats.mode === "off")
        return "";
    const share = stats.lookups ? `${((stats.hits / stats.lookups) * 100).toFixed(0)}%` : "--";
    const saved = stats.savedInputTokens + stats.savedOutputTokens;
    return `cache ${share} (${stats.hits}/${stats.lookups})${saved ? `, saved ${saved >= 1e4 ? `${Math.round(saved / 1e3)}k` : saved} tokens` : ""}`;
}
