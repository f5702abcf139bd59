import { DEFAULTS, joinCalls, withCalls, writeSqlStep } from "./common.js";
import { generationPrompt } from "./prompts.js";
import { sameQuestionIds, searchExamples } from "../tools/retrieval/example-search.js";
/**
 * Slot `generate` (role "generator"). In: question, evidence, schemaText (+ few-shot examples from the training split
 * when options.fewShot > 0). Out: sql. An unusable reply keeps the previous SQL and says why in attempts.
 */
export const generateSqlNode = (deps, options) => async (state) => {
    const k = options.fewShot ?? DEFAULTS.fewShot;
    const store = k > 0 ? deps.examples : undefined;
    // Not by id: a dev question's id also names an unrelated training question (both splits count from 0).
    const found = store && (await searchExamples(store, state.question, k, sameQuestionIds(store, state), deps.embeddings));
    const prompt = generationPrompt({ schemaText: state.schemaText, question: state.question, evidence: state.evidence, examples: found?.examples ?? [] });
    const step = await writeSqlStep(deps.models, "generator", prompt, "generate", state);
    // Embedding requests of the retrieval count in usage like model calls (role "embedder").
    return found?.records.length ? joinCalls(step, withCalls({}, found.records)) : step;
};
