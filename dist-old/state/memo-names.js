// Apart from memo.ts (LangGraph's state schema) so that Memo-SQL's manifest can count paths and candidates without it.
/** Memo-SQL's decomposition paradigms (§3.3), in candidate order (the vote's tie-break follows it). */
export const STRATEGIES = ["table", "hierarchical", "atomic"];
/** The three final SQL styles (§3.4), in candidate order; `--styles 1` keeps the first (flat JOIN). */
export const STYLES = ["join", "cte", "nested"];
