// Apart from memo.ts (LangGraph's state schema) so that Memo-SQL's manifest can count paths and candidates without it.

/** Memo-SQL's decomposition paradigms (§3.3), in candidate order (the vote's tie-break follows it). */
export const STRATEGIES = ["table", "hierarchical", "atomic"] as const;
export type Strategy = (typeof STRATEGIES)[number];
/** The three final SQL styles (§3.4), in candidate order; `--styles 1` keeps the first (flat JOIN). */
export const STYLES = ["join", "cte", "nested"] as const;
export type Style = (typeof STYLES)[number];
