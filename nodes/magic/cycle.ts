import type { Command } from "@langchain/langgraph";
import type { NodeDeps, NodeFactory } from "../types.ts";
import type { MagicFeedbackUpdate, MagicFeedbackValue, MagicIteration } from "../../state/magic.ts";
import type { ModelCallRecord } from "../../state/usage.ts";
import { readOptions } from "../../core/options.ts";
import { type ChatInput, callModel, callStructured } from "../../tools/models/llm.ts";
import { stripThinking } from "../../tools/reply.ts";
import { scoreQuestion } from "../../tools/benchmarks/score.ts";
import { formatTable } from "../../tools/format.ts";
import { DEFAULTS, withCalls, writeSqlStep } from "../common.ts";
import { executeSql } from "../execute.ts";
import { containsSql, leakedRow, redactSql } from "./leaks.ts";
import { correctorEvidenceOf, MAGIC_FEEDBACK_OPTIONS, semanticsOf } from "./options.ts";
import {
  CORRECTION_INSTRUCTIONS,
  correctionPrompt,
  FEEDBACK_HOLDS_GOLD,
  FEEDBACK_INSTRUCTIONS,
  feedbackPrompt,
  INSTRUCTIONS_HOLD_GOLD,
  judgePrompt,
  revisePrompt,
  unusableInstructions,
} from "./prompts.ts";
import { z } from "zod";

/**
 * The agents of MAGIC's feedback-correction cycle (§3.1), one node each. Who is shown what (§3.2): the feedback
 * agent sees the question, evidence, gold SQL and the incorrect SQL(s); the correction agent sees the schema,
 * question, evidence, s' and the feedback, never the gold SQL or its result; the manager sees everything.
 */
export type CycleNode = NodeFactory<MagicFeedbackValue, MagicFeedbackUpdate | Command>;

export const NEEDS_GOLD = "magic-feedback needs the question's gold SQL (goldSql) and incorrect SQL (incorrectSql): run it through 'sqlmend magic guideline'";

const questionOf = (state: MagicFeedbackValue) => ({
  id: state.questionId || "question",
  dbId: state.dbId || "db",
  dbPath: state.dbPath,
  question: state.question,
  evidence: state.evidence,
  goldSql: state.goldSql,
});

/**
 * What the correction agent reads anyway, so quoting it gives nothing away: s' (even when it contains the gold, as
 * s' = gold + `LIMIT 1` does), the question and the evidence (which may spell out a gold clause).
 */
const shownToCorrector = (state: MagicFeedbackValue, options: Record<string, unknown>) => [state.incorrectSql, state.question, correctorEvidenceOf(options, state.evidence)].filter(Boolean);

/** The incorrect SQL and every revision tried since (of the first `upTo` iterations), once each, oldest first. */
const incorrectSqlsOf = (state: MagicFeedbackValue, upTo = state.iterations.length) => [
  ...new Set([state.incorrectSql, ...state.iterations.slice(0, upTo).map((i) => i.sql).filter(Boolean)]),
];

/**
 * Slot `feedback` (role "feedback", Figure 5). In: question, evidence, goldSql, incorrectSql, iterations,
 * feedbackInstructions. Out: feedback. A feedback that writes out the gold SQL is refused and asked again
 * (`maxLeakRetries` times), then the gold SQL is redacted from it: the correction agent must not receive it.
 */
export const feedbackNode: CycleNode = (deps, options) => async (state) => {
  if (!state.goldSql || !state.incorrectSql) throw new Error(NEEDS_GOLD);
  const { maxLeakRetries } = readOptions(MAGIC_FEEDBACK_OPTIONS, options);
  let conversation: ChatInput[] = feedbackPrompt({
    instructions: state.feedbackInstructions,
    question: state.question,
    evidence: state.evidence,
    goldSql: state.goldSql,
    incorrectSqls: incorrectSqlsOf(state),
  });
  const records: ModelCallRecord[] = [];
  let text = "";
  let note: string | undefined;
  let unreachable = "";
  let refusals = 0;
  const shown = shownToCorrector(state, options);
  for (let attempt = 0; attempt <= maxLeakRetries; attempt++) {
    const call = await callModel(deps.models, "feedback", conversation);
    records.push(call.record);
    if (!call.ok) {
      note = call.record.error;
      unreachable = `feedback: ${note}`;
      text = "";
      break;
    }
    text = stripThinking(call.text);
    if (!text) note = call.record.error = "empty feedback";
    if (!containsSql(text, state.goldSql, shown)) break;
    refusals++;
    call.record.error = "feedback contains the gold SQL: refused";
    conversation = [...conversation, { role: "assistant", content: text }, { role: "user", content: FEEDBACK_HOLDS_GOLD }];
  }
  const redacted = !!text && containsSql(text, state.goldSql, shown);
  if (redacted) {
    text = redactSql(text, state.goldSql, shown);
    note = `feedback still contained the gold SQL after ${maxLeakRetries} re-asks: redacted`;
  }
  return withCalls(
    {
      latestFeedback: text,
      ...(unreachable ? { unreachable } : {}),
      leakRefusals: refusals,
      redactions: redacted ? 1 : 0,
      attempts: [{ node: "feedback", sql: state.sql, ok: !!text, note }],
    },
    records,
  );
};

/**
 * Slot `correct` (role "corrector", Figure 6). In: schemaText, question, evidence, incorrectSql (always s', §3.2),
 * feedback, correctionInstructions. Out: sql (the revision), correctionReply. An unusable reply keeps the SQL.
 */
export const correctNode: CycleNode = (deps, options) => async (state) => {
  const prompt = correctionPrompt({
    instructions: state.correctionInstructions,
    schemaText: state.schemaText,
    question: state.question,
    evidence: correctorEvidenceOf(options, state.evidence),
    incorrectSql: state.incorrectSql,
    feedback: state.latestFeedback,
  });
  const update = await writeSqlStep(deps.models, "corrector", prompt, "correct", state);
  const calls = Array.isArray(update.calls) ? update.calls : [];
  // callModel's record of a call that got no reply at all (as opposed to a reply without SQL).
  const failed = calls[0]?.error?.startsWith("model call failed") ? `corrector: ${calls[0].error}` : "";
  return { ...update, correctionReply: calls[0]?.reply ?? "", ...(failed ? { unreachable: failed } : {}) } as MagicFeedbackUpdate;
};

/** The scorer's verdict on this iteration's revision against the gold SQL, under the benchmark's semantics. */
async function scoreIteration(deps: NodeDeps, options: Record<string, unknown>, state: MagicFeedbackValue, node: string) {
  const timeoutMs = (options.timeoutMs as number | undefined) ?? DEFAULTS.timeoutMs;
  const verdict = await scoreQuestion(questionOf(state), state.sql, { executor: deps.executor, semantics: semanticsOf(options), timeoutMs });
  const note = verdict.predError ?? (verdict.goldError ? `gold SQL: ${verdict.goldError}` : undefined);
  const iteration: MagicIteration = { iteration: state.rounds + 1, feedback: state.latestFeedback, sql: state.sql, correct: verdict.correct, ...(note ? { note } : {}) };
  return { rounds: iteration.iteration, corrected: verdict.correct, iterations: [iteration], attempts: [{ node, sql: state.sql, ok: verdict.correct, note }] };
}

/**
 * Slot `manager` (role "manager", no model call): executes the revision and judges it against the gold SQL with the
 * shared scorer, under the benchmark's semantics. Out: rounds + 1, corrected, the iteration's record.
 */
export const managerJudgeNode: CycleNode = (deps, options) => (state) => scoreIteration(deps, options, state, "manager");

/** The instructions in a manager's reply: reasoning and wrapping quotes or fences dropped. */
function instructionsOf(reply: string): string {
  let text = stripThinking(reply).trim();
  const fenced = /^```[A-Za-z]*\n([\s\S]*?)\n```$/.exec(text);
  if (fenced) text = fenced[1]!.trim();
  if (text.startsWith('"""') && text.endsWith('"""') && text.length > 6) text = text.slice(3, -3).trim();
  return text;
}

const REFUSAL = /^(?:i['’]?m sorry|i am sorry|sorry,|i can(?:not|['’]t)|i am unable|i['’]m unable|as an ai\b)/i;
const BARE_SQL = /^(?:select\b[\s\S]*\bfrom\b|with\s+\w+\s+as\s*\()/i;
/** A chat reply that instructs nobody: an acknowledgement, or the manager not understanding its task. */
const CHAT_REPLY =
  /^(?:ok(?:ay)?|sure|yes|no|done|noted|got it|understood|thanks?|thank you|will do|of course|certainly)\b[\s.!]*$|\b(?:not sure what you mean|(?:don['’]t|do not) understand|could you (?:please )?clarify|can you (?:please )?clarify|what do you mean)\b/i;
/** Words that tell an agent what to do: an address ("you", "your task") or a sentence opening with a command. */
const ADDRESSED = /\b(?:you|your)\b/i;
const COMMAND =
  /(?:^|[.!:;]\s+|\n\s*(?:[-*•]|\d+[.)])?\s*)(?:accept|analy[sz]e|answer|apply|ask|avoid|be|begin|check|compare|complete|confirm|consider|correct|describe|detail|determine|do not|don['’]t|double-check|ensure|examine|explain|find|fix|focus|follow|give|go through|highlight|identify|include|keep|list|look|make sure|mention|name|never|note|outline|pay attention|point out|provide|quote|read|remember|reply|respond|return|review|revise|rewrite|show|start|state|tell|think|treat|use|verify|walk|write)\b/i;

/**
 * Why a manager's reply cannot serve as an agent's instructions, or undefined when it can: empty, a refusal, a chat
 * reply ("OK.", "I am not sure what you mean."), a SQL query with at most a chat line around it, no words, or words
 * that instruct no one (no "you", no command). Taking such a reply would replace a working prompt with nothing.
 */
export function unusableInstructionsWhy(text: string): string | undefined {
  if (!text) return "empty reply";
  if (REFUSAL.test(text)) return "a refusal";
  if (BARE_SQL.test(text) && !/\n\s*\n/.test(text)) return "a SQL query, not instructions";
  if (!/\p{L}{2,}/u.test(text)) return "no words";
  // What is said around the code blocks: a line of chat and a query is an answer, not instructions.
  const prose = text.replace(/```[\s\S]*?(?:```|$)/g, " ").trim();
  const words = prose.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
  if (prose !== text.trim() && words < 12) return "a SQL query with a line of chat, not instructions";
  if (CHAT_REPLY.test(prose) && words < 30) return "a chat reply, not instructions";
  if (words < 2) return "too short to instruct";
  if (!ADDRESSED.test(prose) && !COMMAND.test(prose)) return "no instruction addressed to the agent";
  return undefined;
}

type Revision = { text: string; note?: string; records: ModelCallRecord[]; leaks: number; unusable: number };

/**
 * Asks the manager for revised instructions, re-asking (bounded) when the reply is unusable or, with `leakOf`,
 * gives the gold away. A call that gets no reply ends it (the client has retried already). `text` "" = keep the old.
 */
async function askRevision(deps: NodeDeps, prompt: ChatInput[], limits: { unusable: number; leaks: number }, leakOf?: (text: string) => string | undefined): Promise<Revision> {
  let conversation = prompt;
  const out: Revision = { text: "", records: [], leaks: 0, unusable: 0 };
  for (;;) {
    const call = await callModel(deps.models, "manager", conversation);
    out.records.push(call.record);
    if (!call.ok) {
      out.note = call.record.error;
      return out;
    }
    const text = instructionsOf(call.text);
    const why = unusableInstructionsWhy(text);
    if (why) {
      out.unusable++;
      call.record.error = `unusable instructions (${why}): refused`;
      out.note = `${out.unusable} unusable repl${out.unusable === 1 ? "y" : "ies"} (last: ${why})`;
      if (out.unusable > limits.unusable) return out;
      conversation = [...conversation, { role: "assistant", content: call.text }, { role: "user", content: unusableInstructions(why) }];
      continue;
    }
    const leak = leakOf?.(text);
    if (leak) {
      out.leaks++;
      call.record.error = `instructions contain ${leak}: refused`;
      out.note = `every revision gave away ${leak} (${out.leaks} tries)`;
      if (out.leaks > limits.leaks) return out;
      conversation = [...conversation, { role: "assistant", content: text }, { role: "user", content: INSTRUCTIONS_HOLD_GOLD }];
      continue;
    }
    return { ...out, text, note: undefined };
  }
}

/**
 * Slot `reviseFeedback` (role "manager", Figure 7): new feedback instructions from the last unhelpful feedback, the
 * manager shown what the paper lists (§3.1): the agent's last output and prompt (instructions and data block: the
 * question, evidence, s^gt, s'). An unusable reply is asked again (`maxUnusableRetries`), then the old ones are kept.
 */
export const reviseFeedbackNode: CycleNode = (deps, options) => async (state) => {
  const { maxUnusableRetries } = readOptions(MAGIC_FEEDBACK_OPTIONS, options);
  const prompt = revisePrompt({
    agent: "feedback",
    revisions: state.feedbackRevisions,
    instructions: state.feedbackInstructions || FEEDBACK_INSTRUCTIONS,
    lastOutput: state.latestFeedback,
    question: state.question,
    evidence: state.evidence,
    incorrectSql: state.incorrectSql,
    // What the last feedback was asked with: the revisions before this iteration's (which it had not seen).
    incorrectSqls: incorrectSqlsOf(state, state.iterations.length - 1),
    goldSql: state.goldSql,
  });
  const got = await askRevision(deps, prompt, { unusable: maxUnusableRetries, leaks: 0 });
  const revised = got.text;
  return withCalls(
    {
      feedbackInstructions: revised || state.feedbackInstructions,
      feedbackRevisions: state.feedbackRevisions + (revised ? 1 : 0),
      unusableManagerReplies: got.unusable,
      failedRevisions: revised ? 0 : 1,
      attempts: [{ node: "reviseFeedback", sql: state.sql, ok: !!revised, note: revised ? undefined : `${got.note ?? "no instructions"}; kept the previous feedback instructions` }],
    },
    got.records,
  );
};

/**
 * Slot `reviseCorrection` (role "manager", Figure 8): new correction instructions from the last unhelpful correction,
 * the manager shown the agent's last reply and prompt (instructions and data block: question, evidence, s', the
 * feedback it had to apply) and the gold SQL as the ideal output. Instructions that give the gold SQL away (a near
 * copy counts, `leaks.ts`) or a row of its result are refused and redone (`maxLeakRetries` times), unusable ones
 * (`maxUnusableRetries` times); then the previous instructions are kept.
 */
export const reviseCorrectionNode: CycleNode = (deps, options) => async (state) => {
  const { maxLeakRetries, maxUnusableRetries } = readOptions(MAGIC_FEEDBACK_OPTIONS, options);
  const gold = await deps.executor.run(state.dbPath, state.goldSql, { timeoutMs: (options.timeoutMs as number | undefined) ?? DEFAULTS.timeoutMs, maxRows: 200 });
  const goldRows = gold.ok ? gold.rows : [];
  // What the correction agent is shown anyway: a gold value already there gives nothing away.
  const evidence = correctorEvidenceOf(options, state.evidence);
  const shownAnyway = [state.question, evidence, state.incorrectSql, state.latestFeedback].join("\n");
  const prompt = revisePrompt({
    agent: "correction",
    revisions: state.correctionRevisions,
    instructions: state.correctionInstructions || CORRECTION_INSTRUCTIONS,
    lastOutput: state.correctionReply,
    question: state.question,
    evidence,
    incorrectSql: state.incorrectSql,
    goldSql: state.goldSql,
    feedback: state.latestFeedback,
  });
  const leakOf = (text: string) =>
    containsSql(text, state.goldSql, shownToCorrector(state, options)) ? "the gold SQL" : leakedRow(text, goldRows, shownAnyway) ? "a row of the gold result" : undefined;
  const got = await askRevision(deps, prompt, { unusable: maxUnusableRetries, leaks: maxLeakRetries }, leakOf);
  const revised = got.text;
  return withCalls(
    {
      correctionInstructions: revised || state.correctionInstructions,
      correctionRevisions: state.correctionRevisions + (revised ? 1 : 0),
      leakRefusals: got.leaks,
      unusableManagerReplies: got.unusable,
      failedRevisions: revised ? 0 : 1,
      attempts: [{ node: "reviseCorrection", sql: state.sql, ok: !!revised, note: revised ? undefined : `${got.note ?? "no instructions"}; kept the previous correction instructions` }],
    },
    got.records,
  );
};

/**
 * No-manager ablation, slot `check` (no model call): executes the revision and records the scorer's verdict for the
 * statistics (Figure 3, Table 4). Nothing routes on that verdict: the feedback agent decides when to stop.
 */
export const checkNode: CycleNode = (deps, options) => async (state) => {
  const run = { timeoutMs: (options.timeoutMs as number | undefined) ?? DEFAULTS.timeoutMs, previewRows: (options.previewRows as number | undefined) ?? DEFAULTS.previewRows };
  const [execution, scored] = await Promise.all([executeSql(deps.executor, state.dbPath, state.sql, run), scoreIteration(deps, options, state, "check")]);
  return { ...scored, execution, judgedCorrect: null };
};

export const VerdictSchema = z.object({ correct: z.boolean(), reason: z.string().default("") });

const resultText = (execution: { ok: boolean; preview?: Parameters<typeof formatTable>[0]; error?: string } | null | undefined) =>
  execution?.ok && execution.preview ? formatTable(execution.preview) : `error: ${execution?.error ?? "not executed"}`;

/**
 * No-manager ablation, slot `judge` (role "feedback"). Without the manager, "the feedback agent controls the maximum
 * iteration count and utilizes the SQL executor tool to compare the execution results of the revised SQL with the
 * ground truth SQL" (§4, RQ3): it is shown the question, the gold SQL and revision, and both results, and decides
 * itself (no scorer check routes the cycle). Its verdict goes nowhere else: the correction agent never sees it.
 * Out: judgedCorrect. An unusable reply counts as "not correct", so the cycle goes on (bounded by maxIter).
 */
export const judgeNode: CycleNode = (deps, options) => async (state) => {
  const run = { timeoutMs: (options.timeoutMs as number | undefined) ?? DEFAULTS.timeoutMs, previewRows: (options.previewRows as number | undefined) ?? DEFAULTS.previewRows };
  const gold = await executeSql(deps.executor, state.dbPath, state.goldSql, run);
  const reply = await callStructured(
    deps.models,
    "feedback",
    judgePrompt({ question: state.question, evidence: state.evidence, goldSql: state.goldSql, goldResult: resultText(gold), revisedSql: state.sql, result: resultText(state.execution) }),
    VerdictSchema,
    { name: "verdict" },
  );
  const judged = reply.ok ? reply.value.correct : false;
  const note = reply.ok ? `judged ${judged ? "correct" : "incorrect"}: ${reply.value.reason}` : `unusable verdict (${reply.error}): not correct`;
  return withCalls({ judgedCorrect: judged, attempts: [{ node: "judge", sql: state.sql, ok: reply.ok, note }] }, reply.records);
};
