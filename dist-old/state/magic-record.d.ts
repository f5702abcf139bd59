/**
 * The records of `sqlmend magic guideline` (its results.jsonl): written by the command, read again by its --resume
 * and by experiments (what a guideline run's questions cost).
 */
import { z } from "zod";
/** One line of results.jsonl: a training question, its initial SQL's verdict and, for a failure, the cycle's outcome. */
export declare const MagicRecordSchema: z.ZodObject<{
    id: z.ZodString;
    dbId: z.ZodString;
    difficulty: z.ZodOptional<z.ZodString>;
    question: z.ZodString;
    evidence: z.ZodDefault<z.ZodString>;
    initialSql: z.ZodString;
    initialCorrect: z.ZodBoolean;
    initialExtraction: z.ZodOptional<z.ZodEnum<{
        none: "none";
        extracted: "extracted";
    }>>;
    skipped: z.ZodOptional<z.ZodString>;
    corrected: z.ZodOptional<z.ZodBoolean>;
    iterations: z.ZodOptional<z.ZodNumber>;
    verdicts: z.ZodOptional<z.ZodArray<z.ZodBoolean>>;
    feedback: z.ZodOptional<z.ZodString>;
    correctedSql: z.ZodOptional<z.ZodString>;
    thread: z.ZodOptional<z.ZodString>;
    initialThread: z.ZodOptional<z.ZodString>;
    usageByRole: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodObject<{
        calls: z.ZodDefault<z.ZodNumber>;
        inputTokens: z.ZodDefault<z.ZodNumber>;
        outputTokens: z.ZodDefault<z.ZodNumber>;
        latencyMs: z.ZodDefault<z.ZodNumber>;
        failed: z.ZodOptional<z.ZodNumber>;
        cached: z.ZodOptional<z.ZodNumber>;
        savedTokens: z.ZodOptional<z.ZodNumber>;
        savedInputTokens: z.ZodOptional<z.ZodNumber>;
        savedOutputTokens: z.ZodOptional<z.ZodNumber>;
        fallbacks: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strip>>>;
    outcome: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodString, z.ZodNumber, z.ZodBoolean, z.ZodNull]>>>;
    error: z.ZodOptional<z.ZodString>;
    failedAt: z.ZodOptional<z.ZodEnum<{
        initial: "initial";
        cycle: "cycle";
    }>>;
}, z.core.$strip>;
export type MagicRecord = z.infer<typeof MagicRecordSchema>;
/** results.jsonl's text → records, a later line for an id winning (a resumed question is written again). */
export declare const parseMagicRecords: (text: string) => MagicRecord[];
