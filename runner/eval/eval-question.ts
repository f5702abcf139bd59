import fs from "node:fs";
import path from "node:path";
import { firstLineOf } from "../../core/errors.ts";
import { ownCopy } from "../../core/strings.ts";
import { degenerateLine, type OutcomeSpec, summarizeOutcomes } from "../../graphs/outcome.ts";
import type { Benchmark, Question } from "../../state/question.ts";
import { databaseErrorOf, noAnswerSql, predictionPairing, scoreQuestion, type Semantics, writeBirdPredictions, writeSpiderPredictions } from "../../tools/benchmarks/score.ts";
import { projectVersion } from "../../tools/version.ts";
import { takeSlotRuns } from "../../graphs/slot-runs.ts";
import { isEndpointFailure } from "../../state/usage.ts";
import { answerQuestion, type GraphRunner, type QuestionRun } from "../run/question-thread.ts";
import { sendVerdictFeedback, tracingEnabled } from "../run/langsmith.ts";
import { type QuestionRunConfig, jsonLinesStore, nextThread } from "../run/question-loop.ts";
import { renderReport, servedSummary } from "../report/eval-report.ts";
import { EVAL_RESULTS, type EvalRecord, isFailed, parseResults } from "../run/results-record.ts";
import { writeAtomically } from "../run/atomic-files.ts";
import { fileOrder } from "../run/question-sample.ts";
import { renderEvalHtml } from "../report/report-html.ts";
import { cacheLine } from "../../tools/models/cache-modes.ts";
import { isMockRun } from "../../tools/models/mock-label.ts";

/**
 * What `eval` gives the question runner: one question through the runner's graph (a corrector's initial SQL and
 * scenario included), scored against the gold; its record is a line of `results.jsonl`. Experiments and shard merges
 * run questions and write outputs through the same functions.
 */


/** `outDir/results.jsonl` as the question runner's record store. */
export const evalRecordStore = (outDir: string) => jsonLinesStore<EvalRecord>(path.join(outDir, EVAL_RESULTS), (text) => [...parseResults(text).records.values()]);

/** The question runner's config for an eval of `runner` (thread `eval:<runId>:<question id>`). */
export function evalQuestions(
  runner: GraphRunner,
  ctx: { runId: string; semantics: Semantics; keepDistinct: boolean },
): Pick<QuestionRunConfig<EvalRecord>, "run" | "failed" | "endpointDown" | "note" | "progress"> {
  return {
    // A failed question runs again on the next thread (`…#2`, `#3`): its old thread holds the failure as finished.
    run: (q, previous) => evaluateQuestion(runner, q, nextThread(`eval:${ctx.runId}:${q.id}`, previous?.thread), ctx.semantics, ctx.keepDistinct),
    failed: isFailed,
    note: (record) => record.checkpointRestart,
    // Calls that got no reply for transport reasons: five such questions in a row stop the run (the endpoint is down).
    endpointDown: (record) => (record.failedCalls && record.callFailure && isEndpointFailure(record.callFailure) ? record.callFailure : undefined),
    progress: { of: (record) => ({ hit: record.correct, tokens: record.inputTokens + record.outputTokens }), extra: () => cacheLine(runner.deps.models.cacheStats) },
  };
}

/**
 * Why a question's run is failed rather than answered, or undefined. The rule: the graph could not finish, or any
 * model call got no reply after the client's retries (endpoint down, timeouts, 5xx, 429 beyond the budget, a reply
 * without choices). Nodes go on without such a call (a Memo-SQL branch, an R³ reviewer), but the answer is then not
 * the method's answer, so it is not scored: `--resume` asks again. A reply that came but was unusable is the
 * method's business, not a failure.
 */
export function failureOfRun(run: QuestionRun): string | undefined {
  if (run.noInitial !== undefined) return `no initial SQL: ${run.noInitial}`;
  if (run.error !== undefined) return `the graph could not finish: ${run.error}`;
  const failed = run.usage.failed ?? 0;
  if (failed) return `${failed} model call${failed === 1 ? "" : "s"} got no reply${run.usage.failure ? ` (first: ${run.usage.failure})` : ""}`;
  return undefined;
}

export async function evaluateQuestion(runner: GraphRunner, q: Question, threadId: string, semantics: Semantics, keepDistinct: boolean): Promise<EvalRecord> {
  return recordOfRun(runner, q, await answerQuestion(runner, q, threadId), threadId, semantics, keepDistinct);
}

/** A question's run, scored against the gold (its oracle outcome and trace feedback too): its line of results.jsonl. */
export async function recordOfRun(runner: GraphRunner, q: Question, run: QuestionRun, threadId: string, semantics: Semantics, keepDistinct: boolean): Promise<EvalRecord> {
  const failure = failureOfRun(run);
  const swappedRan = takeSlotRuns(threadId);
  const scoreOpts = { executor: runner.deps.executor, semantics, timeoutMs: runner.queryTimeoutMs, keepDistinct };
  // A failed question is not scored: it has no answer of the method's (nor an oracle outcome, nor trace feedback).
  const verdict: { correct: boolean; predError?: string; goldError?: string; note?: string } = failure
    ? { correct: false }
    : await scoreQuestion(q, run.sql, scoreOpts).catch((error) => ({ correct: false, predError: `scoring failed: ${firstLineOf(error)}`, goldError: undefined }));
  // A database that could not be read (locked by another process, damaged) gives no verdict: failed, not wrong.
  const unreadable = failure ? undefined : databaseErrorOf(verdict);
  // Without gold nothing is compared, but whether the prediction executes is still worth knowing.
  if (!failure && !q.goldSql && !verdict.predError) {
    const executed = await runner.deps.executor.run(q.dbPath, run.sql, { timeoutMs: runner.queryTimeoutMs, maxRows: 1 });
    if (!executed.ok) verdict.predError = `${executed.kind}: ${firstLineOf(executed.message)}`;
  }
  let outcome = run.outcome;
  const oracle = runner.spec.outcome?.oracle;
  if (!failure && outcome && oracle && run.state && q.goldSql) {
    const isGold = async (sql: string) => (await scoreQuestion(q, sql, scoreOpts).catch(() => ({ correct: false }))).correct;
    outcome = { ...outcome, ...(await oracle(run.state as unknown as Record<string, unknown>, isGold).catch((error) => ({ oracleError: firstLineOf(error) }))) };
  }
  // LangSmith: the verdict joins the question's trace as feedback; a failure to send it is recorded, not fatal.
  const traceFeedback = !failure && run.traceRunId && tracingEnabled(process.env) ? await sendVerdictFeedback(process.env, run.traceRunId, { correct: verdict.correct, comment: verdict.predError }) : undefined;
  let initialCorrect = run.initialCorrect;
  if (!failure && initialCorrect === undefined && run.initialSql !== undefined && q.goldSql) {
    initialCorrect = run.initialSql === run.sql ? verdict.correct : (await scoreQuestion(q, run.initialSql, scoreOpts).catch(() => ({ correct: false }))).correct;
  }
  return {
    id: q.id,
    dbId: q.dbId,
    difficulty: q.difficulty,
    question: q.question,
    // Copies: a record lives to the end of the run, and SQL cut from a reply would keep the whole reply alive.
    sql: ownCopy(run.sql),
    initialSql: run.initialSql === undefined ? undefined : ownCopy(run.initialSql),
    correction: run.correction,
    correct: verdict.correct,
    initialCorrect,
    predError: verdict.predError,
    goldError: verdict.goldError,
    ...(verdict.note ? { scoreNote: verdict.note } : {}),
    inputTokens: run.usage.inputTokens,
    outputTokens: run.usage.outputTokens,
    calls: run.usage.calls,
    latencyMs: Math.round(run.latencyMs),
    iterations: run.iterations,
    usageByRole: run.usage.byRole,
    ...(run.usage.failed ? { failedCalls: run.usage.failed, callFailure: run.usage.failure } : {}),
    ...(run.usage.served ? { served: run.usage.served } : {}),
    ...(run.usage.servedCached ? { servedCached: run.usage.servedCached } : {}),
    ...(run.usage.cached ? { cachedCalls: run.usage.cached, savedTokens: run.usage.savedTokens ?? 0, savedInputTokens: run.usage.savedInputTokens ?? 0, savedOutputTokens: run.usage.savedOutputTokens ?? 0 } : {}),
    error: run.error,
    ...(run.errorDetail ? { errorDetail: run.errorDetail } : {}),
    ...(failure ? { failure } : unreadable ? { failure: `not scored: the ${unreadable}` } : {}),
    ...(run.initialExtraction ? { initialExtraction: run.initialExtraction } : {}),
    ...(run.checkpointNotes?.length ? { checkpointRestart: run.checkpointNotes.join("; ") } : {}),
    ...(outcome ? { outcome } : {}),
    ...(traceFeedback ? { trace: { runId: run.traceRunId!, feedback: traceFeedback } } : {}),
    ...(swappedRan.length ? { swappedRan } : {}),
    thread: threadId,
  };
}

/** A degenerate run's line (`degenerateLine`) over the answered questions' outcomes, as report.md's `degenerate`. */
export function degenerateOf(spec: OutcomeSpec | undefined, records: EvalRecord[]): { degenerate?: string } {
  const line = degenerateLine(spec, records.filter((r) => !isFailed(r)).map((r) => r.outcome));
  return line ? { degenerate: line } : {};
}

/**
 * run.json's `served`: every model version that answered (the server's `model` and fingerprint), live and from the
 * response cache, and whether more than one did. Not part of what --resume compares (it is what happened, not asked).
 */
function recordServed(outDir: string, records: EvalRecord[]): void {
  const file = path.join(outDir, "run.json");
  if (!fs.existsSync(file)) return;
  try {
    const run = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    const served = servedSummary(records);
    const next = { ...run, served: served ? { versions: served.versions, live: served.live, cached: served.cached, moreThanOne: served.versions.length > 1 } : null };
    writeAtomically(file, `${JSON.stringify(next, null, 2)}\n`);
  } catch {
    // run.json is the run's own: one it cannot read is left as it is (the report still names the versions).
  }
}

/** Predictions in both official formats (every selected question, in file order; "" where none) and `report.md`. */
export async function writeEvalOutputs(
  outDir: string,
  records: EvalRecord[],
  ctx: {
    graph: string;
    /** What fell back during the run (report.md lists them). */
    notes?: string[];
    /** The graph's outcome summary (default: every declared key summed by type). */
    outcome?: OutcomeSpec;
    bench: Benchmark;
    split: string;
    questions: Question[];
    skipped: Benchmark["skipped"];
    semantics: Semantics;
    startedAt: string;
    settings: Record<string, unknown>;
    models: Record<string, unknown>;
    command: string;
    /** report.md's title and sections of the command's own (`ReportContext`). */
    kind?: string;
    sections?: { title: string; lines: string[] }[];
    /** How failed questions are run again, where not by this folder's `--resume` (`ReportContext.rerun`). */
    rerun?: string;
  },
): Promise<void> {
  const byId = new Map(records.map((r) => [r.id, r]));
  // In file order; mini-dev's keys are places in its file, as its official pipeline writes and pairs them.
  const ordered = fileOrder([...ctx.questions, ...ctx.skipped]);
  const positional = predictionPairing(ctx.bench) === "position";
  // A failed question's partial SQL is no answer, nor is a question that did not run: both are marked (noAnswerSql),
  // so the official scorers count them wrong and `score` and `--initial` read them as unanswered wherever the file goes.
  const skippedIds = new Set(ctx.skipped.map((q) => q.id));
  const sqlOf = (id: string) => {
    const r = byId.get(id);
    if (r && !isFailed(r)) return r.sql;
    return skippedIds.has(id) ? "" : noAnswerSql(r ? "failed" : "not run");
  };
  const predictions = ordered.map((q, i) => ({ id: positional ? String(q.position ?? i) : q.id, dbId: q.dbId, sql: sqlOf(q.id) }));
  await writeBirdPredictions(path.join(outDir, `predict_${ctx.split}.json`), predictions);
  await writeSpiderPredictions(path.join(outDir, `pred_${ctx.split}.sql`), predictions);
  const report = renderReport(records, {
    graph: ctx.graph,
    dataset: ctx.bench.dir,
    split: ctx.split,
    semantics: ctx.semantics,
    version: projectVersion(),
    settings: ctx.settings,
    models: ctx.models,
    skipped: ctx.skipped,
    selected: ctx.questions.length + ctx.skipped.length,
    startedAt: ctx.startedAt,
    finishedAt: new Date().toISOString(),
    command: ctx.command,
    ...(ctx.notes?.length ? { notes: ctx.notes } : {}),
    ...(ctx.bench.dbDir ? { databases: ctx.bench.dbDir } : {}),
    ...(ctx.bench.customQuestions && ctx.bench.questionsFile ? { questionsFile: ctx.bench.questionsFile } : {}),
    ...(ctx.kind ? { kind: ctx.kind } : {}),
    ...(ctx.sections?.length ? { sections: ctx.sections } : {}),
    ...(ctx.rerun ? { rerun: ctx.rerun } : {}),
    outcomes: (ctx.outcome?.summarize ?? summarizeOutcomes)(records.flatMap((r) => (r.outcome ? [r.outcome] : []))),
    ...degenerateOf(ctx.outcome, records),
  });
  fs.writeFileSync(path.join(outDir, "report.md"), report);
  recordServed(outDir, records);
  fs.writeFileSync(path.join(outDir, "report.html"), await renderEvalHtml(records, { graph: ctx.graph, dataset: ctx.bench.dir, split: ctx.split, command: ctx.command, models: ctx.models, mock: isMockRun({ models: ctx.models }) }));
}
