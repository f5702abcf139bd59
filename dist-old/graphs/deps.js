import { createEmbedderFrom, createOpenAIProvider, resolveModelConfig } from "../tools/models/models.js";
import { getSharedExecutor } from "../tools/sqlite/executor.js";
/**
 * Dependencies from the environment (SQLMEND_MODEL, OPENAI_BASE_URL, ...) and, over it, model settings a run passes
 * (`eval --server` sends the launcher's model flags in the run's config): for langgraph.json and library use.
 */
export function defaultDeps(env = process.env, flags = {}) {
    let models;
    const lazyModels = () => (models ??= createOpenAIProvider(resolveModelConfig(flags, env, process.cwd()), env));
    // Resolve the model config on first use, so importing a graph never fails for want of a model.
    const provider = {
        get limiter() {
            return lazyModels().limiter;
        },
        get structuredMethodCache() {
            return lazyModels().structuredMethodCache;
        },
        forRole: (role) => lazyModels().forRole(role),
        describe: () => lazyModels().describe(),
    };
    let embeddings;
    return {
        models: provider,
        get executor() {
            return getSharedExecutor();
        },
        // SQLMEND_EMBEDDING_MODEL (or embeddingModel in the config file), else lexical ranking.
        get embeddings() {
            if (embeddings === undefined) {
                try {
                    embeddings = createEmbedderFrom(resolveModelConfig(flags, env, process.cwd()), env, process.cwd()) ?? null;
                }
                catch {
                    embeddings = null; // a bad config file is reported when the models are first used
                }
            }
            return embeddings ?? undefined;
        },
    };
}
