import { type TsSqlNodeFactory } from "./common.ts";
/**
 * Slot `vote` (§3.1.3 voting, A.6). Waits for every coder model's final candidate (each coder loop ends here; the
 * last to finish finds them all). Majority: the code whose result most models share (at least two), else the first
 * model's (the paper's fallback), else the first usable one. Select: A/B comparisons by the "selector" role among
 * candidates with different results. Out: testCode, then `test`; with no usable code, straight to `execute`.
 */
export declare const voteNode: TsSqlNodeFactory;
