import fs from "node:fs";
import path from "node:path";
import type { NodeDeps } from "../types.ts";
import type { MagicGuidelineValue, MagicValue } from "../../state/magic.ts";
import type { SqlStateUpdate } from "../../state/sql-state.ts";
import { callModel } from "../../tools/models/llm.ts";
import { stripThinking } from "../../tools/reply.ts";
import { UserError } from "../../core/errors.ts";
import { DEFAULTS, withCalls, writeSqlStep } from "../common.ts";
import { executeSql } from "../execute.ts";
import { guidelineCorrectionPrompt, mergePrompt } from "./prompts.ts";

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

type MagicNode = (deps: NodeDeps, options: Record<string, unknown>) => (state: MagicValue) => Promise<SqlStateUpdate & { initialSql?: string }>;

/**
 * Graph `magic`, slot `correct` (role "corrector"). In: sql (the initial SQL), schemaText, question, evidence, and
 * the guideline (an option). Out: initialSql, sql (the revision). The model walks the guideline's ask-yourself
 * questions against the SQL, then writes the revised SQL; a reply without SQL keeps the initial SQL.
 */
export const applyGuidelineNode: MagicNode = (deps, options) => {
  const guideline = guidelineFrom(options);
  return async (state) => {
    if (guideline === undefined) throw new Error("magic needs a guideline: --guideline FILE (or the graph option 'guideline')");
    const prompt = guidelineCorrectionPrompt({ guideline, schemaText: state.schemaText, question: state.question, evidence: state.evidence, sql: state.sql });
    return { ...(await writeSqlStep(deps.models, "corrector", prompt, "correct", state)), initialSql: state.sql };
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
    return { execution, attempts: [{ node: "check", sql: state.sql, ok: execution.ok, note: execution.ok ? undefined : `${execution.errorKind}: ${execution.error}` }] };
  }
  const initial = await executeSql(deps.executor, state.dbPath, state.initialSql, run);
  return {
    sql: state.initialSql,
    execution: initial,
    attempts: [{ node: "check", sql: state.sql, ok: false, note: `revision does not execute (${execution.errorKind}: ${execution.error}); kept the initial SQL` }],
  };
};

/** Figure 9's guideline is numbered reminders: a reply without one (a refusal, a chat answer) is no guideline. */
const NUMBERED_REMINDER = /^[ \t]*(?:#{1,6}[ \t]*)?(?:\*\*)?\d+[.)][ \t]*\S/m;

/**
 * Graph `magic-guideline`, slot `merge` (role "manager", Figure 9). In: guideline (so far), batch. Out: guideline
 * (the whole updated guideline), merged. An unusable reply — empty, or without a numbered reminder — keeps the
 * guideline so far and says why: the reply replaces the whole guideline, so a refusal must not wipe it out.
 */
export const mergeNode = (deps: NodeDeps) => async (state: MagicGuidelineValue) => {
  if (!state.batch.length) throw new Error("magic-guideline merges batches of successful feedbacks: run it through 'sqlmend magic guideline'");
  const call = await callModel(deps.models, "manager", mergePrompt({ guideline: state.guideline, batch: state.batch }));
  let text = call.ok ? stripThinking(call.text) : "";
  const fenced = /^```(?:markdown|md)?\n([\s\S]*?)\n```$/.exec(text);
  if (fenced) text = fenced[1]!.trim();
  if (!text && call.ok) call.record.error = "empty guideline";
  if (text && !NUMBERED_REMINDER.test(text)) {
    call.record.error = "reply holds no numbered reminder (Figure 9's format)";
    text = "";
  }
  const note = text ? undefined : `${call.record.error}; kept the guideline so far`;
  return withCalls({ guideline: text || state.guideline, merged: !!text, attempts: [{ node: "merge", sql: "", ok: !!text, note }] }, [call.record]);
};
