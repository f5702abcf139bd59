import { formatTable } from "../../tools/format.js";
import { questionBlock, SQL_SYSTEM } from "../prompts.js";
/** The execution feedback a self-debugging turn shows: the result as a table, or the error. */
export function executionFeedback(execution) {
    if (!execution)
        return "Execution: not run.";
    if (!execution.ok)
        return `Execution failed (${execution.errorKind ?? "error"}): ${execution.error ?? ""}`;
    return execution.preview ? `Execution result:\n${formatTable(execution.preview)}` : "Execution: ran (no rows kept).";
}
const EXPLAIN_SYSTEM = "You are an expert SQLite reviewer. You explain a query step by step, compare what it returns with what the question " +
    "asks, and judge whether it answers the question.";
/**
 * Self-debugging's explanation turn (Chen et al., 2023, the "explanation" feedback for text-to-SQL): the question's
 * intent, the query clause by clause and summarised, compared with the question, then a verdict line.
 */
export function explainPrompt(args) {
    return [
        { role: "system", content: EXPLAIN_SYSTEM },
        {
            role: "user",
            content: `Database schema:\n${args.schemaText}\n\n${questionBlock(args.question, args.evidence)}\n\n` +
                `Predicted query:\n\`\`\`sql\n${args.sql}\n\`\`\`\n${executionFeedback(args.execution)}\n\n` +
                "1. Say what the question asks for: which values, filters, grouping, order and how many rows.\n" +
                "2. Explain the query clause by clause, then sum up in one sentence what it returns.\n" +
                "3. Compare that, and the execution feedback, with what the question asks.\n" +
                "End with one line, exactly `Verdict: correct` when the query answers the question, else `Verdict: wrong`.",
        },
    ];
}
/** Self-debugging's correction turn: the same question and query with the explanation that judged it wrong. */
export function debugPrompt(args) {
    return [
        { role: "system", content: SQL_SYSTEM },
        {
            role: "user",
            content: `Database schema:\n${args.schemaText}\n\n${questionBlock(args.question, args.evidence)}\n\n` +
                `Predicted query:\n\`\`\`sql\n${args.sql}\n\`\`\`\n${executionFeedback(args.execution)}\n\n` +
                `Explanation of the query:\n${args.explanation}\n\n` +
                "The explanation finds the query wrong. Using it, write the corrected SQLite query that answers the question.",
        },
    ];
}
/** The verdict an explanation ends with: the last `Verdict:` line, else unclear. */
export function verdictOf(text) {
    const all = [...text.matchAll(/verdict\s*[:\-]\s*\**\s*(correct|wrong|incorrect)\b/gi)];
    const last = all.at(-1)?.[1]?.toLowerCase();
    return last === "correct" ? "correct" : last ? "wrong" : "unclear";
}
