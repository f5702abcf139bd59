import { type OutcomeSpec } from "./outcome.ts";
/**
 * What an R³ question went through: review rounds and why they stopped, the panel (generated and standby reviewers,
 * failed reviews), the writer's re-asks (debug-loop fixes are the shared `fixRounds`), and the shots (how many, how
 * ranked, from what pool). Values that do not apply (no panel, no shots asked) are null and left out of the sums.
 */
export declare const r3Outcome: OutcomeSpec;
export declare const r3Spec: import("./spec.ts").GraphSpec<{
    write: import("../nodes/r3/types.ts").R3NodeFactory;
    schema: import("../index.ts").NodeFactory;
    execute: import("../index.ts").NodeFactory;
    debug: import("../nodes/r3/types.ts").R3NodeFactory;
    persona: import("../nodes/r3/types.ts").R3NodeFactory;
    review: import("../index.ts").NodeFactory<import("../nodes/r3/review.ts").ReviewPayload, import("@langchain/langgraph").Command<unknown, Record<string, unknown>, string> | import("@langchain/langgraph").InferStateSchemaUpdate<{
        history: import("@langchain/langgraph").ReducedValue<{
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
        shots: import("zod").ZodDefault<import("zod").ZodArray<import("zod").ZodObject<{
            id: import("zod").ZodString;
            question: import("zod").ZodString;
            evidence: import("zod").ZodString;
            sql: import("zod").ZodString;
        }, import("zod/v4/core").$strip>>>;
        shotsRanking: import("zod").ZodDefault<import("zod").ZodString>;
        shotsPool: import("zod").ZodDefault<import("zod").ZodString>;
        personas: import("zod").ZodDefault<import("zod").ZodArray<import("zod").ZodObject<{
            profession: import("zod").ZodString;
            focus: import("zod").ZodDefault<import("zod").ZodString>;
        }, import("zod/v4/core").$strip>>>;
        personasStandby: import("zod").ZodDefault<import("zod").ZodNumber>;
        personasDropped: import("zod").ZodDefault<import("zod").ZodNumber>;
        reviews: import("@langchain/langgraph").ReducedValue<{
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
        rounds: import("zod").ZodDefault<import("zod").ZodNumber>;
        roundDebugTurns: import("zod").ZodDefault<import("zod").ZodNumber>;
        roundLog: import("@langchain/langgraph").ReducedValue<{
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
        consensus: import("zod").ZodDefault<import("zod").ZodBoolean>;
        writerReasks: import("zod").ZodDefault<import("zod").ZodNumber>;
        stopReason: import("zod").ZodDefault<import("zod").ZodString>;
        stopKind: import("zod").ZodDefault<import("zod").ZodString>;
        reviewerIndex: import("zod").ZodDefault<import("zod").ZodNumber>;
        graph: import("zod").ZodDefault<import("zod").ZodString>;
        questionId: import("zod").ZodDefault<import("zod").ZodString>;
        question: import("zod").ZodString;
        evidence: import("zod").ZodDefault<import("zod").ZodString>;
        dbId: import("zod").ZodDefault<import("zod").ZodString>;
        dbPath: import("zod").ZodString;
        descriptionDir: import("zod").ZodDefault<import("zod").ZodString>;
        linking: import("zod").ZodDefault<import("zod").ZodNullable<import("zod").ZodObject<{
            keywords: import("zod").ZodArray<import("zod").ZodString>;
            columns: import("zod").ZodArray<import("zod").ZodObject<{
                table: import("zod").ZodString;
                column: import("zod").ZodString;
                score: import("zod").ZodNumber;
                via: import("zod").ZodEnum<{
                    name: "name";
                    value: "value";
                    description: "description";
                }>;
                keyword: import("zod").ZodOptional<import("zod").ZodString>;
            }, import("zod/v4/core").$strip>>;
            values: import("zod").ZodArray<import("zod").ZodObject<{
                keyword: import("zod").ZodString;
                table: import("zod").ZodString;
                column: import("zod").ZodString;
                value: import("zod").ZodString;
                score: import("zod").ZodNumber;
                distance: import("zod").ZodOptional<import("zod").ZodNumber>;
            }, import("zod/v4/core").$strip>>;
            ranking: import("zod").ZodEnum<{
                lexical: "lexical";
                embeddings: "embeddings";
            }>;
            note: import("zod").ZodOptional<import("zod").ZodString>;
        }, import("zod/v4/core").$strip>>>;
        schemaText: import("zod").ZodDefault<import("zod").ZodString>;
        sql: import("zod").ZodDefault<import("zod").ZodString>;
        execution: import("zod").ZodDefault<import("zod").ZodNullable<import("zod").ZodObject<{
            sql: import("zod").ZodString;
            ok: import("zod").ZodBoolean;
            preview: import("zod").ZodOptional<import("zod").ZodObject<{
                columns: import("zod").ZodArray<import("zod").ZodString>;
                rows: import("zod").ZodArray<import("zod").ZodArray<import("zod").ZodUnion<readonly [import("zod").ZodNull, import("zod").ZodNumber, import("zod").ZodString]>>>;
                rowCount: import("zod").ZodNumber;
                truncated: import("zod").ZodBoolean;
            }, import("zod/v4/core").$strip>>;
            fingerprint: import("zod").ZodOptional<import("zod").ZodString>;
            errorKind: import("zod").ZodOptional<import("zod").ZodString>;
            error: import("zod").ZodOptional<import("zod").ZodString>;
            elapsedMs: import("zod").ZodNumber;
        }, import("zod/v4/core").$strip>>>;
        fixRounds: import("zod").ZodDefault<import("zod").ZodNumber>;
        attempts: import("@langchain/langgraph").ReducedValue<{
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
        candidates: import("@langchain/langgraph").ReducedValue<{
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
        calls: import("@langchain/langgraph").ReducedValue<{
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
        usage: import("@langchain/langgraph").ReducedValue<{
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
    }>>;
    revise: import("../nodes/r3/types.ts").R3NodeFactory;
    finish: import("../nodes/r3/types.ts").R3NodeFactory;
}>;
export declare const r3ReviewSpec: import("./spec.ts").GraphSpec<{
    schema: import("../index.ts").NodeFactory;
    execute: import("../index.ts").NodeFactory;
    debug: import("../nodes/r3/types.ts").R3NodeFactory;
    persona: import("../nodes/r3/types.ts").R3NodeFactory;
    review: import("../index.ts").NodeFactory<import("../nodes/r3/review.ts").ReviewPayload, import("@langchain/langgraph").Command<unknown, Record<string, unknown>, string> | import("@langchain/langgraph").InferStateSchemaUpdate<{
        history: import("@langchain/langgraph").ReducedValue<{
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
        shots: import("zod").ZodDefault<import("zod").ZodArray<import("zod").ZodObject<{
            id: import("zod").ZodString;
            question: import("zod").ZodString;
            evidence: import("zod").ZodString;
            sql: import("zod").ZodString;
        }, import("zod/v4/core").$strip>>>;
        shotsRanking: import("zod").ZodDefault<import("zod").ZodString>;
        shotsPool: import("zod").ZodDefault<import("zod").ZodString>;
        personas: import("zod").ZodDefault<import("zod").ZodArray<import("zod").ZodObject<{
            profession: import("zod").ZodString;
            focus: import("zod").ZodDefault<import("zod").ZodString>;
        }, import("zod/v4/core").$strip>>>;
        personasStandby: import("zod").ZodDefault<import("zod").ZodNumber>;
        personasDropped: import("zod").ZodDefault<import("zod").ZodNumber>;
        reviews: import("@langchain/langgraph").ReducedValue<{
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
        rounds: import("zod").ZodDefault<import("zod").ZodNumber>;
        roundDebugTurns: import("zod").ZodDefault<import("zod").ZodNumber>;
        roundLog: import("@langchain/langgraph").ReducedValue<{
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
        consensus: import("zod").ZodDefault<import("zod").ZodBoolean>;
        writerReasks: import("zod").ZodDefault<import("zod").ZodNumber>;
        stopReason: import("zod").ZodDefault<import("zod").ZodString>;
        stopKind: import("zod").ZodDefault<import("zod").ZodString>;
        reviewerIndex: import("zod").ZodDefault<import("zod").ZodNumber>;
        graph: import("zod").ZodDefault<import("zod").ZodString>;
        questionId: import("zod").ZodDefault<import("zod").ZodString>;
        question: import("zod").ZodString;
        evidence: import("zod").ZodDefault<import("zod").ZodString>;
        dbId: import("zod").ZodDefault<import("zod").ZodString>;
        dbPath: import("zod").ZodString;
        descriptionDir: import("zod").ZodDefault<import("zod").ZodString>;
        linking: import("zod").ZodDefault<import("zod").ZodNullable<import("zod").ZodObject<{
            keywords: import("zod").ZodArray<import("zod").ZodString>;
            columns: import("zod").ZodArray<import("zod").ZodObject<{
                table: import("zod").ZodString;
                column: import("zod").ZodString;
                score: import("zod").ZodNumber;
                via: import("zod").ZodEnum<{
                    name: "name";
                    value: "value";
                    description: "description";
                }>;
                keyword: import("zod").ZodOptional<import("zod").ZodString>;
            }, import("zod/v4/core").$strip>>;
            values: import("zod").ZodArray<import("zod").ZodObject<{
                keyword: import("zod").ZodString;
                table: import("zod").ZodString;
                column: import("zod").ZodString;
                value: import("zod").ZodString;
                score: import("zod").ZodNumber;
                distance: import("zod").ZodOptional<import("zod").ZodNumber>;
            }, import("zod/v4/core").$strip>>;
            ranking: import("zod").ZodEnum<{
                lexical: "lexical";
                embeddings: "embeddings";
            }>;
            note: import("zod").ZodOptional<import("zod").ZodString>;
        }, import("zod/v4/core").$strip>>>;
        schemaText: import("zod").ZodDefault<import("zod").ZodString>;
        sql: import("zod").ZodDefault<import("zod").ZodString>;
        execution: import("zod").ZodDefault<import("zod").ZodNullable<import("zod").ZodObject<{
            sql: import("zod").ZodString;
            ok: import("zod").ZodBoolean;
            preview: import("zod").ZodOptional<import("zod").ZodObject<{
                columns: import("zod").ZodArray<import("zod").ZodString>;
                rows: import("zod").ZodArray<import("zod").ZodArray<import("zod").ZodUnion<readonly [import("zod").ZodNull, import("zod").ZodNumber, import("zod").ZodString]>>>;
                rowCount: import("zod").ZodNumber;
                truncated: import("zod").ZodBoolean;
            }, import("zod/v4/core").$strip>>;
            fingerprint: import("zod").ZodOptional<import("zod").ZodString>;
            errorKind: import("zod").ZodOptional<import("zod").ZodString>;
            error: import("zod").ZodOptional<import("zod").ZodString>;
            elapsedMs: import("zod").ZodNumber;
        }, import("zod/v4/core").$strip>>>;
        fixRounds: import("zod").ZodDefault<import("zod").ZodNumber>;
        attempts: import("@langchain/langgraph").ReducedValue<{
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
        candidates: import("@langchain/langgraph").ReducedValue<{
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
        calls: import("@langchain/langgraph").ReducedValue<{
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
        usage: import("@langchain/langgraph").ReducedValue<{
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
    }>>;
    revise: import("../nodes/r3/types.ts").R3NodeFactory;
    finish: import("../nodes/r3/types.ts").R3NodeFactory;
}>;
