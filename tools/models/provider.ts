/**
 * The one place that picks a provider from a resolved config: the mock model (`--model mock`, in process) or the
 * OpenAI-compatible one. Only the mock is given the questions' gold; a real model never sees it.
 */
import type { Question } from "../../state/question.ts";
import { opt, optionUsageError } from "../../core/config.ts";
import type { Embedder } from "./embeddings.ts";
import { createEmbedderFrom, createOpenAIProvider, type ModelConfig, type ModelProvider } from "./models.ts";
import { createMockEmbedder, createMockProvider, isMock, MOCK_MODEL } from "./mock.ts";
import type { ResponseCache } from "./response-cache.ts";

/** True when the config asks for the mock model; a mix of the mock and real models is refused in one line. */
export function usesMock(config: ModelConfig): boolean {
  const roleModels = Object.values(config.roles).flatMap((r) => (r.model ? [r.model] : []));
  const mock = isMock(config.model) || roleModels.some(isMock);
  if (mock && (!isMock(config.model) || roleModels.some((m) => !isMock(m)))) {
    throw optionUsageError`${opt("model")} ${MOCK_MODEL} answers every role: give it alone (no ${opt("roleModel")} or config role with another model)`;
  }
  if (!mock && config.mockErrorRate !== undefined) throw optionUsageError`${opt("mockErrorRate")} applies to ${opt("model")} ${MOCK_MODEL} only`;
  return mock;
}

/**
 * The provider a config names. `known`: the questions (with gold) the mock may answer from, called only for the mock.
 * The mock never reads or writes the response cache (its replies are not a model's).
 */
export function createModelProvider(config: ModelConfig, env: NodeJS.ProcessEnv, options: { cache?: ResponseCache; known?: () => Question[][] } = {}): ModelProvider {
  if (usesMock(config)) {
    return createMockProvider({
      questions: options.known?.() ?? [],
      ...(config.mockErrorRate !== undefined ? { errorRate: config.mockErrorRate } : {}),
      ...(config.seed !== undefined ? { seed: config.seed } : {}),
      ...(config.maxConcurrency !== undefined ? { maxConcurrency: config.maxConcurrency } : {}),
    });
  }
  return createOpenAIProvider(config, env, options.cache ? { cache: options.cache } : {});
}

/** The embedder a config names: the mock's hashed 3-grams for `mock` (also the default under `--model mock`), else the endpoint's. */
export function createEmbedder(config: ModelConfig, env: NodeJS.ProcessEnv, cwd: string, warn?: (line: string) => void): Embedder | undefined {
  if (isMock(config.embeddingModel) || (config.embeddingModel === undefined && isMock(config.model))) return createMockEmbedder();
  return createEmbedderFrom(config, env, cwd, warn);
}
