import type { NodeFactory } from "../types.ts";
import type { Command } from "@langchain/langgraph";
import type { MagicGuidelineUpdate, MagicGuidelineValue, MagicUpdate, MagicValue } from "../../state/magic.ts";
/** Reads a guideline file: any Markdown. A missing, unreadable or empty file is a one-line error. */
export declare function readGuideline(file: string): string;
/** Where the guideline text comes from: read once at build time (so a bad file fails before any question runs). */
export declare const guidelineFrom: (options: Record<string, unknown>) => string | undefined;
/** A node of graph `magic`: reads its state, returns an update (a replacement may route with a Command). */
type MagicNode = NodeFactory<MagicValue, MagicUpdate | Command>;
/** A guideline's identity in outcomes and reports: the first 12 hex digits of its text's sha256. */
export declare const guidelineHashOf: (text: string) => string;
/**
 * Graph `magic`, slot `correct` (role "corrector"). In: sql (the initial SQL), schemaText, question, evidence, and
 * the guideline (an option). Out: initialSql, sql (the revision). The model walks the guideline's ask-yourself
 * questions against the SQL, then writes the revised SQL; a reply without SQL keeps the initial SQL.
 */
export declare const applyGuidelineNode: MagicNode;
/**
 * Graph `magic`, slot `check` (no model call): executes the revision; one that does not execute gives way to the
 * initial SQL. Out: sql, execution, an attempt saying which was kept.
 */
export declare const keepExecutableNode: MagicNode;
/**
 * The guideline in a merge reply: its numbered reminders and their nested parts (fields, bullets, SQL blocks), and
 * nothing else. A chat preface ("Sure! Here is the updated guideline:"), a ```markdown wrapper, a sign-off, or a
 * trailing SQL block after the last reminder is dropped; `strippedLines` counts the non-blank lines dropped.
 */
export declare function guidelineOf(reply: string): {
    text: string;
    reminders: number;
    strippedLines: number;
};
/** Figure 9's guideline is numbered reminders; their nested numbered questions do not count. */
export declare const remindersIn: (text: string) => number;
/**
 * Why a merged guideline cannot replace the guideline so far, or undefined: empty, no numbered reminder, or fewer
 * than half the reminders it had (the reply replaces the whole guideline, so a merge that drops most of it — a
 * truncated reply, a reply about the new batch only — would silently lose earlier batches).
 */
export declare function unusableGuidelineWhy(text: string, previous: string): string | undefined;
/**
 * Graph `magic-guideline`, slot `merge` (role "manager", Figure 9). In: guideline (so far), batch. Out: guideline
 * (the whole updated guideline: the reply's numbered reminders only, `guidelineOf`), merged, unusableReplies,
 * strippedLines (the reply's other lines, dropped). An unusable reply (`unusableGuidelineWhy`) is asked again
 * (option `maxUnusableRetries`, default 1), then the guideline so far is kept and `merged` is false: the command
 * writes no snapshot for the batch and exits 3. A call that gets no reply is not re-asked (the client retried it).
 */
export declare const mergeNode: NodeFactory<MagicGuidelineValue, MagicGuidelineUpdate | Command>;
export {};
