import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { CliIO, Command } from "../command.ts";
import { firstLineOf, UsageError, UserError } from "../command.ts";
import { parseFlags } from "../main.ts";
import { graphFlags, graphSettings, graphUsage, intFlag, RUN_FLAGS_USAGE, requireGraph, runFlags } from "../setup.ts";
import { buildRunner } from "../build-runner.ts";
import { openCheckpointer } from "../checkpoints.ts";
import { runQuestion, type Runner } from "../runner.ts";
import { Progress } from "../progress.ts";
import { type EvalRecord, parseResults, renderReport } from "../report.ts";
import { loadBenchmark, resolveBenchmarkDir } from "../../tools/benchmark.ts";
import { createExampleStore } from "../../tools/examples.ts";
import { scoreQuestion, type Semantics, writeBirdPredictions, writeSpiderPredictions } from "../../tools/score.ts";
import { getSharedExecutor } from "../../tools/sqlite/executor.ts";
import type { Question, Benchmark } from "../../state/question.ts";
import { projectVersion } from "../version.ts";

const RESULTS = "results.jsonl";
const RUN_FILE = "run.json";

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
      bench: { type: "string" },
      split: { type: "string" },
      limit: { type: "string" },
      ids: { type: "string", multiple: true },
      concurrency: { type: "string" },
      out: { type: "string" },
      resume: { type: "boolean" },
      semantics: { type: "string" },
      "keep-distinct": { type: "boolean" },
    });
    const spec = requireGraph(positionals[0]);
    if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
    if (!values.bench) throw new UsageError("--bench DIR is required");
    if (!values.out) throw new UsageError("--out DIR is required");
    const split = (values.split ?? "dev") as "dev" | "train";
    if (split !== "dev" && split !== "train") throw new UsageError(`--split takes dev or train, not '${values.split}'`);
    const concurrency = intFlag(values, "concurrency", 1) ?? 4;
    const limit = intFlag(values, "limit", 1);
    if (values.semantics !== undefined && values.semantics !== "bird" && values.semantics !== "spider") {
      throw new UsageError(`--semantics takes bird or spider, not '${values.semantics}'`);
    }

    const benchDir = await resolveBenchmarkDir(values.bench, io.env, io.cwd);
    const bench = await loadBenchmark(benchDir, { split });
    const semantics: Semantics = (values.semantics as Semantics | undefined) ?? (bench.layout === "spider" ? "spider" : "bird");
    const { questions, skipped } = selectQuestions(bench, values.ids, limit);
    const examples = (Number(values["few-shot"] ?? 0) > 0) ? createExampleStore((await loadTrain(benchDir, split, bench)).questions) : undefined;

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
        { graph: spec.name, bench: benchDir, split, semantics, models: runner.deps.models.describe(), settings: { ...answerSettings(values), ...graphSettings(runner.graphSpecs, values) } },
        values.resume ?? false,
      );
      const done = readRecords(path.join(outDir, RESULTS));
      const todo = questions.filter((q) => !done.has(q.id));
      io.stderr(
        `sqlmend eval: ${spec.name} on ${bench.name}: ${questions.length} questions (${done.size} already done, ${skipped.length} skipped), concurrency ${concurrency}\n`,
      );
      const progress = new Progress(questions.length, io, questions.length - todo.length);
      const keepDistinct = values["keep-distinct"] ?? false;
      // First Ctrl-C: start no new question, finish those in flight, write the outputs. Second: quit at once.
      let stopping = false;
      const onInterrupt = () => {
        if (stopping) process.exit(130);
        stopping = true;
        io.stderr("\nsqlmend eval: stopping after the questions in flight (Ctrl-C again to quit now; --resume continues the run)\n");
      };
      process.on("SIGINT", onInterrupt);
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
          () => stopping,
        );
      } finally {
        process.off("SIGINT", onInterrupt);
      }
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
          ...graphSettings(runner.graphSpecs, values), ...(values["max-requests"] ? { "max-requests": values["max-requests"] } : {}) },
        command: `sqlmend eval ${argv.join(" ")}`,
      });
      const correct = records.filter((r) => r.correct).length;
      io.stdout(
        `EX ${records.length ? ((correct / records.length) * 100).toFixed(2) : "-"}% (${correct}/${records.length}, ${semantics} semantics); ${skipped.length} skipped\n` +
          (stopping ? `Stopped early: ${questions.length - records.length} questions not run; --resume finishes the run.\n` : "") +
          `Report: ${path.join(outDir, "report.md")}\n`,
      );
      return stopping ? 130 : 0;
    } finally {
      checkpoints.close();
    }
  },
};

function selectQuestions(bench: Benchmark, ids: string[] | undefined, limit: number | undefined) {
  const wanted = ids?.flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean);
  let questions = bench.questions;
  let skipped = bench.skipped;
  if (wanted?.length) {
    const known = new Set([...questions.map((q) => q.id), ...skipped.map((q) => q.id)]);
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length) throw new UserError(`--ids: no question with id ${unknown.slice(0, 5).join(", ")} in ${bench.name}`);
    const set = new Set(wanted);
    questions = questions.filter((q) => set.has(q.id));
    skipped = skipped.filter((q) => set.has(q.id));
  }
  if (limit !== undefined) {
    // The limit counts questions in file order, skipped ones included, so a subset is the same subset every time.
    const keep = new Set(fileOrder([...questions, ...skipped]).slice(0, limit).map((q) => q.id));
    questions = questions.filter((q) => keep.has(q.id));
    skipped = skipped.filter((q) => keep.has(q.id));
  }
  return { questions, skipped };
}

/** Benchmark order: numeric ids (BIRD question_id, Spider index) sort as numbers; other ids keep their order. */
function fileOrder<T extends { id: string }>(items: T[]): T[] {
  const numeric = items.every((q) => /^\d+$/.test(q.id));
  return numeric ? [...items].sort((a, b) => Number(a.id) - Number(b.id)) : items;
}

async function loadTrain(benchDir: string, split: string, bench: Benchmark) {
  if (split === "train") return bench;
  try {
    return await loadBenchmark(benchDir, { split: "train" });
  } catch (error) {
    throw new UserError(`--few-shot needs the train split of ${benchDir}: ${firstLineOf(error)}`);
  }
}

function prepareOutDir(outDir: string, expected: Omit<RunFile, "runId" | "startedAt">, resume: boolean): RunFile {
  const runPath = path.join(outDir, RUN_FILE);
  if (fs.existsSync(runPath)) {
    if (!resume) throw new UserError(`${outDir} already holds a run: pass --resume to continue it, or choose another --out`);
    let previous: RunFile;
    try {
      previous = JSON.parse(fs.readFileSync(runPath, "utf8")) as RunFile;
    } catch (error) {
      throw new UserError(`${runPath}: unreadable (${firstLineOf(error)})`);
    }
    for (const key of ["graph", "bench", "split", "semantics", "models", "settings"] as const) {
      const before = JSON.stringify(previous[key] ?? null);
      const now = JSON.stringify(expected[key]);
      if (before !== now) {
        throw new UserError(`--resume: ${outDir} holds a run with ${key} ${before}, not ${now}; resume with the same, or choose another --out`);
      }
    }
    return previous;
  }
  fs.mkdirSync(outDir, { recursive: true });
  const runFile: RunFile = { runId: randomUUID().slice(0, 8), ...expected, startedAt: new Date().toISOString() };
  fs.writeFileSync(runPath, `${JSON.stringify(runFile, null, 2)}\n`);
  return runFile;
}

/**
 * Finished questions from results.jsonl. A kill can leave a half-written last line and a resumed run may have
 * repeated one: both are dropped, and the file is rewritten clean, so lines stay one per question.
 */
function readRecords(file: string): Map<string, EvalRecord> {
  if (!fs.existsSync(file)) return new Map();
  const text = fs.readFileSync(file, "utf8");
  const { records, dropped } = parseResults(text);
  const clean = [...records.values()].map((r) => `${JSON.stringify(r)}\n`).join("");
  if (dropped || clean !== text) {
    const tmp = `${file}.tmp`;
    fs.writeFileSync(tmp, clean);
    fs.renameSync(tmp, file);
  }
  return records;
}

async function evaluateQuestion(runner: Runner, q: Question, threadId: string, semantics: Semantics, keepDistinct: boolean): Promise<EvalRecord> {
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
    error: run.error,
    thread: threadId,
  };
}

/** Runs tasks with at most `limit` in flight, starting none once `stop()` says so. */
async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>, stop: () => boolean): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length && !stop()) {
      const item = items[next++]!;
      await task(item);
    }
  });
  await Promise.all(workers);
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
