/**
 * The trace API's run folder (`readRun`): run.json and results.jsonl as plain JSON-safe data (runner/trace/trace-types.ts),
 * each question with its verdict, outcome, cost and thread; never the checkpoints.
 */
import fs from "node:fs";
import path from "node:path";
import { firstLineOf, UserError } from "../../core/errors.ts";
import { findManifest } from "../../graphs/registry.ts";
import { NO_GOLD } from "../../tools/benchmarks/score.ts";
import { wilsonInterval } from "../report/eval-report.ts";
import { EVAL_RESULTS } from "../run/results-record.ts";
import { type EvalRecord, EvalRecordSchema, isFailed } from "../run/results-record.ts";
import type { QuestionCost, RunQuestion, RunView, Verdict } from "./trace-types.ts";

const VERDICTS: Verdict[] = ["right", "wrong", "failed", "skipped", "unscored"];

/** A results.jsonl record's verdict: failed (no answer of the method's), unscored (no gold), right or wrong. */
export function verdictOf(record: EvalRecord): Verdict {
  if (isFailed(record)) return "failed";
  if (record.goldError === NO_GOLD) return "unscored";
  return record.correct ? "right" : "wrong";
}

const costOf = (r: EvalRecord): QuestionCost => ({
  calls: r.calls,
  inputTokens: r.inputTokens,
  outputTokens: r.outputTokens,
  latencyMs: r.latencyMs,
  ...(r.cachedCalls ? { cachedCalls: r.cachedCalls } : {}),
  ...(r.failedCalls ? { failedCalls: r.failedCalls } : {}),
  ...(r.outcome && typeof r.outcome.reusedReplies === "number" ? { reusedCalls: r.outcome.reusedReplies } : {}),
});

const zeroCost = (): QuestionCost => ({ calls: 0, inputTokens: 0, outputTokens: 0, latencyMs: 0 });
function addCost(a: QuestionCost, b: QuestionCost): QuestionCost {
  const out: QuestionCost = { calls: a.calls + b.calls, inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens, latencyMs: a.latencyMs + b.latencyMs };
  for (const key of ["cachedCalls", "reusedCalls", "failedCalls"] as const) if (a[key] || b[key]) out[key] = (a[key] ?? 0) + (b[key] ?? 0);
  return out;
}

const isStr = (v: unknown) => typeof v === "string";
const isNum = (v: unknown) => typeof v === "number";
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);
const optional = (v: unknown, test: (v: unknown) => boolean) => v === undefined || test(v);

/** Whether a parsed line has the shape of every field a run view reads (EvalRecordSchema's check, by hand: 10x faster). */
function looksLikeRecord(r: Record<string, unknown>): boolean {
  return (
    isStr(r.id) && isStr(r.dbId) && isStr(r.question) && isStr(r.sql) && isStr(r.thread) && typeof r.correct === "boolean" &&
    isNum(r.inputTokens) && isNum(r.outputTokens) && isNum(r.calls) && isNum(r.latencyMs) && isNum(r.iterations) && isObj(r.usageByRole) &&
    [r.difficulty, r.initialSql, r.correction, r.failure, r.error, r.predError, r.goldError].every((v) => optional(v, isStr)) &&
    optional(r.initialCorrect, (v) => typeof v === "boolean") && optional(r.cachedCalls, isNum) && optional(r.failedCalls, isNum) &&
    optional(r.outcome, (o) => isObj(o) && Object.values(o).every((v) => v === null || ["string", "number", "boolean"].includes(typeof v))) &&
    optional(r.errorDetail, (e) => isObj(e) && isStr(e.errorClass) && isStr(e.message) && optional(e.slot, isStr) && optional(e.stack, isStr) && optional(e.at, isStr)) &&
    optional(r.replay, (p) => isObj(p) && isStr(p.from) && isStr(p.originalThread) && isStr(p.checkpointId) && isNum(p.prefixSteps))
  );
}

/**
 * results.jsonl → records by id (a later line wins), as `parseResults` reads it; a line that fails the quick check
 * goes through the schema, which drops it (counted) when it does not read.
 */
function readResults(text: string): { records: Map<string, EvalRecord>; dropped: number } {
  const records = new Map<string, EvalRecord>();
  let dropped = 0;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      dropped++;
      continue;
    }
    if (isObj(parsed) && looksLikeRecord(parsed)) {
      records.set(parsed.id as string, parsed as EvalRecord);
      continue;
    }
    const checked = EvalRecordSchema.safeParse(parsed);
    if (checked.success) records.set(checked.data.id, checked.data);
    else dropped++;
  }
  return { records, dropped };
}

/** run.json of a run folder, or a one-line error. */
export function readRunFile(dir: string): Record<string, unknown> {
  const file = path.join(dir, "run.json");
  if (!fs.existsSync(file)) throw new UserError(`${dir}: no run.json (is it an 'sqlmend eval' --out folder?)`);
  try {
    const run = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
    if (!run || typeof run !== "object" || Array.isArray(run)) throw new Error("not a JSON object");
    return run as Record<string, unknown>;
  } catch (error) {
    throw new UserError(`${file}: cannot read: ${firstLineOf(error)}`);
  }
}

export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** A path run.json records: relative ones are from the run folder. */
const fromRun = (dir: string, file: string): string => path.resolve(dir, file);

/** The `--graph FILE` module and `--node SLOT=FILE` modules a run's settings record, as paths. */
export function modulesOf(dir: string, settings: Record<string, unknown>): Pick<RunView, "graphModule" | "nodeModules"> {
  const out: Pick<RunView, "graphModule" | "nodeModules"> = {};
  const graph = settings.graph;
  if (typeof graph === "string") out.graphModule = { path: fromRun(dir, graph) };
  else if (graph && typeof graph === "object" && typeof (graph as { path?: unknown }).path === "string") {
    const g = graph as { path: string; sha256?: unknown };
    out.graphModule = { path: fromRun(dir, g.path), ...(typeof g.sha256 === "string" ? { sha256: g.sha256 } : {}) };
  }
  const node = settings.node;
  if (node && typeof node === "object" && !Array.isArray(node)) {
    out.nodeModules = Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([slot, m]) => [slot, fromRun(dir, typeof m === "string" ? m : String((m as { path?: unknown }).path ?? ""))]));
  } else if (Array.isArray(node)) {
    out.nodeModules = Object.fromEntries(node.map(String).map((item) => [item.slice(0, Math.max(0, item.indexOf("="))), fromRun(dir, item.slice(item.indexOf("=") + 1))]));
  }
  return out;
}

/**
 * A run folder: run.json and every question of results.jsonl with its verdict, cost, outcome and thread id, the
 * selected questions whose database was missing (`skipped`, from run.json's question hashes), and the summary (EX
 * with its Wilson interval, counts by verdict, what failed questions cost). Reads no checkpoint.
 */
export async function readRun(dir: string): Promise<RunView> {
  const runDir = path.resolve(dir);
  const run = readRunFile(runDir);
  const resultsFile = path.join(runDir, EVAL_RESULTS);
  const { records, dropped } = fs.existsSync(resultsFile) ? readResults(fs.readFileSync(resultsFile, "utf8")) : { records: new Map<string, EvalRecord>(), dropped: 0 };
  const settings = (run.settings && typeof run.settings === "object" ? run.settings : {}) as Record<string, unknown>;
  const graph = str(run.graph) ?? "?";
  const manifest = findManifest(graph);
  const hashes = (run.questionHashes && typeof run.questionHashes === "object" ? run.questionHashes : {}) as Record<string, unknown>;
  // In the run's selection order (run.json's question hashes), records of other questions after them.
  const order = new Map(Object.keys(hashes).map((id, i) => [id, i]));
  const inOrder = [...records.values()].sort((a, b) => (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity));
  const questions: RunQuestion[] = [];
  const byVerdict = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  let failedCost = zeroCost();
  let totalCost = zeroCost();
  let correct = 0;
  let scored = 0;
  for (const r of inOrder) {
    const verdict = verdictOf(r);
    byVerdict[verdict]++;
    const cost = costOf(r);
    totalCost = addCost(totalCost, cost);
    if (verdict === "failed") failedCost = addCost(failedCost, cost);
    if (verdict === "right" || verdict === "wrong") {
      scored++;
      if (verdict === "right") correct++;
    }
    const failure = r.failure ?? r.error;
    questions.push({
      id: r.id,
      dbId: r.dbId,
      ...(r.difficulty !== undefined ? { difficulty: r.difficulty } : {}),
      question: r.question,
      verdict,
      sql: r.sql,
      ...(r.initialSql !== undefined ? { initialSql: r.initialSql } : {}),
      ...(r.initialCorrect !== undefined ? { initialCorrect: r.initialCorrect } : {}),
      ...(r.correction !== undefined ? { correction: r.correction } : {}),
      ...(failure !== undefined ? { failure } : {}),
      ...(r.errorDetail ? { error: r.errorDetail } : {}),
      ...(r.predError !== undefined ? { predError: r.predError } : {}),
      cost,
      iterations: r.iterations,
      ...(r.outcome ? { outcome: r.outcome } : {}),
      threadId: r.thread,
      ...(r.replay ? { replay: { from: r.replay.from, originalThread: r.replay.originalThread, checkpointId: r.replay.checkpointId, prefixSteps: r.replay.prefixSteps, ...(r.replay.originalCorrect !== undefined ? { originalCorrect: r.replay.originalCorrect } : {}) } } : {}),
    });
  }
  // Selected questions whose database was missing: run.json keeps them as "skipped:<db id>".
  let notRun = 0;
  for (const [id, hash] of Object.entries(hashes)) {
    if (records.has(id)) continue;
    if (typeof hash === "string" && hash.startsWith("skipped:")) {
      byVerdict.skipped++;
      questions.push({ id, dbId: hash.slice("skipped:".length), question: "", verdict: "skipped", sql: "", failure: "skipped: its database was not found", cost: zeroCost(), iterations: 0, threadId: "" });
    } else notRun++;
  }
  const interval = wilsonInterval(correct, scored);
  const replay = run.replay as { of?: unknown; runId?: unknown; from?: unknown } | undefined;
  const kind = manifest?.kind ?? ([...records.values()].some((r) => r.initialSql !== undefined) ? "corrector" : undefined);
  const models = (run.models && typeof run.models === "object" ? run.models : {}) as Record<string, unknown>;
  return {
    dir: runDir,
    runId: str(run.runId) ?? "",
    graph,
    ...modulesOf(runDir, settings),
    ...(kind === "generator" || kind === "corrector" ? { kind } : {}),
    bench: str(run.bench) ?? null,
    split: str(run.split) ?? "dev",
    semantics: str(run.semantics) ?? "bird",
    models,
    settings,
    ...(str(run.checkpoints) ? { checkpoints: str(run.checkpoints) } : {}),
    ...(replay && typeof replay.of === "string" ? { replayOf: { dir: replay.of, ...(str(replay.runId) ? { runId: str(replay.runId) } : {}), ...(str(replay.from) ? { slot: str(replay.from) } : {}) } } : {}),
    ...(run.mock === true || models.model === "mock" || models.mock === true ? { mock: true } : {}),
    questions,
    summary: {
      selected: Object.keys(hashes).length || questions.length,
      byVerdict,
      ...(interval ? { ex: { correct, scored, pct: (correct / scored) * 100, low: interval.low, high: interval.high } } : {}),
      failedCost,
      totalCost,
      notRun,
    },
    droppedLines: dropped,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Threads
