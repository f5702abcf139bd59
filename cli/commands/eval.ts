import fs from "node:fs";
import path from "node:path";
import type { CliIO, Command } from "../shared/command.ts";
import { firstLineOf, UsageError, UserError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import {
  examplesWantedBy,
  graphFlags,
  graphOptionsOf,
  graphSettings,
  graphUsage,
  intFlag,
  modelFlagsFrom,
  RUN_FLAGS_USAGE,
  requireGraph,
  runFlags,
  scenarioFrom,
} from "../shared/setup.ts";
import type { Runner } from "../../runs/question.ts";
import { Progress } from "../../runs/progress.ts";
import type { EvalRecord } from "../../runs/report.ts";
import { loadBenchmark, resolveBenchmarkDir } from "../../tools/benchmarks/benchmark.ts";
import { scoreQuestion, type Semantics, writeBirdPredictions, writeSpiderPredictions } from "../../tools/benchmarks/score.ts";
import { getSharedExecutor } from "../../tools/sqlite/executor.ts";
import type { Question, Benchmark } from "../../state/question.ts";
import { projectVersion } from "../../tools/version.ts";
import { fileOrder, gracefulInterrupt, pool, prepareOutDir, readJsonLines, RUN_DIR_FLAGS, selectQuestions, splitFrom } from "../../runs/run-dir.ts";

const RESULTS = "results.jsonl";

interface RunFile {
  runId: string;
  graph: string;
  bench: string;
  split: string;
  semantics: Semantics;
  /** The models and the settings that shape answers: a resumed run must use the same, or its lines would mix. */
  models: Record<string, unknown>;
  settings: Record<string, unknown>;
  startedAt: string;
}

export const evalCommand: Command = {
  name: "eval",
  usage: `Usage: sqlmend eval GRAPH --bench DIR|minibench --out DIR [--split dev|train] [--limit N] [--ids ID,...]
                    [--concurrency K] [--resume] [--semantics bird|spider] [--keep-distinct]

  --bench DIR|minibench     Spider or BIRD layout, or the project's own small benchmark
  --out DIR                 results.jsonl (a line per question), predict_<split>.json (BIRD format),
                            pred_<split>.sql (Spider format: a line per selected question in file order,
                            so with --limit/--ids score the .json, whose ids are explicit, with
                            'sqlmend score --only-predicted'), report.md, run.json
  --split dev|train         default dev
  --limit N  --ids A,B,...  run a subset (ids as in the benchmark: BIRD question_id, Spider 0-based index)
  --concurrency K           questions in flight (default 4); --max-requests caps model requests
  --resume                  continue a killed or finished run in --out without redoing finished questions
  --semantics bird|spider   EX semantics (default: the benchmark's own)
${RUN_FLAGS_USAGE}`,
  helpFor: graphUsage,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      ...runFlags,
      ...graphFlags(),
      ...RUN_DIR_FLAGS,
      semantics: { type: "string" },
      "keep-distinct": { type: "boolean" },
    });
    const spec = requireGraph(positionals[0]);
    graphOptionsOf(spec, values);
    if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
    if (!values.bench) throw new UsageError("--bench DIR is required");
    if (!values.out) throw new UsageError("--out DIR is required");
    const split = splitFrom(values.split, "dev");
    const concurrency = intFlag(values, "concurrency", 1) ?? 4;
    const limit = intFlag(values, "limit", 1);
    if (values.semantics !== undefined && values.semantics !== "bird" && values.semantics !== "spider") {
      throw new UsageError(`--semantics takes bird or spider, not '${values.semantics}'`);
    }

    // The model flags and --correct are checked now too (buildRunner reads them again): what runs a graph (LangGraph,
    // LangChain, the checkpoint store) loads only once every flag has passed its check.
    modelFlagsFrom(values);
    scenarioFrom(values.correct, true);
    const [{ buildRunner }, { openCheckpointer }, { createExampleStore }, { callFailures, failedRuns, parseResults }] = await Promise.all([
      import("../shared/build-runner.ts"),
      import("../../storage/checkpoints.ts"),
      import("../../tools/retrieval/examples.ts"),
      import("../../runs/report.ts"),
    ]);
    const benchDir = await resolveBenchmarkDir(values.bench, io.env, io.cwd);
    const bench = await loadBenchmark(benchDir, { split });
    const semantics: Semantics = (values.semantics as Semantics | undefined) ?? (bench.layout === "spider" ? "spider" : "bird");
    const { questions, skipped } = selectQuestions(bench, values.ids, limit);
    const wantedBy = examplesWantedBy(spec, values);
    const examples = wantedBy ? createExampleStore((await loadTrain(benchDir, split, bench, wantedBy)).questions) : undefined;

    const outDir = path.resolve(io.cwd, values.out);
    const executor = getSharedExecutor();
    const checkpoints = openCheckpointer(values.checkpoints, io.env, io.cwd);
    try {
      const runner = await buildRunner({
        spec,
        values,
        env: io.env,
        cwd: io.cwd,
        executor,
        checkpointer: checkpoints.saver,
        semantics,
        examples,
        allowOracle: true,
      });
      const runFile = prepareOutDir(
        outDir,
        { graph: spec.name, bench: benchDir, split, semantics, models: runner.deps.models.describe(), settings: { ...answerSettings(values), ...graphSettings(runner.graphSpecs, values, io.cwd) } },
        values.resume ?? false,
        ["graph", "bench", "split", "semantics", "models", "settings"],
      );
      const done = new Map(readJsonLines(path.join(outDir, RESULTS), (text) => [...parseResults(text).records.values()]).map((r) => [r.id, r]));
      const todo = questions.filter((q) => !done.has(q.id));
      io.stderr(
        `sqlmend eval: ${spec.name} on ${bench.name}: ${questions.length} questions (${done.size} already done, ${skipped.length} skipped), concurrency ${concurrency}\n`,
      );
      const progress = new Progress(questions.length, io, questions.length - todo.length);
      const keepDistinct = values["keep-distinct"] ?? false;
      // First Ctrl-C: start no new question, finish those in flight, write the outputs. Second: quit at once.
      const interrupt = gracefulInterrupt(io, "eval");
      try {
        await pool(
          todo,
          concurrency,
          async (q) => {
            const record = await evaluateQuestion(runner, q, `eval:${runFile.runId}:${q.id}`, semantics, keepDistinct);
            fs.appendFileSync(path.join(outDir, RESULTS), `${JSON.stringify(record)}\n`);
            done.set(q.id, record);
            progress.record({ correct: record.correct, tokens: record.inputTokens + record.outputTokens });
          },
          interrupt.stopping,
        );
      } finally {
        interrupt.release();
      }
      const stopping = interrupt.stopping();
      progress.finish();

      const records = questions.map((q) => done.get(q.id)).filter((r): r is EvalRecord => !!r);
      await writeOutputs(outDir, split, questions, records, skipped, {
        runner,
        bench,
        semantics,
        runFile,
        settings: {
          concurrency,
          checkpoints: checkpoints.location,
          // Linking and few-shot retrieval rank by this model, or lexically (each linking says which, in inspect).
          embeddings: runner.deps.embeddings?.model ?? "none (lexical ranking)",
          ...answerSettings(values),
          ...graphSettings(runner.graphSpecs, values, io.cwd),
          ...(values["max-requests"] ? { "max-requests": values["max-requests"] } : {}),
        },
        command: `sqlmend eval ${argv.join(" ")}`,
      });
      const correct = records.filter((r) => r.correct).length;
      io.stdout(
        `EX ${records.length ? ((correct / records.length) * 100).toFixed(2) : "-"}% (${correct}/${records.length}, ${semantics} semantics); ${skipped.length} skipped\n` +
          (failedRuns(records) ? `${failedRuns(records)}\n` : "") +
          (callFailures(records) ? `${callFailures(records)}\n` : "") +
          (stopping ? `Stopped early: ${questions.length - records.length} questions not run; --resume finishes the run.\n` : "") +
          `Report: ${path.join(outDir, "report.md")}\n`,
      );
      return stopping ? 130 : 0;
    } finally {
      checkpoints.close();
    }
  },
};

async function loadTrain(benchDir: string, split: string, bench: Benchmark, wantedBy: string) {
  if (split === "train") return bench;
  try {
    return await loadBenchmark(benchDir, { split: "train" });
  } catch (error) {
    throw new UserError(`${wantedBy} needs the train split of ${benchDir}: ${firstLineOf(error)}`);
  }
}

async function evaluateQuestion(runner: Runner, q: Question, threadId: string, semantics: Semantics, keepDistinct: boolean): Promise<EvalRecord> {
  const { runQuestion } = await import("../../runs/question.ts");
  const run = await runQuestion(runner, q, threadId);
  const scoreOpts = { executor: runner.deps.executor, semantics, timeoutMs: runner.queryTimeoutMs, keepDistinct };
  const verdict = await scoreQuestion(q, run.sql, scoreOpts).catch((error) => ({ correct: false, predError: `scoring failed: ${firstLineOf(error)}`, goldError: undefined }));
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
    thread: threadId,
  };
}

/** The flags that change answers or verdicts (not speed): a resumed run must keep them. */
function answerSettings(values: Record<string, unknown>) {
  const keys = ["max-fix-rounds", "few-shot", "schema-max-chars", "query-timeout-ms", "node", "initial", "correct", "keep-distinct"];
  return Object.fromEntries(keys.filter((k) => values[k] !== undefined).map((k) => [k, values[k]]));
}

async function writeOutputs(
  outDir: string,
  split: string,
  questions: Question[],
  records: EvalRecord[],
  skipped: Benchmark["skipped"],
  ctx: { runner: Runner; bench: Benchmark; semantics: Semantics; runFile: RunFile; settings: Record<string, unknown>; command: string },
) {
  const byId = new Map(records.map((r) => [r.id, r]));
  const ordered = fileOrder([...questions, ...skipped]);
  const predictions = ordered.map((q) => ({ id: q.id, dbId: q.dbId, sql: byId.get(q.id)?.sql ?? "" }));
  await writeBirdPredictions(path.join(outDir, `predict_${split}.json`), predictions);
  await writeSpiderPredictions(path.join(outDir, `pred_${split}.sql`), predictions);
  const { renderReport } = await import("../../runs/report.ts");
  const report = renderReport(records, {
    graph: ctx.runner.spec.name,
    dataset: ctx.bench.dir,
    split,
    semantics: ctx.semantics,
    version: projectVersion(),
    settings: ctx.settings,
    models: ctx.runner.deps.models.describe(),
    skipped,
    selected: questions.length + skipped.length,
    startedAt: ctx.runFile.startedAt,
    finishedAt: new Date().toISOString(),
    command: ctx.command,
  });
  fs.writeFileSync(path.join(outDir, "report.md"), report);
}

export type { CliIO };
