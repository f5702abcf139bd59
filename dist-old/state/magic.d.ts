import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
/** One turn of MAGIC's feedback-correction cycle, as the manager (or, without it, the feedback agent) judged it. */
export declare const MagicIterationSchema: z.ZodObject<{
    iteration: z.ZodNumber;
    feedback: z.ZodString;
    sql: z.ZodString;
    correct: z.ZodBoolean;
    note: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type MagicIteration = z.infer<typeof MagicIterationSchema>;
/**
 * Graph `magic-feedback`: one training failure through the feedback-correction cycle. Input: the shared fields with
 * `sql` = `incorrectSql` = the initial method's incorrect SQL (s'), and `goldSql` (s^gt). Only the feedback agent and
 * the manager are shown `goldSql`; the correction agent never is (§3.2).
 */
export declare const magicFeedbackFields: {
    goldSql: z.ZodDefault<z.ZodString>;
    /** s': the initial method's incorrect SQL. The correction agent always revises this one (§3.2). */
    incorrectSql: z.ZodDefault<z.ZodString>;
    /** Iterations done (the launcher reports `rounds` as the question's iterations). */
    rounds: z.ZodDefault<z.ZodNumber>;
    /** The latest feedback, as the correction agent was shown it. */
    latestFeedback: z.ZodDefault<z.ZodString>;
    /** The correction agent's latest full reply (its ask-myself reasoning and SQL): the manager revises from it. */
    correctionReply: z.ZodDefault<z.ZodString>;
    /** The agents' current instructions; "" means the predefined ones. Revised by the manager from iteration 2. */
    feedbackInstructions: z.ZodDefault<z.ZodString>;
    correctionInstructions: z.ZodDefault<z.ZodString>;
    feedbackRevisions: z.ZodDefault<z.ZodNumber>;
    correctionRevisions: z.ZodDefault<z.ZodNumber>;
    /** No-manager ablation: the feedback agent's verdict on the latest revision. */
    judgedCorrect: z.ZodDefault<z.ZodNullable<z.ZodBoolean>>;
    iterations: ReducedValue<{
        iteration: number;
        feedback: string;
        sql: string;
        correct: boolean;
        note?: string | undefined;
    }[], {
        iteration: number;
        feedback: string;
        sql: string;
        correct: boolean;
        note?: string | undefined;
    }[]>;
    /** Set when an agent's call got no reply at all (endpoint down, after the client's retries): the cycle stops there. */
    unreachable: z.ZodDefault<z.ZodString>;
    /** The scorer's verdict on the final revision: was the failure corrected? */
    corrected: z.ZodDefault<z.ZodBoolean>;
    /** Feedbacks or revised correction instructions that gave the gold away (each reply counts; re-asked, or at last redacted / dropped). */
    leakRefusals: ReducedValue<number, number>;
    /** Feedbacks passed on with the gold redacted, every re-ask having leaked it too. */
    redactions: ReducedValue<number, number>;
    /** Manager replies that held no usable instructions (empty, a refusal, a bare query), each re-ask counted. */
    unusableManagerReplies: ReducedValue<number, number>;
    /** Revisions that kept the previous instructions (unusable replies, leaks or no reply, after the re-asks). */
    failedRevisions: ReducedValue<number, number>;
    graph: z.ZodDefault<z.ZodString>;
    questionId: z.ZodDefault<z.ZodString>;
    question: z.ZodString;
    evidence: z.ZodDefault<z.ZodString>;
    dbId: z.ZodDefault<z.ZodString>;
    dbPath: z.ZodString;
    descriptionDir: z.ZodDefault<z.ZodString>;
    linking: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        keywords: z.ZodArray<z.ZodString>;
        columns: z.ZodArray<z.ZodObject<{
            table: z.ZodString;
            column: z.ZodString;
            score: z.ZodNumber;
            via: z.ZodEnum<{
                name: "name";
                value: "value";
                description: "description";
            }>;
            keyword: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>;
        values: z.ZodArray<z.ZodObject<{
            keyword: z.ZodString;
            table: z.ZodString;
            column: z.ZodString;
            value: z.ZodString;
            score: z.ZodNumber;
            distance: z.ZodOptional<z.ZodNumber>;
        }, z.core.$strip>>;
        ranking: z.ZodEnum<{
            lexical: "lexical";
            embeddings: "embeddings";
        }>;
        note: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>>;
    schemaText: z.ZodDefault<z.ZodString>;
    sql: z.ZodDefault<z.ZodString>;
    execution: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        sql: z.ZodString;
        ok: z.ZodBoolean;
        preview: z.ZodOptional<z.ZodObject<{
            columns: z.ZodArray<z.ZodString>;
            rows: z.ZodArray<z.ZodArray<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString]>>>;
            rowCount: z.ZodNumber;
            truncated: z.ZodBoolean;
        }, z.core.$strip>>;
        fingerprint: z.ZodOptional<z.ZodString>;
        errorKind: z.ZodOptional<z.ZodString>;
        error: z.ZodOptional<z.ZodString>;
        elapsedMs: z.ZodNumber;
    }, z.core.$strip>>>;
    fixRounds: z.ZodDefault<z.ZodNumber>;
    attempts: ReducedValue<{
        node: string;
        sql: string;
        ok: boolean;
        note?: string | undefined;
    }[], {
        node: string;
        sql: string;
        ok: boolean;
        note?: string | undefined;
    }[]>;
    candidates: ReducedValue<{
        id: string;
        sql: string;
        source: string;
        execution?: {
            sql: string;
            ok: boolean;
            elapsedMs: number;
            preview?: {
                columns: string[];
                rows: (string | number | null)[][];
                rowCount: number;
                truncated: boolean;
            } | undefined;
            fingerprint?: string | undefined;
            errorKind?: string | undefined;
            error?: string | undefined;
        } | undefined;
        meta?: Record<string, unknown> | undefined;
    }[], {
        id: string;
        sql: string;
        source: string;
        execution?: {
            sql: string;
            ok: boolean;
            elapsedMs: number;
            preview?: {
                columns: string[];
                rows: (string | number | null)[][];
                rowCount: number;
                truncated: boolean;
            } | undefined;
            fingerprint?: string | undefined;
            errorKind?: string | undefined;
            error?: string | undefined;
        } | undefined;
        meta?: Record<string, unknown> | undefined;
    }[]>;
    calls: ReducedValue<{
        role: string;
        model: string;
        messages: {
            role: string;
            content: string;
        }[];
        reply: string;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        method?: string | undefined;
        error?: string | undefined;
        step?: number | undefined;
        node?: string | undefined;
        cached?: boolean | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallback?: string | undefined;
    }[], {
        role: string;
        model: string;
        messages: {
            role: string;
            content: string;
        }[];
        reply: string;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        method?: string | undefined;
        error?: string | undefined;
        step?: number | undefined;
        node?: string | undefined;
        cached?: boolean | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallback?: string | undefined;
    }[]>;
    usage: ReducedValue<{
        calls: number;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        byRole: Record<string, {
            calls: number;
            inputTokens: number;
            outputTokens: number;
            latencyMs: number;
            failed?: number | undefined;
            cached?: number | undefined;
            savedTokens?: number | undefined;
            savedInputTokens?: number | undefined;
            savedOutputTokens?: number | undefined;
            fallbacks?: number | undefined;
        }>;
        failed?: number | undefined;
        cached?: number | undefined;
        savedTokens?: number | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallbacks?: number | undefined;
        failure?: string | undefined;
    }, {
        calls: number;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        byRole: Record<string, {
            calls: number;
            inputTokens: number;
            outputTokens: number;
            latencyMs: number;
            failed?: number | undefined;
            cached?: number | undefined;
            savedTokens?: number | undefined;
            savedInputTokens?: number | undefined;
            savedOutputTokens?: number | undefined;
            fallbacks?: number | undefined;
        }>;
        failed?: number | undefined;
        cached?: number | undefined;
        savedTokens?: number | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallbacks?: number | undefined;
        failure?: string | undefined;
    }>;
};
export declare const MagicFeedbackState: StateSchema<{
    goldSql: z.ZodDefault<z.ZodString>;
    /** s': the initial method's incorrect SQL. The correction agent always revises this one (§3.2). */
    incorrectSql: z.ZodDefault<z.ZodString>;
    /** Iterations done (the launcher reports `rounds` as the question's iterations). */
    rounds: z.ZodDefault<z.ZodNumber>;
    /** The latest feedback, as the correction agent was shown it. */
    latestFeedback: z.ZodDefault<z.ZodString>;
    /** The correction agent's latest full reply (its ask-myself reasoning and SQL): the manager revises from it. */
    correctionReply: z.ZodDefault<z.ZodString>;
    /** The agents' current instructions; "" means the predefined ones. Revised by the manager from iteration 2. */
    feedbackInstructions: z.ZodDefault<z.ZodString>;
    correctionInstructions: z.ZodDefault<z.ZodString>;
    feedbackRevisions: z.ZodDefault<z.ZodNumber>;
    correctionRevisions: z.ZodDefault<z.ZodNumber>;
    /** No-manager ablation: the feedback agent's verdict on the latest revision. */
    judgedCorrect: z.ZodDefault<z.ZodNullable<z.ZodBoolean>>;
    iterations: ReducedValue<{
        iteration: number;
        feedback: string;
        sql: string;
        correct: boolean;
        note?: string | undefined;
    }[], {
        iteration: number;
        feedback: string;
        sql: string;
        correct: boolean;
        note?: string | undefined;
    }[]>;
    /** Set when an agent's call got no reply at all (endpoint down, after the client's retries): the cycle stops there. */
    unreachable: z.ZodDefault<z.ZodString>;
    /** The scorer's verdict on the final revision: was the failure corrected? */
    corrected: z.ZodDefault<z.ZodBoolean>;
    /** Feedbacks or revised correction instructions that gave the gold away (each reply counts; re-asked, or at last redacted / dropped). */
    leakRefusals: ReducedValue<number, number>;
    /** Feedbacks passed on with the gold redacted, every re-ask having leaked it too. */
    redactions: ReducedValue<number, number>;
    /** Manager replies that held no usable instructions (empty, a refusal, a bare query), each re-ask counted. */
    unusableManagerReplies: ReducedValue<number, number>;
    /** Revisions that kept the previous instructions (unusable replies, leaks or no reply, after the re-asks). */
    failedRevisions: ReducedValue<number, number>;
    graph: z.ZodDefault<z.ZodString>;
    questionId: z.ZodDefault<z.ZodString>;
    question: z.ZodString;
    evidence: z.ZodDefault<z.ZodString>;
    dbId: z.ZodDefault<z.ZodString>;
    dbPath: z.ZodString;
    descriptionDir: z.ZodDefault<z.ZodString>;
    linking: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        keywords: z.ZodArray<z.ZodString>;
        columns: z.ZodArray<z.ZodObject<{
            table: z.ZodString;
            column: z.ZodString;
            score: z.ZodNumber;
            via: z.ZodEnum<{
                name: "name";
                value: "value";
                description: "description";
            }>;
            keyword: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>;
        values: z.ZodArray<z.ZodObject<{
            keyword: z.ZodString;
            table: z.ZodString;
            column: z.ZodString;
            value: z.ZodString;
            score: z.ZodNumber;
            distance: z.ZodOptional<z.ZodNumber>;
        }, z.core.$strip>>;
        ranking: z.ZodEnum<{
            lexical: "lexical";
            embeddings: "embeddings";
        }>;
        note: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>>;
    schemaText: z.ZodDefault<z.ZodString>;
    sql: z.ZodDefault<z.ZodString>;
    execution: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        sql: z.ZodString;
        ok: z.ZodBoolean;
        preview: z.ZodOptional<z.ZodObject<{
            columns: z.ZodArray<z.ZodString>;
            rows: z.ZodArray<z.ZodArray<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString]>>>;
            rowCount: z.ZodNumber;
            truncated: z.ZodBoolean;
        }, z.core.$strip>>;
        fingerprint: z.ZodOptional<z.ZodString>;
        errorKind: z.ZodOptional<z.ZodString>;
        error: z.ZodOptional<z.ZodString>;
        elapsedMs: z.ZodNumber;
    }, z.core.$strip>>>;
    fixRounds: z.ZodDefault<z.ZodNumber>;
    attempts: ReducedValue<{
        node: string;
        sql: string;
        ok: boolean;
        note?: string | undefined;
    }[], {
        node: string;
        sql: string;
        ok: boolean;
        note?: string | undefined;
    }[]>;
    candidates: ReducedValue<{
        id: string;
        sql: string;
        source: string;
        execution?: {
            sql: string;
            ok: boolean;
            elapsedMs: number;
            preview?: {
                columns: string[];
                rows: (string | number | null)[][];
                rowCount: number;
                truncated: boolean;
            } | undefined;
            fingerprint?: string | undefined;
            errorKind?: string | undefined;
            error?: string | undefined;
        } | undefined;
        meta?: Record<string, unknown> | undefined;
    }[], {
        id: string;
        sql: string;
        source: string;
        execution?: {
            sql: string;
            ok: boolean;
            elapsedMs: number;
            preview?: {
                columns: string[];
                rows: (string | number | null)[][];
                rowCount: number;
                truncated: boolean;
            } | undefined;
            fingerprint?: string | undefined;
            errorKind?: string | undefined;
            error?: string | undefined;
        } | undefined;
        meta?: Record<string, unknown> | undefined;
    }[]>;
    calls: ReducedValue<{
        role: string;
        model: string;
        messages: {
            role: string;
            content: string;
        }[];
        reply: string;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        method?: string | undefined;
        error?: string | undefined;
        step?: number | undefined;
        node?: string | undefined;
        cached?: boolean | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallback?: string | undefined;
    }[], {
        role: string;
        model: string;
        messages: {
            role: string;
            content: string;
        }[];
        reply: string;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        method?: string | undefined;
        error?: string | undefined;
        step?: number | undefined;
        node?: string | undefined;
        cached?: boolean | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallback?: string | undefined;
    }[]>;
    usage: ReducedValue<{
        calls: number;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        byRole: Record<string, {
            calls: number;
            inputTokens: number;
            outputTokens: number;
            latencyMs: number;
            failed?: number | undefined;
            cached?: number | undefined;
            savedTokens?: number | undefined;
            savedInputTokens?: number | undefined;
            savedOutputTokens?: number | undefined;
            fallbacks?: number | undefined;
        }>;
        failed?: number | undefined;
        cached?: number | undefined;
        savedTokens?: number | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallbacks?: number | undefined;
        failure?: string | undefined;
    }, {
        calls: number;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        byRole: Record<string, {
            calls: number;
            inputTokens: number;
            outputTokens: number;
            latencyMs: number;
            failed?: number | undefined;
            cached?: number | undefined;
            savedTokens?: number | undefined;
            savedInputTokens?: number | undefined;
            savedOutputTokens?: number | undefined;
            fallbacks?: number | undefined;
        }>;
        failed?: number | undefined;
        cached?: number | undefined;
        savedTokens?: number | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallbacks?: number | undefined;
        failure?: string | undefined;
    }>;
}>;
/** What `magic guideline` starts a cycle with: the question, s' (`sql` and `incorrectSql`) and the gold. */
export declare const MagicFeedbackInput: StateSchema<{
    goldSql: z.ZodDefault<z.ZodString>;
    incorrectSql: z.ZodDefault<z.ZodString>;
    graph: z.ZodDefault<z.ZodString>;
    questionId: z.ZodDefault<z.ZodString>;
    question: z.ZodString;
    evidence: z.ZodDefault<z.ZodString>;
    dbId: z.ZodDefault<z.ZodString>;
    dbPath: z.ZodString;
    descriptionDir: z.ZodDefault<z.ZodString>;
    sql: z.ZodDefault<z.ZodString>;
}>;
export type MagicFeedbackValue = typeof MagicFeedbackState.State;
export type MagicFeedbackUpdate = typeof MagicFeedbackState.Update;
/** A successful feedback, as the manager keeps it for the guideline. */
export declare const SuccessfulFeedbackSchema: z.ZodObject<{
    questionId: z.ZodString;
    question: z.ZodString;
    evidence: z.ZodDefault<z.ZodString>;
    incorrectSql: z.ZodString;
    correctedSql: z.ZodString;
    feedback: z.ZodString;
}, z.core.$strip>;
export type SuccessfulFeedback = z.infer<typeof SuccessfulFeedbackSchema>;
/**
 * Graph `magic-guideline`: one merge of a batch of successful feedbacks into the guideline (Figure 9). `question`
 * names the batch (so `sqlmend threads` lists merges readably); `guideline` is the guideline so far, then the merge.
 */
export declare const magicGuidelineFields: {
    batchNo: z.ZodDefault<z.ZodNumber>;
    batch: z.ZodDefault<z.ZodArray<z.ZodObject<{
        questionId: z.ZodString;
        question: z.ZodString;
        evidence: z.ZodDefault<z.ZodString>;
        incorrectSql: z.ZodString;
        correctedSql: z.ZodString;
        feedback: z.ZodString;
    }, z.core.$strip>>>;
    guideline: z.ZodDefault<z.ZodString>;
    /** False when the merge kept the previous guideline (the manager's reply was unusable). */
    merged: z.ZodDefault<z.ZodBoolean>;
    /** Merge replies that could not replace the guideline (no reminder, most reminders dropped), each re-ask counted. */
    unusableReplies: z.ZodDefault<z.ZodNumber>;
    /** Non-blank lines of the used reply outside its numbered reminders (a chat preface, a sign-off, a stray SQL block), dropped. */
    strippedLines: z.ZodDefault<z.ZodNumber>;
    graph: z.ZodDefault<z.ZodString>;
    questionId: z.ZodDefault<z.ZodString>;
    question: z.ZodString;
    evidence: z.ZodDefault<z.ZodString>;
    dbId: z.ZodDefault<z.ZodString>;
    dbPath: z.ZodString;
    descriptionDir: z.ZodDefault<z.ZodString>;
    linking: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        keywords: z.ZodArray<z.ZodString>;
        columns: z.ZodArray<z.ZodObject<{
            table: z.ZodString;
            column: z.ZodString;
            score: z.ZodNumber;
            via: z.ZodEnum<{
                name: "name";
                value: "value";
                description: "description";
            }>;
            keyword: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>;
        values: z.ZodArray<z.ZodObject<{
            keyword: z.ZodString;
            table: z.ZodString;
            column: z.ZodString;
            value: z.ZodString;
            score: z.ZodNumber;
            distance: z.ZodOptional<z.ZodNumber>;
        }, z.core.$strip>>;
        ranking: z.ZodEnum<{
            lexical: "lexical";
            embeddings: "embeddings";
        }>;
        note: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>>;
    schemaText: z.ZodDefault<z.ZodString>;
    sql: z.ZodDefault<z.ZodString>;
    execution: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        sql: z.ZodString;
        ok: z.ZodBoolean;
        preview: z.ZodOptional<z.ZodObject<{
            columns: z.ZodArray<z.ZodString>;
            rows: z.ZodArray<z.ZodArray<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString]>>>;
            rowCount: z.ZodNumber;
            truncated: z.ZodBoolean;
        }, z.core.$strip>>;
        fingerprint: z.ZodOptional<z.ZodString>;
        errorKind: z.ZodOptional<z.ZodString>;
        error: z.ZodOptional<z.ZodString>;
        elapsedMs: z.ZodNumber;
    }, z.core.$strip>>>;
    fixRounds: z.ZodDefault<z.ZodNumber>;
    attempts: ReducedValue<{
        node: string;
        sql: string;
        ok: boolean;
        note?: string | undefined;
    }[], {
        node: string;
        sql: string;
        ok: boolean;
        note?: string | undefined;
    }[]>;
    candidates: ReducedValue<{
        id: string;
        sql: string;
        source: string;
        execution?: {
            sql: string;
            ok: boolean;
            elapsedMs: number;
            preview?: {
                columns: string[];
                rows: (string | number | null)[][];
                rowCount: number;
                truncated: boolean;
            } | undefined;
            fingerprint?: string | undefined;
            errorKind?: string | undefined;
            error?: string | undefined;
        } | undefined;
        meta?: Record<string, unknown> | undefined;
    }[], {
        id: string;
        sql: string;
        source: string;
        execution?: {
            sql: string;
            ok: boolean;
            elapsedMs: number;
            preview?: {
                columns: string[];
                rows: (string | number | null)[][];
                rowCount: number;
                truncated: boolean;
            } | undefined;
            fingerprint?: string | undefined;
            errorKind?: string | undefined;
            error?: string | undefined;
        } | undefined;
        meta?: Record<string, unknown> | undefined;
    }[]>;
    calls: ReducedValue<{
        role: string;
        model: string;
        messages: {
            role: string;
            content: string;
        }[];
        reply: string;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        method?: string | undefined;
        error?: string | undefined;
        step?: number | undefined;
        node?: string | undefined;
        cached?: boolean | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallback?: string | undefined;
    }[], {
        role: string;
        model: string;
        messages: {
            role: string;
            content: string;
        }[];
        reply: string;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        method?: string | undefined;
        error?: string | undefined;
        step?: number | undefined;
        node?: string | undefined;
        cached?: boolean | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallback?: string | undefined;
    }[]>;
    usage: ReducedValue<{
        calls: number;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        byRole: Record<string, {
            calls: number;
            inputTokens: number;
            outputTokens: number;
            latencyMs: number;
            failed?: number | undefined;
            cached?: number | undefined;
            savedTokens?: number | undefined;
            savedInputTokens?: number | undefined;
            savedOutputTokens?: number | undefined;
            fallbacks?: number | undefined;
        }>;
        failed?: number | undefined;
        cached?: number | undefined;
        savedTokens?: number | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallbacks?: number | undefined;
        failure?: string | undefined;
    }, {
        calls: number;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        byRole: Record<string, {
            calls: number;
            inputTokens: number;
            outputTokens: number;
            latencyMs: number;
            failed?: number | undefined;
            cached?: number | undefined;
            savedTokens?: number | undefined;
            savedInputTokens?: number | undefined;
            savedOutputTokens?: number | undefined;
            fallbacks?: number | undefined;
        }>;
        failed?: number | undefined;
        cached?: number | undefined;
        savedTokens?: number | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallbacks?: number | undefined;
        failure?: string | undefined;
    }>;
};
export declare const MagicGuidelineState: StateSchema<{
    batchNo: z.ZodDefault<z.ZodNumber>;
    batch: z.ZodDefault<z.ZodArray<z.ZodObject<{
        questionId: z.ZodString;
        question: z.ZodString;
        evidence: z.ZodDefault<z.ZodString>;
        incorrectSql: z.ZodString;
        correctedSql: z.ZodString;
        feedback: z.ZodString;
    }, z.core.$strip>>>;
    guideline: z.ZodDefault<z.ZodString>;
    /** False when the merge kept the previous guideline (the manager's reply was unusable). */
    merged: z.ZodDefault<z.ZodBoolean>;
    /** Merge replies that could not replace the guideline (no reminder, most reminders dropped), each re-ask counted. */
    unusableReplies: z.ZodDefault<z.ZodNumber>;
    /** Non-blank lines of the used reply outside its numbered reminders (a chat preface, a sign-off, a stray SQL block), dropped. */
    strippedLines: z.ZodDefault<z.ZodNumber>;
    graph: z.ZodDefault<z.ZodString>;
    questionId: z.ZodDefault<z.ZodString>;
    question: z.ZodString;
    evidence: z.ZodDefault<z.ZodString>;
    dbId: z.ZodDefault<z.ZodString>;
    dbPath: z.ZodString;
    descriptionDir: z.ZodDefault<z.ZodString>;
    linking: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        keywords: z.ZodArray<z.ZodString>;
        columns: z.ZodArray<z.ZodObject<{
            table: z.ZodString;
            column: z.ZodString;
            score: z.ZodNumber;
            via: z.ZodEnum<{
                name: "name";
                value: "value";
                description: "description";
            }>;
            keyword: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>;
        values: z.ZodArray<z.ZodObject<{
            keyword: z.ZodString;
            table: z.ZodString;
            column: z.ZodString;
            value: z.ZodString;
            score: z.ZodNumber;
            distance: z.ZodOptional<z.ZodNumber>;
        }, z.core.$strip>>;
        ranking: z.ZodEnum<{
            lexical: "lexical";
            embeddings: "embeddings";
        }>;
        note: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>>;
    schemaText: z.ZodDefault<z.ZodString>;
    sql: z.ZodDefault<z.ZodString>;
    execution: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        sql: z.ZodString;
        ok: z.ZodBoolean;
        preview: z.ZodOptional<z.ZodObject<{
            columns: z.ZodArray<z.ZodString>;
            rows: z.ZodArray<z.ZodArray<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString]>>>;
            rowCount: z.ZodNumber;
            truncated: z.ZodBoolean;
        }, z.core.$strip>>;
        fingerprint: z.ZodOptional<z.ZodString>;
        errorKind: z.ZodOptional<z.ZodString>;
        error: z.ZodOptional<z.ZodString>;
        elapsedMs: z.ZodNumber;
    }, z.core.$strip>>>;
    fixRounds: z.ZodDefault<z.ZodNumber>;
    attempts: ReducedValue<{
        node: string;
        sql: string;
        ok: boolean;
        note?: string | undefined;
    }[], {
        node: string;
        sql: string;
        ok: boolean;
        note?: string | undefined;
    }[]>;
    candidates: ReducedValue<{
        id: string;
        sql: string;
        source: string;
        execution?: {
            sql: string;
            ok: boolean;
            elapsedMs: number;
            preview?: {
                columns: string[];
                rows: (string | number | null)[][];
                rowCount: number;
                truncated: boolean;
            } | undefined;
            fingerprint?: string | undefined;
            errorKind?: string | undefined;
            error?: string | undefined;
        } | undefined;
        meta?: Record<string, unknown> | undefined;
    }[], {
        id: string;
        sql: string;
        source: string;
        execution?: {
            sql: string;
            ok: boolean;
            elapsedMs: number;
            preview?: {
                columns: string[];
                rows: (string | number | null)[][];
                rowCount: number;
                truncated: boolean;
            } | undefined;
            fingerprint?: string | undefined;
            errorKind?: string | undefined;
            error?: string | undefined;
        } | undefined;
        meta?: Record<string, unknown> | undefined;
    }[]>;
    calls: ReducedValue<{
        role: string;
        model: string;
        messages: {
            role: string;
            content: string;
        }[];
        reply: string;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        method?: string | undefined;
        error?: string | undefined;
        step?: number | undefined;
        node?: string | undefined;
        cached?: boolean | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallback?: string | undefined;
    }[], {
        role: string;
        model: string;
        messages: {
            role: string;
            content: string;
        }[];
        reply: string;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        method?: string | undefined;
        error?: string | undefined;
        step?: number | undefined;
        node?: string | undefined;
        cached?: boolean | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallback?: string | undefined;
    }[]>;
    usage: ReducedValue<{
        calls: number;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        byRole: Record<string, {
            calls: number;
            inputTokens: number;
            outputTokens: number;
            latencyMs: number;
            failed?: number | undefined;
            cached?: number | undefined;
            savedTokens?: number | undefined;
            savedInputTokens?: number | undefined;
            savedOutputTokens?: number | undefined;
            fallbacks?: number | undefined;
        }>;
        failed?: number | undefined;
        cached?: number | undefined;
        savedTokens?: number | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallbacks?: number | undefined;
        failure?: string | undefined;
    }, {
        calls: number;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        byRole: Record<string, {
            calls: number;
            inputTokens: number;
            outputTokens: number;
            latencyMs: number;
            failed?: number | undefined;
            cached?: number | undefined;
            savedTokens?: number | undefined;
            savedInputTokens?: number | undefined;
            savedOutputTokens?: number | undefined;
            fallbacks?: number | undefined;
        }>;
        failed?: number | undefined;
        cached?: number | undefined;
        savedTokens?: number | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallbacks?: number | undefined;
        failure?: string | undefined;
    }>;
}>;
/** What a merge starts with: the batch, its number and the guideline so far. */
export declare const MagicGuidelineInput: StateSchema<{
    batchNo: z.ZodDefault<z.ZodNumber>;
    batch: z.ZodDefault<z.ZodArray<z.ZodObject<{
        questionId: z.ZodString;
        question: z.ZodString;
        evidence: z.ZodDefault<z.ZodString>;
        incorrectSql: z.ZodString;
        correctedSql: z.ZodString;
        feedback: z.ZodString;
    }, z.core.$strip>>>;
    guideline: z.ZodDefault<z.ZodString>;
    graph: z.ZodDefault<z.ZodString>;
    questionId: z.ZodDefault<z.ZodString>;
    question: z.ZodString;
    evidence: z.ZodDefault<z.ZodString>;
    dbId: z.ZodDefault<z.ZodString>;
    dbPath: z.ZodString;
    descriptionDir: z.ZodDefault<z.ZodString>;
    sql: z.ZodDefault<z.ZodString>;
}>;
export type MagicGuidelineValue = typeof MagicGuidelineState.State;
export type MagicGuidelineUpdate = typeof MagicGuidelineState.Update;
/** Graph `magic`: the guideline corrector. `initialSql` keeps the SQL it was given, to fall back on. */
export declare const magicFields: {
    initialSql: z.ZodDefault<z.ZodString>;
    /** The first 12 hex digits of the sha256 of the guideline text applied. */
    guidelineHash: z.ZodDefault<z.ZodString>;
    /** What became of the revision: `revised`, `unchanged` (the same query), `no SQL` (reply without one, initial kept), `does not execute` (initial kept). */
    revision: z.ZodDefault<z.ZodString>;
    graph: z.ZodDefault<z.ZodString>;
    questionId: z.ZodDefault<z.ZodString>;
    question: z.ZodString;
    evidence: z.ZodDefault<z.ZodString>;
    dbId: z.ZodDefault<z.ZodString>;
    dbPath: z.ZodString;
    descriptionDir: z.ZodDefault<z.ZodString>;
    linking: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        keywords: z.ZodArray<z.ZodString>;
        columns: z.ZodArray<z.ZodObject<{
            table: z.ZodString;
            column: z.ZodString;
            score: z.ZodNumber;
            via: z.ZodEnum<{
                name: "name";
                value: "value";
                description: "description";
            }>;
            keyword: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>;
        values: z.ZodArray<z.ZodObject<{
            keyword: z.ZodString;
            table: z.ZodString;
            column: z.ZodString;
            value: z.ZodString;
            score: z.ZodNumber;
            distance: z.ZodOptional<z.ZodNumber>;
        }, z.core.$strip>>;
        ranking: z.ZodEnum<{
            lexical: "lexical";
            embeddings: "embeddings";
        }>;
        note: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>>;
    schemaText: z.ZodDefault<z.ZodString>;
    sql: z.ZodDefault<z.ZodString>;
    execution: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        sql: z.ZodString;
        ok: z.ZodBoolean;
        preview: z.ZodOptional<z.ZodObject<{
            columns: z.ZodArray<z.ZodString>;
            rows: z.ZodArray<z.ZodArray<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString]>>>;
            rowCount: z.ZodNumber;
            truncated: z.ZodBoolean;
        }, z.core.$strip>>;
        fingerprint: z.ZodOptional<z.ZodString>;
        errorKind: z.ZodOptional<z.ZodString>;
        error: z.ZodOptional<z.ZodString>;
        elapsedMs: z.ZodNumber;
    }, z.core.$strip>>>;
    fixRounds: z.ZodDefault<z.ZodNumber>;
    attempts: ReducedValue<{
        node: string;
        sql: string;
        ok: boolean;
        note?: string | undefined;
    }[], {
        node: string;
        sql: string;
        ok: boolean;
        note?: string | undefined;
    }[]>;
    candidates: ReducedValue<{
        id: string;
        sql: string;
        source: string;
        execution?: {
            sql: string;
            ok: boolean;
            elapsedMs: number;
            preview?: {
                columns: string[];
                rows: (string | number | null)[][];
                rowCount: number;
                truncated: boolean;
            } | undefined;
            fingerprint?: string | undefined;
            errorKind?: string | undefined;
            error?: string | undefined;
        } | undefined;
        meta?: Record<string, unknown> | undefined;
    }[], {
        id: string;
        sql: string;
        source: string;
        execution?: {
            sql: string;
            ok: boolean;
            elapsedMs: number;
            preview?: {
                columns: string[];
                rows: (string | number | null)[][];
                rowCount: number;
                truncated: boolean;
            } | undefined;
            fingerprint?: string | undefined;
            errorKind?: string | undefined;
            error?: string | undefined;
        } | undefined;
        meta?: Record<string, unknown> | undefined;
    }[]>;
    calls: ReducedValue<{
        role: string;
        model: string;
        messages: {
            role: string;
            content: string;
        }[];
        reply: string;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        method?: string | undefined;
        error?: string | undefined;
        step?: number | undefined;
        node?: string | undefined;
        cached?: boolean | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallback?: string | undefined;
    }[], {
        role: string;
        model: string;
        messages: {
            role: string;
            content: string;
        }[];
        reply: string;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        method?: string | undefined;
        error?: string | undefined;
        step?: number | undefined;
        node?: string | undefined;
        cached?: boolean | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallback?: string | undefined;
    }[]>;
    usage: ReducedValue<{
        calls: number;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        byRole: Record<string, {
            calls: number;
            inputTokens: number;
            outputTokens: number;
            latencyMs: number;
            failed?: number | undefined;
            cached?: number | undefined;
            savedTokens?: number | undefined;
            savedInputTokens?: number | undefined;
            savedOutputTokens?: number | undefined;
            fallbacks?: number | undefined;
        }>;
        failed?: number | undefined;
        cached?: number | undefined;
        savedTokens?: number | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallbacks?: number | undefined;
        failure?: string | undefined;
    }, {
        calls: number;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        byRole: Record<string, {
            calls: number;
            inputTokens: number;
            outputTokens: number;
            latencyMs: number;
            failed?: number | undefined;
            cached?: number | undefined;
            savedTokens?: number | undefined;
            savedInputTokens?: number | undefined;
            savedOutputTokens?: number | undefined;
            fallbacks?: number | undefined;
        }>;
        failed?: number | undefined;
        cached?: number | undefined;
        savedTokens?: number | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallbacks?: number | undefined;
        failure?: string | undefined;
    }>;
};
export declare const MagicState: StateSchema<{
    initialSql: z.ZodDefault<z.ZodString>;
    /** The first 12 hex digits of the sha256 of the guideline text applied. */
    guidelineHash: z.ZodDefault<z.ZodString>;
    /** What became of the revision: `revised`, `unchanged` (the same query), `no SQL` (reply without one, initial kept), `does not execute` (initial kept). */
    revision: z.ZodDefault<z.ZodString>;
    graph: z.ZodDefault<z.ZodString>;
    questionId: z.ZodDefault<z.ZodString>;
    question: z.ZodString;
    evidence: z.ZodDefault<z.ZodString>;
    dbId: z.ZodDefault<z.ZodString>;
    dbPath: z.ZodString;
    descriptionDir: z.ZodDefault<z.ZodString>;
    linking: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        keywords: z.ZodArray<z.ZodString>;
        columns: z.ZodArray<z.ZodObject<{
            table: z.ZodString;
            column: z.ZodString;
            score: z.ZodNumber;
            via: z.ZodEnum<{
                name: "name";
                value: "value";
                description: "description";
            }>;
            keyword: z.ZodOptional<z.ZodString>;
        }, z.core.$strip>>;
        values: z.ZodArray<z.ZodObject<{
            keyword: z.ZodString;
            table: z.ZodString;
            column: z.ZodString;
            value: z.ZodString;
            score: z.ZodNumber;
            distance: z.ZodOptional<z.ZodNumber>;
        }, z.core.$strip>>;
        ranking: z.ZodEnum<{
            lexical: "lexical";
            embeddings: "embeddings";
        }>;
        note: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>>;
    schemaText: z.ZodDefault<z.ZodString>;
    sql: z.ZodDefault<z.ZodString>;
    execution: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        sql: z.ZodString;
        ok: z.ZodBoolean;
        preview: z.ZodOptional<z.ZodObject<{
            columns: z.ZodArray<z.ZodString>;
            rows: z.ZodArray<z.ZodArray<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString]>>>;
            rowCount: z.ZodNumber;
            truncated: z.ZodBoolean;
        }, z.core.$strip>>;
        fingerprint: z.ZodOptional<z.ZodString>;
        errorKind: z.ZodOptional<z.ZodString>;
        error: z.ZodOptional<z.ZodString>;
        elapsedMs: z.ZodNumber;
    }, z.core.$strip>>>;
    fixRounds: z.ZodDefault<z.ZodNumber>;
    attempts: ReducedValue<{
        node: string;
        sql: string;
        ok: boolean;
        note?: string | undefined;
    }[], {
        node: string;
        sql: string;
        ok: boolean;
        note?: string | undefined;
    }[]>;
    candidates: ReducedValue<{
        id: string;
        sql: string;
        source: string;
        execution?: {
            sql: string;
            ok: boolean;
            elapsedMs: number;
            preview?: {
                columns: string[];
                rows: (string | number | null)[][];
                rowCount: number;
                truncated: boolean;
            } | undefined;
            fingerprint?: string | undefined;
            errorKind?: string | undefined;
            error?: string | undefined;
        } | undefined;
        meta?: Record<string, unknown> | undefined;
    }[], {
        id: string;
        sql: string;
        source: string;
        execution?: {
            sql: string;
            ok: boolean;
            elapsedMs: number;
            preview?: {
                columns: string[];
                rows: (string | number | null)[][];
                rowCount: number;
                truncated: boolean;
            } | undefined;
            fingerprint?: string | undefined;
            errorKind?: string | undefined;
            error?: string | undefined;
        } | undefined;
        meta?: Record<string, unknown> | undefined;
    }[]>;
    calls: ReducedValue<{
        role: string;
        model: string;
        messages: {
            role: string;
            content: string;
        }[];
        reply: string;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        method?: string | undefined;
        error?: string | undefined;
        step?: number | undefined;
        node?: string | undefined;
        cached?: boolean | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallback?: string | undefined;
    }[], {
        role: string;
        model: string;
        messages: {
            role: string;
            content: string;
        }[];
        reply: string;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        method?: string | undefined;
        error?: string | undefined;
        step?: number | undefined;
        node?: string | undefined;
        cached?: boolean | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallback?: string | undefined;
    }[]>;
    usage: ReducedValue<{
        calls: number;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        byRole: Record<string, {
            calls: number;
            inputTokens: number;
            outputTokens: number;
            latencyMs: number;
            failed?: number | undefined;
            cached?: number | undefined;
            savedTokens?: number | undefined;
            savedInputTokens?: number | undefined;
            savedOutputTokens?: number | undefined;
            fallbacks?: number | undefined;
        }>;
        failed?: number | undefined;
        cached?: number | undefined;
        savedTokens?: number | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallbacks?: number | undefined;
        failure?: string | undefined;
    }, {
        calls: number;
        inputTokens: number;
        outputTokens: number;
        latencyMs: number;
        byRole: Record<string, {
            calls: number;
            inputTokens: number;
            outputTokens: number;
            latencyMs: number;
            failed?: number | undefined;
            cached?: number | undefined;
            savedTokens?: number | undefined;
            savedInputTokens?: number | undefined;
            savedOutputTokens?: number | undefined;
            fallbacks?: number | undefined;
        }>;
        failed?: number | undefined;
        cached?: number | undefined;
        savedTokens?: number | undefined;
        savedInputTokens?: number | undefined;
        savedOutputTokens?: number | undefined;
        fallbacks?: number | undefined;
        failure?: string | undefined;
    }>;
}>;
export type MagicValue = typeof MagicState.State;
export type MagicUpdate = typeof MagicState.Update;
