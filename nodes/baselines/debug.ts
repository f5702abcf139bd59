import { readOptions } from "../../core/options.ts";
import type { Command } from "@langchain/langgraph";
import type { Explanation, SelfDebuggingStateUpdate, SelfDebuggingStateValue } from "../../state/baselines.ts";
import { callModel } from "../../tools/models/llm.ts";
import { UNCHANGED_RETRY, unchangedRetryNote } from "../../state/usage.ts";
import { stripThinking } from "../../tools/reply.ts";
import { withCalls, writeSqlStep } from "../common.ts";
import type { NodeFactory } from "../types.ts";
import { SELF_DEBUGGING_OPTIONS } from "./options.ts";
import { debugPrompt, explainPrompt, verdictOf } from "./prompts.ts";

/**
 * Self-debugging (Chen et al., 2023) as MAGIC reproduces it: the explainer explains the question and the predicted
 * SQL with its execution feedback and judges it; while it says wrong, the debugger corrects the SQL from that
 * explanation, which is executed and explained again — until the explainer says correct or `maxTurns` rewrites.
 */

const MAX_EXPLANATION_CHARS = 4000;

/** A self-debugging node: reads the graph's state, returns an update (a replacement may route with a Command). */
type SelfDebuggingNodeFactory = NodeFactory<SelfDebuggingStateValue, SelfDebuggingStateUpdate | Command>;

/**
 * Slot `explain` (role `explainer`). In: question, evidence, schemaText, sql, execution, rounds. Out: explanations
 * (+1), verdict, stopReason — set when the loop ends here: `judged correct`, `turn limit` (wrong, no turns left),
 * `explainer got no reply`, `unchanged retry` (the debugger's turn left the SQL and its execution as an earlier turn
 * had, so the explainer's reply was that turn's, reused: no turn could change it); "" when the debugger goes on. A
 * reply with no verdict line counts as wrong (`unclear`).
 */
export const explainNode: SelfDebuggingNodeFactory = (deps, options) => async (state) => {
  const { maxTurns } = readOptions(SELF_DEBUGGING_OPTIONS, options);
  const call = await callModel(deps.models, "explainer", explainPrompt({ schemaText: state.schemaText, question: state.question, evidence: state.evidence, sql: state.sql, execution: state.execution }));
  const text = call.ok ? stripThinking(call.text).trim() : "";
  const verdict: Explanation["verdict"] = !call.ok ? "no reply" : verdictOf(text);
  if (verdict === "unclear") call.record.error = "the explanation ends with no 'Verdict: correct' or 'Verdict: wrong' line; taken as wrong";
  const stopReason =
    verdict === "correct" ? "judged correct" : verdict === "no reply" ? "explainer got no reply" : call.reused ? UNCHANGED_RETRY : state.rounds >= maxTurns ? "turn limit" : "";
  const explanation: Explanation = { turn: state.rounds, sql: state.sql, verdict, text: text.slice(0, MAX_EXPLANATION_CHARS) };
  const firstInit = state.rounds === 0 && !state.explanations.length ? { initialSql: state.sql } : {};
  const unchanged = stopReason === UNCHANGED_RETRY ? { attempts: [{ node: "explain", sql: state.sql, ok: false, note: unchangedRetryNote("explainer", "the same SQL, the same execution") }] } : {};
  return withCalls({ ...firstInit, explanations: [explanation], verdict, stopReason, ...unchanged }, [call.record]);
};

/**
 * Slot `debug` (role `debugger`). In: question, evidence, schemaText, sql, execution, the latest explanation. Out:
 * sql (kept, with the reason in attempts, when the reply holds none), rounds + 1.
 */
export const debugNode: SelfDebuggingNodeFactory = (deps) => async (state) => {
  const explanation = state.explanations.at(-1)?.text ?? "";
  const prompt = debugPrompt({ schemaText: state.schemaText, question: state.question, evidence: state.evidence, sql: state.sql, execution: state.execution, explanation });
  return writeSqlStep(deps.models, "debugger", prompt, "debug", state, { rounds: state.rounds + 1 });
};
