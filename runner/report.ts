import { maskSecrets } from "../core/secrets.ts";
import { z } from "zod";
import { type DifficultyScore, exByDifficulty, NO_GOLD } from "../tools/benchmarks/score.ts";
import { EMBEDDER_ROLE } from "../tools/models/embedder-role.ts";
import { isMockRun, MOCK_CACHE_SETTING, MOCK_LABEL } from "../tools/models/mock-label.ts";

/** One line of an eval's results.jsonl: everything known about one question's run. */
export const EvalRecordSchema = z.object({
  id: z.string(),
  dbId: z.string(),
  difficulty: z.string().optional(),
  question: z.string(),
  sql: z.string(),
  initialSql: z.string().optional(),
  correction: z.string().optional(),
  correct: z.boolean(),
  /** Correctors with gold: was the initial SQL already correct? (how many corrections helped or hurt) */
  initialCorrect: z.boolean().optional(),
  predError: z.string().optional(),
  goldError: z.string().optional(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  calls: z.number(),
  latencyMs: z.number(),
  iterations: z.number(),
  usageByRole: z.record(z.string(), z.object({ calls: z.number(), inputTokens: z.number(), outputTokens: z.number(), latencyMs: z.number() })),
  /** Model calls that got no reply (the graph went on without them), and the first one's error. */
  failedCalls: z.number().optional(),
  callFailure: z.string().optional(),
  /** Calls the response cache answered (their tokens are not in inputTokens/outputTokens), and the tokens they saved. */
  cachedCalls: z.number().optional(),
  savedTokens: z.number().optional(),
  savedInputTokens: z.number().optional(),
  savedOutputTokens: z.number().optional(),
  /** One line, when the graph could not finish the question. */
  error: z.string().optional(),
  /**
   * Set when the question is failed, not answered (`isFailed`): why, one line. Not scored, left out of EX, run again by
   * `--resume`. The rule (runner/eval.ts): the graph could not finish, or a model call got no reply after the
   * client's retries — its answer is then not the method's answer.
   */
  failure: z.string().optional(),
  /** `--initial FILE`: the prediction was not plain SQL; its SQL was extracted from the text, or it held none. */
  initialExtraction: z.enum(["extracted", "none"]).optional(),
  /** Damaged checkpoints found for this question's threads, and what was done (deleted, restarted from scratch). */
  checkpointRestart: z.string().optional(),
  /** What the question went through, as its graph declares it (graphs/outcome.ts): flat values. */
  outcome: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  /**
   * `sqlmend replay`: the recorded thread this answer forked from, at which step, and what its prefix (kept as recorded,
   * not in the counts above, which are the suffix's) had cost.
   */
  replay: z
    .object({ from: z.string(), originalThread: z.string(), checkpointId: z.string(), prefixSteps: z.number(), prefixCalls: z.number(), prefixInputTokens: z.number(), prefixOutputTokens: z.number(), originalCorrect: z.boolean().optional() })
    .optional(),
  /** LangSmith: the question's root run, and whether the verdict reached it as feedback ("sent", or why not). */
  trace: z.object({ runId: z.string(), feedback: z.string() }).optional(),
  thread: z.string(),
});
export type EvalRecord = z.infer<typeof EvalRecordSchema>;

/**
 * The chat-model tokens the method used for a question: those spent now plus those the response cache served, so a
 * method's tokens and cost are the same on a rerun served from the cache. Embedding requests are left out: the vector
 * cache shares vectors across questions and runs, so what they cost depends on what ran before. (Records from before
 * the saved-token split count all saved tokens as input.)
 */
export function methodTokens(r: EvalRecord): { input: number; output: number } {
  const split = r.savedInputTokens !== undefined || r.savedOutputTokens !== undefined;
  const embedding = r.usageByRole?.[EMBEDDER_ROLE];
  return {
    input: r.inputTokens - (embedding?.inputTokens ?? 0) + (split ? (r.savedInputTokens ?? 0) : (r.savedTokens ?? 0)),
    output: r.outputTokens - (embedding?.outputTokens ?? 0) + (split ? (r.savedOutputTokens ?? 0) : 0),
  };
}

/** The chat-model calls the method made for a question, cache-served ones included; embedding requests left out (as in `methodTokens`). */
export const methodCalls = (r: EvalRecord): number => r.calls - (r.usageByRole?.[EMBEDDER_ROLE]?.calls ?? 0);

/** results.jsonl → records by id (a later line for an id wins); unreadable lines are counted, not fatal. */
export function parseResults(text: string): { records: Map<string, EvalRecord>; dropped: number } {
  const records = new Map<string, EvalRecord>();
  let dropped = 0;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const parsed = EvalRecordSchema.safeParse(JSON.parse(line));
      if (parsed.success) records.set(parsed.data.id, parsed.data);
      else dropped++;
    } catch {
      dropped++;
    }
  }
  return { records, dropped };
}

export { formatUsage } from "./progress.ts";

/** A failed question: no answer of the method's, so not scored (records before `failure` existed: `error`). */
export const isFailed = (record: EvalRecord): boolean => record.failure !== undefined || record.error !== undefined;

/** Why a failed record failed. */
export const failureOf = (record: EvalRecord): string | undefined => record.failure ?? record.error;

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
  else lines.push(`- Execution accuracy (EX): **${pct(s.correct, s.total)}%** (${s.correct}/${s.total}${s.failed ? ` answered; **${s.failed} failed** — not scored, ${ctx.rerun ?? "\`--resume\` retries them"}` : ""})${s.noGold ? `; ${s.noGold} questions without gold SQL not scored` : ""}`);
  lines.push(`- Scoring semantics: \`${ctx.semantics}\``);
  lines.push(`- Metrics computed: ${s.total ? "EX" : "none (no gold SQL)"}, on the databases in \`${ctx.databases ?? ctx.dataset}\`${ctx.questionsFile ? `; questions from \`${ctx.questionsFile}\`` : ""}`);
  lines.push(`- Questions: ${ctx.selected} selected, ${records.length} run (${records.length - s.failed} answered, ${s.failed} failed), ${ctx.selected - ctx.skipped.length - records.length} not run, ${ctx.skipped.length} skipped`);
  lines.push(`- sqlmend ${ctx.version}; started ${ctx.startedAt}, report written ${ctx.finishedAt}`);
  lines.push(`- Command: \`${maskSecrets(ctx.command)}\``);
  lines.push(`- ${ctx.settings.cache === "off" ? "Response cache: off" : ctx.settings.cache === MOCK_CACHE_SETTING ? `Response cache: ${MOCK_CACHE_SETTING}` : cacheSummary(records)}`, "");
  for (const section of ctx.sections ?? []) lines.push(`## ${section.title}`, "", ...section.lines, "");
  lines.push("## EX by difficulty", "", "| difficulty | questions | correct | EX % |", "|---|---:|---:|---:|");
  for (const d of s.byDifficulty) lines.push(`| ${d.difficulty} | ${d.count} | ${d.correct} | ${d.ex.toFixed(2)} |`);
  lines.push(`| **all** | ${s.total} | ${s.correct} | ${pct(s.correct, s.total)} |`, "");
  const corrected = records.filter((r) => r.initialCorrect !== undefined && !isFailed(r));
  if (corrected.length) {
    const fixed = corrected.filter((r) => !r.initialCorrect && r.correct).length;
    const broken = corrected.filter((r) => r.initialCorrect && !r.correct).length;
    const initialEx = corrected.filter((r) => r.initialCorrect).length;
    lines.push("## Correction", "");
    lines.push(`- Initial EX: ${pct(initialEx, corrected.length)}% → final EX: ${pct(corrected.filter((r) => r.correct).length, corrected.length)}%`);
    lines.push(`- Corrected (wrong → right): ${fixed}; broken (right → wrong): ${broken}`);
    lines.push(`- Correction applied to ${records.filter((r) => r.correction === "applied").length} questions, skipped for ${records.filter((r) => r.correction?.startsWith("skipped")).length}`, "");
  }
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
  lines.push(`| latency (s) | ${fmt(sum(latency) / records.length / 1000, 2)} | ${fmt(quantile(latency, 0.5) / 1000, 2)} | ${fmt(quantile(latency, 0.9) / 1000, 2)} | |`);
  lines.push(`| iterations | ${fmt(sum(records.map((r) => r.iterations)) / records.length, 2)} | | | |`, "");
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
  lines.push("## Per question", "", "| id | db | difficulty | EX | tokens in | tokens out | calls | latency (s) | iterations | error |", "|---|---|---|:-:|---:|---:|---:|---:|---:|---|");
  for (const r of records) {
    const error = (failureOf(r) ?? r.predError ?? "").replace(/\|/g, "\\|").slice(0, 80);
    lines.push(`| ${r.id} | ${r.dbId} | ${r.difficulty ?? ""} | ${isFailed(r) ? "failed" : unscored(r) ? "–" : r.correct ? "✓" : "✗"} | ${r.inputTokens} | ${r.outputTokens} | ${r.calls} | ${(r.latencyMs / 1000).toFixed(2)} | ${r.iterations} | ${error} |`);
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
