import { z } from "zod";
/** One benchmark question, the same shape for Spider, BIRD and a user's own database. */
export const QuestionSchema = z.object({
    /** Stable id: BIRD's question_id, or the 0-based index in a Spider file, as a string. */
    id: z.string().min(1),
    dbId: z.string().min(1),
    /** Absolute path of the .sqlite file. */
    dbPath: z.string().min(1),
    question: z.string().min(1),
    /** BIRD's external knowledge; empty for Spider. */
    evidence: z.string().default(""),
    goldSql: z.string().optional(),
    /** BIRD: simple | moderate | challenging. Spider: easy | medium | hard | extra (computed from gold SQL). */
    difficulty: z.string().optional(),
    /** BIRD's database_description/ folder for this database, when present. */
    descriptionDir: z.string().optional(),
    /** 0-based place in its question file: text predictions and BIRD mini-dev's pair by it (fileOrder sorts by it). */
    position: z.number().int().nonnegative().optional(),
});
export const SkippedQuestionSchema = z.object({
    id: z.string(),
    dbId: z.string(),
    reason: z.string(),
    /** 0-based place in its question file (as Question.position). */
    position: z.number().int().nonnegative().optional(),
});
/** Spider: dev, train, test. BIRD: dev, train, minidev (the mini-dev SQLite release, mini_dev_sqlite.json). */
export { SPLITS } from "./splits.js";
