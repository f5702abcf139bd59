import fs from "node:fs";
import path from "node:path";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatOpenAI } from "@langchain/openai";
import { AsyncCaller } from "@langchain/core/utils/async_caller";
import { z } from "zod";
import { createOpenAIEmbedder, type Embedder, type EmbeddingSettings } from "./embeddings.ts";
import { firstLineOf, UserError } from "../../core/errors.ts";
import { maskSecrets } from "../../core/secrets.ts";
import { dataDir } from "../paths.ts";
import { VECTOR_CACHE_FILE } from "./cache-files.ts";
import { STRUCTURED_METHODS } from "./structured-methods.ts";
import type { CacheStats } from "./cache-modes.ts";
import type { ResponseCache } from "./response-cache.ts";

/** How structured replies are requested; "auto" tries each in turn and remembers what the server accepts. */
export const StructuredMethodSchema = z.enum(STRUCTURED_METHODS);
export type StructuredMethod = z.infer<typeof StructuredMethodSchema>;

export const ModelSettingsSchema = z.object({
  model: z.string().min(1).optional(),
  baseURL: z.string().url().optional(),
  /** Environment variable holding the key; the key itself never goes in a config file. */
  apiKeyEnv: z.string().optional(),
  temperature: z.number().min(0).max(2).optional(),
  /**
   * Sent as the request's `seed` (OpenAI and most compatible servers sample reproducibly with it) and part of the
   * response cache's key: repeats of an experiment (`--repeats`) each get their own, so they are new samples, not hits.
   */
  seed: z.number().int().optional(),
  maxTokens: z.number().int().positive().optional(),
  timeoutMs: z.number().int().positive().optional(),
  maxRetries: z.number().int().min(0).max(20).optional(),
  streaming: z.boolean().optional(),
  structuredMethod: StructuredMethodSchema.optional(),
  /**
   * A name for the server, where two servers of one model must be kept apart (say, two quantisations under one name):
   * part of the run's identity and of the response cache's key. The URL itself is neither, only recorded.
   */
  endpointAlias: z.string().min(1).optional(),
});
export type ModelSettings = z.infer<typeof ModelSettingsSchema>;

/** The config file (`sqlmend.config.json` or --config): defaults, per-role overrides, a global request cap. */
export const ModelConfigSchema = ModelSettingsSchema.extend({
  roles: z.record(z.string(), ModelSettingsSchema).default({}),
  maxConcurrency: z.number().int().positive().optional(),
  /** Embedding model for linking and few-shot retrieval (any OpenAI-compatible /v1/embeddings); none: lexical. */
  embeddingModel: z.string().min(1).optional(),
  /** The embedding endpoint, when it is not `baseURL`. */
  embeddingBaseURL: z.string().url().optional(),
  /** "lexical": rank lexically when the embedding endpoint fails, recorded per question (default: the question fails). */
  embeddingFallback: z.enum(["lexical"]).optional(),
  /** `--model mock` only: the share of questions whose first SQL the mock gets wrong (0 to 1). */
  mockErrorRate: z.number().min(0).max(1).optional(),
}).strict();
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

export const DEFAULT_SETTINGS = {
  temperature: 0,
  timeoutMs: 120_000,
  maxRetries: 3,
  streaming: false,
  structuredMethod: "auto",
  apiKeyEnv: "OPENAI_API_KEY",
} as const;

export const NO_MODEL_MESSAGE =
  "no model configured: pass --model NAME or set SQLMEND_MODEL (with OPENAI_BASE_URL for a local or compatible server, and OPENAI_API_KEY)";

/** A counting semaphore: the cap on model requests in flight across all roles and questions. */
export class Semaphore {
  private waiting: (() => void)[] = [];
  private active = 0;
  constructor(readonly capacity: number) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.capacity) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

export interface ModelProvider {
  /** The chat model for an agent role (generator, fixer, reviewer, ...). Throws UserError when none is configured. */
  forRole(role: string): { model: BaseChatModel; settings: ResolvedModelSettings };
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
  variant?(role: string, overrides: ModelOverrides): { model: BaseChatModel; settings: ResolvedModelSettings };
  /** The response cache's statistics for this provider's calls, when a cache is in use. */
  cacheStats?: CacheStats;
}

/** Per-call changes to a role's settings (see `ModelProvider.variant`). */
export interface ModelOverrides {
  model?: string;
  temperature?: number;
  /** Another seed for this call (samples of one prompt under `--seed`: one seed for all would sample one reply). */
  seed?: number;
  /** Choices asked of one request (OpenAI's `n`; `callModelChoices`): samples of one prompt billed for the prompt once. */
  n?: number;
}

/** Reads a config file; a bad one is a one-line error naming it. */
export function readModelConfig(file: string): ModelConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new UserError(`${file}: cannot read model config: ${firstLineOf(error)}`);
  }
  const parsed = ModelConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`${file}: ${issue?.path.join(".") || "config"}: ${issue?.message}`);
  }
  return parsed.data;
}

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
  mockErrorRate?: number;
}

/**
 * Merges, lowest to highest: built-in defaults, the config file (--config, or ./sqlmend.config.json when present),
 * the environment (SQLMEND_MODEL, OPENAI_BASE_URL, SQLMEND_EMBEDDING_MODEL, SQLMEND_EMBEDDING_BASE_URL), then flags.
 */
export function resolveModelConfig(flags: ModelFlags, env: NodeJS.ProcessEnv, cwd: string): ModelConfig {
  const implicit = path.join(cwd, "sqlmend.config.json");
  const file = flags.configFile ? path.resolve(cwd, flags.configFile) : fs.existsSync(implicit) ? implicit : undefined;
  const base: ModelConfig = file ? readModelConfig(file) : { roles: {} };
  const pick = <T>(...values: (T | undefined)[]) => values.find((v) => v !== undefined);
  const roles = { ...base.roles };
  for (const [role, model] of Object.entries(flags.roleModels ?? {})) roles[role] = { ...roles[role], model };
  return {
    ...base,
    model: pick(flags.model, env.SQLMEND_MODEL || undefined, base.model),
    baseURL: pick(flags.baseURL, base.baseURL, env.OPENAI_BASE_URL || undefined),
    temperature: pick(flags.temperature, base.temperature),
    seed: pick(flags.seed, base.seed),
    timeoutMs: pick(flags.timeoutMs, base.timeoutMs),
    maxRetries: pick(flags.maxRetries, base.maxRetries),
    streaming: pick(flags.streaming, base.streaming),
    structuredMethod: pick(flags.structuredMethod, base.structuredMethod),
    maxConcurrency: pick(flags.maxConcurrency, base.maxConcurrency),
    embeddingModel: pick(flags.embeddingModel, env.SQLMEND_EMBEDDING_MODEL || undefined, base.embeddingModel),
    embeddingBaseURL: pick(flags.embeddingBaseURL, env.SQLMEND_EMBEDDING_BASE_URL || undefined, base.embeddingBaseURL),
    embeddingFallback: pick(flags.embeddingFallback, base.embeddingFallback),
    endpointAlias: pick(flags.endpointAlias, env.SQLMEND_ENDPOINT_ALIAS || undefined, base.endpointAlias),
    mockErrorRate: pick(flags.mockErrorRate, base.mockErrorRate),
    roles,
  };
}

/** The embedding model's settings, or undefined when none is configured (consumers then rank lexically). */
export function resolveEmbeddingSettings(config: ModelConfig): EmbeddingSettings | undefined {
  if (!config.embeddingModel) return undefined;
  const baseURL = config.embeddingBaseURL ?? config.baseURL;
  return {
    model: config.embeddingModel,
    ...(baseURL ? { baseURL } : {}),
    apiKeyEnv: config.apiKeyEnv ?? DEFAULT_SETTINGS.apiKeyEnv,
    timeoutMs: config.timeoutMs ?? DEFAULT_SETTINGS.timeoutMs,
    maxRetries: config.maxRetries ?? DEFAULT_SETTINGS.maxRetries,
    ...(config.embeddingFallback ? { fallback: config.embeddingFallback } : {}),
    ...(config.endpointAlias !== undefined ? { endpointAlias: config.endpointAlias } : {}),
  };
}

/** The configured embedder, vectors cached in `<data dir>/embeddings.sqlite`; undefined when no embedding model is set. */
export function createEmbedderFrom(config: ModelConfig, env: NodeJS.ProcessEnv, cwd: string, warn?: (line: string) => void): Embedder | undefined {
  const settings = resolveEmbeddingSettings(config);
  return settings && createOpenAIEmbedder(settings, { env, cacheFile: path.join(dataDir(env, cwd), VECTOR_CACHE_FILE), ...(warn ? { warn } : {}) });
}

export function resolveRoleSettings(config: ModelConfig, role: string): ResolvedModelSettings | undefined {
  const roleSettings = config.roles[role] ?? {};
  const merged = { ...DEFAULT_SETTINGS, ...stripUndefined(config), ...stripUndefined(roleSettings) };
  if (!merged.model) return undefined;
  return {
    model: merged.model,
    baseURL: merged.baseURL,
    apiKeyEnv: merged.apiKeyEnv,
    temperature: merged.temperature,
    ...(merged.seed !== undefined ? { seed: merged.seed } : {}),
    maxTokens: merged.maxTokens,
    timeoutMs: merged.timeoutMs,
    maxRetries: merged.maxRetries,
    streaming: merged.streaming,
    structuredMethod: merged.structuredMethod,
    ...(merged.endpointAlias !== undefined ? { endpointAlias: merged.endpointAlias } : {}),
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Under response_format json_schema the client parses the reply itself and throws a SyntaxError when it is not JSON:
 * the server answered but ignored the format (callStructured then falls back to the next method).
 */
export const replyNotJson = (error: unknown): boolean => error instanceof SyntaxError || /is not valid JSON|in JSON at position/.test(firstLineOf(error));

// LangChain's own retry policy (not exported), kept for every other error.
const retryPolicy = (new AsyncCaller({}) as unknown as { onFailedAttempt?: (error: unknown) => unknown }).onFailedAttempt;
/** A reply that is not JSON would come back the same on a retry (after backoff): give it to callStructured at once. */
const onFailedAttempt = (error: unknown) => {
  if (replyNotJson(error)) throw error;
  return retryPolicy?.(error);
};

/** Chat models on an OpenAI-compatible endpoint through ChatOpenAI, created lazily per role. */
export function createOpenAIProvider(config: ModelConfig, env: NodeJS.ProcessEnv = process.env, options: { cache?: ResponseCache } = {}): ModelProvider {
  const cache = new Map<string, { model: BaseChatModel; settings: ResolvedModelSettings }>();
  const chatModel = (settings: ResolvedModelSettings, n?: number): BaseChatModel => {
    // Local servers (Ollama, llama.cpp, vLLM) accept any key; the client insists on one.
    const apiKey = env[settings.apiKeyEnv] || (settings.baseURL ? "sk-no-key" : undefined);
    if (!apiKey) throw new UserError(`no API key: set ${settings.apiKeyEnv} (or point OPENAI_BASE_URL at a local server)`);
    return new ChatOpenAI({
      model: settings.model,
      apiKey,
      temperature: settings.temperature,
      // In the invocation parameters too, so part of the response cache's key.
      ...(n !== undefined && n > 1 ? { n } : {}),
      // In the invocation parameters, so both sent and in the cache key (LangChain keys on them).
      ...(settings.seed !== undefined ? { modelKwargs: { seed: settings.seed } } : {}),
      maxTokens: settings.maxTokens,
      timeout: settings.timeoutMs,
      maxRetries: settings.maxRetries,
      onFailedAttempt,
      // callModel streams itself when settings.streaming is on (see collectStream in llm.ts).
      streamUsage: true,
      configuration: settings.baseURL ? { baseURL: settings.baseURL } : undefined,
      // The key is the model and its parameters (LangChain's), plus the endpoint's alias when one is named; the URL
      // only for reading replies stored before URLs left the key.
      ...(options.cache ? { cache: options.cache.forEndpoint(settings.endpointAlias, settings.baseURL ?? "(OpenAI)") } : {}),
    });
  };
  return {
    variant(role, overrides) {
      const base = this.forRole(role).settings;
      const { n, ...changed } = overrides;
      const settings = { ...base, ...stripUndefined(changed) };
      const key = `${role}\u0000${settings.model}\u0000${settings.temperature}\u0000${settings.seed ?? ""}\u0000${n ?? 1}`;
      const hit = cache.get(key);
      if (hit) return hit;
      const entry = { model: chatModel(settings, n), settings };
      cache.set(key, entry);
      return entry;
    },
    limiter: new Semaphore(config.maxConcurrency ?? 8),
    structuredMethodCache: new Map(),
    ...(options.cache ? { cacheStats: options.cache.stats } : {}),
    forRole(role) {
      const hit = cache.get(role);
      if (hit) return hit;
      const settings = resolveRoleSettings(config, role);
      if (!settings) throw new UserError(NO_MODEL_MESSAGE);
      const entry = { model: chatModel(settings), settings };
      cache.set(role, entry);
      return entry;
    },
    describe() {
      const roles = Object.fromEntries(
        Object.keys(config.roles).map((role) => [role, resolveRoleSettings(config, role)?.model ?? null]),
      );
      return {
        model: config.model ?? null,
        temperature: config.temperature ?? DEFAULT_SETTINGS.temperature,
        ...(config.endpointAlias !== undefined ? { endpointAlias: config.endpointAlias } : {}),
        // Only when set (runs without a seed describe themselves as before; the --resume check compares this).
        ...(config.seed !== undefined ? { seed: config.seed } : {}),
        roles,
        // Only when set, so runs without embeddings describe themselves as before (the --resume check compares this).
        ...(config.embeddingModel ? { embeddingModel: config.embeddingModel } : {}),
      };
    },
    endpoints() {
      const roles = Object.keys(config.roles).flatMap((role) => {
        const url = config.roles[role]?.baseURL;
        return url ? [[`${role}BaseURL`, maskSecrets(url)] as const] : [];
      });
      return {
        baseURL: config.baseURL ? maskSecrets(config.baseURL) : "(OpenAI)",
        ...Object.fromEntries(roles),
        ...(config.embeddingModel ? { embeddingBaseURL: maskSecrets(config.embeddingBaseURL ?? config.baseURL ?? "(OpenAI)") } : {}),
      };
    },
  };
}
