/** Memo-SQL's decomposition paradigms (§3.3), in candidate order (the vote's tie-break follows it). */
export declare const STRATEGIES: readonly ["table", "hierarchical", "atomic"];
export type Strategy = (typeof STRATEGIES)[number];
/** The three final SQL styles (§3.4), in candidate order; `--styles 1` keeps the first (flat JOIN). */
export declare const STYLES: readonly ["join", "cte", "nested"];
export type Style = (typeof STYLES)[number];
