import type { NodeFactory } from "./types.ts";
/**
 * Slot `schema`. In: dbPath, descriptionDir, question, evidence, schemaText, linking. Out: schemaText (CREATE TABLE text
 * within the size budget, keeping keys and the columns most relevant to the question — linked columns first — with the
 * stored values linking matched beside their columns). Leaves a given schemaText alone.
 */
export declare const loadSchemaNode: NodeFactory;
