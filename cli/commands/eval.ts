import path from "node:path";
import type { CliIO, Command } from "../shared/command.ts";
import { UsageError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import {
  answerSettings,
  cacheModeFrom,
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
import type { Semantics } from "../../tools/benchmarks/score.ts";
import { getSharedExecutor } from "../../tools/sqlite/executor.ts";
import { addSpiderHardness } from "../../tools/benchmarks/benchmark.ts";
import { benchmarkFromFlags, prepareOutDir, RUN_DIR_FLAGS, SELECTION_USAGE, selectQuestions, splitFrom } from "../../runner/run-dir.ts";
import { runQuestions, unfinishedLines } from "../../runner/question-runner.ts";
import { fallbackNotes } from "../../runner/progress.ts";
import { parseShard, shardName, shardOf } from "../../runner/shards.ts";

export const evalCommand: Command = {
  name: "eval",
  usage: `Usage: sqlmend eval GRAPH --bench DIR|minibench --out DIR [--split dev|train|test|minidev] [--questions FILE]
                    [--limit N] [--ids ID,...] [--concurrency K] [--resume] [--semantics bird|spider]
                    [--keep-distinct] [--shard I/N]
       sqlmend eval GRAPH --questions FILE.jsonl|.csv --db-dir DIR --out DIR [...]

${SELECTION_USAGE}
  --out DIR                 results.jsonl (a line per question), predict_<split>.json (BIRD format),
                            pred_<split>.sql (Spider format: a line per selected question in file order,
                            so with --limit/--ids score the .json, whose ids are explicit, with
                            'sqlmend score --only-predicted'), report.md, run.json
  --limit N  --ids A,B,...  run a subset (ids as in the benchmark: BIRD question_id, Spider 0-based index)
  --concurrency K           questions in flight (default 4); --max-requests caps model requests
  --resume                  continue a killed or finished run in --out without redoing finished questions
  --semantics bird|spider   EX semantics (default: the benchmark's own)
  --server URL              run the graphs on a LangGraph server (threads there; scoring here), e.g.
                            http://127.0.0.1:2024 from 'npx @langchain/langgraph-cli dev'
  --shard I/N               run the I-th of N shares of the selection (positions I-1, I-1+N, ... in file
                            order), e.g. one per machine; 'sqlmend merge' joins the N --out folders
${RUN_FLAGS_USAGE}

  Exit status: 0 every question answered; 3 questions failed (a model call got no reply, the graph could not
  finish) or were not run (the endpoint looked down): --resume runs them again; 130 Ctrl-C; 1 user error; 2 usage.`,
  helpFor: graphUsage,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      ...runFlags,
      ...graphFlags(),
      ...RUN_DIR_FLAGS,
      semantics: { type: "string" },
      "keep-distinct": { type: "boolean" },
      shard: { type: "string" },
      server: { type: "string" },
    });
    const spec = requireGraph(positionals[0]);
    graphOptionsOf(spec, values);
    if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
    if (!values.bench && !values["db-dir"]) throw new UsageError("--bench DIR is required (or --questions FILE --db-dir DIR)");
    if (!values.out) throw new UsageError("--out DIR is required");
    splitFrom(values.split, "dev");
    const concurrency = intFlag(values, "concurrency", 1) ?? 4;
    const limit = intFlag(values, "limit", 1);
    if (values.semantics !== undefined && values.semantics !== "bird" && values.semantics !== "spider") {
      throw new UsageError(`--semantics takes bird or spider, not '${values.semantics}'`);
    }

    // The model flags and --correct are checked now too (buildRunner reads them again): what runs a graph (LangGraph,
    // LangChain, the checkpoint store) loads only once every flag has passed its check.
    modelFlagsFrom(values);
    scenarioFrom(values.correct, true);
    const [{ buildRunner, examplesFor }, { openReadyCheckpointer }, { cacheSummary, callFailures, exLine, failureOf, summarize }, { evalQuestions, evalRecordStore, writeEvalOutputs }] = await Promise.all([
      import("../shared/build-runner.ts"),
      import("../../storage/checkpoints.ts"),
      import("../../runner/report.ts"),
      import("../../runner/eval.ts"),
    ]);
    const { bench, source, benchDir } = await benchmarkFromFlags(values, io, "dev");
    const split = bench.split;
    const semantics: Semantics = (values.semantics as Semantics | undefined) ?? (bench.layout === "spider" ? "spider" : "bird");
    // Spider semantics asked of another set (own databases): its hardness levels too, as for Spider's own files.
    if (semantics === "spider") addSpiderHardness(bench);
    const shard = values.shard !== undefined ? parseShard(values.shard) : undefined;
    const selection = selectQuestions(bench, values.ids, limit);
    const { questions, skipped } = shardOf(selection, shard);
    const examples = await examplesFor(spec, values, benchDir, split, bench);

    const outDir = path.resolve(io.cwd, values.out);
    const executor = getSharedExecutor();
    // What fell back during the run (the response cache turned off, a damaged checkpoint file set aside): said on
    // stderr as it happens, and listed in report.md.
    const { notes: runNotes, warn } = fallbackNotes(io, "eval");
    const checkpoints = await openReadyCheckpointer(values.checkpoints, io.env, io.cwd, { onDamagedFile: warn });
    let releaseOutDir = () => {};
    try {
      const runner = await buildRunner({
        warn,
        spec,
        values,
        env: io.env,
        cwd: io.cwd,
        executor,
        checkpointer: checkpoints.saver,
        semantics,
        examples,
        allowOracle: true,
        server: values.server,
        benchQuestions: bench,
      });
      // The graph's own check of its inputs against the whole selection, every shard's (memo-sql: the memory holds
      // none of the evaluated questions).
      const preflight = runner.spec.preflight?.({ questions: selection.questions, bench: source.bench ?? source.dbDir!, ...(source.questions ? { questionsFile: source.questions } : {}), split, options: graphOptionsOf(spec, values), cwd: io.cwd }) ?? {};
      const runFile = prepareOutDir(
        outDir,
        {
          graph: spec.name,
          bench: source.bench ?? null,
          split,
          questions: source.questions ?? null,
          dbDir: source.dbDir ?? null,
          semantics,
          models: runner.deps.models.describe(),
          settings: { ...answerSettings(values), ...graphSettings(runner.graphSpecs, values, io.cwd) },
          shard: shard ? shardName(shard) : null,
          // What was selected, for `sqlmend merge` (not checked by --resume: a resumed run may take more questions).
          selection: { ids: values.ids?.flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean) ?? null, limit: limit ?? null },
          // What the graph's preflight found (the report's settings; `sqlmend merge` copies it; not checked by --resume).
          preflight,
        },
        values.resume ?? false,
        ["graph", "bench", "split", "questions", "dbDir", "semantics", "models", "settings", "shard"],
        { command: "eval", io },
      );
      // Each question's trace (LANGSMITH_TRACING) carries the run and the settings that shape answers.
      runner.trace = { run: runFile.runId, settings: runFile.settings };
      releaseOutDir = runFile.release;
      const keepDistinct = values["keep-distinct"] ?? false;
      const run = await runQuestions({
        command: "eval",
        io,
        questions,
        store: evalRecordStore(outDir),
        concurrency,
        ...evalQuestions(runner, { runId: runFile.runId, semantics, keepDistinct }),
        // Without gold there is no EX so far: the progress line counts predictions that executed instead.
        ...(questions.some((q) => q.goldSql)
          ? {}
          : { progress: { metric: { label: "executed", as: "count" as const }, of: (r: { predError?: string | undefined; error?: string | undefined; inputTokens: number; outputTokens: number }) => ({ hit: !r.predError && !r.error, tokens: r.inputTokens + r.outputTokens }) } }),
        describe: (counts) => `eval: ${spec.name} on ${bench.name}: ${counts.line.replace(/\)$/, `, ${skipped.length} skipped)`)}`,
      });
      const { records, stopped: stopping } = run;
      const ranNow = new Set(run.ranNowIds);
      await writeEvalOutputs(outDir, records, {
        graph: runner.spec.name,
        outcome: runner.spec.outcome,
        bench,
        split,
        questions,
        skipped,
        semantics,
        startedAt: runFile.startedAt,
        settings: {
          concurrency,
          checkpoints: checkpoints.location,
          cache: cacheModeFrom(values, io.env),
          // Linking and few-shot retrieval rank by this model, or lexically (each linking says which, in inspect).
          embeddings: runner.deps.embeddings?.model ?? "none (lexical ranking)",
          ...(values.server ? { server: values.server } : {}),
          ...answerSettings(values),
          ...graphSettings(runner.graphSpecs, values, io.cwd),
          ...(values["max-requests"] ? { "max-requests": values["max-requests"] } : {}),
          ...preflight,
        },
        models: runner.deps.models.describe(),
        command: `sqlmend eval ${argv.join(" ")}`,
        notes: runNotes,
      });
      io.stdout(
        `${exLine(summarize(records), `, ${semantics} semantics`)}; ${skipped.length} skipped\n` +
          unfinishedLines(run, failureOf) +
          (callFailures(records) ? `${callFailures(records)}\n` : "") +
          (cacheModeFrom(values, io.env) !== "off" ? `${cacheSummary(records.filter((r) => ranNow.has(r.id)))} in this run\n` : "") +
          (stopping ? `Stopped early: ${run.notRun} questions not run; --resume finishes the run.\n` : "") +
          `Report: ${path.join(outDir, "report.md")}\n`,
      );
      return run.exitCode;
    } finally {
      releaseOutDir();
      checkpoints.close();
    }
  },
};

export type { CliIO };
