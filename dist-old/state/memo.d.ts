import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
export { STRATEGIES, type Strategy, STYLES, type Style } from "./memo-names.ts";
/** One path's decomposition: the paradigm asked for, what was applied (the fallback when the model judged so), and its sub-questions. */
export declare const MemoPlanSchema: z.ZodObject<{
    strategy: z.ZodEnum<{
        table: "table";
        hierarchical: "hierarchical";
        atomic: "atomic";
    }>;
    applied: z.ZodEnum<{
        random: "random";
        none: "none";
        table: "table";
        hierarchical: "hierarchical";
        atomic: "atomic";
    }>;
    subQuestions: z.ZodArray<z.ZodString>;
    note: z.ZodOptional<z.ZodString>;
    seed: z.ZodOptional<z.ZodString>;
    solvedBy: z.ZodOptional<z.ZodEnum<{
        table: "table";
        hierarchical: "hierarchical";
        atomic: "atomic";
    }>>;
}, z.core.$strip>;
export type MemoPlan = z.infer<typeof MemoPlanSchema>;
/** One turn of a path's ReAct+Reflect loop: act (reason → sub-SQL → execute), reflect, or revise (once). */
export declare const MemoStepSchema: z.ZodObject<{
    strategy: z.ZodEnum<{
        table: "table";
        hierarchical: "hierarchical";
        atomic: "atomic";
    }>;
    index: z.ZodNumber;
    kind: z.ZodEnum<{
        act: "act";
        reflect: "reflect";
        revise: "revise";
    }>;
    subQuestion: z.ZodString;
    sql: z.ZodString;
    ok: z.ZodBoolean;
    observation: z.ZodString;
    problem: z.ZodOptional<z.ZodBoolean>;
    reasoning: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type MemoStep = z.infer<typeof MemoStepSchema>;
export declare const MemoVoteSchema: z.ZodObject<{
    winner: z.ZodNullable<z.ZodString>;
    groups: z.ZodArray<z.ZodObject<{
        fingerprint: z.ZodString;
        ids: z.ZodArray<z.ZodString>;
        empty: z.ZodBoolean;
    }, z.core.$strip>>;
    excluded: z.ZodArray<z.ZodObject<{
        id: z.ZodString;
        reason: z.ZodString;
    }, z.core.$strip>>;
    rule: z.ZodString;
}, z.core.$strip>;
export type MemoVote = z.infer<typeof MemoVoteSchema>;
export declare const memoStateFields: {
    memoPlans: ReducedValue<{
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
    memoSteps: ReducedValue<{
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
    memoVote: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        winner: z.ZodNullable<z.ZodString>;
        groups: z.ZodArray<z.ZodObject<{
            fingerprint: z.ZodString;
            ids: z.ZodArray<z.ZodString>;
            empty: z.ZodBoolean;
        }, z.core.$strip>>;
        excluded: z.ZodArray<z.ZodObject<{
            id: z.ZodString;
            reason: z.ZodString;
        }, z.core.$strip>>;
        rule: z.ZodString;
    }, z.core.$strip>>>;
    /** Critic↔refiner refinements made, over all candidates (the launcher reports iterations from it). */
    rounds: ReducedValue<number, number>;
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
export declare const MemoState: StateSchema<{
    memoPlans: ReducedValue<{
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
    memoSteps: ReducedValue<{
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
    memoVote: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        winner: z.ZodNullable<z.ZodString>;
        groups: z.ZodArray<z.ZodObject<{
            fingerprint: z.ZodString;
            ids: z.ZodArray<z.ZodString>;
            empty: z.ZodBoolean;
        }, z.core.$strip>>;
        excluded: z.ZodArray<z.ZodObject<{
            id: z.ZodString;
            reason: z.ZodString;
        }, z.core.$strip>>;
        rule: z.ZodString;
    }, z.core.$strip>>>;
    /** Critic↔refiner refinements made, over all candidates (the launcher reports iterations from it). */
    rounds: ReducedValue<number, number>;
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
export type MemoStateValue = typeof MemoState.State;
export type MemoStateUpdate = typeof MemoState.Update;
