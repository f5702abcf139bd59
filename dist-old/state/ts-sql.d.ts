import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
/** TS-SQL's state (§3, Algorithm 1): the shared fields plus the test case and the revision loop's counters. */
export declare const JsonScalarSchema: z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>;
/** Test tables: rows as objects of column → JSON scalar, by table name. */
export declare const TestTablesSchema: z.ZodRecord<z.ZodString, z.ZodArray<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>>>;
export type TestTablesValue = z.infer<typeof TestTablesSchema>;
/** A result in the sandbox's fixed shape. */
export declare const TestResultSchema: z.ZodObject<{
    columns: z.ZodArray<z.ZodString>;
    rows: z.ZodArray<z.ZodArray<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>>;
}, z.core.$strip>;
export type TestResult = z.infer<typeof TestResultSchema>;
/** The test data and what loading it into the scratch database (the real schema, in memory) said. */
export declare const TestDataSchema: z.ZodObject<{
    tables: z.ZodRecord<z.ZodString, z.ZodArray<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>>>;
    given: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodArray<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>>>>;
    source: z.ZodEnum<{
        generated: "generated";
        sampled: "sampled";
    }>;
    firstRowsOf: z.ZodOptional<z.ZodArray<z.ZodString>>;
    cappedOf: z.ZodOptional<z.ZodArray<z.ZodString>>;
    loaded: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodNumber>>;
    violations: z.ZodDefault<z.ZodArray<z.ZodString>>;
    gaps: z.ZodDefault<z.ZodArray<z.ZodString>>;
    variants: z.ZodOptional<z.ZodObject<{
        sql: z.ZodString;
        differ: z.ZodArray<z.ZodEnum<{
            order: "order";
            limit: "limit";
            distinct: "distinct";
        }>>;
    }, z.core.$strip>>;
    sqlRan: z.ZodDefault<z.ZodBoolean>;
    sqlRows: z.ZodDefault<z.ZodNumber>;
    sqlNote: z.ZodOptional<z.ZodString>;
    loadError: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type TestData = z.infer<typeof TestDataSchema>;
/** One coder model's test code (or, under `noTestCode`, its predicted result) and what inspection found. */
export declare const CodeCandidateSchema: z.ZodObject<{
    model: z.ZodString;
    code: z.ZodString;
    rounds: z.ZodNumber;
    done: z.ZodBoolean;
    result: z.ZodOptional<z.ZodObject<{
        columns: z.ZodArray<z.ZodString>;
        rows: z.ZodArray<z.ZodArray<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>>;
    }, z.core.$strip>>;
    problem: z.ZodOptional<z.ZodString>;
    emptyBecause: z.ZodOptional<z.ZodEnum<{
        data: "data";
        code: "code";
    }>>;
}, z.core.$strip>;
export type CodeCandidate = z.infer<typeof CodeCandidateSchema>;
/** Which coder model's loop a `coder` / `inspect` task belongs to (carried by `Send`, never written). */
export declare const CoderTaskSchema: z.ZodObject<{
    model: z.ZodString;
    round: z.ZodNumber;
}, z.core.$strip>;
export type CoderTask = z.infer<typeof CoderTaskSchema>;
export declare const TestCodeSchema: z.ZodObject<{
    model: z.ZodString;
    code: z.ZodString;
    expected: z.ZodObject<{
        columns: z.ZodArray<z.ZodString>;
        rows: z.ZodArray<z.ZodArray<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>>;
    }, z.core.$strip>;
    how: z.ZodEnum<{
        fallback: "fallback";
        single: "single";
        agreement: "agreement";
        selected: "selected";
    }>;
    agreeing: z.ZodNumber;
}, z.core.$strip>;
export type TestCode = z.infer<typeof TestCodeSchema>;
/** Algorithm 1, lines 3-5: the SQL on the test data against the expected result. */
export declare const TestRunSchema: z.ZodObject<{
    sql: z.ZodString;
    ok: z.ZodBoolean;
    match: z.ZodBoolean;
    comparison: z.ZodOptional<z.ZodEnum<{
        ordered: "ordered";
        multiset: "multiset";
    }>>;
    result: z.ZodOptional<z.ZodObject<{
        columns: z.ZodArray<z.ZodString>;
        rows: z.ZodArray<z.ZodArray<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>>;
    }, z.core.$strip>>;
    error: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type TestRun = z.infer<typeof TestRunSchema>;
export declare const tsSqlStateFields: {
    /** The SQL the test case is built for (the generator's or the given one), kept for the fallback. */
    initialSql: z.ZodDefault<z.ZodString>;
    testData: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        tables: z.ZodRecord<z.ZodString, z.ZodArray<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>>>;
        given: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodArray<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>>>>;
        source: z.ZodEnum<{
            generated: "generated";
            sampled: "sampled";
        }>;
        firstRowsOf: z.ZodOptional<z.ZodArray<z.ZodString>>;
        cappedOf: z.ZodOptional<z.ZodArray<z.ZodString>>;
        loaded: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodNumber>>;
        violations: z.ZodDefault<z.ZodArray<z.ZodString>>;
        gaps: z.ZodDefault<z.ZodArray<z.ZodString>>;
        variants: z.ZodOptional<z.ZodObject<{
            sql: z.ZodString;
            differ: z.ZodArray<z.ZodEnum<{
                order: "order";
                limit: "limit";
                distinct: "distinct";
            }>>;
        }, z.core.$strip>>;
        sqlRan: z.ZodDefault<z.ZodBoolean>;
        sqlRows: z.ZodDefault<z.ZodNumber>;
        sqlNote: z.ZodOptional<z.ZodString>;
        loadError: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>>;
    /** Data agent turns used. */
    dataRounds: z.ZodDefault<z.ZodNumber>;
    codeCandidates: ReducedValue<{
        model: string;
        code: string;
        rounds: number;
        done: boolean;
        result?: {
            columns: string[];
            rows: (string | number | boolean | null)[][];
        } | undefined;
        problem?: string | undefined;
        emptyBecause?: "data" | "code" | undefined;
    }[], {
        model: string;
        code: string;
        rounds: number;
        done: boolean;
        result?: {
            columns: string[];
            rows: (string | number | boolean | null)[][];
        } | undefined;
        problem?: string | undefined;
        emptyBecause?: "data" | "code" | undefined;
    }[]>;
    coderTask: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        model: z.ZodString;
        round: z.ZodNumber;
    }, z.core.$strip>>>;
    testCode: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        model: z.ZodString;
        code: z.ZodString;
        expected: z.ZodObject<{
            columns: z.ZodArray<z.ZodString>;
            rows: z.ZodArray<z.ZodArray<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>>;
        }, z.core.$strip>;
        how: z.ZodEnum<{
            fallback: "fallback";
            single: "single";
            agreement: "agreement";
            selected: "selected";
        }>;
        agreeing: z.ZodNumber;
    }, z.core.$strip>>>;
    testRun: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        sql: z.ZodString;
        ok: z.ZodBoolean;
        match: z.ZodBoolean;
        comparison: z.ZodOptional<z.ZodEnum<{
            ordered: "ordered";
            multiset: "multiset";
        }>>;
        result: z.ZodOptional<z.ZodObject<{
            columns: z.ZodArray<z.ZodString>;
            rows: z.ZodArray<z.ZodArray<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>>;
        }, z.core.$strip>>;
        error: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>>;
    /** Revisions made (Algorithm 1's iterations); the launcher reports it as iterations. */
    rounds: z.ZodDefault<z.ZodNumber>;
    /** The latest SQL that ran without error on the test data (the answer when no revision passes). */
    lastRunnableSql: z.ZodDefault<z.ZodString>;
    /** The last prompt each retrying slot sent (`data`, `revise`), as a sha256: a retry that would send it again stops. */
    lastPrompts: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodString>>;
    /** Why the data turns stopped before --max-data-rounds (null: they did not). */
    dataStopReason: z.ZodDefault<z.ZodNullable<z.ZodString>>;
    /** Why the revisions stopped before --max-revisions without a pass (null: they did not). */
    stopReason: z.ZodDefault<z.ZodNullable<z.ZodString>>;
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
export declare const TsSqlState: StateSchema<{
    /** The SQL the test case is built for (the generator's or the given one), kept for the fallback. */
    initialSql: z.ZodDefault<z.ZodString>;
    testData: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        tables: z.ZodRecord<z.ZodString, z.ZodArray<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>>>;
        given: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodArray<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>>>>;
        source: z.ZodEnum<{
            generated: "generated";
            sampled: "sampled";
        }>;
        firstRowsOf: z.ZodOptional<z.ZodArray<z.ZodString>>;
        cappedOf: z.ZodOptional<z.ZodArray<z.ZodString>>;
        loaded: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodNumber>>;
        violations: z.ZodDefault<z.ZodArray<z.ZodString>>;
        gaps: z.ZodDefault<z.ZodArray<z.ZodString>>;
        variants: z.ZodOptional<z.ZodObject<{
            sql: z.ZodString;
            differ: z.ZodArray<z.ZodEnum<{
                order: "order";
                limit: "limit";
                distinct: "distinct";
            }>>;
        }, z.core.$strip>>;
        sqlRan: z.ZodDefault<z.ZodBoolean>;
        sqlRows: z.ZodDefault<z.ZodNumber>;
        sqlNote: z.ZodOptional<z.ZodString>;
        loadError: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>>;
    /** Data agent turns used. */
    dataRounds: z.ZodDefault<z.ZodNumber>;
    codeCandidates: ReducedValue<{
        model: string;
        code: string;
        rounds: number;
        done: boolean;
        result?: {
            columns: string[];
            rows: (string | number | boolean | null)[][];
        } | undefined;
        problem?: string | undefined;
        emptyBecause?: "data" | "code" | undefined;
    }[], {
        model: string;
        code: string;
        rounds: number;
        done: boolean;
        result?: {
            columns: string[];
            rows: (string | number | boolean | null)[][];
        } | undefined;
        problem?: string | undefined;
        emptyBecause?: "data" | "code" | undefined;
    }[]>;
    coderTask: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        model: z.ZodString;
        round: z.ZodNumber;
    }, z.core.$strip>>>;
    testCode: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        model: z.ZodString;
        code: z.ZodString;
        expected: z.ZodObject<{
            columns: z.ZodArray<z.ZodString>;
            rows: z.ZodArray<z.ZodArray<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>>;
        }, z.core.$strip>;
        how: z.ZodEnum<{
            fallback: "fallback";
            single: "single";
            agreement: "agreement";
            selected: "selected";
        }>;
        agreeing: z.ZodNumber;
    }, z.core.$strip>>>;
    testRun: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        sql: z.ZodString;
        ok: z.ZodBoolean;
        match: z.ZodBoolean;
        comparison: z.ZodOptional<z.ZodEnum<{
            ordered: "ordered";
            multiset: "multiset";
        }>>;
        result: z.ZodOptional<z.ZodObject<{
            columns: z.ZodArray<z.ZodString>;
            rows: z.ZodArray<z.ZodArray<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>>;
        }, z.core.$strip>>;
        error: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>>;
    /** Revisions made (Algorithm 1's iterations); the launcher reports it as iterations. */
    rounds: z.ZodDefault<z.ZodNumber>;
    /** The latest SQL that ran without error on the test data (the answer when no revision passes). */
    lastRunnableSql: z.ZodDefault<z.ZodString>;
    /** The last prompt each retrying slot sent (`data`, `revise`), as a sha256: a retry that would send it again stops. */
    lastPrompts: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodString>>;
    /** Why the data turns stopped before --max-data-rounds (null: they did not). */
    dataStopReason: z.ZodDefault<z.ZodNullable<z.ZodString>>;
    /** Why the revisions stopped before --max-revisions without a pass (null: they did not). */
    stopReason: z.ZodDefault<z.ZodNullable<z.ZodString>>;
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
export type TsSqlStateValue = typeof TsSqlState.State;
export type TsSqlStateUpdate = typeof TsSqlState.Update;
