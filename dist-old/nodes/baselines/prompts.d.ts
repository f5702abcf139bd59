import type { Execution } from "../../state/sql-state.ts";
import type { ChatInput } from "../../tools/models/llm.ts";
/** The execution feedback a self-debugging turn shows: the result as a table, or the error. */
export declare function executionFeedback(execution: Execution | null): string;
/**
 * Self-debugging's explanation turn (Chen et al., 2023, the "explanation" feedback for text-to-SQL): the question's
 * intent, the query clause by clause and summarised, compared with the question, then a verdict line.
 */
export declare function explainPrompt(args: {
    schemaText: string;
    question: string;
    evidence: string;
    sql: string;
    execution: Execution | null;
}): ChatInput[];
/** Self-debugging's correction turn: the same question and query with the explanation that judged it wrong. */
export declare function debugPrompt(args: {
    schemaText: string;
    question: string;
    evidence: string;
    sql: string;
    execution: Execution | null;
    explanation: string;
}): ChatInput[];
/** The verdict an explanation ends with: the last `Verdict:` line, else unclear. */
export declare function verdictOf(text: string): "correct" | "wrong" | "unclear";
