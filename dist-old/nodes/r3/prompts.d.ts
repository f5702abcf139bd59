import type { ChatInput } from "../../tools/models/llm.ts";
import type { HistoryTurn, Persona, Review } from "../../state/r3.ts";
/** R³'s prompts, in our own words, after the paper's structure (§2): who is shown what, what must come back. */
export type Reasoning = "cot" | "pot";
export declare function writerSystem(reasoning: Reasoning): string;
/** H's opening turn (x, S): the schema, k examples when asked, the question. Never cut from the history. */
export declare function openingTurn(args: {
    schemaText: string;
    question: string;
    evidence: string;
    shots: {
        question: string;
        evidence: string;
        sql: string;
    }[];
}): string;
export declare const errorTurn: (sql: string, error: string) => string;
/** Sent back when a writer reply held no query the reader could find. */
export declare const reaskTurn: () => string;
/** The debug turn when the writer has given no SQL yet: there is no query or database error to show it. */
export declare const noSqlTurn: () => string;
export declare function reviewsTurn(sql: string, reviews: Review[], failed: number): string;
/**
 * The writer's messages: system, the opening turn, then H's later turns in order. Turns of one role in a row (a
 * failed writer call leaves no reply; the budget may cut an odd number of turns) join into one message: many local
 * models' chat templates refuse roles that do not alternate.
 */
export declare function writerMessages(reasoning: Reasoning, opening: string, turns: HistoryTurn[]): ChatInput[];
export declare function personasPrompt(args: {
    schemaText: string;
    question: string;
    evidence: string;
    sql: string;
    n: number;
}): ChatInput[];
/** The persona call's follow-up: the reviewers kept stand; only the missing ones are asked for, with other professions. */
export declare function morePersonasPrompt(args: {
    asked: ChatInput[];
    reply: string;
    problems: string[];
    kept: string[];
    missing: number;
}): ChatInput[];
export declare function reviewerPrompt(args: {
    persona: Persona;
    schemaText: string;
    question: string;
    evidence: string;
    sql: string;
    result: string;
}): ChatInput[];
