/**
 * `sqlmend inspect` and `sqlmend threads` as functions a script can call: a thread read by `readThread` and printed
 * (overview, one step, its state, the diff per step, the gold per step, the error with its stack), and the threads of
 * the checkpoint store or of a run folder (filtered by verdict and outcome, from `readRun`).
 */
import { UserError } from "../../core/errors.ts";
import { type ConfigOf, opt, optionUsageError } from "../../core/config.ts";
import { INSPECT_CONFIG, THREADS_CONFIG } from "./inspect-config.ts";
export { INSPECT_CONFIG, THREADS_CONFIG };
import { formatTable } from "../../tools/format.ts";
import type { ResultPreview } from "../../state/result.ts";
import { formatUsage } from "../run/progress.ts";
import { readRun, readThread } from "./read-trace.ts";
import type { FieldDiff, RunQuestion, StepError, ThreadView, TraceStep, Verdict } from "./trace-types.ts";


/** What `inspectThread` takes: the thread, `inspect`'s options (typed), and where paths and the data directory are read from. */
export type InspectArgs = ConfigOf<typeof INSPECT_CONFIG> & { threadId: string; env: NodeJS.ProcessEnv; cwd: string };

/** What `sqlmend inspect` prints for a thread. */
export async function inspectThread(args: InspectArgs): Promise<string> {
  if (args.gold && !args.run) throw optionUsageError`${opt("gold")} needs the thread's run folder: ${opt("run")} DIR (its benchmark holds the gold SQL)`;
  const view = await readThread(args.threadId, {
    ...(args.checkpoints !== undefined ? { checkpoints: args.checkpoints } : {}),
    ...(args.run ? { run: args.run } : {}),
    ...(args.graph ? { graph: args.graph } : {}),
    state: args.state === true && args.step !== undefined,
    gold: args.gold === true,
    env: args.env,
    cwd: args.cwd,
  });
  if (args.step !== undefined) {
    const step = view.steps.find((s) => s.step === args.step);
    if (!step) throw new UserError(`thread '${args.threadId}' has steps ${view.steps[0]?.step ?? 1} to ${view.steps.at(-1)?.step ?? 0}; no step ${args.step}`);
    if (args.json) return `${JSON.stringify(step, null, 2)}\n`;
    return renderStep(step, args.state === true);
  }
  if (args.json) return `${JSON.stringify(args.state ? view : { ...view, steps: view.steps.map(({ calls, ...s }) => ({ ...s, calls: calls.map(({ messages, ...c }) => ({ ...c, promptMessages: messages.length })) })) }, null, 2)}\n`;
  return renderOverview(view, { diff: args.diff === true, state: args.state === true });
}

const summarizeValue = (value: unknown, max = 160): string => {
  if (typeof value === "string") return value.length > max ? `${JSON.stringify(value.slice(0, max - 3))}... (${value.length} chars)` : JSON.stringify(value);
  const text = JSON.stringify(value);
  return text && text.length > max ? `${text.slice(0, max - 3)}...` : String(text);
};

const executionSummary = (value: unknown): string => {
  const e = value as { ok?: boolean; preview?: { rowCount?: number }; errorKind?: string; error?: string } | null;
  if (!e) return "execution=null";
  return e.ok ? `execution=ok, ${e.preview?.rowCount ?? 0} rows` : `execution=${e.errorKind} error: ${e.error}`;
};

/** What the link node found, in one line: counts, how it ranked, and why it fell back. */
const linkingSummary = (value: unknown): string => {
  const l = value as { keywords?: unknown[]; columns?: unknown[]; values?: Array<{ value: string }>; ranking?: string; note?: string } | null;
  if (!l) return "linking=null";
  const shown = (l.values ?? []).slice(0, 3).map((v) => `'${v.value}'`).join(", ");
  return `linking=${l.keywords?.length ?? 0} keywords, ${l.columns?.length ?? 0} columns, ${l.values?.length ?? 0} values${shown ? ` (${shown}${(l.values?.length ?? 0) > 3 ? ", ..." : ""})` : ""}, ranked ${l.ranking === "embeddings" ? "by embeddings" : "lexically"}${l.note ? ` (${l.note})` : ""}`;
};

/** The attempt history repeats what the overview shows, except the notes saying why a node kept its SQL. */
const attemptNotes = (value: unknown): string =>
  (Array.isArray(value) ? value : [])
    .map((a: { note?: string }) => a.note)
    .filter(Boolean)
    .map((note) => `note: ${note}`)
    .join("; ");

/** "review ×3" for a node that ran as several parallel tasks in the step. */
function nodeList(nodes: string[]): string {
  const counts = new Map<string, number>();
  for (const node of nodes) counts.set(node, (counts.get(node) ?? 0) + 1);
  return [...counts].map(([node, n]) => (n > 1 ? `${node} ×${n}` : node)).join(", ");
}

/** The error a node threw: slot, class, message, where in the user's code, and the stack. */
export function renderError(error: StepError, indent = ""): string[] {
  const out = [`${indent}Error${error.slot ? ` in slot '${error.slot}'` : ""}: ${error.errorClass}: ${error.message.split("\n")[0]}`];
  if (error.at) out.push(`${indent}  at ${error.at}`);
  if (error.stack) out.push(...error.stack.split("\n").slice(1, 13).map((l) => `${indent}  ${l.trim()}`));
  return out;
}

const goldMark = (step: TraceStep): string => (step.gold ? `  [gold: ${step.gold.correct ? "right" : "wrong"}${step.gold.marks.length ? `, ${step.gold.marks.join(", ")}` : ""}${step.gold.error ? ` (${step.gold.error})` : ""}]` : "");

function diffLine(d: FieldDiff): string {
  if (d.change === "added") return `+ ${d.field}: ${summarizeValue(d.after, 200)}`;
  if (d.change === "removed") return `- ${d.field} (was ${summarizeValue(d.before, 200)})`;
  return `~ ${d.field}: ${summarizeValue(d.before, 100)} → ${summarizeValue(d.after, 200)}`;
}

function renderOverview(view: ThreadView, opts: { diff: boolean; state: boolean }): string {
  const v = view.state as Record<string, unknown> & { execution?: { ok?: boolean; preview?: ResultPreview; errorKind?: string; error?: string } | null; usage?: Parameters<typeof formatUsage>[0] };
  const out: string[] = [];
  const status = view.error ? `failed in slot '${view.error.slot ?? "?"}'` : view.finished ? "finished" : `unfinished, next: ${view.next.join(", ")}`;
  out.push(`Thread ${view.threadId} (graph ${view.graph ?? "?"}${view.readAs === "generic" ? ", read from the checkpoints alone" : ""}) — ${status}`);
  if (view.note) out.push(`Note: ${view.note}`);
  if (view.forkedFrom) out.push(`Forked from thread ${view.forkedFrom.threadId} at checkpoint ${view.forkedFrom.checkpointId} (its first ${view.forkedFrom.prefixSteps} steps reused)`);
  if (view.question !== undefined) out.push(`Question: ${view.question}`);
  if (v.evidence) out.push(`Evidence: ${String(v.evidence)}`);
  if (v.dbPath) out.push(`Database: ${String(v.dbPath)}`);
  if (view.initialSql !== undefined) out.push("", `Initial SQL:\n${view.initialSql || "(none)"}`);
  out.push("", `SQL:\n${view.finalSql || "(none)"}`, "");
  if (v.execution?.ok && v.execution.preview) out.push(formatTable(v.execution.preview));
  else if (v.execution) out.push(`Execution: ${v.execution.errorKind}: ${v.execution.error}`);
  if (v.usage) out.push("", `Tokens: ${formatUsage(v.usage)}`);
  if (view.outcome) out.push(`Outcome: ${Object.entries(view.outcome).map(([key, value]) => `${key} ${value}`).join(", ")}`);
  if (view.error) out.push("", ...renderError(view.error));
  if (view.goldSummary) {
    const g = view.goldSummary;
    out.push("", `Gold: final SQL ${g.finalCorrect ? "right" : "wrong"}; first right at step ${g.firstRight ?? "-"}${g.broke?.length ? `; broken at step ${g.broke.join(", ")}` : ""}; last SQL change at step ${g.last ?? "-"}`);
  } else if (view.goldNote) out.push("", `Gold: not given (${view.goldNote})`);
  out.push("", "Steps (sqlmend inspect THREAD --step N for prompts and replies, --state for the full state):");
  for (const step of view.steps) {
    const changed = Object.values(step.writes)
      .flatMap((update) => Object.entries(update).map(([key, value]) => (key === "attempts" ? ("execution" in update ? "" : attemptNotes(value)) : key === "execution" ? executionSummary(value) : key === "linking" ? linkingSummary(value) : `${key}=${summarizeValue(value)}`)))
      .filter(Boolean)
      .join("; ");
    const calls = step.calls.length ? `  [${step.calls.length} model call${step.calls.length > 1 ? "s" : ""}: ${step.calls.map((c) => `${c.role} ${c.inputTokens}/${c.outputTokens} tok${c.cached ? " (cached)" : ""}${c.reused ? " (reused)" : ""}${c.error ? ` (${c.error})` : ""}`).join(", ")}]` : "";
    const pending = step.pending ? " (did not complete)" : "";
    out.push(`  ${String(step.step).padStart(3)}  ${nodeList(step.slots).padEnd(10)} ${changed || "(no change)"}${calls}${pending}${goldMark(step)}`);
    if (step.error) out.push(`       error in slot '${step.error.slot ?? "?"}': ${step.error.errorClass}: ${step.error.message.split("\n")[0]}${step.error.at ? ` (at ${step.error.at})` : ""}`);
    if (opts.diff) for (const d of step.diff) out.push(`       ${diffLine(d)}`);
  }
  if (opts.state) out.push("", "Final state:", JSON.stringify(view.state, null, 2));
  return `${out.join("\n")}\n`;
}

function renderStep(step: TraceStep, withState: boolean): string {
  const out: string[] = [`Step ${step.step}: ${nodeList(step.slots)}${step.pending ? " (did not complete)" : step.next.length ? ` → next: ${step.next.join(", ")}` : " → end"}${goldMark(step)}`, ""];
  if (step.error) out.push(...renderError(step.error), "");
  for (const [node, update] of Object.entries(step.writes)) {
    out.push(`${node} wrote:`);
    for (const [key, value] of Object.entries(update)) out.push(`  ${key}: ${typeof value === "string" ? value : JSON.stringify(value, null, 2).replace(/\n/g, "\n  ")}`);
    out.push("");
  }
  if (step.diff.length) out.push("Changed:", ...step.diff.map((d) => `  ${diffLine(d)}`), "");
  step.calls.forEach((call, i) => {
    out.push(`Model call ${i + 1}: role ${call.role}${call.node ? ` (node ${call.node})` : ""}, model ${call.model}, ${call.inputTokens} in / ${call.outputTokens} out, ${Math.round(call.latencyMs)} ms${call.method ? `, ${call.method}` : ""}${call.cached ? `, served by the response cache (saved ${call.savedInputTokens ?? 0} in / ${call.savedOutputTokens ?? 0} out)` : ""}${call.reused ? ", reused (an identical earlier request's reply)" : ""}${call.error ? `, error: ${call.error}` : ""}`);
    for (const m of call.messages) out.push(`--- ${m.role} ---`, m.content);
    out.push("--- reply ---", call.reply || "(empty)", "");
  });
  if (withState && step.state) out.push("State after the step:", JSON.stringify(step.state, null, 2), "");
  return `${out.join("\n")}\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// threads


/** What `listThreadLines` takes: `threads`' options (typed) and where paths and the data directory are read from. */
export type ThreadsArgs = ConfigOf<typeof THREADS_CONFIG> & { env: NodeJS.ProcessEnv; cwd: string };

export interface ThreadLine {
  threadId: string;
  graph?: string;
  question?: string;
  checkpoints?: number;
  updatedAt?: string;
  /** From the run (`--run`): the question's id, verdict and outcome. */
  id?: string;
  verdict?: Verdict;
  outcome?: RunQuestion["outcome"];
  failure?: string;
}

const VERDICT_NAMES: Verdict[] = ["right", "wrong", "failed", "skipped", "unscored"];

/** The questions of a run whose verdict and outcome match, as thread lines (no checkpoint opened). */
export async function listRunThreads(args: Pick<ThreadsArgs, "run" | "verdict" | "outcome" | "prefix" | "limit" | "cwd">): Promise<ThreadLine[]> {
  if (!args.run) throw optionUsageError`name the run folder: ${opt("run")} DIR`;
  const verdicts = (args.verdict ?? []).flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
  for (const v of verdicts) if (!VERDICT_NAMES.includes(v as Verdict)) throw optionUsageError`${opt("verdict")} takes ${VERDICT_NAMES.join(", ")}, not '${v}'`;
  const filters = (args.outcome ?? []).map((item) => {
    const at = item.indexOf("=");
    if (at <= 0) throw optionUsageError`${opt("outcome")} takes KEY=VALUE, not '${item}'`;
    return { key: item.slice(0, at), value: item.slice(at + 1) };
  });
  const run = await readRun((await import("node:path")).resolve(args.cwd, args.run));
  const lines = run.questions
    .filter((q) => !verdicts.length || verdicts.includes(q.verdict))
    .filter((q) => filters.every(({ key, value }) => q.outcome !== undefined && key in q.outcome && String(q.outcome[key]) === value))
    .filter((q) => !args.prefix || q.threadId.startsWith(args.prefix))
    .map((q): ThreadLine => ({ threadId: q.threadId, graph: run.graph, question: q.question, id: q.id, verdict: q.verdict, ...(q.outcome ? { outcome: q.outcome } : {}), ...(q.failure ? { failure: q.failure } : {}) }));
  return args.limit !== undefined ? lines.slice(0, args.limit) : lines;
}

/** `sqlmend threads`: a run's threads (`--run`), else the checkpoint store's, newest first. */
export async function listThreadLines(args: ThreadsArgs): Promise<{ lines: ThreadLine[]; location: string }> {
  if (args.run) return { lines: await listRunThreads(args), location: args.run };
  if (args.verdict?.length || args.outcome?.length) throw optionUsageError`${opt("verdict")} and ${opt("outcome")} filter a run's questions: add ${opt("run")} DIR`;
  const { listThreads, openReadyCheckpointer } = await import("../../storage/checkpoints.ts");
  const store = await openReadyCheckpointer(args.checkpoints, args.env, args.cwd, { mustExist: true });
  try {
    if (!store.db && !store.postgres) throw new UserError("an in-memory store holds no threads between runs");
    return { lines: await listThreads(store, args.limit ?? 50, args.prefix), location: store.location };
  } finally {
    store.close();
  }
}

/** One line per thread, as `sqlmend threads` prints them. */
export function renderThreadLines(lines: ThreadLine[], location: string): string {
  if (!lines.length) return `no threads in ${location}\n`;
  return lines
    .map((t) => {
      const question = (t.question ?? "").replace(/\s+/g, " ");
      const short = question.length > 70 ? `${question.slice(0, 67)}...` : question;
      if (t.verdict) return `${t.threadId || `${t.id} (no thread)`}  ${t.verdict}${t.failure && t.verdict === "failed" ? ` (${t.failure.slice(0, 80)})` : ""}  ${short}\n`;
      return `${t.threadId}  ${t.graph ?? "?"}  ${t.checkpoints} checkpoints  ${t.updatedAt ?? ""}  ${short}\n`;
    })
    .join("");
}
