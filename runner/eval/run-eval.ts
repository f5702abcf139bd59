import fs from "node:fs";
import path from "node:path";
import { EXIT } from "../../core/exit.ts";
import { checkConfig, checkGraphOptions, commandLineOfConfig, type ConfigInput, inApiWords, opt, optionUsageError } from "../../core/config.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import { answerSettings, graphSettings } from "../run/run-settings.ts";
import { cacheModeFrom, modelFlagsFrom } from "../run/model-options.ts";
import { checkRunGraphOptions, optionsOfGraph, runGraph, runOptionDefs, scenarioFrom } from "../run/run-options.ts";
import { loadRunModules, type RunModules, withObjectModules } from "../run/user-modules.ts";
import type { Semantics } from "../../tools/benchmarks/score.ts";
import { getSharedExecutor } from "../../tools/sqlite/executor.ts";
import { isMockRun, MOCK_CACHE_SETTING, MOCK_LABEL } from "../../tools/models/mock-label.ts";
import { addSpiderHardness } from "../../tools/benchmarks/hardness.ts";
import { benchRequired } from "../run/output-dir-flags.ts";
import { inRunFolder, runQuestionsOf } from "../run/run-skeleton.ts";
import { sampleOf } from "../run/question-sample.ts";
import { codeIdentity, describeCode } from "../../tools/version.ts";
import { runQuestions, unfinishedLines } from "../run/question-loop.ts";
import { parseShard, shardName, shardOf } from "../run/shards.ts";
import type { BuiltInGraphName, GraphOptionsOf } from "../../graphs/registry.ts";
import type { GraphSpec } from "../../graphs/spec.ts";
import type { AnyNodeFactory } from "../../nodes/types.ts";
import { EVAL_CONFIG, type EvalConfig } from "./eval-config.ts";

/** The files an eval run writes in its output folder. */
export interface EvalFiles {
  results: string;
  report: string;
  reportHtml: string;
  run: string;
  /** BIRD format (`predict_<split>.json`) and Spider format (`pred_<split>.sql`). */
  predictions: string[];
}

/** What an eval run did: the figures its report prints, and where its files are. */
export interface EvalResult {
  /** The launcher's exit status (`core/exit.ts`): 0 every question answered, 3 some failed or not run, 4 degenerate under `strict`, 130/143/129 stopped. */
  exitCode: number;
  outDir: string;
  /** Execution accuracy in percent over the answered questions with gold SQL; null when none was scored. */
  ex: number | null;
  correct: number;
  /** Answered questions with gold SQL (EX's denominator). */
  scored: number;
  /** Not answered (a model call got no reply, the graph could not finish): never scored; --resume runs them again. */
  failed: number;
  /** Selected but not run (stopped, or the endpoint looked down). */
  notRun: number;
  /** Left out before running (database missing), with their reasons in report.md. */
  skipped: number;
  /** Questions with a record (answered or failed). */
  questions: number;
  inputTokens: number;
  outputTokens: number;
  /** Chat-model calls (cached ones included). */
  calls: number;
  files: EvalFiles;
}

const evalFiles = (outDir: string, split: string): EvalFiles => ({
  results: path.join(outDir, "results.jsonl"),
  report: path.join(outDir, "report.md"),
  reportHtml: path.join(outDir, "report.html"),
  run: path.join(outDir, "run.json"),
  predictions: [path.join(outDir, `predict_${split}.json`), path.join(outDir, `pred_${split}.sql`)],
});

/**
 * The options of `sqlmend eval`, by name (camelCase), as `EVAL_CONFIG` declares them: `graph` (a built-in's name) or
 * `graphModule` (a file made with `defineGraph`, or the spec itself), `bench` (a folder, or "minibench"), `out`,
 * `split`, `questions`, `dbDir`, `limit`, `ids`, `concurrency`, `resume`, `semantics`, `model`, `baseUrl`, `config`,
 * `roleModel: { ROLE: MODEL }`, `temperature`, `seed`, `cache`, `maxFixRounds`, `fewShot`, `node: { SLOT: FILE }`,
 * `checkpoints`, `initial`, `correct`, `shard`, `server`, ... — and `options`, the graph's own (camelCase, as it
 * declares them). Closed: a misspelt option does not compile.
 */
type EvalCommon = Omit<ConfigInput<typeof EVAL_CONFIG>, "graph" | "node" | "out"> & {
  out: string;
  /** Slot swaps: by slot, a module file or the node factory itself (known by its source text's sha256). */
  node?: Readonly<Record<string, string | AnyNodeFactory>>;
};
export type EvalOptions<G extends BuiltInGraphName = BuiltInGraphName> =
  | (EvalCommon & { graph: G; graphModule?: undefined; options?: GraphOptionsOf<G> })
  | (EvalCommon & { graph?: undefined; graphModule: string | GraphSpec; options?: Record<string, unknown> });

/** What eval runs, typed: its config, the built-in graph named (else `config.graph`'s module), the graph's own options, the loaded modules. */
export interface EvalInput {
  config: EvalConfig;
  /** A built-in graph's name (the launcher's positional); absent for a graph module. */
  graph?: string | undefined;
  /** The graph's own options (and a corrector's initial generator's), typed and by key: `{ kShot: 5 }`. */
  graphOptions: Record<string, unknown>;
  modules: RunModules;
}

/**
 * A SQL worker that ran this many jobs is ended once eval's questions are done: it has grown with the files and
 * results it saw (bench/memory-flat.ts: 51 MB at its start, 70 over Spider train's 6,904 questions, ~3 jobs each).
 * One that ran fewer is about its start size and is kept for the next run in this process (a script's, a test's).
 */
export const RELEASE_WORKERS_AFTER_JOBS = 500;

/**
 * Runs a graph over a benchmark's questions, scores them and writes the run folder `sqlmend eval` writes
 * (results.jsonl, predictions, report.md, report.html, run.json): the launcher's eval is this, given its flags.
 */
export async function runEval<G extends BuiltInGraphName>(options: EvalOptions<G>, io: CliIO = defaultIO()): Promise<EvalResult> {
  const { graph, graphModule, options: graphOptions, node, ...rest } = options as EvalOptions<G>;
  return inApiWords("runEval", async () => {
    const config = checkConfig("runEval", EVAL_CONFIG, { ...rest, ...withObjectModules(node, graphModule) });
    const modules = await loadRunModules(config, io.cwd);
    const spec = runGraph(graph, modules);
    const typed = checkGraphOptions("runEval", runOptionDefs(spec, config.initial), graphOptions as Record<string, unknown> | undefined);
    return evaluate({ config, graph, graphOptions: typed, modules }, io);
  });
}

/**
 * Every check eval makes of its config before it loads anything slow or spends a call: the graph and its options,
 * the selection, the models and `correct`. `sqlmend experiment` calls it for every run before the first.
 */
export function checkEvalConfig(input: EvalInput): { spec: ReturnType<typeof runGraph>; concurrency: number; limit: number | undefined } {
  const { config, graphOptions } = input;
  const spec = runGraph(input.graph, input.modules);
  checkRunGraphOptions(spec, config, graphOptions);
  if (config.bench === undefined && config.dbDir === undefined) throw benchRequired();
  if (config.out === undefined) throw optionUsageError`${opt("out")} DIR is required`;
  sampleOf(config);
  if (config.shard !== undefined) parseShard(config.shard);
  // The models and `correct` are checked now too (buildRunner reads them again): what runs a graph (LangGraph,
  // LangChain, the checkpoint store) loads only once every option has passed its check.
  modelFlagsFrom(config);
  scenarioFrom(config.correct, true);
  return { spec, concurrency: config.concurrency ?? 4, limit: config.limit };
}

/** eval from its typed input (the launcher's parse, or `runEval`'s): the one body both run. */
export async function evaluate(input: EvalInput, io: CliIO): Promise<EvalResult> {
  const { config, graphOptions } = input;
  const { spec, concurrency, limit } = checkEvalConfig(input);
  const [{ buildRunner }, { examplesFor }, { cacheSummary, callFailures, exLine, summarize }, { failureOf }, { degenerateOf, evalQuestions, evalRecordStore, writeEvalOutputs }] = await Promise.all([
    import("../run/graph-runner.ts"),
    import("../run/training-examples.ts"),
    import("../report/eval-report.ts"),
    import("../run/results-record.ts"),
    import("./eval-question.ts"),
  ]);
  const { bench, source, benchDir, split, sample, ...selection } = await runQuestionsOf(config, io, "dev");
  const semantics: Semantics = config.semantics ?? (bench.layout === "spider" ? "spider" : "bird");
  // Spider semantics asked of another set (own databases): its hardness levels too, as for Spider's own files.
  if (semantics === "spider") addSpiderHardness(bench);
  const shard = config.shard !== undefined ? parseShard(config.shard) : undefined;
  const { questions, skipped } = shardOf(selection, shard);
  const examples = await examplesFor(spec, config, graphOptions, benchDir, split, bench);
  // A down endpoint is said now, in one line, before a question runs (a LangGraph server's models are its own).
  if (!config.server) await (await import("../run/model-setup.ts")).checkEndpointsFrom(config, io.env, io.cwd);

  const executor = getSharedExecutor();
  return inRunFolder("eval", config, io, async ({ outDir, notes: runNotes, warn, checkpoints, claim }) => {
    const runner = await buildRunner({
      warn,
      spec,
      modules: input.modules,
      config,
      graphOptions,
      env: io.env,
      cwd: io.cwd,
      executor,
      checkpointer: checkpoints.saver,
      semantics,
      examples,
      allowOracle: true,
      server: config.server,
      benchQuestions: bench,
    });
    // The graph's own check of its inputs against the whole selection, every shard's (memo-sql: the memory holds
    // none of the evaluated questions).
    const preflight = runner.spec.preflight?.({ questions: selection.questions, bench: source.bench ?? source.dbDir!, ...(source.questions ? { questionsFile: source.questions } : {}), split, options: optionsOfGraph(spec, graphOptions), cwd: io.cwd }) ?? {};
    if (config.resume) recordEndpointsApart(outDir);
    // The mock model's runs say so everywhere and never touch the response cache.
    const mock = isMockRun({ models: runner.deps.models.describe() });
    const cacheSetting = mock ? MOCK_CACHE_SETTING : cacheModeFrom(config, io.env);
    const where = { cwd: io.cwd, runDir: outDir };
    const code = await codeIdentity();
    const runFile = claim(
      {
        graph: spec.name,
        bench: source.bench ?? null,
        split,
        questions: source.questions ?? null,
        dbDir: source.dbDir ?? null,
        semantics,
        models: runner.deps.models.describe(),
        // Where they were served: recorded, not compared (a server restarted elsewhere serves the same models).
        endpoints: runner.deps.models.endpoints?.() ?? null,
        settings: { ...answerSettings(config, [], where), ...graphSettings(runner.graphSpecs, graphOptions, io.cwd, outDir) },
        shard: shard ? shardName(shard) : null,
        // What was selected, for `sqlmend merge` (--resume checks the questions themselves: it may add, never drop).
        selection: { ids: config.ids ?? null, limit: limit ?? null, ...(sample ? { sample } : {}) },
        // --sample N --sample-seed S (n, seed, method): a resume takes the same sample, or it would run other questions.
        sample,
        // What the graph's preflight found (the report's settings; `sqlmend merge` copies it; not checked by --resume).
        preflight,
        // Where the threads are (`sqlmend replay` forks them; a PostgreSQL URL without its password).
        checkpoints: checkpoints.location,
        // The response cache's mode (not checked by --resume: it changes no answer): a merged report says it per shard.
        cache: cacheSetting,
        ...(mock ? { mock: true, note: MOCK_LABEL } : {}),
      },
      ["graph", "bench", "split", "questions", "dbDir", "semantics", "models", "settings", "shard", "sample"],
      // sqlmend's code and this shard's questions by content: a resume refuses other code, edited questions, fewer questions.
      { questions: [...questions, ...skipped], refresh: ["selection"] },
    );
    // Each question's trace (LANGSMITH_TRACING) carries the run and the settings that shape answers.
    runner.trace = { run: runFile.runId, settings: runFile.settings };
    const keepDistinct = config.keepDistinct ?? false;
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
      // The SQL workers' memory goes before the records are read back and the outputs written (the run's peak).
      afterAll: () => executor.releaseIdle?.(RELEASE_WORKERS_AFTER_JOBS) ?? Promise.resolve(),
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
        cache: cacheSetting,
        // Linking and few-shot retrieval rank by this model, or lexically (each linking says which, in inspect).
        embeddings: runner.deps.embeddings ? `${runner.deps.embeddings.model}${runner.deps.embeddings.fallback ? " (lexical ranking where the endpoint fails: --embedding-fallback lexical)" : ""}` : "none (lexical ranking)",
        ...(config.server ? { server: config.server } : {}),
        code: describeCode(code),
        ...answerSettings(config, [], where),
        ...graphSettings(runner.graphSpecs, graphOptions, io.cwd, outDir),
        ...(config.maxRequests ? { "max-requests": config.maxRequests } : {}),
        ...(sample ? { sample: `${sample.n} questions, --sample-seed ${sample.seed} (${sample.method})` } : {}),
        ...preflight,
      },
      models: { ...runner.deps.models.describe(), ...runner.deps.models.endpoints?.() },
      // The command line that does what this config does, the launcher's or a script's alike (display only).
      command: commandLineOfConfig("eval", input.graph ? [input.graph] : [], EVAL_CONFIG, config, graphOptions),
      notes: runNotes,
    });
    const degenerate = degenerateOf(runner.spec.outcome, records).degenerate;
    io.stdout(
      `${exLine(summarize(records), `, ${semantics} semantics`)}; ${skipped.length} skipped${mock ? ` (${MOCK_LABEL})` : ""}\n` +
        unfinishedLines(run, failureOf) +
        (callFailures(records) ? `${callFailures(records)}\n` : "") +
        (cacheSetting === "on" || cacheSetting === "read" || cacheSetting === "refresh" ? `${cacheSummary(records.filter((r) => ranNow.has(r.id)))} in this run\n` : "") +
        (stopping ? `Stopped early: ${run.notRun} questions not run; --resume finishes the run.\n` : "") +
        (degenerate ? `${degenerate}${config.strict ? " (--strict: exit 4)" : "; --strict makes this exit non-zero"}\n` : "") +
        `Report: ${path.join(outDir, "report.md")}\n`,
    );
    const summary = summarize(records);
    return {
      // A degenerate run under --strict is not what was asked (a failed or stopped run keeps its own status).
      exitCode: run.exitCode === EXIT.ok && degenerate && config.strict ? EXIT.degenerate : run.exitCode,
      outDir,
      ex: summary.total ? summary.ex : null,
      correct: summary.correct,
      scored: summary.total,
      failed: summary.failed,
      notRun: run.notRun,
      skipped: skipped.length,
      questions: records.length,
      inputTokens: records.reduce((a, r) => a + r.inputTokens, 0),
      outputTokens: records.reduce((a, r) => a + r.outputTokens, 0),
      calls: records.reduce((a, r) => a + (r.calls ?? 0), 0),
      files: evalFiles(outDir, split),
    };
  });
}

/**
 * A run.json written before endpoints left the run's identity has the URLs in `models`: moved to `endpoints`, so
 * `--resume` compares that run's models as it compares a new one's (by name and parameters, not by server).
 */
function recordEndpointsApart(outDir: string): void {
  const file = path.join(outDir, "run.json");
  let run: { models?: Record<string, unknown>; endpoints?: unknown };
  try {
    run = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return; // none, or unreadable: prepareOutDir says so
  }
  if (!run.models || !("baseURL" in run.models)) return;
  const { baseURL, embeddingBaseURL, ...models } = run.models;
  const endpoints = { baseURL, ...(embeddingBaseURL !== undefined ? { embeddingBaseURL } : {}) };
  fs.writeFileSync(file, `${JSON.stringify({ ...run, models, endpoints: run.endpoints ?? endpoints }, null, 2)}\n`);
}

