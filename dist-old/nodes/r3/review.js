import { readOptions } from "../../core/options.js";
import { formatTable } from "../../tools/format.js";
import { callModel } from "../../tools/models/llm.js";
import { stripThinking } from "../../tools/reply.js";
import { withCalls } from "../common.js";
import { R3_LOOP_OPTIONS } from "./options.js";
import { reviewerPrompt } from "./prompts.js";
/** The result as reviewers see it: a table of at most `rows` rows, or the error when the SQL still fails. */
export function resultForReview(execution, rows) {
    if (!execution)
        return "(not executed)";
    if (!execution.ok || !execution.preview)
        return `The query failed to execute: ${execution.errorKind}: ${execution.error}`;
    const preview = execution.preview;
    return formatTable({ ...preview, rows: preview.rows.slice(0, rows) });
}
/**
 * A review is cut at this length: the round's reviews form the newest turn of the writer's history, which its budget
 * never cuts, so one runaway reviewer would otherwise overflow the writer's prompt.
 */
export const REVIEW_MAX_CHARS = 4000;
const capReview = (text) => text.length > REVIEW_MAX_CHARS ? `${text.slice(0, REVIEW_MAX_CHARS)}\n… (review cut: ${text.length - REVIEW_MAX_CHARS} more characters)` : text;
/**
 * What a reviewer's `Send` carries (`REVIEW_INPUT`, plus which reviewer it is): not the writer's history, since Send
 * arguments are stored in checkpoints, n per round.
 */
export const REVIEW_INPUT = ["graph", "questionId", "question", "evidence", "dbId", "dbPath", "descriptionDir", "schemaText", "sql", "execution", "personas", "rounds"];
/**
 * Slot `review` (role "reviewer"): one reviewer, in its persona, reviews the SQL and its result. Runs once per
 * reviewer in parallel (a `Send` carries `reviewerIndex` and only the input fields, schemaText, question, evidence,
 * sql, execution, personas and rounds — not the writer's history). In: those.
 * Out: reviews [one entry, its text cut at REVIEW_MAX_CHARS; ok: false with the error when the call failed or said
 * nothing — the round goes on].
 */
export const reviewNode = (deps, options) => async (state) => {
    const { resultRows } = readOptions(R3_LOOP_OPTIONS, options);
    const index = state.reviewerIndex;
    const persona = state.personas[index] ?? { profession: "SQL reviewer", focus: "" };
    const round = state.rounds + 1;
    const prompt = reviewerPrompt({
        persona,
        schemaText: state.schemaText,
        question: state.question,
        evidence: state.evidence,
        sql: state.sql,
        result: resultForReview(state.execution, resultRows),
    });
    const call = await callModel(deps.models, "reviewer", prompt);
    const text = call.ok ? capReview(stripThinking(call.text).trim()) : "";
    const error = call.ok ? (text ? undefined : "empty review") : (call.record.error ?? "model call failed");
    if (error)
        call.record.error = error;
    return withCalls({ reviews: [{ round, reviewer: index, profession: persona.profession, ok: !error, text, ...(error ? { error } : {}) }] }, [call.record]);
};
