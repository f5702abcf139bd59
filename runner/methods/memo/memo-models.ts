// The models and the embedder of a memo command, and the embedding of a memory's new keys.
import type { CliIO } from "../../../core/io.ts";
import { checkConfig, type ConfigDefs, type ConfigOf } from "../../../core/config.ts";
import { modelFlagsFrom, type RunValues } from "../../run/run-options.ts";
import { embeddingsFrom, responseCacheFrom } from "../../run/model-setup.ts";
import { type ApiOptionsOf, type FlagValues, flagValuesOf } from "../../run/api-options.ts";
import { type ModelProvider, resolveModelConfig } from "../../../tools/models/models.ts";
import { createModelProvider, usesMock } from "../../../tools/models/provider.ts";
import type { MemoryStore } from "../../../tools/retrieval/memory-store.ts";
import type { Question } from "../../../state/question.ts";
import type { Embedder } from "../../../tools/models/embeddings.ts";
import { modelFlags } from "./memo-options.ts";

/** The model's options a memo command takes (`model`, `baseUrl`, `roleModel: { ROLE: MODEL }`, `embeddingModel`, ...). */
export type MemoModelOptions = ApiOptionsOf<typeof modelFlags>;

const MODEL_KEYS = Object.keys(modelFlags).map((flag) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())) as readonly string[];

/** A memo command's models, made when first asked for (show and search need only the embedder, add the labeler). */
export interface MemoModels {
  provider(): ModelProvider;
  embedder(): Embedder | undefined;
}

/** The model and embedder the model flags ask for (flags, env, config file), each made once, when first used. */
export function memoModelsOf(values: FlagValues, io: CliIO): MemoModels {
  let provider: ModelProvider | undefined;
  let embedder: { made: Embedder | undefined } | undefined;
  return {
    provider: () => (provider ??= modelsFor(values, io)),
    embedder: () => (embedder ??= { made: embedderFor(values, io) }).made,
  };
}

/**
 * A memo API's options: its own checked against its declaration (errors naming the option), the model's given to
 * the model set-up. The model's options are still handed over as the model flags (`flagValuesOf`) until the run-level
 * model config replaces `runFlags`.
 */
export function memoModels<Defs extends ConfigDefs>(api: string, defs: Defs, options: Record<string, unknown>, io: CliIO): { config: ConfigOf<Defs>; models: MemoModels } {
  const config = checkConfig(api, defs, options, MODEL_KEYS);
  const modelOptions = Object.fromEntries(Object.entries(options).filter(([key]) => MODEL_KEYS.includes(key)));
  const values = flagValuesOf(api, modelOptions, modelFlags);
  // A bad model option is refused at once rather than at the first model call (the API's `asApiErrors` names it).
  modelFlagsFrom(values as RunValues);
  return { config, models: memoModelsOf(values, io) };
}

/** The models of a memo command; `known`: the questions whose gold the mock model may answer from (only the mock gets them). */
export function modelsFor(values: Record<string, unknown>, io: CliIO, sampleTemperature?: number, known?: Question[]) {
  const config = resolveModelConfig(modelFlagsFrom(values), io.env, io.cwd);
  // Diversity comes from sampling: the sampler role runs warm unless the config sets its temperature.
  if (sampleTemperature !== undefined) config.roles = { ...config.roles, sampler: { temperature: sampleTemperature, ...config.roles.sampler } };
  const cache = usesMock(config) ? undefined : responseCacheFrom(values, io.env, io.cwd, (line) => io.stderr(`warning: ${line}\n`));
  const models = createModelProvider(config, io.env, { ...(cache ? { cache } : {}), ...(known ? { known: () => [known] } : {}) });
  models.forRole("labeler");
  return models;
}

/** The shared embedder when one is configured (flags, env, config file), as for eval. */
export const embedderFor = (values: Record<string, unknown>, io: CliIO): Embedder | undefined => embeddingsFrom(values as Parameters<typeof embeddingsFrom>[0], io.env, io.cwd);

/** Embeds the keys of entries that have none yet (build, add), and says in one line how retrieval will rank. */
export async function embedKeys(store: MemoryStore, embedder: Embedder | undefined): Promise<{ line: string; embedded: boolean }> {
  if (!embedder) return { line: "Ranking: lexical (no embedding model configured)", embedded: false };
  const done = await store.embedPending();
  const calls = done.records.length ? `, ${done.records.length} request${done.records.length === 1 ? "" : "s"}` : "";
  if (done.error) return { line: `Ranking: lexical until the keys are embedded — ${done.embedded} embedded now, then: ${done.error}`, embedded: false };
  return { line: `Ranking: embeddings (${embedder.model}; ${store.embeddedCount} of ${store.size} keys embedded, ${done.embedded} now${calls})`, embedded: true };
}
