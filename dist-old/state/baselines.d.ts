import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
/**
 * MAGIC Table 1's guideline-independent baselines as correctors: self-consistency and multiple-prompt (N samples, a
 * vote over execution results) and self-debugging (explain, judge, correct).
 */
/** How the vote over samples went (self-consistency, multiple-prompt): everything `outcome` reports. */
export declare const SampleVoteSchema: z.ZodObject<{
    requested: z.ZodNumber;
    prompts: z.ZodNumber;
    taken: z.ZodNumber;
    noSql: z.ZodNumber;
    failed: z.ZodNumber;
    excluded: z.ZodArray<z.ZodObject<{
        id: z.ZodString;
        reason: z.ZodString;
    }, z.core.$strip>>;
    groups: z.ZodArray<z.ZodObject<{
        fingerprint: z.ZodString;
        ids: z.ZodArray<z.ZodString>;
    }, z.core.$strip>>;
    winner: z.ZodNullable<z.ZodString>;
    votes: z.ZodNumber;
    resultTie: z.ZodBoolean;
    speedTie: z.ZodNullable<z.ZodObject<{
        distinctSql: z.ZodNumber;
        chosenMs: z.ZodNumber;
        slowestMs: z.ZodNumber;
    }, z.core.$strip>>;
    keptInitial: z.ZodBoolean;
    rule: z.ZodString;
}, z.core.$strip>;
export type SampleVote = z.infer<typeof SampleVoteSchema>;
/** Graphs `self-consistency` and `multiple-prompt`: the samples live in the shared `candidates` (id `sample:NN`). */
export declare const votingStateFields: {
    /** The SQL the corrector was given: the answer when no sample executes. */
    initialSql: z.ZodDefault<z.ZodString>;
    sampleVote: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        requested: z.ZodNumber;
        prompts: z.ZodNumber;
        taken: z.ZodNumber;
        noSql: z.ZodNumber;
        failed: z.ZodNumber;
        excluded: z.ZodArray<z.ZodObject<{
            id: z.ZodString;
            reason: z.ZodString;
        }, z.core.$strip>>;
        groups: z.ZodArray<z.ZodObject<{
            fingerprint: z.ZodString;
            ids: z.ZodArray<z.ZodString>;
        }, z.core.$strip>>;
        winner: z.ZodNullable<z.ZodString>;
        votes: z.ZodNumber;
        resultTie: z.ZodBoolean;
        speedTie: z.ZodNullable<z.ZodObject<{
            distinctSql: z.ZodNumber;
            chosenMs: z.ZodNumber;
            slowestMs: z.ZodNumber;
        }, z.core.$strip>>;
        keptInitial: z.ZodBoolean;
        rule: z.ZodString;
    }, z.core.$strip>>>;
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
export declare const VotingState: StateSchema<{
    /** The SQL the corrector was given: the answer when no sample executes. */
    initialSql: z.ZodDefault<z.ZodString>;
    sampleVote: z.ZodDefault<z.ZodNullable<z.ZodObject<{
        requested: z.ZodNumber;
        prompts: z.ZodNumber;
        taken: z.ZodNumber;
        noSql: z.ZodNumber;
        failed: z.ZodNumber;
        excluded: z.ZodArray<z.ZodObject<{
            id: z.ZodString;
            reason: z.ZodString;
        }, z.core.$strip>>;
        groups: z.ZodArray<z.ZodObject<{
            fingerprint: z.ZodString;
            ids: z.ZodArray<z.ZodString>;
        }, z.core.$strip>>;
        winner: z.ZodNullable<z.ZodString>;
        votes: z.ZodNumber;
        resultTie: z.ZodBoolean;
        speedTie: z.ZodNullable<z.ZodObject<{
            distinctSql: z.ZodNumber;
            chosenMs: z.ZodNumber;
            slowestMs: z.ZodNumber;
        }, z.core.$strip>>;
        keptInitial: z.ZodBoolean;
        rule: z.ZodString;
    }, z.core.$strip>>>;
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
export type VotingStateValue = typeof VotingState.State;
export type VotingStateUpdate = typeof VotingState.Update;
/** One self-debugging turn: what the explainer said of which SQL. */
export declare const ExplanationSchema: z.ZodObject<{
    turn: z.ZodNumber;
    sql: z.ZodString;
    verdict: z.ZodEnum<{
        correct: "correct";
        wrong: "wrong";
        unclear: "unclear";
        "no reply": "no reply";
    }>;
    text: z.ZodString;
}, z.core.$strip>;
export type Explanation = z.infer<typeof ExplanationSchema>;
/** Graph `self-debugging`. */
export declare const selfDebuggingStateFields: {
    initialSql: z.ZodDefault<z.ZodString>;
    /** Debugging turns (SQL rewrites) done; the launcher reports it as iterations. */
    rounds: z.ZodDefault<z.ZodNumber>;
    explanations: ReducedValue<{
        turn: number;
        sql: string;
        verdict: "correct" | "wrong" | "unclear" | "no reply";
        text: string;
    }[], {
        turn: number;
        sql: string;
        verdict: "correct" | "wrong" | "unclear" | "no reply";
        text: string;
    }[]>;
    /** The latest explanation's verdict (the debugger reads the explanation from `explanations`). */
    verdict: z.ZodDefault<z.ZodString>;
    /** Set when the loop ends: judged correct, turn limit, explainer got no reply. */
    stopReason: z.ZodDefault<z.ZodString>;
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
export declare const SelfDebuggingState: StateSchema<{
    initialSql: z.ZodDefault<z.ZodString>;
    /** Debugging turns (SQL rewrites) done; the launcher reports it as iterations. */
    rounds: z.ZodDefault<z.ZodNumber>;
    explanations: ReducedValue<{
        turn: number;
        sql: string;
        verdict: "correct" | "wrong" | "unclear" | "no reply";
        text: string;
    }[], {
        turn: number;
        sql: string;
        verdict: "correct" | "wrong" | "unclear" | "no reply";
        text: string;
    }[]>;
    /** The latest explanation's verdict (the debugger reads the explanation from `explanations`). */
    verdict: z.ZodDefault<z.ZodString>;
    /** Set when the loop ends: judged correct, turn limit, explainer got no reply. */
    stopReason: z.ZodDefault<z.ZodString>;
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
export type SelfDebuggingStateValue = typeof SelfDebuggingState.State;
export type SelfDebuggingStateUpdate = typeof SelfDebuggingState.Update;
