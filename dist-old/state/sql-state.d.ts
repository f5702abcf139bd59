import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { type ModelCallRecord } from "./usage.ts";
/** What running one SQL string gave: a capped JSON-safe preview and a fingerprint of the full result, or the error. */
export declare const ExecutionSchema: z.ZodObject<{
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
}, z.core.$strip>;
export type Execution = z.infer<typeof ExecutionSchema>;
/** One entry of the attempt history: which node produced or judged which SQL, and why. */
export declare const AttemptSchema: z.ZodObject<{
    node: z.ZodString;
    sql: z.ZodString;
    ok: z.ZodBoolean;
    note: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type Attempt = z.infer<typeof AttemptSchema>;
/** A candidate SQL among several (Memo-SQL's nine, TS-SQL's revisions, ...), merged by id. */
export declare const CandidateSchema: z.ZodObject<{
    id: z.ZodString;
    sql: z.ZodString;
    source: z.ZodString;
    execution: z.ZodOptional<z.ZodObject<{
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
    }, z.core.$strip>>;
    meta: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnknown>>;
}, z.core.$strip>;
export type Candidate = z.infer<typeof CandidateSchema>;
/** Later writes for an id replace earlier ones; order of first appearance is kept. */
export declare function mergeCandidates(current: Candidate[], next: Candidate[]): Candidate[];
/**
 * The `calls` reducer: the calls of the latest step. Parallel nodes of one step (a `Send` fan-out) each write their
 * calls; those of one step are kept together, and a later step replaces them, so checkpoints stay small.
 */
export declare function callsOfLatestStep(current: ModelCallRecord[], next: ModelCallRecord[]): ModelCallRecord[];
/**
 * The fields every graph shares. A method's graph spreads these into its own StateSchema and adds its fields:
 *   new StateSchema({ ...sqlStateFields, reviews: ... })
 */
export declare const sqlStateFields: {
    /** The graph running this thread (set by the launcher; `sqlmend inspect` rebuilds it from this name). */
    graph: z.ZodDefault<z.ZodString>;
    questionId: z.ZodDefault<z.ZodString>;
    question: z.ZodString;
    evidence: z.ZodDefault<z.ZodString>;
    dbId: z.ZodDefault<z.ZodString>;
    /** The .sqlite file; read-only, never written. */
    dbPath: z.ZodString;
    /** BIRD's database_description/ folder, when there is one. */
    descriptionDir: z.ZodDefault<z.ZodString>;
    /** What schema and value linking found (slot `link`), or null when the graph does not link. */
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
    /** The schema as shown to models (CREATE TABLE text). Filled by the schema node when empty. */
    schemaText: z.ZodDefault<z.ZodString>;
    /** The current SQL: the answer so far. Correction graphs receive the initial SQL here. */
    sql: z.ZodDefault<z.ZodString>;
    /** The last execution of `sql`. */
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
    /** Execution-error fix rounds used so far (the debug loop's counter). */
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
    /**
     * The model calls of the latest step that made any: all of them when nodes ran in parallel in that step. Each
     * step's calls stay in the checkpoint history (`sqlmend inspect --step N`); keeping only the latest here keeps
     * checkpoints from growing quadratically.
     */
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
    /** Tokens, calls and latency summed over the whole run, per role. */
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
export declare const SqlState: StateSchema<{
    /** The graph running this thread (set by the launcher; `sqlmend inspect` rebuilds it from this name). */
    graph: z.ZodDefault<z.ZodString>;
    questionId: z.ZodDefault<z.ZodString>;
    question: z.ZodString;
    evidence: z.ZodDefault<z.ZodString>;
    dbId: z.ZodDefault<z.ZodString>;
    /** The .sqlite file; read-only, never written. */
    dbPath: z.ZodString;
    /** BIRD's database_description/ folder, when there is one. */
    descriptionDir: z.ZodDefault<z.ZodString>;
    /** What schema and value linking found (slot `link`), or null when the graph does not link. */
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
    /** The schema as shown to models (CREATE TABLE text). Filled by the schema node when empty. */
    schemaText: z.ZodDefault<z.ZodString>;
    /** The current SQL: the answer so far. Correction graphs receive the initial SQL here. */
    sql: z.ZodDefault<z.ZodString>;
    /** The last execution of `sql`. */
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
    /** Execution-error fix rounds used so far (the debug loop's counter). */
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
    /**
     * The model calls of the latest step that made any: all of them when nodes ran in parallel in that step. Each
     * step's calls stay in the checkpoint history (`sqlmend inspect --step N`); keeping only the latest here keeps
     * checkpoints from growing quadratically.
     */
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
    /** Tokens, calls and latency summed over the whole run, per role. */
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
/**
 * What a graph is started with, as a state schema (Studio's and the LangGraph API's input form): the question, its
 * database and evidence, and the SQL to correct (correctors). Everything else is the graph's own work.
 */
export declare const sqlInputFields: {
    graph: z.ZodDefault<z.ZodString>;
    questionId: z.ZodDefault<z.ZodString>;
    question: z.ZodString;
    evidence: z.ZodDefault<z.ZodString>;
    dbId: z.ZodDefault<z.ZodString>;
    dbPath: z.ZodString;
    descriptionDir: z.ZodDefault<z.ZodString>;
    sql: z.ZodDefault<z.ZodString>;
};
export declare const SqlInputState: StateSchema<{
    graph: z.ZodDefault<z.ZodString>;
    questionId: z.ZodDefault<z.ZodString>;
    question: z.ZodString;
    evidence: z.ZodDefault<z.ZodString>;
    dbId: z.ZodDefault<z.ZodString>;
    dbPath: z.ZodString;
    descriptionDir: z.ZodDefault<z.ZodString>;
    sql: z.ZodDefault<z.ZodString>;
}>;
export type SqlStateValue = typeof SqlState.State;
export type SqlStateUpdate = typeof SqlState.Update;
/** What a graph is started with: a question and its database (and, for a corrector, the SQL to correct). */
export declare const SqlInputSchema: z.ZodObject<{
    graph: z.ZodOptional<z.ZodString>;
    questionId: z.ZodOptional<z.ZodString>;
    question: z.ZodString;
    evidence: z.ZodOptional<z.ZodString>;
    dbId: z.ZodOptional<z.ZodString>;
    dbPath: z.ZodString;
    descriptionDir: z.ZodOptional<z.ZodString>;
    sql: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type SqlInput = z.infer<typeof SqlInputSchema>;
