import { type DecomposePayload } from "../nodes/memo/solve.ts";
/** Memo-SQL's own factories by slot (memo-refine reuses critic and refine). */
export declare const MEMO_FACTORIES: {
    decompose: import("../nodes/memo/solve.ts").MemoNodeFactory<DecomposePayload>;
    paths: import("../index.ts").NodeFactory<import("@langchain/langgraph").InferStateSchemaValue<{
        memoPlans: import("@langchain/langgraph").ReducedValue<{
            strategy: "table" | "hierarchical" | "atomic";
            applied: "random" | "none" | "table" | "hierarchical" | "atomic";
            subQuestions: string[];
            note?: string | undefined;
            seed?: string | undefined;
            solvedBy?: "table" | "hierarchical" | "atomic" | undefined;
        }[], {
            strategy: "table" | "hierarchical" | "atomic";
            applied: "random" | "none" | "table" | "hierarchical" | "atomic";
            subQuestions: string[];
            note?: string | undefined;
            seed?: string | undefined;
            solvedBy?: "table" | "hierarchical" | "atomic" | undefined;
        }[]>;
        memoSteps: import("@langchain/langgraph").ReducedValue<{
            strategy: "table" | "hierarchical" | "atomic";
            index: number;
            kind: "act" | "reflect" | "revise";
            subQuestion: string;
            sql: string;
            ok: boolean;
            observation: string;
            problem?: boolean | undefined;
            reasoning?: string | undefined;
        }[], {
            strategy: "table" | "hierarchical" | "atomic";
            index: number;
            kind: "act" | "reflect" | "revise";
            subQuestion: string;
            sql: string;
            ok: boolean;
            observation: string;
            problem?: boolean | undefined;
            reasoning?: string | undefined;
        }[]>;
        memoVote: import("zod").ZodDefault<import("zod").ZodNullable<import("zod").ZodObject<{
            winner: import("zod").ZodNullable<import("zod").ZodString>;
            groups: import("zod").ZodArray<import("zod").ZodObject<{
                fingerprint: import("zod").ZodString;
                ids: import("zod").ZodArray<import("zod").ZodString>;
                empty: import("zod").ZodBoolean;
            }, import("zod/v4/core").$strip>>;
            excluded: import("zod").ZodArray<import("zod").ZodObject<{
                id: import("zod").ZodString;
                reason: import("zod").ZodString;
            }, import("zod/v4/core").$strip>>;
            rule: import("zod").ZodString;
        }, import("zod/v4/core").$strip>>>;
        rounds: import("@langchain/langgraph").ReducedValue<number, number>;
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
    }>, import("@langchain/langgraph").Command<unknown, Record<string, unknown>, string>>;
    act: import("../nodes/memo/solve.ts").MemoNodeFactory<import("../nodes/memo/solve.ts").PathPayload>;
    reflect: import("../nodes/memo/solve.ts").MemoNodeFactory<import("../nodes/memo/solve.ts").PathPayload>;
    revise: import("../nodes/memo/solve.ts").MemoNodeFactory<import("../nodes/memo/solve.ts").PathPayload>;
    write: import("../nodes/memo/solve.ts").MemoNodeFactory<import("../nodes/memo/solve.ts").WritePayload>;
    collect: import("../nodes/memo/solve.ts").MemoNodeFactory<import("@langchain/langgraph").InferStateSchemaValue<{
        memoPlans: import("@langchain/langgraph").ReducedValue<{
            strategy: "table" | "hierarchical" | "atomic";
            applied: "random" | "none" | "table" | "hierarchical" | "atomic";
            subQuestions: string[];
            note?: string | undefined;
            seed?: string | undefined;
            solvedBy?: "table" | "hierarchical" | "atomic" | undefined;
        }[], {
            strategy: "table" | "hierarchical" | "atomic";
            applied: "random" | "none" | "table" | "hierarchical" | "atomic";
            subQuestions: string[];
            note?: string | undefined;
            seed?: string | undefined;
            solvedBy?: "table" | "hierarchical" | "atomic" | undefined;
        }[]>;
        memoSteps: import("@langchain/langgraph").ReducedValue<{
            strategy: "table" | "hierarchical" | "atomic";
            index: number;
            kind: "act" | "reflect" | "revise";
            subQuestion: string;
            sql: string;
            ok: boolean;
            observation: string;
            problem?: boolean | undefined;
            reasoning?: string | undefined;
        }[], {
            strategy: "table" | "hierarchical" | "atomic";
            index: number;
            kind: "act" | "reflect" | "revise";
            subQuestion: string;
            sql: string;
            ok: boolean;
            observation: string;
            problem?: boolean | undefined;
            reasoning?: string | undefined;
        }[]>;
        memoVote: import("zod").ZodDefault<import("zod").ZodNullable<import("zod").ZodObject<{
            winner: import("zod").ZodNullable<import("zod").ZodString>;
            groups: import("zod").ZodArray<import("zod").ZodObject<{
                fingerprint: import("zod").ZodString;
                ids: import("zod").ZodArray<import("zod").ZodString>;
                empty: import("zod").ZodBoolean;
            }, import("zod/v4/core").$strip>>;
            excluded: import("zod").ZodArray<import("zod").ZodObject<{
                id: import("zod").ZodString;
                reason: import("zod").ZodString;
            }, import("zod/v4/core").$strip>>;
            rule: import("zod").ZodString;
        }, import("zod/v4/core").$strip>>>;
        rounds: import("@langchain/langgraph").ReducedValue<number, number>;
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
    critic: import("../nodes/memo/solve.ts").MemoNodeFactory<import("../nodes/memo/correct.ts").CandidatePayload>;
    refine: import("../nodes/memo/solve.ts").MemoNodeFactory<import("../nodes/memo/correct.ts").CandidatePayload>;
    vote: import("../nodes/memo/solve.ts").MemoNodeFactory<import("@langchain/langgraph").InferStateSchemaValue<{
        memoPlans: import("@langchain/langgraph").ReducedValue<{
            strategy: "table" | "hierarchical" | "atomic";
            applied: "random" | "none" | "table" | "hierarchical" | "atomic";
            subQuestions: string[];
            note?: string | undefined;
            seed?: string | undefined;
            solvedBy?: "table" | "hierarchical" | "atomic" | undefined;
        }[], {
            strategy: "table" | "hierarchical" | "atomic";
            applied: "random" | "none" | "table" | "hierarchical" | "atomic";
            subQuestions: string[];
            note?: string | undefined;
            seed?: string | undefined;
            solvedBy?: "table" | "hierarchical" | "atomic" | undefined;
        }[]>;
        memoSteps: import("@langchain/langgraph").ReducedValue<{
            strategy: "table" | "hierarchical" | "atomic";
            index: number;
            kind: "act" | "reflect" | "revise";
            subQuestion: string;
            sql: string;
            ok: boolean;
            observation: string;
            problem?: boolean | undefined;
            reasoning?: string | undefined;
        }[], {
            strategy: "table" | "hierarchical" | "atomic";
            index: number;
            kind: "act" | "reflect" | "revise";
            subQuestion: string;
            sql: string;
            ok: boolean;
            observation: string;
            problem?: boolean | undefined;
            reasoning?: string | undefined;
        }[]>;
        memoVote: import("zod").ZodDefault<import("zod").ZodNullable<import("zod").ZodObject<{
            winner: import("zod").ZodNullable<import("zod").ZodString>;
            groups: import("zod").ZodArray<import("zod").ZodObject<{
                fingerprint: import("zod").ZodString;
                ids: import("zod").ZodArray<import("zod").ZodString>;
                empty: import("zod").ZodBoolean;
            }, import("zod/v4/core").$strip>>;
            excluded: import("zod").ZodArray<import("zod").ZodObject<{
                id: import("zod").ZodString;
                reason: import("zod").ZodString;
            }, import("zod/v4/core").$strip>>;
            rule: import("zod").ZodString;
        }, import("zod/v4/core").$strip>>>;
        rounds: import("@langchain/langgraph").ReducedValue<number, number>;
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
};
/**
 * Memo-SQL (Figure 2): link → schema → three decompositions in parallel → the paths gate (identical plans solved
 * once) → per path, each sub-question through
 * act → reflect → (revise once) → the final SQL in three styles → nine candidates → per candidate, critic ↔ refiner
 * with the error-correction memory → majority vote over execution results.
 */
export declare const memoSqlSpec: import("./spec.ts").GraphSpec<{
    decompose: import("../nodes/memo/solve.ts").MemoNodeFactory<DecomposePayload>;
    paths: import("../index.ts").NodeFactory<import("@langchain/langgraph").InferStateSchemaValue<{
        memoPlans: import("@langchain/langgraph").ReducedValue<{
            strategy: "table" | "hierarchical" | "atomic";
            applied: "random" | "none" | "table" | "hierarchical" | "atomic";
            subQuestions: string[];
            note?: string | undefined;
            seed?: string | undefined;
            solvedBy?: "table" | "hierarchical" | "atomic" | undefined;
        }[], {
            strategy: "table" | "hierarchical" | "atomic";
            applied: "random" | "none" | "table" | "hierarchical" | "atomic";
            subQuestions: string[];
            note?: string | undefined;
            seed?: string | undefined;
            solvedBy?: "table" | "hierarchical" | "atomic" | undefined;
        }[]>;
        memoSteps: import("@langchain/langgraph").ReducedValue<{
            strategy: "table" | "hierarchical" | "atomic";
            index: number;
            kind: "act" | "reflect" | "revise";
            subQuestion: string;
            sql: string;
            ok: boolean;
            observation: string;
            problem?: boolean | undefined;
            reasoning?: string | undefined;
        }[], {
            strategy: "table" | "hierarchical" | "atomic";
            index: number;
            kind: "act" | "reflect" | "revise";
            subQuestion: string;
            sql: string;
            ok: boolean;
            observation: string;
            problem?: boolean | undefined;
            reasoning?: string | undefined;
        }[]>;
        memoVote: import("zod").ZodDefault<import("zod").ZodNullable<import("zod").ZodObject<{
            winner: import("zod").ZodNullable<import("zod").ZodString>;
            groups: import("zod").ZodArray<import("zod").ZodObject<{
                fingerprint: import("zod").ZodString;
                ids: import("zod").ZodArray<import("zod").ZodString>;
                empty: import("zod").ZodBoolean;
            }, import("zod/v4/core").$strip>>;
            excluded: import("zod").ZodArray<import("zod").ZodObject<{
                id: import("zod").ZodString;
                reason: import("zod").ZodString;
            }, import("zod/v4/core").$strip>>;
            rule: import("zod").ZodString;
        }, import("zod/v4/core").$strip>>>;
        rounds: import("@langchain/langgraph").ReducedValue<number, number>;
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
    }>, import("@langchain/langgraph").Command<unknown, Record<string, unknown>, string>>;
    act: import("../nodes/memo/solve.ts").MemoNodeFactory<import("../nodes/memo/solve.ts").PathPayload>;
    reflect: import("../nodes/memo/solve.ts").MemoNodeFactory<import("../nodes/memo/solve.ts").PathPayload>;
    revise: import("../nodes/memo/solve.ts").MemoNodeFactory<import("../nodes/memo/solve.ts").PathPayload>;
    write: import("../nodes/memo/solve.ts").MemoNodeFactory<import("../nodes/memo/solve.ts").WritePayload>;
    collect: import("../nodes/memo/solve.ts").MemoNodeFactory<import("@langchain/langgraph").InferStateSchemaValue<{
        memoPlans: import("@langchain/langgraph").ReducedValue<{
            strategy: "table" | "hierarchical" | "atomic";
            applied: "random" | "none" | "table" | "hierarchical" | "atomic";
            subQuestions: string[];
            note?: string | undefined;
            seed?: string | undefined;
            solvedBy?: "table" | "hierarchical" | "atomic" | undefined;
        }[], {
            strategy: "table" | "hierarchical" | "atomic";
            applied: "random" | "none" | "table" | "hierarchical" | "atomic";
            subQuestions: string[];
            note?: string | undefined;
            seed?: string | undefined;
            solvedBy?: "table" | "hierarchical" | "atomic" | undefined;
        }[]>;
        memoSteps: import("@langchain/langgraph").ReducedValue<{
            strategy: "table" | "hierarchical" | "atomic";
            index: number;
            kind: "act" | "reflect" | "revise";
            subQuestion: string;
            sql: string;
            ok: boolean;
            observation: string;
            problem?: boolean | undefined;
            reasoning?: string | undefined;
        }[], {
            strategy: "table" | "hierarchical" | "atomic";
            index: number;
            kind: "act" | "reflect" | "revise";
            subQuestion: string;
            sql: string;
            ok: boolean;
            observation: string;
            problem?: boolean | undefined;
            reasoning?: string | undefined;
        }[]>;
        memoVote: import("zod").ZodDefault<import("zod").ZodNullable<import("zod").ZodObject<{
            winner: import("zod").ZodNullable<import("zod").ZodString>;
            groups: import("zod").ZodArray<import("zod").ZodObject<{
                fingerprint: import("zod").ZodString;
                ids: import("zod").ZodArray<import("zod").ZodString>;
                empty: import("zod").ZodBoolean;
            }, import("zod/v4/core").$strip>>;
            excluded: import("zod").ZodArray<import("zod").ZodObject<{
                id: import("zod").ZodString;
                reason: import("zod").ZodString;
            }, import("zod/v4/core").$strip>>;
            rule: import("zod").ZodString;
        }, import("zod/v4/core").$strip>>>;
        rounds: import("@langchain/langgraph").ReducedValue<number, number>;
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
    critic: import("../nodes/memo/solve.ts").MemoNodeFactory<import("../nodes/memo/correct.ts").CandidatePayload>;
    refine: import("../nodes/memo/solve.ts").MemoNodeFactory<import("../nodes/memo/correct.ts").CandidatePayload>;
    vote: import("../nodes/memo/solve.ts").MemoNodeFactory<import("@langchain/langgraph").InferStateSchemaValue<{
        memoPlans: import("@langchain/langgraph").ReducedValue<{
            strategy: "table" | "hierarchical" | "atomic";
            applied: "random" | "none" | "table" | "hierarchical" | "atomic";
            subQuestions: string[];
            note?: string | undefined;
            seed?: string | undefined;
            solvedBy?: "table" | "hierarchical" | "atomic" | undefined;
        }[], {
            strategy: "table" | "hierarchical" | "atomic";
            applied: "random" | "none" | "table" | "hierarchical" | "atomic";
            subQuestions: string[];
            note?: string | undefined;
            seed?: string | undefined;
            solvedBy?: "table" | "hierarchical" | "atomic" | undefined;
        }[]>;
        memoSteps: import("@langchain/langgraph").ReducedValue<{
            strategy: "table" | "hierarchical" | "atomic";
            index: number;
            kind: "act" | "reflect" | "revise";
            subQuestion: string;
            sql: string;
            ok: boolean;
            observation: string;
            problem?: boolean | undefined;
            reasoning?: string | undefined;
        }[], {
            strategy: "table" | "hierarchical" | "atomic";
            index: number;
            kind: "act" | "reflect" | "revise";
            subQuestion: string;
            sql: string;
            ok: boolean;
            observation: string;
            problem?: boolean | undefined;
            reasoning?: string | undefined;
        }[]>;
        memoVote: import("zod").ZodDefault<import("zod").ZodNullable<import("zod").ZodObject<{
            winner: import("zod").ZodNullable<import("zod").ZodString>;
            groups: import("zod").ZodArray<import("zod").ZodObject<{
                fingerprint: import("zod").ZodString;
                ids: import("zod").ZodArray<import("zod").ZodString>;
                empty: import("zod").ZodBoolean;
            }, import("zod/v4/core").$strip>>;
            excluded: import("zod").ZodArray<import("zod").ZodObject<{
                id: import("zod").ZodString;
                reason: import("zod").ZodString;
            }, import("zod/v4/core").$strip>>;
            rule: import("zod").ZodString;
        }, import("zod/v4/core").$strip>>>;
        rounds: import("@langchain/langgraph").ReducedValue<number, number>;
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
    link: import("../index.ts").NodeFactory;
    schema: import("../index.ts").NodeFactory;
}>;
