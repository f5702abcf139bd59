import type { NodeFactory } from "./types.ts";
import { DEFAULTS, joinCalls, withCalls, writeSqlStep } from "./common.ts";
import { generationPrompt } from "./prompts.ts";

/**
 * Slot `generate` (role "generator"). In: question, evidence, schemaText (+ few-shot examples from the training split
 * when options.fewShot > 0). Out: sql. An unusable reply keeps the previous SQL and says why in attempts.
 */
export const generateSqlNode: NodeFactory = (deps, options) => async (state) => {
  const k = options.fewShot ?? DEFAULTS.fewShot;
  const found = k > 0 && deps.examples ? await deps.examples.similarRanked(state.question, k, state.questionId ? [state.questionId] : []) : undefined;
  const prompt = generationPrompt({ schemaText: state.schemaText, question: state.question, evidence: state.evidence, examples: found?.examples ?? [] });
  const step = await writeSqlStep(deps.models, "generator", prompt, "generate", state);
  // Embedding requests of the retrieval count in usage like model calls (role "embedder").
  return found?.records.length ? joinCalls(step, withCalls({}, found.records)) : step;
};
