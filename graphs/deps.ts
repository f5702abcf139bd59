import type { NodeDeps } from "../nodes/types.ts";
import { createOpenAIProvider, resolveModelConfig } from "../tools/models.ts";
import { getSharedExecutor } from "../tools/sqlite/executor.ts";

/** Dependencies from the environment alone (SQLMEND_MODEL, OPENAI_BASE_URL, ...): for langgraph.json and library use. */
export function defaultDeps(env: NodeJS.ProcessEnv = process.env): NodeDeps {
  let models: NodeDeps["models"] | undefined;
  const lazyModels = (): NodeDeps["models"] => (models ??= createOpenAIProvider(resolveModelConfig({}, env, process.cwd()), env));
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
  return {
    models: provider,
    get executor() {
      return getSharedExecutor();
    },
  };
}
