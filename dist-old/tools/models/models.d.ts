import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { z } from "zod";
import { type Embedder, type EmbeddingSettings } from "./embeddings.ts";
import type { CacheStats } from "./cache-modes.ts";
import type { ResponseCache } from "./response-cache.ts";
/** How structured replies are requested; "auto" tries each in turn and remembers what the server accepts. */
export declare const StructuredMethodSchema: z.ZodEnum<{
    auto: "auto";
    jsonSchema: "jsonSchema";
    functionCalling: "functionCalling";
    jsonMode: "jsonMode";
    text: "text";
}>;
export type StructuredMethod = z.infer<typeof StructuredMethodSchema>;
export declare const ModelSettingsSchema: z.ZodObject<{
    model: z.ZodOptional<z.ZodString>;
    baseURL: z.ZodOptional<z.ZodString>;
    apiKeyEnv: z.ZodOptional<z.ZodString>;
    temperature: z.ZodOptional<z.ZodNumber>;
    seed: z.ZodOptional<z.ZodNumber>;
    maxTokens: z.ZodOptional<z.ZodNumber>;
    timeoutMs: z.ZodOptional<z.ZodNumber>;
    maxRetries: z.ZodOptional<z.ZodNumber>;
    streaming: z.ZodOptional<z.ZodBoolean>;
    structuredMethod: z.ZodOptional<z.ZodEnum<{
        auto: "auto";
        jsonSchema: "jsonSchema";
        functionCalling: "functionCalling";
        jsonMode: "jsonMode";
        text: "text";
    }>>;
    endpointAlias: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type ModelSettings = z.infer<typeof ModelSettingsSchema>;
/** The config file (`sqlmend.config.json` or --config): defaults, per-role overrides, a global request cap. */
export declare const ModelConfigSchema: z.ZodObject<{
    model: z.ZodOptional<z.ZodString>;
    baseURL: z.ZodOptional<z.ZodString>;
    apiKeyEnv: z.ZodOptional<z.ZodString>;
    temperature: z.ZodOptional<z.ZodNumber>;
    seed: z.ZodOptional<z.ZodNumber>;
    maxTokens: z.ZodOptional<z.ZodNumber>;
    timeoutMs: z.ZodOptional<z.ZodNumber>;
    maxRetries: z.ZodOptional<z.ZodNumber>;
    streaming: z.ZodOptional<z.ZodBoolean>;
    structuredMethod: z.ZodOptional<z.ZodEnum<{
        auto: "auto";
        jsonSchema: "jsonSchema";
        functionCalling: "functionCalling";
        jsonMode: "jsonMode";
        text: "text";
    }>>;
    endpointAlias: z.ZodOptional<z.ZodString>;
    roles: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodObject<{
        model: z.ZodOptional<z.ZodString>;
        baseURL: z.ZodOptional<z.ZodString>;
        apiKeyEnv: z.ZodOptional<z.ZodString>;
        temperature: z.ZodOptional<z.ZodNumber>;
        seed: z.ZodOptional<z.ZodNumber>;
        maxTokens: z.ZodOptional<z.ZodNumber>;
        timeoutMs: z.ZodOptional<z.ZodNumber>;
        maxRetries: z.ZodOptional<z.ZodNumber>;
        streaming: z.ZodOptional<z.ZodBoolean>;
        structuredMethod: z.ZodOptional<z.ZodEnum<{
            auto: "auto";
            jsonSchema: "jsonSchema";
            functionCalling: "functionCalling";
            jsonMode: "jsonMode";
            text: "text";
        }>>;
        endpointAlias: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>>;
    maxConcurrency: z.ZodOptional<z.ZodNumber>;
    embeddingModel: z.ZodOptional<z.ZodString>;
    embeddingBaseURL: z.ZodOptional<z.ZodString>;
    embeddingFallback: z.ZodOptional<z.ZodEnum<{
        lexical: "lexical";
    }>>;
}, z.core.$strict>;
export type ModelConfig = z.infer<typeof ModelConfigSchema>;
export interface ResolvedModelSettings {
    model: string;
    baseURL?: string;
    apiKeyEnv: string;
    temperature: number;
    seed?: number;
    maxTokens?: number;
    timeoutMs: number;
    maxRetries: number;
    streaming: boolean;
    structuredMethod: StructuredMethod;
    endpointAlias?: string;
}
export declare const DEFAULT_SETTINGS: {
    readonly temperature: 0;
    readonly timeoutMs: 120000;
    readonly maxRetries: 3;
    readonly streaming: false;
    readonly structuredMethod: "auto";
    readonly apiKeyEnv: "OPENAI_API_KEY";
};
export declare const NO_MODEL_MESSAGE = "no model configured: pass --model NAME or set SQLMEND_MODEL (with OPENAI_BASE_URL for a local or compatible server, and OPENAI_API_KEY)";
/** A counting semaphore: the cap on model requests in flight across all roles and questions. */
export declare class Semaphore {
    readonly capacity: number;
    private waiting;
    private active;
    constructor(capacity: number);
    run<T>(task: () => Promise<T>): Promise<T>;
}
export interface ModelProvider {
    /** The chat model for an agent role (generator, fixer, reviewer, ...). Throws UserError when none is configured. */
    forRole(role: string): {
        model: BaseChatModel;
        settings: ResolvedModelSettings;
    };
    /** Caps requests in flight across every role. */
    limiter: Semaphore;
    /** Remembered per role: the structured-output method the server accepted. */
    structuredMethodCache: Map<string, StructuredMethod>;
    /**
     * The models and their parameters, JSON-safe (no keys): a run's identity, which `--resume` and `merge` compare.
     * Endpoint URLs are not in it (a server restarted on another port is the same model): see `endpoints`.
     */
    describe(): Record<string, unknown>;
    /** Where the models were served (URLs, passwords masked): recorded in run.json and the report, never compared. */
    endpoints?(): Record<string, string>;
    /**
     * The role's model with some settings changed for one call (another model name, a higher temperature): TS-SQL's
     * coder models and its rising inspection temperature. Optional; callers fall back to `forRole` without it.
     */
    variant?(role: string, overrides: ModelOverrides): {
        model: BaseChatModel;
        settings: ResolvedModelSettings;
    };
    /** The response cache's statistics for this provider's calls, when a cache is in use. */
    cacheStats?: CacheStats;
}
/** Per-call changes to a role's settings (see `ModelProvider.variant`). */
export interface ModelOverrides {
    model?: string;
    temperature?: number;
    /** Another seed for this call (samples of one prompt under `--seed`: one seed for all would sample one reply). */
    seed?: number;
}
/** Reads a config file; a bad one is a one-line error naming it. */
export declare function readModelConfig(file: string): ModelConfig;
export interface ModelFlags {
    model?: string;
    baseURL?: string;
    temperature?: number;
    seed?: number;
    timeoutMs?: number;
    maxRetries?: number;
    maxConcurrency?: number;
    streaming?: boolean;
    structuredMethod?: StructuredMethod;
    embeddingModel?: string;
    embeddingBaseURL?: string;
    embeddingFallback?: "lexical";
    /** role=model pairs from --role-model. */
    roleModels?: Record<string, string>;
    configFile?: string;
    endpointAlias?: string;
}
/**
 * Merges, lowest to highest: built-in defaults, the config file (--config, or ./sqlmend.config.json when present),
 * the environment (SQLMEND_MODEL, OPENAI_BASE_URL, SQLMEND_EMBEDDING_MODEL, SQLMEND_EMBEDDING_BASE_URL), then flags.
 */
export declare function resolveModelConfig(flags: ModelFlags, env: NodeJS.ProcessEnv, cwd: string): ModelConfig;
/** The embedding model's settings, or undefined when none is configured (consumers then rank lexically). */
export declare function resolveEmbeddingSettings(config: ModelConfig): EmbeddingSettings | undefined;
/** The configured embedder, vectors cached in `<data dir>/embeddings.sqlite`; undefined when no embedding model is set. */
export declare function createEmbedderFrom(config: ModelConfig, env: NodeJS.ProcessEnv, cwd: string, warn?: (line: string) => void): Embedder | undefined;
export declare function resolveRoleSettings(config: ModelConfig, role: string): ResolvedModelSettings | undefined;
/**
 * Under response_format json_schema the client parses the reply itself and throws a SyntaxError when it is not JSON:
 * the server answered but ignored the format (callStructured then falls back to the next method).
 */
export declare const replyNotJson: (error: unknown) => boolean;
/** Chat models on an OpenAI-compatible endpoint through ChatOpenAI, created lazily per role. */
export declare function createOpenAIProvider(config: ModelConfig, env?: NodeJS.ProcessEnv, options?: {
    cache?: ResponseCache;
}): ModelProvider;
