import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { sqlStateFields } from "./sql-state.js";
/** One turn of the writer's dialogue history H after its opening (question and schema, rebuilt from state each call). */
export const HistoryTurnSchema = z.object({
    /** user: an execution error or the reviews shown to the writer; assistant: the writer's reply. */
    role: z.enum(["user", "assistant"]),
    /** sql: a writer reply; error: an execution error; reviews: a round's reviews; reask: a reply without SQL sent back. */
    kind: z.enum(["sql", "error", "reviews", "reask"]),
    /** The review round the turn belongs to (0 before the first review). */
    round: z.number().int().nonnegative(),
    content: z.string(),
});
export const PersonaSchema = z.object({
    profession: z.string().min(1),
    /** What this reviewer looks at first. */
    focus: z.string().default(""),
});
/** One reviewer's review in one round; `ok: false` says its call failed (the round goes on without it). */
export const ReviewSchema = z.object({
    round: z.number().int().positive(),
    reviewer: z.number().int().nonnegative(),
    profession: z.string(),
    ok: z.boolean(),
    text: z.string().default(""),
    error: z.string().optional(),
});
/** What the writer did with a round's reviews. */
export const RoundSchema = z.object({
    round: z.number().int().positive(),
    /** revised: new SQL; kept: same SQL after normalising (a rebuttal: consensus); unusable: no SQL in the reply; no-reviews: every reviewer failed. */
    outcome: z.enum(["revised", "kept", "unusable", "no-reviews"]),
    sqlBefore: z.string(),
    sqlAfter: z.string(),
    reviews: z.number().int().nonnegative(),
    failedReviewers: z.array(z.number().int().nonnegative()),
});
const concat = (current, next) => current.concat(next);
/** R³'s state fields: the shared ones plus the writer's history, the personas, the reviews and the rounds. */
export const r3StateFields = {
    ...sqlStateFields,
    /** H after its opening turn: writer replies, execution errors, reviews. Append-only; prompts cut it to a budget. */
    history: new ReducedValue(z.array(HistoryTurnSchema).default(() => []), { inputSchema: z.array(HistoryTurnSchema), reducer: concat }),
    /** Training examples shown in the writer's opening turn (retrieved once), and how they were ranked. */
    shots: z.array(z.object({ id: z.string(), question: z.string(), evidence: z.string(), sql: z.string() })).default(() => []),
    shotsRanking: z.string().default(""),
    /** The pool the shots were drawn from: "all N training questions", or "N of M (… left out: why)", or "none given". */
    shotsPool: z.string().default(""),
    /** The reviewers' professions, made once per question. */
    personas: z.array(PersonaSchema).default(() => []),
    /** How many of `personas` are standby reviewers (the model proposed too few, or its reply was unusable). */
    personasStandby: z.number().int().nonnegative().default(0),
    /** Proposed reviewers left out (a profession repeated, or of the wrong length); the missing ones were asked again once. */
    personasDropped: z.number().int().nonnegative().default(0),
    /** Every review of every round (failed reviewers included, with their error). */
    reviews: new ReducedValue(z.array(ReviewSchema).default(() => []), { inputSchema: z.array(ReviewSchema), reducer: concat }),
    /** Review rounds finished (the writer has answered their reviews). */
    rounds: z.number().int().nonnegative().default(0),
    /** Debug turns used in the current review round (the shared `fixRounds` counts all of them). */
    roundDebugTurns: z.number().int().nonnegative().default(0),
    roundLog: new ReducedValue(z.array(RoundSchema).default(() => []), { inputSchema: z.array(RoundSchema), reducer: concat }),
    consensus: z.boolean().default(false),
    /** Times a writer reply held no SQL and was sent back (bounded per call: `MAX_SQL_REASKS`). */
    writerReasks: z.number().int().nonnegative().default(0),
    /** Why the loop stopped (set by the `finish` node). */
    stopReason: z.string().default(""),
    /** The same as a category: consensus, round limit, writer gave no SQL, no reviewers, every reviewer failed. */
    stopKind: z.string().default(""),
    /** The reviewer a `Send` addresses (only in a reviewer task's input). */
    reviewerIndex: z.number().int().nonnegative().default(0),
};
export const R3State = new StateSchema(r3StateFields);
