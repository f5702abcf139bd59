import fs from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import type { NodeFactory } from "../types.ts";
import type { Command } from "@langchain/langgraph";
import type { MagicGuidelineUpdate, MagicGuidelineValue, MagicUpdate, MagicValue } from "../../state/magic.ts";
import { type ChatInput, callModel } from "../../tools/models/llm.ts";
import type { ModelCallRecord } from "../../state/usage.ts";
import { stripThinking } from "../../tools/reply.ts";
import { UserError } from "../../core/errors.ts";
import { DEFAULTS, withCalls, writeSqlStep } from "../common.ts";
import { executeSql } from "../execute.ts";
import { guidelineCorrectionPrompt, mergePrompt, unusableGuideline } from "./prompts.ts";
import { correctorEvidenceOf } from "./options.ts";

/** Reads a guideline file: any Markdown. A missing, unreadable or empty file is a one-line error. */
export function readGuideline(file: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(`--guideline ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : "unreadable"}`);
  }
  if (!text.trim()) throw new UserError(`--guideline ${file}: the file is empty`);
  return text;
}

/** Where the guideline text comes from: read once at build time (so a bad file fails before any question runs). */
export const guidelineFrom = (options: Record<string, unknown>): string | undefined => {
  const given = options.guideline;
  if (typeof given !== "string" || !given.trim()) return undefined;
  return readGuideline(path.resolve(typeof options.cwd === "string" ? options.cwd : process.cwd(), given));
};

/** A node of graph `magic`: reads its state, returns an update (a replacement may route with a Command). */
type MagicNode = NodeFactory<MagicValue, MagicUpdate | Command>;

/** A guideline's identity in outcomes and reports: the first 12 hex digits of its text's sha256. */
export const guidelineHashOf = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 12);

/**
 * Graph `magic`, slot `correct` (role "corrector"). In: sql (the initial SQL), schemaText, question, evidence, and
 * the guideline (an option). Out: initialSql, sql (the revision). The model walks the guideline's ask-yourself
 * questions against the SQL, then writes the revised SQL; a reply without SQL keeps the initial SQL.
 */
export const applyGuidelineNode: MagicNode = (deps, options) => {
  const guideline = guidelineFrom(options);
  const guidelineHash = guideline === undefined ? "" : guidelineHashOf(guideline);
  return async (state) => {
    if (guideline === undefined) throw new Error("magic needs a guideline: --guideline FILE (or the graph option 'guideline')");
    const evidence = correctorEvidenceOf(options, state.evidence);
    const prompt = guidelineCorrectionPrompt({ guideline, schemaText: state.schemaText, question: state.question, evidence, sql: state.sql });
    const update = await writeSqlStep(deps.models, "corrector", prompt, "correct", state);
    // writeSqlStep leaves sql out of an update whose reply held none: the initial SQL stands.
    return { ...update, initialSql: state.sql, guidelineHash, revision: update.sql === undefined ? "no SQL" : "" };
  };
};

/**
 * Graph `magic`, slot `check` (no model call): executes the revision; one that does not execute gives way to the
 * initial SQL. Out: sql, execution, an attempt saying which was kept.
 */
export const keepExecutableNode: MagicNode = (deps, options) => async (state) => {
  const run = { timeoutMs: (options.timeoutMs as number | undefined) ?? DEFAULTS.timeoutMs, previewRows: (options.previewRows as number | undefined) ?? DEFAULTS.previewRows };
  const execution = await executeSql(deps.executor, state.dbPath, state.sql, run);
  if (execution.ok || state.sql === state.initialSql) {
    const revision = state.revision || (state.sql === state.initialSql ? "unchanged" : "revised");
    return { execution, revision, attempts: [{ node: "check", sql: state.sql, ok: execution.ok, note: execution.ok ? undefined : `${execution.errorKind}: ${execution.error}` }] };
  }
  const initial = await executeSql(deps.executor, state.dbPath, state.initialSql, run);
  return {
    sql: state.initialSql,
    execution: initial,
    revision: "does not execute",
    attempts: [{ node: "check", sql: state.sql, ok: false, note: `revision does not execute (${execution.errorKind}: ${execution.error}); kept the initial SQL` }],
  };
};

/** Figure 9's guideline is numbered reminders: a reply without one (a refusal, a chat answer) is no guideline. */
const NUMBERED_REMINDER = /^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*)?\d+[.)][ \t]*\S/gm;

export const remindersIn = (text: string) => (text.match(NUMBERED_REMINDER) ?? []).length;

/**
 * Why a merged guideline cannot replace the guideline so far, or undefined: empty, no numbered reminder, or fewer
 * than half the reminders it had (the reply replaces the whole guideline, so a merge that drops most of it — a
 * truncated reply, a reply about the new batch only — would silently lose earlier batches).
 */
export function unusableGuidelineWhy(text: string, previous: string): string | undefined {
  if (!text) return "empty guideline";
  const now = remindersIn(text);
  if (!now) return "reply holds no numbered reminder (Figure 9's format)";
  const before = remindersIn(previous);
  if (now * 2 < before) return `it keeps ${now} of the ${before} reminders so far`;
  return undefined;
}

/**
 * Graph `magic-guideline`, slot `merge` (role "manager", Figure 9). In: guideline (so far), batch. Out: guideline
 * (the whole updated guideline), merged, unusableReplies. An unusable reply (`unusableGuidelineWhy`) is asked again
 * (option `maxUnusableRetries`, default 1), then the guideline so far is kept and `merged` is false: the command
 * writes no snapshot for the batch and exits 3. A call that gets no reply is not re-asked (the client retried it).
 */
export const mergeNode: NodeFactory<MagicGuidelineValue, MagicGuidelineUpdate | Command> = (deps, options) => async (state) => {
  if (!state.batch.length) throw new Error("magic-guideline merges batches of successful feedbacks: run it through 'sqlmend magic guideline'");
  const retries = typeof options.maxUnusableRetries === "number" ? options.maxUnusableRetries : 1;
  let conversation: ChatInput[] = mergePrompt({ guideline: state.guideline, batch: state.batch });
  const records: ModelCallRecord[] = [];
  let unusable = 0;
  let text = "";
  let note: string | undefined;
  for (;;) {
    const call = await callModel(deps.models, "manager", conversation);
    records.push(call.record);
    if (!call.ok) {
      note = `${call.record.error}; kept the guideline so far`;
      break;
    }
    text = stripThinking(call.text);
    const fenced = /^```(?:markdown|md)?\n([\s\S]*?)\n```$/.exec(text);
    if (fenced) text = fenced[1]!.trim();
    const why = unusableGuidelineWhy(text, state.guideline);
    if (!why) break;
    unusable++;
    text = "";
    call.record.error = why;
    note = `${why}${unusable > 1 ? ` (${unusable} replies)` : ""}; kept the guideline so far`;
    if (unusable > retries) break;
    conversation = [...conversation, { role: "assistant", content: call.text }, { role: "user", content: unusableGuideline(why) }];
  }
  if (text) note = undefined;
  return withCalls({ guideline: text || state.guideline, merged: !!text, unusableReplies: unusable, attempts: [{ node: "merge", sql: "", ok: !!text, note }] }, records);
};
