import type { Execution } from "../../state/sql-state.ts";
import type { R3StateUpdate, R3StateValue } from "../../state/r3.ts";
import type { Command } from "@langchain/langgraph";
import type { NodeFactory } from "../types.ts";
/** The result as reviewers see it: a table of at most `rows` rows, or the error when the SQL still fails. */
export declare function resultForReview(execution: Execution | null, rows: number): string;
/**
 * A review is cut at this length: the round's reviews form the newest turn of the writer's history, which its budget
 * never cuts, so one runaway reviewer would otherwise overflow the writer's prompt.
 */
export declare const REVIEW_MAX_CHARS = 4000;
/**
 * What a reviewer's `Send` carries (`REVIEW_INPUT`, plus which reviewer it is): not the writer's history, since Send
 * arguments are stored in checkpoints, n per round.
 */
export declare const REVIEW_INPUT: readonly ["graph", "questionId", "question", "evidence", "dbId", "dbPath", "descriptionDir", "schemaText", "sql", "execution", "personas", "rounds"];
export type ReviewPayload = Pick<R3StateValue, (typeof REVIEW_INPUT)[number] | "reviewerIndex">;
/**
 * Slot `review` (role "reviewer"): one reviewer, in its persona, reviews the SQL and its result. Runs once per
 * reviewer in parallel (a `Send` carries `reviewerIndex` and only the input fields, schemaText, question, evidence,
 * sql, execution, personas and rounds — not the writer's history). In: those.
 * Out: reviews [one entry, its text cut at REVIEW_MAX_CHARS; ok: false with the error when the call failed or said
 * nothing — the round goes on].
 */
export declare const reviewNode: NodeFactory<ReviewPayload, R3StateUpdate | Command>;
