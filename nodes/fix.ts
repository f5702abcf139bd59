import { callModel } from "../tools/llm.ts";
import { extractSql } from "../tools/reply.ts";
import type { NodeFactory } from "./types.ts";
import { withCalls } from "./common.ts";
import { fixPrompt } from "./prompts.ts";

/**
 * Slot `fix` (role "fixer"): one round of the debug loop. In: question, evidence, schemaText, sql, execution (failed).
 * Out: sql (corrected), fixRounds + 1. An unusable reply keeps the SQL, still counts the round (so the loop ends).
 */
export const fixSqlNode: NodeFactory = (deps) => async (state) => {
  const error = state.execution && !state.execution.ok ? `${state.execution.errorKind}: ${state.execution.error}` : "unknown error";
  const call = await callModel(
    deps.models,
    "fixer",
    fixPrompt({ schemaText: state.schemaText, question: state.question, evidence: state.evidence, sql: state.sql, error }),
  );
  const sql = call.ok ? extractSql(call.text) : null;
  const fixRounds = state.fixRounds + 1;
  if (!sql) {
    const why = call.record.error ?? "reply holds no SQL";
    if (call.ok) call.record.error = why;
    return withCalls({ fixRounds, attempts: [{ node: "fix", sql: state.sql, ok: false, note: `${why}; kept the previous SQL` }] }, [call.record]);
  }
  return withCalls({ sql, fixRounds, attempts: [{ node: "fix", sql, ok: true }] }, [call.record]);
};
