import type { Embedder } from "../../tools/models/embeddings.ts";
import { createEmbedderFrom, createOpenAIProvider, type ModelProvider, resolveModelConfig } from "../../tools/models/models.ts";
import { modelFlagsFrom, type RunValues } from "./setup.ts";

// Apart from cli/setup.ts because these load LangChain's OpenAI client: commands import them once their flags are checked.

/** The model provider from flags, env and config file; fails fast with one line when no model is configured. */
export function modelsFrom(values: RunValues, env: NodeJS.ProcessEnv, cwd: string, roleToCheck = "generator"): ModelProvider {
  const provider = createOpenAIProvider(resolveModelConfig(modelFlagsFrom(values), env, cwd), env);
  provider.forRole(roleToCheck);
  return provider;
}

/** The embedder from flags, env and config file, or undefined when no embedding model is configured. */
export function embeddingsFrom(values: RunValues, env: NodeJS.ProcessEnv, cwd: string): Embedder | undefined {
  return createEmbedderFrom(resolveModelConfig(modelFlagsFrom(values), env, cwd), env, cwd);
}
