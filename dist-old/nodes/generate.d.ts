import type { NodeFactory } from "./types.ts";
/**
 * Slot `generate` (role "generator"). In: question, evidence, schemaText (+ few-shot examples from the training split
 * when options.fewShot > 0). Out: sql. An unusable reply keeps the previous SQL and says why in attempts.
 */
export declare const generateSqlNode: NodeFactory;
