import type { ChatInput } from "../tools/models/llm.ts";
import type { Example } from "../tools/retrieval/examples.ts";
/** Prompts of the shared nodes. Methods keep their own prompts beside their graphs. */
export declare const SQL_SYSTEM: string;
export declare function questionBlock(question: string, evidence: string): string;
export declare function generationPrompt(args: {
    schemaText: string;
    question: string;
    evidence: string;
    examples: Example[];
}): ChatInput[];
export declare function fixPrompt(args: {
    schemaText: string;
    question: string;
    evidence: string;
    sql: string;
    error: string;
}): ChatInput[];
