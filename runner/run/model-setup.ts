import path from "node:path";
import type { Question } from "../../state/question.ts";
import type { Embedder } from "../../tools/models/embeddings.ts";
import { type ModelProvider, resolveModelConfig } from "../../tools/models/models.ts";
import { createEmbedder, createModelProvider, usesMock } from "../../tools/models/provider.ts";
import { openResponseStore, RESPONSE_CACHE_FILE, ResponseCache } from "../../tools/models/response-cache.ts";
import { dataDir } from "../../tools/paths.ts";
import { openRedisStore } from "../../tools/models/redis-store.ts";
import { checkEndpoints } from "../../tools/models/probe.ts";
import { cacheModeFrom, cacheRedisFrom, modelFlagsFrom } from "./model-options.ts";
import type { ModelConfig } from "./run-config.ts";

/** The response cache `cache` asks for (default on, in `<data dir>/responses.sqlite`), or undefined when off. */
export function responseCacheFrom(options: ModelConfig, env: NodeJS.ProcessEnv, cwd: string, warn: (line: string) => void): ResponseCache | undefined {
  const mode = cacheModeFrom(options, env);
  if (mode === "off") return undefined;
  const redis = cacheRedisFrom(options, env);
  if (redis) return new ResponseCache(openRedisStore(redis, warn), mode);
  return new ResponseCache(openResponseStore(path.join(dataDir(env, cwd), RESPONSE_CACHE_FILE), warn), mode);
}

/** True when the options (env, config file) ask for the mock model (`--model mock`). */
export function mockFrom(options: ModelConfig, env: NodeJS.ProcessEnv, cwd: string): boolean {
  return usesMock(resolveModelConfig(modelFlagsFrom(options), env, cwd));
}

/** The response-cache mode a run records: "off (mock model)" for the mock, which never touches the cache. */
export function cacheSettingOf(options: ModelConfig, env: NodeJS.ProcessEnv, cwd: string): string {
  return mockFrom(options, env, cwd) ? "off (mock model)" : cacheModeFrom(options, env);
}

const warnOnStderr = (line: string) => void process.stderr.write(`warning: ${line}\n`);

/**
 * The model provider from the options, env and config file; fails fast with one line when no model is configured.
 * `known`: the questions (with their gold) the mock model answers from; only the mock is ever given them.
 */
export function modelsFrom(options: ModelConfig, env: NodeJS.ProcessEnv, cwd: string, roleToCheck = "generator", warn: (line: string) => void = warnOnStderr, known?: () => Question[][]): ModelProvider {
  const config = resolveModelConfig(modelFlagsFrom(options), env, cwd);
  const cache = usesMock(config) ? undefined : responseCacheFrom(options, env, cwd, warn);
  const provider = createModelProvider(config, env, { ...(cache ? { cache } : {}), ...(known ? { known } : {}) });
  provider.forRole(roleToCheck);
  return provider;
}

/** The embedder from the options, env and config file (the mock's under `--model mock`), or undefined when none is configured. */
export function embeddingsFrom(options: ModelConfig, env: NodeJS.ProcessEnv, cwd: string, warn: (line: string) => void = warnOnStderr): Embedder | undefined {
  return createEmbedder(resolveModelConfig(modelFlagsFrom(options), env, cwd), env, cwd, warn);
}

/**
 * Before a run spends anything: each configured endpoint answers, or one line naming it (`checkEndpoints`). Not for
 * the mock model (no endpoint) nor a LangGraph server's run (its models are the server's).
 */
export async function checkEndpointsFrom(options: ModelConfig, env: NodeJS.ProcessEnv, cwd: string): Promise<void> {
  const config = resolveModelConfig(modelFlagsFrom(options), env, cwd);
  if (usesMock(config)) return;
  await checkEndpoints(config);
}
