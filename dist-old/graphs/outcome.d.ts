/**
 * What one question went through, as `results.jsonl` records it under `outcome` and `report.md`, `compare` and
 * `inspect` show it: flat values a graph's spec reads off a finished thread's state (`GraphSpec.outcome`). The
 * launcher knows no method: it sums whatever keys the graph declares, by their type.
 */
export type OutcomeValue = string | number | boolean | null;
export type Outcome = Record<string, OutcomeValue>;
export interface OutcomeSpec {
    /** The outcome of a finished thread (the state as the graph left it). */
    of(state: Record<string, unknown>): Outcome;
    /** Lines that sum a run's outcomes (default: `summarizeOutcomes`). */
    summarize?(outcomes: Outcome[]): string[];
    /**
     * Oracle figures, which need the gold: `eval` calls it (only when the question has gold SQL) with `isGold`, the
     * scorer's verdict on one SQL. The state never holds the gold, so these keys exist only in eval's records; name them
     * `oracle…` so nobody reads them as something the method could know.
     */
    oracle?(state: Record<string, unknown>, isGold: (sql: string) => Promise<boolean>): Promise<Outcome>;
}
/** What every graph's state says (`state/sql-state.ts`): execution-error fixes, whether the answer executes, calls that got no reply. */
export declare function sharedOutcome(state: Record<string, unknown>): Outcome;
/** A finished thread's outcome: the shared fields, then what its graph declares (`GraphSpec.outcome`). */
export declare function outcomeOf(spec: {
    outcome?: OutcomeSpec;
}, state: Record<string, unknown>): Outcome;
/**
 * One line per key, over the outcomes that have it: booleans as the share true ("consensus: 81.0 % (81/100)"), numbers
 * as mean and max, strings as their distribution, most frequent first ("stopReason: consensus 81.0 %, round limit 19.0 %").
 */
export declare function summarizeOutcomes(outcomes: (Outcome | undefined)[]): string[];
