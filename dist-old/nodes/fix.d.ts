import type { NodeFactory } from "./types.ts";
/**
 * Slot `fix` (role "fixer"): one round of the debug loop. In: question, evidence, schemaText, sql, execution (failed).
 * Out: sql (corrected), fixRounds + 1. An unusable reply keeps the SQL, still counts the round (so the loop ends).
 */
export declare const fixSqlNode: NodeFactory;
