import type { R3NodeFactory } from "./types.ts";
/**
 * Slot `debug` (role "writer"): the debug loop's turn. H ← H + e; y' = LLM(H); H ← H + y'. In: sql, execution
 * (failed), history; with no SQL at all the writer is asked for one afresh rather than shown an empty query. Out: sql,
 * history, fixRounds + 1, roundDebugTurns + 1. An unusable reply keeps the SQL and still counts the turn, so the loop
 * ends.
 */
export declare const debugNode: R3NodeFactory;
