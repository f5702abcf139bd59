import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
/** One turn of the writer's dialogue history H after its opening (question and schema, rebuilt from state each call). */
export declare const HistoryTurnSchema: z.ZodObject<{
    role: z.ZodEnum<{
        user: "user";
        assistant: "assistant";
    }>;
    kind: z.ZodEnum<{
        sql: "sql";
        reviews: "reviews";
        error: "error";
        reask: "reask";
    }>;
    round: z.ZodNumber;
    content: z.ZodString;
}, z.core.$strip>;
export type HistoryTurn = z.infer<typeof HistoryTurnSchema>;
export declare const PersonaSchema: z.ZodObject<{
    profession: z.ZodString;
    focus: z.ZodDefault<z.ZodString>;
}, z.core.$strip>;
export type Persona = z.infer<typeof PersonaSchema>;
/** One reviewer's review in one round; `ok: false` says its call failed (the round goes on without it). */
export declare const ReviewSchema: z.ZodObject<{
    round: z.ZodNumber;
    reviewer: z.ZodNumber;
    profession: z.ZodString;
    ok: z.ZodBoolean;
    text: z.ZodDefault<z.ZodString>;
    error: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type Review = z.infer<typeof ReviewSchema>;
/** What the writer did with a round's reviews. */
export declare const RoundSchema: z.ZodObject<{
    round: z.ZodNumber;
    outcome: z.ZodEnum<{
        revised: "revised";
        unusable: "unusable";
        kept: "kept";
        "no-reviews": "no-reviews";
    }>;
    sqlBefore: z.ZodString;
    sqlAfter: z.ZodString;
    reviews: z.ZodNumber;
    failedReviewers: z.ZodArray<z.ZodNumber>;
}, z.core.$strip>;
export type Round = z.infer<typeof RoundSchema>;
/** R³'s state fields: the shared ones plus the writer's history, the personas, the reviews and the rounds. */
export declare const r3StateFields: {
    /** H after its opening turn: writer replies, execution errors, reviews. Append-only; prompts cut it to a budget. */
    history: ReducedValue<{
        role: "user" | "assistant";
        kind: "sql" | "reviews" | "error" | "reask";
        round: number;
        content: string;
    }[], {
        role: "user" | "assistant";
        kind: "sql" | "reviews" | "error" | "reask";
        round: number;
        content: string;
    }[]>;
    /** Training examples shown in the writer's opening turn (retrieved once), and how they were ranked. */
    shots: z.ZodDefault<z.ZodArray<z.ZodObject<{
        id: z.ZodString;
        question: z.ZodString;
        evidence: z.ZodString;
        sql: z.ZodString;
    }, z.core.$strip>>>;
    shotsRanking: z.ZodDefault<z.ZodString>;
    /** The pool the shots were drawn from: "all N training questions", or "N of M (… left out: why)", or "none given". */
    shotsPool: z.ZodDefault<z.ZodString>;
    /** The reviewers' professions, made once per question. */
    personas: z.ZodDefault<z.ZodArray<z.ZodObject<{
        profession: z.ZodString;
        focus: z.ZodDefault<z.ZodString>;
    }, z.core.$strip>>>;
    /** How many of `personas` are standby reviewers (the model proposed too few, or its reply was unusable). */
    personasStandby: z.ZodDefault<z.ZodNumber>;
    /** Proposed reviewers left out (a profession repeated, or of the wrong length); the missing ones were asked again once. */
    personasDropped: z.ZodDefault<z.ZodNumber>;
    /** Every review of every round (failed reviewers included, with their error). */
    reviews: ReducedValue<{
        round: number;
        reviewer: number;
        profession: string;
        ok: boolean;
        text: string;
        error?: string | undefined;
    }[], {
        round: number;
        reviewer: number;
        profession: string;
        ok: boolean;
        text: string;
        error?: string | undefined;
    }[]>;
    /** Review rounds finished (the writer has answered their reviews). */
    rounds: z.ZodDefault<z.ZodNumber>;
    /** Debug turns used in the current review round (the shared `fixRounds` counts all of them). */
    roundDebugTurns: z.ZodDefault<z.ZodNumber>;
    roundLog: ReducedValue<{
        round: number;
        outcome: "revised" | "unusable" | "kept" | "no-reviews";
        sqlBefore: string;
        sqlAfter: string;
        reviews: number;
        failedReviewers: number[];
    }[], {
        round: number;
        outcome: "revised" | "unusable" | "kept" | "no-reviews";
        sqlBefore: string;
        sqlAfter: string;
        reviews: number;
        failedReviewers: number[];
    }[]>;
    consensus: z.ZodDefault<z.ZodBoolean>;
    /** Times a writer reply held no SQL and was sent back (bounded per call: `MAX_SQL_REASKS`). */
    writerReasks: z.ZodDefault<z.ZodNumber>;
    /** Why the loop stopped (set by the `finish` node). */
    stopReason: z.ZodDefault<z.ZodString>;
    /** The same as a category: consensus, round limit, writer gave no SQL, no reviewers, every reviewer failed. */
    stopKind: z.ZodDefault<z.ZodString>;
    /** The reviewer a `Send` addresses (only in a reviewer task's input). */
    reviewerIndex: z.ZodDefault<z.ZodNumber>;
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
export declare const R3State: StateSchema<{
    /** H after its opening turn: writer replies, execution errors, reviews. Append-only; prompts cut it to a budget. */
    history: ReducedValue<{
        role: "user" | "assistant";
        kind: "sql" | "reviews" | "error" | "reask";
        round: number;
        content: string;
    }[], {
        role: "user" | "assistant";
        kind: "sql" | "reviews" | "error" | "reask";
        round: number;
        content: string;
    }[]>;
    /** Training examples shown in the writer's opening turn (retrieved once), and how they were ranked. */
    shots: z.ZodDefault<z.ZodArray<z.ZodObject<{
        id: z.ZodString;
        question: z.ZodString;
        evidence: z.ZodString;
        sql: z.ZodString;
    }, z.core.$strip>>>;
    shotsRanking: z.ZodDefault<z.ZodString>;
    /** The pool the shots were drawn from: "all N training questions", or "N of M (… left out: why)", or "none given". */
    shotsPool: z.ZodDefault<z.ZodString>;
    /** The reviewers' professions, made once per question. */
    personas: z.ZodDefault<z.ZodArray<z.ZodObject<{
        profession: z.ZodString;
        focus: z.ZodDefault<z.ZodString>;
    }, z.core.$strip>>>;
    /** How many of `personas` are standby reviewers (the model proposed too few, or its reply was unusable). */
    personasStandby: z.ZodDefault<z.ZodNumber>;
    /** Proposed reviewers left out (a profession repeated, or of the wrong length); the missing ones were asked again once. */
    personasDropped: z.ZodDefault<z.ZodNumber>;
    /** Every review of every round (failed reviewers included, with their error). */
    reviews: ReducedValue<{
        round: number;
        reviewer: number;
        profession: string;
        ok: boolean;
        text: string;
        error?: string | undefined;
    }[], {
        round: number;
        reviewer: number;
        profession: string;
        ok: boolean;
        text: string;
        error?: string | undefined;
    }[]>;
    /** Review rounds finished (the writer has answered their reviews). */
    rounds: z.ZodDefault<z.ZodNumber>;
    /** Debug turns used in the current review round (the shared `fixRounds` counts all of them). */
    roundDebugTurns: z.ZodDefault<z.ZodNumber>;
    roundLog: ReducedValue<{
        round: number;
        outcome: "revised" | "unusable" | "kept" | "no-reviews";
        sqlBefore: string;
        sqlAfter: string;
        reviews: number;
        failedReviewers: number[];
    }[], {
        round: number;
        outcome: "revised" | "unusable" | "kept" | "no-reviews";
        sqlBefore: string;
        sqlAfter: string;
        reviews: number;
        failedReviewers: number[];
    }[]>;
    consensus: z.ZodDefault<z.ZodBoolean>;
    /** Times a writer reply held no SQL and was sent back (bounded per call: `MAX_SQL_REASKS`). */
    writerReasks: z.ZodDefault<z.ZodNumber>;
    /** Why the loop stopped (set by the `finish` node). */
    stopReason: z.ZodDefault<z.ZodString>;
    /** The same as a category: consensus, round limit, writer gave no SQL, no reviewers, every reviewer failed. */
    stopKind: z.ZodDefault<z.ZodString>;
    /** The reviewer a `Send` addresses (only in a reviewer task's input). */
    reviewerIndex: z.ZodDefault<z.ZodNumber>;
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
export type R3StateValue = typeof R3State.State;
export type R3StateUpdate = typeof R3State.Update;
