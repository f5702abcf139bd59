import { callModel } from "../tools/llm.ts";
import { extractSql } from "../tools/reply.ts";
import type { NodeFactory } from "./types.ts";
import { DEFAULTS, withCalls } from "./common.ts";
import { generationPrompt } from "./prompts.ts";

/**
 * Slot `generate` (role "generator"). In: question, evidence, schemaText (+ few-shot examples from the training split
 * when options.fewShot > 0). Out: sql. An unusable reply keeps the previous SQL and says why in attempts.
 */
export const generateSqlNode: NodeFactory = (deps, options) => async (state) => {
  const k = options.fewShot ?? DEFAULTS.fewShot;
  const examples = k > 0 && deps.examples ? await deps.examples.similar(state.question, k, state.questionId ? [state.questionId] : []) : [];
  const call = await callModel(
    deps.models,
    "generator",
    generationPrompt({ schemaText: state.schemaText, question: state.question, evidence: state.evidence, examples }),
  );
  const sql = call.ok ? extractSql(call.text) : null;
  if (!sql) {
    const why = call.record.error ?? "reply holds no SQL";
    if (call.ok) call.record.error = why;
    return withCalls({ attempts: [{ node: "generate", sql: state.sql, ok: false, note: `${why}; kept the previous SQL` }] }, [call.record]);
  }
  return withCalls({ sql, attempts: [{ node: "generate", sql, ok: true }] }, [call.record]);
};
