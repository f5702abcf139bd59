/**
 * The records of `sqlmend magic guideline` (its results.jsonl): written by the command, read again by its --resume
 * and by experiments (what a guideline run's questions cost).
 */
import { z } from "zod";
import { UsageTotalsSchema } from "./usage.js";
/** One line of results.jsonl: a training question, its initial SQL's verdict and, for a failure, the cycle's outcome. */
export const MagicRecordSchema = z.object({
    id: z.string(),
    dbId: z.string(),
    difficulty: z.string().optional(),
    question: z.string(),
    evidence: z.string().default(""),
    initialSql: z.string(),
    initialCorrect: z.boolean(),
    /** `--initial FILE`: the prediction was not plain SQL; its SQL was extracted from the text, or it held none. */
    initialExtraction: z.enum(["extracted", "none"]).optional(),
    /** Why a failure was not put through the cycle (gold SQL does not execute, no initial SQL). */
    skipped: z.string().optional(),
    /** Failures that went through the cycle: */
    corrected: z.boolean().optional(),
    iterations: z.number().int().optional(),
    /** The scorer's verdict on each iteration's revision, in order (Figure 3 without the manager needs them all). */
    verdicts: z.array(z.boolean()).optional(),
    /** The feedback that led to the successful revision, and that revision. */
    feedback: z.string().optional(),
    correctedSql: z.string().optional(),
    /** The thread the question ended on: the cycle's, or the generator's when it did not get that far. */
    thread: z.string().optional(),
    /** The initial generator's thread, when `--initial` is a graph (`…/initial`, `…/initial#2` after a failure). */
    initialThread: z.string().optional(),
    usageByRole: z.record(z.string(), UsageTotalsSchema).default({}),
    /**
     * What the question went through (graph magic-feedback's declared outcome: iterations, success, leak refusals,
     * redactions, prompt revisions of each kind, unusable manager replies, failed revisions); `cycled: false` for a
     * question that never entered the cycle.
     */
    outcome: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
    /** One line, when the question could not be run to the end. */
    error: z.string().optional(),
    /**
     * With `error`: the stage that failed — "initial" (no initial SQL was made: a resumed run makes it again) or "cycle"
     * (after it: a resumed run uses that SQL again and runs the cycle on the next thread).
     */
    failedAt: z.enum(["initial", "cycle"]).optional(),
});
/** results.jsonl's text → records, a later line for an id winning (a resumed question is written again). */
export const parseMagicRecords = (text) => {
    const byId = new Map();
    for (const line of text.split("\n")) {
        if (!line.trim())
            continue;
        try {
            const parsed = MagicRecordSchema.safeParse(JSON.parse(line));
            if (parsed.success)
                byId.set(parsed.data.id, parsed.data);
        }
        catch {
            // a half-written line from a kill: dropped
        }
    }
    return [...byId.values()];
};
