import type { Embedder } from "../tools/embeddings.ts";
import { createEmbedderFrom, createOpenAIProvider, type ModelFlags, type ModelProvider, resolveModelConfig, StructuredMethodSchema } from "../tools/models.ts";
import { UsageError } from "./command.ts";
import { intFlag, numberFlag, pairs, type RunValues } from "./setup.ts";

// Apart from cli/setup.ts because these load LangChain's OpenAI client: only commands that call models import them.

export function modelFlagsFrom(values: RunValues): ModelFlags {
  const method = values["structured-method"];
  if (method !== undefined && !StructuredMethodSchema.safeParse(method).success) {
    throw new UsageError(`--structured-method takes auto, jsonSchema, functionCalling, jsonMode or text, not '${method}'`);
  }
  return {
    model: values.model,
    baseURL: values["base-url"],
    configFile: values.config,
    roleModels: pairs(values["role-model"], "role-model"),
    temperature: numberFlag(values, "temperature"),
    timeoutMs: intFlag(values, "request-timeout-ms", 1),
    maxRetries: intFlag(values, "max-retries"),
    maxConcurrency: intFlag(values, "max-requests", 1),
    streaming: values.stream,
    structuredMethod: method as ModelFlags["structuredMethod"],
    embeddingModel: values["embedding-model"],
    embeddingBaseURL: values["embedding-base-url"],
  };
}

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
