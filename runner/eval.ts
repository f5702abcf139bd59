import fs from "node:fs";
import path from "node:path";
import { firstLineOf } from "../core/errors.ts";
import { type OutcomeSpec, summarizeOutcomes } from "../graphs/outcome.ts";
import type { Benchmark, Question } from "../state/question.ts";
import { scoreQuestion, type Semantics, writeBirdPredictions, writeSpiderPredictions } from "../tools/benchmarks/score.ts";
import { projectVersion } from "../tools/version.ts";
import { type Runner, runQuestion } from "./question.ts";
import { sendVerdictFeedback, tracingEnabled } from "./tracing.ts";
import { type QuestionRunConfig, jsonLinesStore } from "./question-runner.ts";
import { type EvalRecord, parseResults, renderReport } from "./report.ts";
import { fileOrder } from "./run-dir.ts";

/**
 * What `eval` gives the question runner: one question through the runner's graph (a corrector's initial SQL and
 * scenario included), scored against the gold; its record is a line of `results.jsonl`. Experiments and shard merges
 * run questions and write outputs through the same functions.
 */

export const EVAL_RESULTS = "results.jsonl";

/** `outDir/results.jsonl` as the question runner's record store. */
export const evalRecordStore = (outDir: string) => jsonLinesStore<EvalRecord>(path.join(outDir, EVAL_RESULTS), (text) => [...parseResults(text).records.values()]);

/** The question runner's config for an eval of `runner` (thread `eval:<runId>:<question id>`). */
export function evalQuestions(
  runner: Runner,
  ctx: { runId: string; semantics: Semantics; keepDistinct: boolean },
): Pick<QuestionRunConfig<EvalRecord>, "run" | "failed" | "progress"> {
  return {
    run: (q) => evaluateQuestion(runner, q, `eval:${ctx.runId}:${q.id}`, ctx.semantics, ctx.keepDistinct),
    failed: (record) => record.error !== undefined,
    progress: { of: (record) => ({ hit: record.correct, tokens: record.inputTokens + record.outputTokens }) },
  };
}

export async function evaluateQuestion(runner: Runner, q: Question, threadId: string, semantics: Semantics, keepDistinct: boolean): Promise<EvalRecord> {
  const run = await runQuestion(runner, q, threadId);
  const scoreOpts = { executor: runner.deps.executor, semantics, timeoutMs: runner.queryTimeoutMs, keepDistinct };
  const verdict = await scoreQuestion(q, run.sql, scoreOpts).catch((error) => ({ correct: false, predError: `scoring failed: ${firstLineOf(error)}`, goldError: undefined }));
  // Without gold nothing is compared, but whether the prediction executes is still worth knowing.
  if (!q.goldSql && !verdict.predError) {
    const executed = await runner.deps.executor.run(q.dbPath, run.sql, { timeoutMs: runner.queryTimeoutMs, maxRows: 1 });
    if (!executed.ok) verdict.predError = `${executed.kind}: ${firstLineOf(executed.message)}`;
  }
  let outcome = run.outcome;
  const oracle = runner.spec.outcome?.oracle;
  if (outcome && oracle && run.state && q.goldSql) {
    const isGold = async (sql: string) => (await scoreQuestion(q, sql, scoreOpts).catch(() => ({ correct: false }))).correct;
    outcome = { ...outcome, ...(await oracle(run.state as unknown as Record<string, unknown>, isGold).catch((error) => ({ oracleError: firstLineOf(error) }))) };
  }
  // LangSmith: the verdict joins the question's trace as feedback; a failure to send it is recorded, not fatal.
  const traceFeedback = run.traceRunId && tracingEnabled(process.env) ? await sendVerdictFeedback(process.env, run.traceRunId, { correct: verdict.correct, comment: verdict.predError }) : undefined;
  let initialCorrect = run.initialCorrect;
  if (initialCorrect === undefined && run.initialSql !== undefined && q.goldSql) {
    initialCorrect = run.initialSql === run.sql ? verdict.correct : (await scoreQuestion(q, run.initialSql, scoreOpts).catch(() => ({ correct: false }))).correct;
  }
  return {
    id: q.id,
    dbId: q.dbId,
    difficulty: q.difficulty,
    question: q.question,
    sql: run.sql,
    initialSql: run.initialSql,
    correction: run.correction,
    correct: verdict.correct,
    initialCorrect,
    predError: verdict.predError,
    goldError: verdict.goldError,
    inputTokens: run.usage.inputTokens,
    outputTokens: run.usage.outputTokens,
    calls: run.usage.calls,
    latencyMs: Math.round(run.latencyMs),
    iterations: run.iterations,
    usageByRole: run.usage.byRole,
    ...(run.usage.failed ? { failedCalls: run.usage.failed, callFailure: run.usage.failure } : {}),
    error: run.error,
    ...(outcome ? { outcome } : {}),
    ...(traceFeedback ? { trace: { runId: run.traceRunId!, feedback: traceFeedback } } : {}),
    thread: threadId,
  };
}

/** Predictions in both official formats (every selected question, in file order; "" where none) and `report.md`. */
export async function writeEvalOutputs(
  outDir: string,
  records: EvalRecord[],
  ctx: {
    graph: string;
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
  },
): Promise<void> {
  const byId = new Map(records.map((r) => [r.id, r]));
  const ordered = fileOrder([...ctx.questions, ...ctx.skipped]);
  const predictions = ordered.map((q) => ({ id: q.id, dbId: q.dbId, sql: byId.get(q.id)?.sql ?? "" }));
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
    ...(ctx.bench.dbDir ? { databases: ctx.bench.dbDir } : {}),
    ...(ctx.bench.customQuestions && ctx.bench.questionsFile ? { questionsFile: ctx.bench.questionsFile } : {}),
    outcomes: (ctx.outcome?.summarize ?? summarizeOutcomes)(records.flatMap((r) => (r.outcome ? [r.outcome] : []))),
  });
  fs.writeFileSync(path.join(outDir, "report.md"), report);
}
