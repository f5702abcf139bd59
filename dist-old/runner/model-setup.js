import path from "node:path";
import { createEmbedderFrom, createOpenAIProvider, resolveModelConfig } from "../tools/models/models.js";
import { openResponseStore, RESPONSE_CACHE_FILE, ResponseCache } from "../tools/models/response-cache.js";
import { dataDir } from "../tools/paths.js";
import { openRedisStore } from "../tools/models/redis-store.js";
import { cacheModeFrom, cacheRedisFrom, modelFlagsFrom } from "./run-options.js";
/** The response cache `--cache` asks for (default on, in `<data dir>/responses.sqlite`), or undefined when off. */
export function responseCacheFrom(values, env, cwd, warn) {
    const mode = cacheModeFrom(values, env);
    if (mode === "off")
        return undefined;
    const redis = cacheRedisFrom(values, env);
    if (redis)
        return new ResponseCache(openRedisStore(redis, warn), mode);
    return new ResponseCache(openResponseStore(path.join(dataDir(env, cwd), RESPONSE_CACHE_FILE), warn), mode);
}
const warnOnStderr = (line) => void process.stderr.write(`warning: ${line}\n`);
/** The model provider from flags, env and config file; fails fast with one line when no model is configured. */
export function modelsFrom(values, env, cwd, roleToCheck = "generator", warn = warnOnStderr) {
    const cache = responseCacheFrom(values, env, cwd, warn);
    const provider = createOpenAIProvider(resolveModelConfig(modelFlagsFrom(values), env, cwd), env, cache ? { cache } : {});
    provider.forRole(roleToCheck);
    return provider;
}
/** The embedder from flags, env and config file, or undefined when no embedding model is configured. */
export function embeddingsFrom(values, env, cwd, warn = warnOnStderr) {
    return createEmbedderFrom(resolveModelConfig(modelFlagsFrom(values), env, cwd), env, cwd, warn);
}
