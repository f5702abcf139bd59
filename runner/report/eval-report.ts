import { maskSecrets } from "../../core/secrets.ts";
import { type DifficultyScore, EMPTY_PREDICTION, exByDifficulty, NO_GOLD, SEVERAL_STATEMENTS } from "../../tools/benchmarks/score.ts";
import { isMockRun, MOCK_CACHE_SETTING, MOCK_LABEL } from "../../tools/models/mock-label.ts";
import { type EvalRecord, failureOf, isFailed, methodCalls } from "../run/results-record.ts";
const pct = (n: number, d: number) => (d ? `${((n / d) * 100).toFixed(2)}` : "-");
const quantile = (values: number[], q: number) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

export interface ReportContext {
  graph: string;
  /** What fell back during the run: the response cache turned off, a damaged checkpoint file set aside. */
  notes?: string[];
  dataset: string;
  split: string;
  semantics: string;
  version: string;
  settings: Record<string, unknown>;
  models: Record<string, unknown>;
  skipped: { id: string; dbId: string; reason: string }[];
  selected: number;
  startedAt: string;
  finishedAt: string;
  command: string;
  /** The graph's summary of its questions' outcomes (`GraphSpec.outcome`), a line each. */
  outcomes?: string[];
  /** The run's defining step never happened (`degenerateLine`): said under the headline figures. */
  degenerate?: string;
  /** The folder the questions' databases came from, and the question file, for the metrics line. */
  databases?: string;
  questionsFile?: string;
  /** The command that made the run, in the title (default "eval"; a replay says so). */
  kind?: string;
  /** Sections of the command's own after the headline figures (a replay: what was reused, what was not replayed). */
  sections?: { title: string; lines: string[] }[];
  /** How its failed questions are run again, where not by `--resume` of this folder (a merged run: its shards'). */
  rerun?: string;
}

/** A 95 % interval of a percentage (0..100). */
export interface Interval {
  low: number;
  high: number;
}

export const Z95 = 1.959963984540054;

/** Wilson score 95 % interval of k successes in n trials, in percent; null for n = 0. */
export function wilsonInterval(k: number, n: number): Interval | null {
  if (n <= 0) return null;
  const p = k / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half) * 100, high: Math.min(1, centre + half) * 100 };
}

/**
 * Which model versions answered, from the records: the served versions of the live calls, and of the replies the
 * response cache served (made when they were stored). Says when more than one version answered, and counts cached
 * replies made by a version no live call of the run gave. Null when no call named a served version.
 */
export function servedSummary(records: Pick<EvalRecord, "served" | "servedCached">[]): { line: string; live: Record<string, number>; cached: Record<string, number>; versions: string[] } | null {
  const sum = (pick: (r: Pick<EvalRecord, "served" | "servedCached">) => Record<string, number> | undefined) => {
    const out: Record<string, number> = {};
    for (const r of records) for (const [k, n] of Object.entries(pick(r) ?? {})) out[k] = (out[k] ?? 0) + n;
    return out;
  };
  const live = sum((r) => r.served);
  const cached = sum((r) => r.servedCached);
  const versions = [...new Set([...Object.keys(live), ...Object.keys(cached)])].sort();
  if (!versions.length) return null;
  const list = (m: Record<string, number>) => Object.entries(m).sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k} (${n} call${n === 1 ? "" : "s"})`).join(", ");
  const parts: string[] = [];
  if (Object.keys(live).length) parts.push(`answered by ${list(live)}`);
  if (Object.keys(cached).length) parts.push(`from the response cache: made by ${list(cached)}`);
  const otherCached = Object.entries(cached).filter(([k]) => Object.keys(live).length && !(k in live));
  const notes: string[] = [];
  if (versions.length > 1) notes.push(`**more than one served version (${versions.length})** answered this run`);
  if (otherCached.length) notes.push(`${otherCached.reduce((a, [, n]) => a + n, 0)} cached replies were made by a served version no live call of this run gave (${otherCached.map(([k]) => k).join(", ")})`);
  return { line: `Served model: ${parts.join("; ")}${notes.length ? ` — ${notes.join("; ")}` : ""}`, live, cached, versions };
}

/** " [52.10, 70.30]": a 95 % interval as the tables print it; "" for none. */
export const intervalText = (i: Interval | null) => (i ? ` [${i.low.toFixed(2)}, ${i.high.toFixed(2)}]` : "");

export interface Summary {
  /** Answered questions with gold SQL: EX is over these. */
  total: number;
  correct: number;
  ex: number;
  /** Failed questions (`isFailed`): counted apart, not in EX. */
  failed: number;
  byDifficulty: DifficultyScore[];
  /** Questions run without gold SQL (own data): not scored, not in total. */
  noGold: number;
}

/** A record whose question had no gold SQL: run, not scored. */
export const unscored = (r: Pick<EvalRecord, "goldError">) => r.goldError === NO_GOLD;

/** EX over the answered questions that have gold SQL; failed ones counted apart (a down endpoint is not an EX of 0). */
export function summarize(records: EvalRecord[]): Summary {
  const answered = records.filter((r) => !isFailed(r));
  const scored = answered.filter((r) => !unscored(r));
  const correct = scored.filter((r) => r.correct).length;
  return {
    total: scored.length,
    correct,
    ex: scored.length ? (correct / scored.length) * 100 : 0,
    failed: records.length - answered.length,
    byDifficulty: exByDifficulty(scored),
    noGold: answered.length - scored.length,
  };
}

/** "EX 61.20% (120/197 answered, bird semantics); 3 failed — --resume retries them", or that EX is not available. */
export function exLine(s: Summary, extra = "", rerun = "--resume retries them"): string {
  const failed = s.failed ? `; ${s.failed} failed — ${rerun}` : "";
  if (!s.total && s.noGold) return `EX not available (no gold SQL: ${s.noGold} questions run, predictions written)${failed}`;
  const ex = `EX ${s.total ? pct(s.correct, s.total) : "-"}% (${s.correct}/${s.total}${s.failed ? " answered" : ""}${extra})`;
  return `${ex}${s.noGold ? `; ${s.noGold} without gold SQL not scored` : ""}${failed}`;
}

/** A corrector's question whose initial SQL was empty (a file holding none for it): nothing was corrected. */
export const emptyInitial = (r: Pick<EvalRecord, "initialSql">) => r.initialSql !== undefined && r.initialSql.trim() === "";

/** The requested model of a run's `models` (run.json's): the default one. */
const modelNameOf = (models: Record<string, unknown>): string | undefined => (typeof models.model === "string" ? models.model : undefined);

/** report.md: EX overall and per difficulty, cost per question, skipped questions, and every setting that shaped the run. */
export function renderReport(records: EvalRecord[], ctx: ReportContext): string {
  const s = summarize(records);
  const tokensIn = records.map((r) => r.inputTokens);
  const tokensOut = records.map((r) => r.outputTokens);
  const latency = records.map((r) => r.latencyMs);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const lines: string[] = [];
  lines.push(`# sqlmend ${ctx.kind ?? "eval"}: ${ctx.graph} on ${ctx.dataset} (${ctx.split})`, "");
  if (isMockRun({ models: ctx.models })) lines.push(`> **${MOCK_LABEL}**: the built-in mock model answered from the gold SQL, wrong on purpose for a set share of questions (\`--model mock\`). Its figures show the pipeline working, nothing about any method.`, "");
  if (!s.total && s.noGold) lines.push(`- Execution accuracy (EX): not available — no question has gold SQL (${s.noGold} run, predictions written)${s.failed ? `; **${s.failed} failed**` : ""}`);
  else {
    lines.push(`- Execution accuracy (EX): **${pct(s.correct, s.total)}%** (${s.correct}/${s.total}${s.failed ? ` answered; **${s.failed} failed** — not scored, ${ctx.rerun ?? "\`--resume\` retries them"}` : ""})${s.total ? `, 95 % interval${intervalText(wilsonInterval(s.correct, s.total))} (Wilson)` : ""}${s.noGold ? `; ${s.noGold} questions without gold SQL not scored` : ""}`);
    // As the official scorers count: every selected question, a failed or missing prediction wrong.
    const all = ctx.selected - ctx.skipped.length - s.noGold;
    if (all > s.total) lines.push(`- EX over all ${all} selected questions (failed and unrun ones wrong, as the official scorers count them): **${pct(s.correct, all)}%**${intervalText(wilsonInterval(s.correct, all))} — partial`);
  }
  if (ctx.degenerate) lines.push(`- **${ctx.degenerate}**`);
  lines.push(`- Scoring semantics: \`${ctx.semantics}\``);
  lines.push(`- Metrics computed: ${s.total ? "EX" : "none (no gold SQL)"}, on the databases in \`${ctx.databases ?? ctx.dataset}\`${ctx.questionsFile ? `; questions from \`${ctx.questionsFile}\`` : ""}`);
  lines.push(`- Questions: ${ctx.selected} selected, ${records.length} run (${records.length - s.failed} answered, ${s.failed} failed), ${ctx.selected - ctx.skipped.length - records.length} not run, ${ctx.skipped.length} skipped`);
  lines.push(`- sqlmend ${ctx.version}; started ${ctx.startedAt}, report written ${ctx.finishedAt}`);
  lines.push(`- Command: \`${maskSecrets(ctx.command)}\``);
  lines.push(`- ${ctx.settings.cache === "off" ? "Response cache: off" : ctx.settings.cache === MOCK_CACHE_SETTING ? `Response cache: ${MOCK_CACHE_SETTING}` : cacheSummary(records)}`);
  const empty = records.filter((r) => r.scoreNote === EMPTY_PREDICTION);
  const several = records.filter((r) => r.predError === SEVERAL_STATEMENTS).length;
  if (empty.length || several) lines.push(`- Scored by the official scorers' Python rules: ${[empty.length ? `${empty.length} predictions with no statement (empty or comments only), ${empty.filter((r) => r.correct).length} right because their gold returns no rows` : "", several ? `${several} with anything after the first statement's ';' (';;' too), wrong` : ""].filter(Boolean).join("; ")}`);
  const served = servedSummary(records);
  lines.push(`- Model: ${modelNameOf(ctx.models) ?? "none configured"}; ${served ? served.line.replace(/^Served model: /, "served: ") : "the server named no served version"}`, "");
  for (const section of ctx.sections ?? []) lines.push(`## ${section.title}`, "", ...section.lines, "");
  lines.push("## EX by difficulty", "", "| difficulty | questions | correct | EX % | 95 % interval |", "|---|---:|---:|---:|---:|");
  for (const d of s.byDifficulty) lines.push(`| ${d.difficulty} | ${d.count} | ${d.correct} | ${d.ex.toFixed(2)} |${intervalText(wilsonInterval(d.correct, d.count))} |`);
  lines.push(`| **all** | ${s.total} | ${s.correct} | ${pct(s.correct, s.total)} |${intervalText(wilsonInterval(s.correct, s.total))} |`, "", "95 % intervals: Wilson score intervals over the questions scored.", "");
  // A correction needs an initial SQL: a question written from an empty one is a generation, never credited as a correction.
  const corrected = records.filter((r) => r.initialCorrect !== undefined && !isFailed(r) && !emptyInitial(r));
  const fromEmpty = records.filter((r) => r.initialCorrect !== undefined && !isFailed(r) && emptyInitial(r)).length;
  if (corrected.length || fromEmpty) {
    const fixed = corrected.filter((r) => !r.initialCorrect && r.correct).length;
    const broken = corrected.filter((r) => r.initialCorrect && !r.correct).length;
    const initialEx = corrected.filter((r) => r.initialCorrect).length;
    lines.push("## Correction", "");
    lines.push(`- Initial EX: ${pct(initialEx, corrected.length)}% → final EX: ${pct(corrected.filter((r) => r.correct).length, corrected.length)}%`);
    lines.push(`- Corrected (wrong → right): ${fixed}; broken (right → wrong): ${broken}`);
    lines.push(`- Correction applied to ${records.filter((r) => r.correction === "applied").length} questions, skipped for ${records.filter((r) => r.correction?.startsWith("skipped")).length}`);
    if (fromEmpty) lines.push(`- Written from an empty initial SQL (not counted as corrections, nor in the EX above): ${fromEmpty}`);
    lines.push("");
  }
  lines.push(...swappedSlotLines(records, ctx.settings));
  const extracted = records.filter((r) => r.initialExtraction === "extracted").length;
  const noSql = records.filter((r) => r.initialExtraction === "none").length;
  if (extracted || noSql) {
    lines.push("## Initial predictions (--initial FILE)", "");
    lines.push(`- Not plain SQL, SQL extracted from the text (fences, prose): ${extracted}`);
    lines.push(`- Holding no SQL (corrected from an empty initial SQL): ${noSql}`, "");
  }
  if (ctx.outcomes?.length) {
    lines.push("## What the questions went through", "", ...ctx.outcomes.map((line) => `- ${line}`), "");
  }
  lines.push("## Cost per question", "", "| | mean | median | p90 | total |", "|---|---:|---:|---:|---:|");
  lines.push(`| input tokens | ${fmt(sum(tokensIn) / records.length)} | ${fmt(quantile(tokensIn, 0.5))} | ${fmt(quantile(tokensIn, 0.9))} | ${sum(tokensIn)} |`);
  lines.push(`| output tokens | ${fmt(sum(tokensOut) / records.length)} | ${fmt(quantile(tokensOut, 0.5))} | ${fmt(quantile(tokensOut, 0.9))} | ${sum(tokensOut)} |`);
  lines.push(`| model calls | ${fmt(sum(records.map((r) => r.calls)) / records.length, 2)} | | | ${sum(records.map((r) => r.calls))} |`);
  // Requests sent, above; replies a question reused from its own identical earlier request were not, and are apart.
  const reused = records.map((r) => (typeof r.outcome?.reusedReplies === "number" ? r.outcome.reusedReplies : 0));
  if (sum(reused)) lines.push(`| replies reused (not sent, not in model calls) | ${fmt(sum(reused) / records.length, 2)} | | | ${sum(reused)} |`);
  lines.push(`| latency (s) | ${fmt(sum(latency) / records.length / 1000, 2)} | ${fmt(quantile(latency, 0.5) / 1000, 2)} | ${fmt(quantile(latency, 0.9) / 1000, 2)} | |`);
  lines.push(`| iterations | ${fmt(sum(records.map((r) => r.iterations)) / records.length, 2)} | | | |`, "");
  lines.push(`- ${failureCost(records)}`, "");
  const roles = new Map<string, { calls: number; inputTokens: number; outputTokens: number }>();
  for (const r of records) {
    for (const [role, t] of Object.entries(r.usageByRole)) {
      const acc = roles.get(role) ?? { calls: 0, inputTokens: 0, outputTokens: 0 };
      roles.set(role, { calls: acc.calls + t.calls, inputTokens: acc.inputTokens + t.inputTokens, outputTokens: acc.outputTokens + t.outputTokens });
    }
  }
  if (roles.size) {
    lines.push("## Usage by agent role", "", "| role | calls | input tokens | output tokens |", "|---|---:|---:|---:|");
    for (const [role, t] of roles) lines.push(`| ${role} | ${t.calls} | ${t.inputTokens} | ${t.outputTokens} |`);
    lines.push("");
  }
  lines.push("## Errors", "");
  const predErrors = records.filter((r) => r.predError);
  lines.push(`- ${failedRuns(records, ctx.rerun) || "Failed questions: 0"}`);
  lines.push(`- Predictions that did not execute: ${predErrors.length}`);
  const failedCalls = callFailures(records);
  if (failedCalls) lines.push(`- ${failedCalls}`);
  if (ctx.notes?.length) lines.push(`- Fallbacks during the run: ${ctx.notes.length}`, ...ctx.notes.map((n) => `  - ${n}`));
  const unsent = records.filter((r) => r.trace && r.trace.feedback !== "sent");
  if (unsent.length) lines.push(`- Verdicts not sent to LangSmith as feedback: ${unsent.length} (first: ${unsent[0]!.id}: ${unsent[0]!.trace!.feedback})`);
  const restarted = records.filter((r) => r.checkpointRestart);
  if (restarted.length) lines.push(`- Questions restarted from scratch after damaged checkpoints: ${restarted.length} (first: ${restarted[0]!.id}: ${restarted[0]!.checkpointRestart})`);
  const goldErrors = records.filter((r) => r.goldError && !unscored(r));
  if (goldErrors.length) lines.push(`- Gold SQL that did not execute (scored wrong): ${goldErrors.length} (first: ${goldErrors[0]!.id}: ${goldErrors[0]!.goldError})`);
  lines.push("");
  lines.push("## Skipped questions", "");
  if (!ctx.skipped.length) lines.push("None.");
  const reasons = new Map<string, number>();
  for (const q of ctx.skipped) reasons.set(q.reason, (reasons.get(q.reason) ?? 0) + 1);
  for (const [reason, count] of reasons) lines.push(`- ${count} × ${reason}`);
  if (ctx.skipped.length) lines.push("", `Ids: ${ctx.skipped.map((q) => q.id).join(", ")}`);
  lines.push("", "## Settings", "", "```json", JSON.stringify({ models: ctx.models, ...ctx.settings }, null, 2), "```", "");
  lines.push("## Per question", "", "`sqlmend inspect THREAD` shows a question's steps.", "", "| id | db | difficulty | EX | tokens in | tokens out | calls | latency (s) | iterations | error | thread |", "|---|---|---|:-:|---:|---:|---:|---:|---:|---|---|");
  for (const r of records) {
    const error = (failureOf(r) ?? r.predError ?? "").replace(/\|/g, "\\|").slice(0, 80);
    lines.push(`| ${r.id} | ${r.dbId} | ${r.difficulty ?? ""} | ${isFailed(r) ? "failed" : unscored(r) ? "–" : r.correct ? "✓" : "✗"} | ${r.inputTokens} | ${r.outputTokens} | ${r.calls} | ${(r.latencyMs / 1000).toFixed(2)} | ${r.iterations} | ${error} | \`${r.thread.replace(/\|/g, "\\|").replace(/`/g, "'")}\` |`);
  }
  lines.push("");
  return lines.join("\n");
}

/**
 * "Response cache: H of N model calls served (P%), T tokens saved (not counted as spent)". N counts chat-model calls
 * only: embedding requests are the vector cache's, never the response cache's to serve.
 */
export function cacheSummary(records: EvalRecord[]): string {
  const calls = records.reduce((n, r) => n + methodCalls(r), 0);
  const hits = records.reduce((n, r) => n + (r.cachedCalls ?? 0), 0);
  const saved = records.reduce((n, r) => n + (r.savedTokens ?? 0), 0);
  return `Response cache: ${hits} of ${calls} model calls served (${pct(hits, calls)}%), ${saved} tokens saved (not counted as spent)`;
}

/**
 * "Spent on failed questions (not answers, not in EX): C model calls, I input / O output tokens, in F questions" — what
 * the tokens above include that bought no answer; "none" when no question failed.
 */
export function failureCost(records: EvalRecord[]): string {
  const failed = records.filter(isFailed);
  if (!failed.length) return "Spent on failed questions: none (no question failed)";
  const calls = failed.reduce((n, r) => n + r.calls, 0);
  const input = failed.reduce((n, r) => n + r.inputTokens, 0);
  const output = failed.reduce((n, r) => n + r.outputTokens, 0);
  const total = records.reduce((n, r) => n + r.inputTokens + r.outputTokens, 0);
  return `Spent on failed questions (in the totals above; they bought no answer): ${calls} model calls, ${input} input / ${output} output tokens, in ${failed.length} question${failed.length === 1 ? "" : "s"} (${pct(input + output, total)}% of all tokens)`;
}

/** "Model calls that got no reply: F of N, in Q questions (first: ERROR)", or "" when every call got one. */
export function callFailures(records: EvalRecord[]): string {
  const hit = records.filter((r) => r.failedCalls);
  if (!hit.length) return "";
  const failed = hit.reduce((n, r) => n + r.failedCalls!, 0);
  const calls = records.reduce((n, r) => n + r.calls, 0);
  const first = hit.find((r) => r.callFailure)?.callFailure;
  return `Model calls that got no reply: ${failed} of ${calls}, in ${hit.length} question${hit.length > 1 ? "s" : ""}${first ? ` (first: ${first})` : ""}`;
}

/** "Failed questions (not scored; --resume runs them again): N (first: ID: WHY)", or "" when none failed. */
export function failedRuns(records: EvalRecord[], rerun = "--resume runs them again"): string {
  const failed = records.filter(isFailed);
  return failed.length ? `Failed questions (not scored; ${rerun}): ${failed.length} (first: ${failed[0]!.id}: ${failureOf(failed[0]!)})` : "";
}

/**
 * "## Swapped nodes": for each `--node SLOT=FILE` of the run, in how many of its questions the replacement ran. One
 * that ran in none is said loudly: the run's figures then say nothing about the new node.
 */
export function swappedSlotLines(records: EvalRecord[], settings: Record<string, unknown>): string[] {
  const node = settings.node;
  const slots = Array.isArray(node) ? node.map((item) => String(item).split("=")[0]!) : node && typeof node === "object" ? Object.keys(node) : [];
  if (!slots.length || !records.length) return [];
  const lines = ["## Swapped nodes", ""];
  for (const slot of slots) {
    const ran = records.filter((r) => r.swappedRan?.includes(slot)).length;
    const warning = ran === 0 ? " — **it never ran**: these figures are the graph's without it (does the graph reach the slot?)" : ran < records.length ? ` — not in ${records.length - ran}` : "";
    lines.push(`- \`--node ${slot}\`: ran in ${ran} of ${records.length} questions${warning}`);
  }
  return [...lines, ""];
}
