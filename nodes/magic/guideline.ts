import fs from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import type { NodeFactory } from "../types.ts";
import type { Command } from "@langchain/langgraph";
import type { MagicGuidelineUpdate, MagicGuidelineValue, MagicUpdate, MagicValue } from "../../state/magic.ts";
import { type ChatInput, callModel } from "../../tools/models/llm.ts";
import type { ModelCallRecord } from "../../state/usage.ts";
import { stripThinking } from "../../tools/reply.ts";
import { graphOpt, optionUserError } from "../../core/config.ts";
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
    throw optionUserError`${graphOpt("guideline")} ${file}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : "unreadable"}`;
  }
  if (!text.trim()) throw optionUserError`${graphOpt("guideline")} ${file}: the file is empty`;
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

const NUMBERED = /^([ \t]*)(#{1,6}[ \t]*)?(?:\*\*)?\d+[.)][ \t]*\S/;
const FENCE = /^([ \t]*)(```|~~~)[ \t]*([\w+-]*)/;
/** Figure 9's fields of a reminder, which a model may write without a bullet. */
const FIELD = /^[ \t]*(?:[-*+\u2022][ \t]*)?(?:\*\*)?(?:question|incorrect sql|corrected sql|negative and strict|ask-to-myself|did i\b|have i\b)/i;
/** A numbered ask-yourself question (Figure 9: "Did I ...?", "Have I ...?"). */
const ASK_MYSELF = /^[ \t]*(?:\*\*)?\d+[.)][ \t]*(?:\*\*)?(?:did|have|do|am|is|was|were|should|could|does|are|can|will|would)[ \t]+(?:i|my|the query|the sql)\b[^\n]*\?[ \t*]*$/i;
const NESTED = /^(?:[ \t]+\S|[ \t]*[-*+\u2022][ \t]+\S)/;

/** The numbered lines that start a reminder (not the numbered questions nested in one), as line indexes. */
function reminderStarts(lines: string[], opaque: boolean[]): number[] {
  const numbered = lines.flatMap((line, i) => {
    const m = !opaque[i] && NUMBERED.exec(line);
    return m ? [{ i, indent: m[1]!.replace(/\t/g, "    ").length, heading: !!m[2], question: ASK_MYSELF.test(line) }] : [];
  });
  // Numbered headings ("#### 2. Incorrect filtering", Figures 11-14) are the reminders when there are any; else the
  // least indented numbered lines, less those that are ask-yourself questions ("3. Did I ...?": a reminder's title
  // names a mistake).
  const headings = numbered.filter((n) => n.heading);
  if (headings.length) return headings.map((n) => n.i);
  const indent = Math.min(...numbered.map((n) => n.indent));
  const outer = numbered.filter((n) => n.indent === indent);
  const titles = outer.filter((n) => !n.question);
  return (titles.length ? titles : outer).map((n) => n.i);
}

/**
 * The guideline in a merge reply: its numbered reminders and their nested parts (fields, bullets, SQL blocks), and
 * nothing else. A chat preface ("Sure! Here is the updated guideline:"), a ```markdown wrapper, a sign-off, or a
 * trailing SQL block after the last reminder is dropped; `strippedLines` counts the non-blank lines dropped.
 */
export function guidelineOf(reply: string): { text: string; reminders: number; strippedLines: number } {
  let text = reply.trim();
  const wrapped = /^```(?:markdown|md)?[ \t]*\n([\s\S]*?)\n```$/.exec(text);
  if (wrapped) text = wrapped[1]!;
  const lines = text.split("\n");
  // Which lines are inside a code block (a ```markdown wrapper is not one: its fences are dropped, its text read).
  const opaque: boolean[] = [];
  const wrapper: boolean[] = [];
  let open: "code" | "wrapper" | undefined;
  let wrapperOpen = false;
  for (const line of lines) {
    const fence = FENCE.exec(line);
    if (open === "code") {
      opaque.push(true);
      wrapper.push(false);
      if (fence && !fence[3]) open = undefined;
      continue;
    }
    if (fence && (/^(?:markdown|md)$/i.test(fence[3]!) || (!fence[3] && wrapperOpen))) {
      wrapperOpen = !wrapperOpen;
      opaque.push(false);
      wrapper.push(true);
      continue;
    }
    if (fence) open = "code";
    opaque.push(!!fence);
    wrapper.push(false);
  }
  const nonBlank = lines.filter((l) => l.trim()).length;
  const starts = reminderStarts(lines, opaque);
  if (!starts.length) return { text: "", reminders: 0, strippedLines: nonBlank };
  // The last reminder runs on while its lines are nested: indented, bullets, Figure 9's fields, a SQL block it
  // introduces (after "…generated by me:") or indents. The first line of anything else ends the guideline.
  let last = starts.at(-1)!;
  let previous = lines[last]!;
  for (let i = last + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    if (wrapper[i]) break;
    const fence = FENCE.exec(line);
    if (fence) {
      const introduced = !!fence[1] || previous.trim().endsWith(":") || FIELD.test(previous);
      if (!introduced) break;
      let j = i + 1;
      while (j < lines.length && opaque[j] && !(FENCE.exec(lines[j]!) && !FENCE.exec(lines[j]!)![3])) j++;
      last = i = Math.min(j, lines.length - 1);
      previous = line;
      continue;
    }
    if (!(NESTED.test(line) || FIELD.test(line) || NUMBERED.test(line))) break;
    last = i;
    previous = line;
  }
  const kept = lines.slice(starts[0], last + 1).filter((_, k) => !wrapper[starts[0]! + k]);
  const out = kept.join("\n").trim();
  return { text: out, reminders: starts.length, strippedLines: nonBlank - kept.filter((l) => l.trim()).length };
}

/** Figure 9's guideline is numbered reminders; their nested numbered questions do not count. */
export const remindersIn = (text: string) => guidelineOf(text).reminders;

/**
 * Why a merged guideline cannot replace the guideline so far, or undefined: empty, no numbered reminder, or fewer
 * than half the reminders it had (the reply replaces the whole guideline, so a merge that drops most of it — a
 * truncated reply, a reply about the new batch only — would silently lose earlier batches).
 */
export function unusableGuidelineWhy(text: string, previous: string): string | undefined {
  if (!text.trim()) return "empty guideline";
  const now = remindersIn(text);
  if (!now) return "reply holds no numbered reminder (Figure 9's format)";
  const before = remindersIn(previous);
  if (now * 2 < before) return `it keeps ${now} of the ${before} reminders so far`;
  return undefined;
}

/**
 * Graph `magic-guideline`, slot `merge` (role "manager", Figure 9). In: guideline (so far), batch. Out: guideline
 * (the whole updated guideline: the reply's numbered reminders only, `guidelineOf`), merged, unusableReplies,
 * strippedLines (the reply's other lines, dropped). An unusable reply (`unusableGuidelineWhy`) is asked again
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
  let strippedLines = 0;
  for (;;) {
    const call = await callModel(deps.models, "manager", conversation);
    records.push(call.record);
    if (!call.ok) {
      note = `${call.record.error}; kept the guideline so far`;
      break;
    }
    const reply = stripThinking(call.text);
    const found = guidelineOf(reply);
    text = found.text;
    const why = unusableGuidelineWhy(reply, state.guideline);
    if (!why) {
      strippedLines = found.strippedLines;
      break;
    }
    unusable++;
    text = "";
    call.record.error = why;
    note = `${why}${unusable > 1 ? ` (${unusable} replies)` : ""}; kept the guideline so far`;
    if (unusable > retries) break;
    conversation = [...conversation, { role: "assistant", content: call.text }, { role: "user", content: unusableGuideline(why) }];
  }
  if (text) note = strippedLines ? `kept the numbered reminders; dropped ${strippedLines} other line${strippedLines === 1 ? "" : "s"} of the reply` : undefined;
  return withCalls({ guideline: text || state.guideline, merged: !!text, unusableReplies: unusable, strippedLines, attempts: [{ node: "merge", sql: "", ok: !!text, note }] }, records);
};
