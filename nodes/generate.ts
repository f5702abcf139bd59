import type { NodeFactory } from "./types.ts";
import { DEFAULTS, writeSqlStep } from "./common.ts";
import { generationPrompt } from "./prompts.ts";

/**
 * Slot `generate` (role "generator"). In: question, evidence, schemaText (+ few-shot examples from the training split
 * when options.fewShot > 0). Out: sql. An unusable reply keeps the previous SQL and says why in attempts.
 */
export const generateSqlNode: NodeFactory = (deps, options) => async (state) => {
  const k = options.fewShot ?? DEFAULTS.fewShot;
  const examples = k > 0 && deps.examples ? await deps.examples.similar(state.question, k, state.questionId ? [state.questionId] : []) : [];
  const prompt = generationPrompt({ schemaText: state.schemaText, question: state.question, evidence: state.evidence, examples });
  return writeSqlStep(deps.models, "generator", prompt, "generate", state);
};
