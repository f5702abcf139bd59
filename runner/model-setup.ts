import path from "node:path";
import type { Embedder } from "../tools/models/embeddings.ts";
import { createEmbedderFrom, createOpenAIProvider, type ModelProvider, resolveModelConfig } from "../tools/models/models.ts";
import { openResponseStore, RESPONSE_CACHE_FILE, ResponseCache } from "../tools/models/response-cache.ts";
import { dataDir } from "../tools/paths.ts";
import { openRedisStore } from "../tools/models/redis-store.ts";
import { cacheModeFrom, cacheRedisFrom, modelFlagsFrom, type RunValues } from "./run-options.ts";

/** The response cache `--cache` asks for (default on, in `<data dir>/responses.sqlite`), or undefined when off. */
export function responseCacheFrom(values: RunValues, env: NodeJS.ProcessEnv, cwd: string, warn: (line: string) => void): ResponseCache | undefined {
  const mode = cacheModeFrom(values, env);
  if (mode === "off") return undefined;
  const redis = cacheRedisFrom(values, env);
  if (redis) return new ResponseCache(openRedisStore(redis, warn), mode);
  return new ResponseCache(openResponseStore(path.join(dataDir(env, cwd), RESPONSE_CACHE_FILE), warn), mode);
}

const warnOnStderr = (line: string) => void process.stderr.write(`warning: ${line}\n`);

/** The model provider from flags, env and config file; fails fast with one line when no model is configured. */
export function modelsFrom(values: RunValues, env: NodeJS.ProcessEnv, cwd: string, roleToCheck = "generator", warn: (line: string) => void = warnOnStderr): ModelProvider {
  const cache = responseCacheFrom(values, env, cwd, warn);
  const provider = createOpenAIProvider(resolveModelConfig(modelFlagsFrom(values), env, cwd), env, cache ? { cache } : {});
  provider.forRole(roleToCheck);
  return provider;
}

/** The embedder from flags, env and config file, or undefined when no embedding model is configured. */
export function embeddingsFrom(values: RunValues, env: NodeJS.ProcessEnv, cwd: string, warn: (line: string) => void = warnOnStderr): Embedder | undefined {
  return createEmbedderFrom(resolveModelConfig(modelFlagsFrom(values), env, cwd), env, cwd, warn);
}
