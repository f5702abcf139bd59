import { UsageError } from "../../core/errors.ts";
import type { ModelFlags } from "../../tools/models/models.ts";
import { CACHE_MODES, type CacheMode } from "../../tools/models/cache-modes.ts";
import { opt, optionUsageError } from "../../core/config.ts";
import { type ModelConfig } from "./run-config.ts";

// A run's model settings from its typed config: what tools/models reads, the response cache's mode and place.

/** The model settings of a run's typed config (core/config.ts: already checked by kind), as tools/models reads them. */
export function modelFlagsFrom(config: ModelConfig): ModelFlags {
  if (config.cache !== undefined) cacheModeFrom(config, {});
  return {
    model: config.model,
    baseURL: config.baseUrl,
    configFile: config.config,
    roleModels: config.roleModel ?? {},
    temperature: config.temperature,
    seed: config.seed,
    timeoutMs: config.requestTimeoutMs,
    maxRetries: config.maxRetries,
    maxConcurrency: config.maxRequests,
    streaming: config.stream,
    structuredMethod: config.structuredMethod,
    embeddingModel: config.embeddingModel,
    embeddingBaseURL: config.embeddingBaseUrl,
    embeddingFallback: config.embeddingFallback,
    endpointAlias: config.endpointAlias,
    mockErrorRate: config.mockErrorRate,
  };
}

/** `cache`, else SQLMEND_CACHE, else on. A Redis URL is "on", kept in that Redis (`cacheRedisFrom`). */
export function cacheModeFrom(config: { cache?: string | undefined }, env: NodeJS.ProcessEnv): CacheMode {
  const given = config.cache ?? (env.SQLMEND_CACHE || undefined);
  if (given === undefined) return "on";
  if (/^rediss?:\/\//i.test(given)) {
    try {
      new URL(given);
    } catch {
      if (config.cache !== undefined) throw optionUsageError`${opt("cache")}: '${given}' is not a Redis URL (redis://HOST:PORT[/DB])`;
      throw new UsageError(`SQLMEND_CACHE: '${given}' is not a Redis URL (redis://HOST:PORT[/DB])`);
    }
    return "on";
  }
  if (!(CACHE_MODES as readonly string[]).includes(given)) {
    if (config.cache !== undefined) throw optionUsageError`${opt("cache")} takes ${CACHE_MODES.join(", ")} or redis://HOST:PORT, not '${given}'`;
    throw new UsageError(`SQLMEND_CACHE takes ${CACHE_MODES.join(", ")} or redis://HOST:PORT, not '${given}'`);
  }
  return given as CacheMode;
}

/** The Redis URL the cache lives in (`cache: "redis://…"`, or SQLMEND_CACHE), or undefined for the local file. */
export function cacheRedisFrom(config: { cache?: string | undefined }, env: NodeJS.ProcessEnv): string | undefined {
  const given = config.cache ?? (env.SQLMEND_CACHE || undefined);
  return given && /^rediss?:\/\//i.test(given) ? given : undefined;
}
