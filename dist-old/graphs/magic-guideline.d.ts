/**
 * One merge of a batch of successful feedbacks into MAGIC's guideline (Figure 9), as a graph so that each merge is a
 * checkpointed thread: `sqlmend magic guideline` runs one thread per batch, and a resumed run finds finished merges
 * in their checkpoints instead of merging again.
 */
export declare const magicGuidelineSpec: import("./spec.ts").GraphSpec<{
    merge: import("../index.ts").NodeFactory<import("@langchain/langgraph").InferStateSchemaValue<{
        batchNo: import("zod").ZodDefault<import("zod").ZodNumber>;
        batch: import("zod").ZodDefault<import("zod").ZodArray<import("zod").ZodObject<{
            questionId: import("zod").ZodString;
            question: import("zod").ZodString;
            evidence: import("zod").ZodDefault<import("zod").ZodString>;
            incorrectSql: import("zod").ZodString;
            correctedSql: import("zod").ZodString;
            feedback: import("zod").ZodString;
        }, import("zod/v4/core").$strip>>>;
        guideline: import("zod").ZodDefault<import("zod").ZodString>;
        merged: import("zod").ZodDefault<import("zod").ZodBoolean>;
        unusableReplies: import("zod").ZodDefault<import("zod").ZodNumber>;
        strippedLines: import("zod").ZodDefault<import("zod").ZodNumber>;
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
    }>, import("@langchain/langgraph").Command<unknown, Record<string, unknown>, string> | import("@langchain/langgraph").InferStateSchemaUpdate<{
        batchNo: import("zod").ZodDefault<import("zod").ZodNumber>;
        batch: import("zod").ZodDefault<import("zod").ZodArray<import("zod").ZodObject<{
            questionId: import("zod").ZodString;
            question: import("zod").ZodString;
            evidence: import("zod").ZodDefault<import("zod").ZodString>;
            incorrectSql: import("zod").ZodString;
            correctedSql: import("zod").ZodString;
            feedback: import("zod").ZodString;
        }, import("zod/v4/core").$strip>>>;
        guideline: import("zod").ZodDefault<import("zod").ZodString>;
        merged: import("zod").ZodDefault<import("zod").ZodBoolean>;
        unusableReplies: import("zod").ZodDefault<import("zod").ZodNumber>;
        strippedLines: import("zod").ZodDefault<import("zod").ZodNumber>;
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
}>;
