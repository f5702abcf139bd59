import type { NodeDeps } from "../types.ts";
import type { ModelCallRecord } from "../../state/usage.ts";
import type { HistoryTurn, R3StateValue } from "../../state/r3.ts";
import { MAX_SQL_REASKS } from "./options.ts";
import { type Reasoning } from "./prompts.ts";
/** Rough token count (4 characters a token): no tokenizer tables are needed offline, and the budget is a soft limit. */
export declare const estimateTokens: (text: string) => number;
/**
 * The later turns of H that fit the budget with the system prompt and the opening turn (question and schema, never
 * cut): oldest first out; the newest turn always stays.
 */
export declare function fitHistory(fixed: string[], turns: HistoryTurn[], budget: number): {
    turns: HistoryTurn[];
    dropped: number;
};
/** As a writer turn in H: the SQL a corrector was given stands as the writer's first answer. */
export declare const sqlTurn: (sql: string, round: number) => HistoryTurn;
export interface WriterTurn {
    /** The SQL of the reply, or null when it held none after the re-asks (or the call failed). */
    sql: string | null;
    /** New turns for H: the seed (corrector's given SQL), the new user turn, the writer's replies and any re-asks. */
    turns: HistoryTurn[];
    /** Every writer call of the turn, the re-asks included. */
    records: ModelCallRecord[];
    /** Why no SQL came back (when `sql` is null). */
    error?: string;
    /** Times the writer was asked again because its reply held no SQL. */
    reasks: number;
    /** Later turns of H left out of this prompt for the budget. */
    dropped: number;
}
export { MAX_SQL_REASKS };
/** One writer call on H (+ a new user turn): the writer's memory across the debug and review loops. */
export declare function askWriter(deps: NodeDeps, state: R3StateValue, opts: {
    reasoning: Reasoning;
    historyTokens: number;
}, next?: HistoryTurn): Promise<WriterTurn>;
/** The note for an attempt when the writer had to be asked again. */
export declare const reaskNote: (reasks: number) => string | undefined;
export declare const droppedNote: (dropped: number) => string | undefined;
