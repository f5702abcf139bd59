import type { NodeFactory } from "./types.ts";
import { writeSqlStep } from "./common.ts";
import { type ModelCallRecord, unchangedRetryNote } from "../state/usage.ts";
import { fixPrompt } from "./prompts.ts";

/**
 * Slot `fix` (role "fixer"): one round of the debug loop. In: question, evidence, schemaText, sql, execution (failed).
 * Out: sql (corrected), fixRounds + 1. An unusable reply keeps the SQL, still counts the round (so the loop ends).
 * A round that asks what an earlier round asked (the same SQL, the same error) gets that round's reply again, not
 * sent (`callModel`): its attempt says so and the loop ends there (`routeAfterExecute`), as no round could change it.
 */
export const fixSqlNode: NodeFactory = (deps) => async (state) => {
  const error = state.execution && !state.execution.ok ? `${state.execution.errorKind}: ${state.execution.error}` : "unknown error";
  const prompt = fixPrompt({ schemaText: state.schemaText, question: state.question, evidence: state.evidence, sql: state.sql, error });
  const update = await writeSqlStep(deps.models, "fixer", prompt, "fix", state, { fixRounds: state.fixRounds + 1 });
  if (!(update.calls as ModelCallRecord[] | undefined)?.some((call) => call.reused)) return update;
  const note = unchangedRetryNote("fixer", "the same SQL, the same error");
  const sql = typeof update.sql === "string" ? update.sql : undefined;
  return { ...update, attempts: [{ node: "fix", sql: sql ?? state.sql, ok: sql !== undefined, note }] };
};
