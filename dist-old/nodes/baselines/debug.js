import { readOptions } from "../../core/options.js";
import { callModel } from "../../tools/models/llm.js";
import { stripThinking } from "../../tools/reply.js";
import { withCalls, writeSqlStep } from "../common.js";
import { SELF_DEBUGGING_OPTIONS } from "./options.js";
import { debugPrompt, explainPrompt, verdictOf } from "./prompts.js";
/**
 * Self-debugging (Chen et al., 2023) as MAGIC reproduces it: the explainer explains the question and the predicted
 * SQL with its execution feedback and judges it; while it says wrong, the debugger corrects the SQL from that
 * explanation, which is executed and explained again — until the explainer says correct or `maxTurns` rewrites.
 */
const MAX_EXPLANATION_CHARS = 4000;
/**
 * Slot `explain` (role `explainer`). In: question, evidence, schemaText, sql, execution, rounds. Out: explanations
 * (+1), verdict, stopReason — set when the loop ends here: `judged correct`, `turn limit` (wrong, no turns left),
 * `explainer got no reply`; "" when the debugger goes on. A reply with no verdict line counts as wrong (`unclear`).
 */
export const explainNode = (deps, options) => async (state) => {
    const { maxTurns } = readOptions(SELF_DEBUGGING_OPTIONS, options);
    const call = await callModel(deps.models, "explainer", explainPrompt({ schemaText: state.schemaText, question: state.question, evidence: state.evidence, sql: state.sql, execution: state.execution }));
    const text = call.ok ? stripThinking(call.text).trim() : "";
    const verdict = !call.ok ? "no reply" : verdictOf(text);
    if (verdict === "unclear")
        call.record.error = "the explanation ends with no 'Verdict: correct' or 'Verdict: wrong' line; taken as wrong";
    const stopReason = verdict === "correct" ? "judged correct" : verdict === "no reply" ? "explainer got no reply" : state.rounds >= maxTurns ? "turn limit" : "";
    const explanation = { turn: state.rounds, sql: state.sql, verdict, text: text.slice(0, MAX_EXPLANATION_CHARS) };
    const firstInit = state.rounds === 0 && !state.explanations.length ? { initialSql: state.sql } : {};
    return withCalls({ ...firstInit, explanations: [explanation], verdict, stopReason }, [call.record]);
};
/**
 * Slot `debug` (role `debugger`). In: question, evidence, schemaText, sql, execution, the latest explanation. Out:
 * sql (kept, with the reason in attempts, when the reply holds none), rounds + 1.
 */
export const debugNode = (deps) => async (state) => {
    const explanation = state.explanations.at(-1)?.text ?? "";
    const prompt = debugPrompt({ schemaText: state.schemaText, question: state.question, evidence: state.evidence, sql: state.sql, execution: state.execution, explanation });
    return writeSqlStep(deps.models, "debugger", prompt, "debug", state, { rounds: state.rounds + 1 });
};
