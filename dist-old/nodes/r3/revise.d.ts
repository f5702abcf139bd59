import type { R3NodeFactory } from "./types.ts";
/**
 * Slot `revise` (role "writer"): the writer reads every review of the round (H ← H + r; y'' = LLM(H)) and revises,
 * or rebuts and keeps its SQL. Consensus when y'' equals y after normalising (white space, keyword case, a trailing
 * semicolon, identifier quoting; a double-quoted token counts as an identifier only when the schema names such a table
 * or column, else it is a string literal and keeps its case); then the SQL keeps its exact previous text. In: reviews of round `rounds + 1`,
 * history, sql. Out: sql, history, rounds + 1, roundDebugTurns 0, roundLog, consensus. With no review at all (every
 * reviewer failed) it asks nothing and the loop stops.
 */
export declare const reviseNode: R3NodeFactory;
