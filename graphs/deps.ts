import type { NodeDeps } from "../nodes/types.ts";
import type { Embedder } from "../tools/models/embeddings.ts";
import { type ModelFlags, resolveModelConfig } from "../tools/models/models.ts";
import { createEmbedder, createModelProvider } from "../tools/models/provider.ts";
import { getSharedExecutor } from "../tools/sqlite/executor.ts";

/**
 * Dependencies from the environment (SQLMEND_MODEL, OPENAI_BASE_URL, ...) and, over it, model settings a run passes
 * (`eval --server` sends the launcher's model flags in the run's config): for langgraph.json and library use.
 */
export function defaultDeps(env: NodeJS.ProcessEnv = process.env, flags: ModelFlags = {}): NodeDeps {
  let models: NodeDeps["models"] | undefined;
  const lazyModels = (): NodeDeps["models"] => (models ??= createModelProvider(resolveModelConfig(flags, env, process.cwd()), env));
  // Resolve the model config on first use, so importing a graph never fails for want of a model.
  const provider: NodeDeps["models"] = {
    get limiter() {
      return lazyModels().limiter;
    },
    get structuredMethodCache() {
      return lazyModels().structuredMethodCache;
    },
    forRole: (role) => lazyModels().forRole(role),
    describe: () => lazyModels().describe(),
  };
  let embeddings: Embedder | null | undefined;
  return {
    models: provider,
    get executor() {
      return getSharedExecutor();
    },
    // SQLMEND_EMBEDDING_MODEL (or embeddingModel in the config file), else lexical ranking.
    get embeddings() {
      if (embeddings === undefined) {
        try {
          embeddings = createEmbedder(resolveModelConfig(flags, env, process.cwd()), env, process.cwd()) ?? null;
        } catch {
          embeddings = null; // a bad config file is reported when the models are first used
        }
      }
      return embeddings ?? undefined;
    },
  };
}
