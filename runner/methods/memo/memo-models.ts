// The models and the embedder of a memo command, and the embedding of a memory's new keys.
import type { CliIO } from "../../../core/io.ts";
import { checkConfig, type ConfigDefs, type ConfigInput, type ConfigOf } from "../../../core/config.ts";
import { modelFlagsFrom } from "../../run/model-options.ts";
import { embeddingsFrom, responseCacheFrom } from "../../run/model-setup.ts";
import { MEMO_MODEL_CONFIG, type MemoModelConfig } from "./memo-model-config.ts";
import { type ModelProvider, resolveModelConfig } from "../../../tools/models/models.ts";
import { createModelProvider, usesMock } from "../../../tools/models/provider.ts";
import type { MemoryStore } from "../../../tools/retrieval/memory-store.ts";
import type { Question } from "../../../state/question.ts";
import type { Embedder } from "../../../tools/models/embeddings.ts";


/** The model's options a memo API function takes (`model`, `baseUrl`, `roleModel: { ROLE: MODEL }`, `embeddingModel`, ...). */
export type MemoModelOptions = ConfigInput<typeof MEMO_MODEL_CONFIG>;

const MODEL_KEYS: readonly string[] = Object.keys(MEMO_MODEL_CONFIG);

/** A memo command's models, made when first asked for (show and search need only the embedder, add the labeler). */
export interface MemoModels {
  provider(): ModelProvider;
  embedder(): Embedder | undefined;
}

/** The model and embedder the model options ask for (with env and config file), each made once, when first used. */
export function memoModelsOf(config: MemoModelConfig, io: CliIO): MemoModels {
  let provider: ModelProvider | undefined;
  let embedder: { made: Embedder | undefined } | undefined;
  return {
    provider: () => (provider ??= modelsFor(config, io)),
    embedder: () => (embedder ??= { made: embedderFor(config, io) }).made,
  };
}

/** A memo API function's options checked by name: its own config (`defs`), and the models its model options ask for. */
export function memoModels<Defs extends ConfigDefs>(api: string, defs: Defs, options: Record<string, unknown>, io: CliIO): { config: ConfigOf<Defs>; models: MemoModels } {
  const config = checkConfig(api, defs, options, MODEL_KEYS);
  const model = checkConfig(api, MEMO_MODEL_CONFIG, Object.fromEntries(Object.entries(options).filter(([key]) => MODEL_KEYS.includes(key))));
  return { config, models: memoModelsOf(model, io) };
}

/** The models of a memo command; `known`: the questions whose gold the mock model may answer from (only the mock gets them). */
export function modelsFor(model: MemoModelConfig, io: CliIO, sampleTemperature?: number, known?: Question[]): ModelProvider {
  const config = resolveModelConfig(modelFlagsFrom(model), io.env, io.cwd);
  // Diversity comes from sampling: the sampler role runs warm unless the config sets its temperature.
  if (sampleTemperature !== undefined) config.roles = { ...config.roles, sampler: { temperature: sampleTemperature, ...config.roles.sampler } };
  const cache = usesMock(config) ? undefined : responseCacheFrom(model, io.env, io.cwd, (line) => io.stderr(`warning: ${line}\n`));
  const models = createModelProvider(config, io.env, { ...(cache ? { cache } : {}), ...(known ? { known: () => [known] } : {}) });
  models.forRole("labeler");
  return models;
}

/** The shared embedder when one is configured (options, env, config file), as for eval. */
export const embedderFor = (model: MemoModelConfig, io: CliIO): Embedder | undefined => embeddingsFrom(model, io.env, io.cwd);

/** Embeds the keys of entries that have none yet (build, add), and says in one line how retrieval will rank. */
export async function embedKeys(store: MemoryStore, embedder: Embedder | undefined): Promise<{ line: string; embedded: boolean }> {
  if (!embedder) return { line: "Ranking: lexical (no embedding model configured)", embedded: false };
  const done = await store.embedPending();
  const calls = done.records.length ? `, ${done.records.length} request${done.records.length === 1 ? "" : "s"}` : "";
  if (done.error) return { line: `Ranking: lexical until the keys are embedded — ${done.embedded} embedded now, then: ${done.error}`, embedded: false };
  return { line: `Ranking: embeddings (${embedder.model}; ${store.embeddedCount} of ${store.size} keys embedded, ${done.embedded} now${calls})`, embedded: true };
}
