import type { ChatInput } from "../../tools/models/llm.ts";
import type { Example } from "../../tools/retrieval/examples.ts";
import { type MemoryEntry } from "../../tools/retrieval/memory-store.ts";
import type { MemoStep, Strategy, Style } from "../../state/memo.ts";
/** Memo-SQL's prompts, in our own words, following the paper's structure (who sees what, what comes back). */
export interface PromptContext {
    schemaText: string;
    question: string;
    evidence: string;
    /** Linked columns and values (A.2), rendered; empty when linking is off. */
    linkingText: string;
}
export declare function samplePrompt(c: PromptContext, variant: number): ChatInput[];
export declare function labelPrompt(c: PromptContext & {
    goldSql: string;
    wrongSql: string;
}): ChatInput[];
/**
 * A free decomposition's seed (one per path): the prompt carries it, with the number of sub-questions and the starting
 * point it draws, so the three "random" decompositions of a question differ even at temperature 0.
 */
export interface DecompositionSeed {
    seed: string;
    size: number;
    start: string;
}
/**
 * The seed of path `path` (0-based) for a question. Size and starting point are drawn once per question (a hash of
 * the question alone) and offset by path, so the three paths always ask for a different size and a different start
 * (3 paths over 4 sizes and 4 starts); the seed string itself hashes question and path.
 */
export declare function decompositionSeed(question: string, path: number): DecompositionSeed;
export declare function decomposePrompt(c: PromptContext, paradigm: Strategy | "random", seed?: DecompositionSeed): ChatInput[];
export declare function actPrompt(c: PromptContext, plan: string[], index: number, earlier: MemoStep[]): ChatInput[];
export declare function reflectPrompt(c: PromptContext, plan: string[], current: MemoStep, earlier: MemoStep[]): ChatInput[];
export declare function revisePrompt(c: PromptContext, current: MemoStep, issue: string, earlier: MemoStep[]): ChatInput[];
export declare function writePrompt(c: PromptContext, steps: MemoStep[], style: Style, exemplars: Example[], plan?: string[]): ChatInput[];
export declare function criticPrompt(c: PromptContext, sql: string, observation: string, cases: MemoryEntry[]): ChatInput[];
export declare function refinePrompt(c: PromptContext, sql: string, observation: string, errorTypes: string[], suggestions: string): ChatInput[];
