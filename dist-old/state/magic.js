import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { sqlInputFields, sqlStateFields } from "./sql-state.js";
/** One turn of MAGIC's feedback-correction cycle, as the manager (or, without it, the feedback agent) judged it. */
export const MagicIterationSchema = z.object({
    iteration: z.number().int().positive(),
    /** The feedback the correction agent was given (gold SQL redacted if the feedback agent wrote it anyway). */
    feedback: z.string(),
    /** The SQL judged this iteration: the correction agent's revision (the previous SQL when its reply held none). */
    sql: z.string(),
    /** The scorer's verdict against the gold SQL, under the benchmark's semantics. */
    correct: z.boolean(),
    /** One line: the revision's execution error, or why an agent's output was not usable. */
    note: z.string().optional(),
});
const concat = (current, next) => current.concat(next);
/** A count that nodes running in one step (the two revisions) may both add to: each update is a delta. */
const counter = () => new ReducedValue(z.number().int().nonnegative().default(0), { inputSchema: z.number().int().nonnegative(), reducer: (a, b) => a + b });
/**
 * Graph `magic-feedback`: one training failure through the feedback-correction cycle. Input: the shared fields with
 * `sql` = `incorrectSql` = the initial method's incorrect SQL (s'), and `goldSql` (s^gt). Only the feedback agent and
 * the manager are shown `goldSql`; the correction agent never is (§3.2).
 */
export const magicFeedbackFields = {
    ...sqlStateFields,
    goldSql: z.string().default(""),
    /** s': the initial method's incorrect SQL. The correction agent always revises this one (§3.2). */
    incorrectSql: z.string().default(""),
    /** Iterations done (the launcher reports `rounds` as the question's iterations). */
    rounds: z.number().int().nonnegative().default(0),
    /** The latest feedback, as the correction agent was shown it. */
    latestFeedback: z.string().default(""),
    /** The correction agent's latest full reply (its ask-myself reasoning and SQL): the manager revises from it. */
    correctionReply: z.string().default(""),
    /** The agents' current instructions; "" means the predefined ones. Revised by the manager from iteration 2. */
    feedbackInstructions: z.string().default(""),
    correctionInstructions: z.string().default(""),
    feedbackRevisions: z.number().int().nonnegative().default(0),
    correctionRevisions: z.number().int().nonnegative().default(0),
    /** No-manager ablation: the feedback agent's verdict on the latest revision. */
    judgedCorrect: z.boolean().nullable().default(null),
    iterations: new ReducedValue(z.array(MagicIterationSchema).default(() => []), { inputSchema: z.array(MagicIterationSchema), reducer: concat }),
    /** Set when an agent's call got no reply at all (endpoint down, after the client's retries): the cycle stops there. */
    unreachable: z.string().default(""),
    /** The scorer's verdict on the final revision: was the failure corrected? */
    corrected: z.boolean().default(false),
    /** Feedbacks or revised correction instructions that gave the gold away (each reply counts; re-asked, or at last redacted / dropped). */
    leakRefusals: counter(),
    /** Feedbacks passed on with the gold redacted, every re-ask having leaked it too. */
    redactions: counter(),
    /** Manager replies that held no usable instructions (empty, a refusal, a bare query), each re-ask counted. */
    unusableManagerReplies: counter(),
    /** Revisions that kept the previous instructions (unusable replies, leaks or no reply, after the re-asks). */
    failedRevisions: counter(),
};
export const MagicFeedbackState = new StateSchema(magicFeedbackFields);
/** What `magic guideline` starts a cycle with: the question, s' (`sql` and `incorrectSql`) and the gold. */
export const MagicFeedbackInput = new StateSchema({ ...sqlInputFields, goldSql: magicFeedbackFields.goldSql, incorrectSql: magicFeedbackFields.incorrectSql });
/** A successful feedback, as the manager keeps it for the guideline. */
export const SuccessfulFeedbackSchema = z.object({
    questionId: z.string(),
    question: z.string(),
    evidence: z.string().default(""),
    incorrectSql: z.string(),
    correctedSql: z.string(),
    feedback: z.string(),
});
/**
 * Graph `magic-guideline`: one merge of a batch of successful feedbacks into the guideline (Figure 9). `question`
 * names the batch (so `sqlmend threads` lists merges readably); `guideline` is the guideline so far, then the merge.
 */
export const magicGuidelineFields = {
    ...sqlStateFields,
    batchNo: z.number().int().nonnegative().default(0),
    batch: z.array(SuccessfulFeedbackSchema).default(() => []),
    guideline: z.string().default(""),
    /** False when the merge kept the previous guideline (the manager's reply was unusable). */
    merged: z.boolean().default(false),
    /** Merge replies that could not replace the guideline (no reminder, most reminders dropped), each re-ask counted. */
    unusableReplies: z.number().int().nonnegative().default(0),
    /** Non-blank lines of the used reply outside its numbered reminders (a chat preface, a sign-off, a stray SQL block), dropped. */
    strippedLines: z.number().int().nonnegative().default(0),
};
export const MagicGuidelineState = new StateSchema(magicGuidelineFields);
/** What a merge starts with: the batch, its number and the guideline so far. */
export const MagicGuidelineInput = new StateSchema({ ...sqlInputFields, batchNo: magicGuidelineFields.batchNo, batch: magicGuidelineFields.batch, guideline: magicGuidelineFields.guideline });
/** Graph `magic`: the guideline corrector. `initialSql` keeps the SQL it was given, to fall back on. */
export const magicFields = {
    ...sqlStateFields,
    initialSql: z.string().default(""),
    /** The first 12 hex digits of the sha256 of the guideline text applied. */
    guidelineHash: z.string().default(""),
    /** What became of the revision: `revised`, `unchanged` (the same query), `no SQL` (reply without one, initial kept), `does not execute` (initial kept). */
    revision: z.string().default(""),
};
export const MagicState = new StateSchema(magicFields);
