import { writeSqlStep } from "./common.js";
import { fixPrompt } from "./prompts.js";
/**
 * Slot `fix` (role "fixer"): one round of the debug loop. In: question, evidence, schemaText, sql, execution (failed).
 * Out: sql (corrected), fixRounds + 1. An unusable reply keeps the SQL, still counts the round (so the loop ends).
 */
export const fixSqlNode = (deps) => async (state) => {
    const error = state.execution && !state.execution.ok ? `${state.execution.errorKind}: ${state.execution.error}` : "unknown error";
    const prompt = fixPrompt({ schemaText: state.schemaText, question: state.question, evidence: state.evidence, sql: state.sql, error });
    return writeSqlStep(deps.models, "fixer", prompt, "fix", state, { fixRounds: state.fixRounds + 1 });
};
