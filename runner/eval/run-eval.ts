import fs from "node:fs";
import path from "node:path";
import { UsageError } from "../../core/errors.ts";
import { EXIT } from "../../core/exit.ts";
import { commandLine } from "../../core/secrets.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import {
  answerSettings,
  cacheModeFrom,
  graphFlags,
  graphOptionsOf,
  graphSettings,
  intFlag,
  loadRunModules,
  moduleArgsOf,
  modelFlagsFrom,
  type RunModules,
  RUN_FLAGS_USAGE,
  runFlags,
  runGraph,
  scenarioFrom,
  withObjectModules,
} from "../run/run-options.ts";
import type { Semantics } from "../../tools/benchmarks/score.ts";
import { getSharedExecutor } from "../../tools/sqlite/executor.ts";
import { isMockRun, MOCK_CACHE_SETTING, MOCK_LABEL } from "../../tools/models/mock-label.ts";
import { addSpiderHardness } from "../../tools/benchmarks/hardness.ts";
import { RUN_DIR_FLAGS, SELECTION_USAGE, splitFrom } from "../run/output-dir-flags.ts";
import { inRunFolder, runQuestionsOf } from "../run/run-skeleton.ts";
import { SAMPLE_USAGE, sampleFrom } from "../run/question-sample.ts";
import { codeIdentity, describeCode } from "../../tools/version.ts";
import { runQuestions, unfinishedLines } from "../run/question-loop.ts";
import { parseShard, shardName, shardOf } from "../run/shards.ts";
import { type ApiOptionsOf, asApiErrors, commandLineOf, type FlagTable, type FlagValues, type FlagValuesOf, flagValuesOf } from "../run/api-options.ts";
import type { BuiltInGraphName, GraphOptionsOf } from "../../graphs/registry.ts";
import type { GraphSpec } from "../../graphs/spec.ts";
import type { AnyNodeFactory } from "../../nodes/types.ts";

/** What `sqlmend eval` prints for `--help` (the flags are `evalFlags`). */
export const EVAL_USAGE = `Usage: sqlmend eval GRAPH|--graph FILE --bench DIR|minibench --out DIR [--split dev|train|test|minidev] [--questions FILE]
                    [--limit N] [--ids ID,...] [--concurrency K] [--resume] [--semantics bird|spider]
                    [--keep-distinct] [--shard I/N] [--strict]
       sqlmend eval GRAPH --questions FILE.jsonl|.csv --db-dir DIR --out DIR [...]

${SELECTION_USAGE}
  --out DIR                 results.jsonl (a line per question), predict_<split>.json (BIRD format),
                            pred_<split>.sql (Spider format: a line per selected question in file order,
                            so with --limit/--ids score the .json, whose ids are explicit, with
                            'sqlmend score --only-predicted'), report.md, run.json
  --limit N  --ids A,B,...  run a subset (ids as in the benchmark: BIRD question_id, Spider 0-based index)
${SAMPLE_USAGE}
  --concurrency K           questions in flight (default 4); --max-requests caps model requests
  --resume                  continue a killed or finished run in --out without redoing finished questions; it
                            may add questions (a larger --limit, more --ids), never drop or change any, and
                            refuses a run started by other sqlmend code or with another --node module
  --semantics bird|spider   EX semantics (default: the benchmark's own)
  --server URL              run the graphs on a LangGraph server (threads there; scoring here), e.g.
                            http://127.0.0.1:2024 from 'npx @langchain/langgraph-cli dev'
  --shard I/N               run the I-th of N shares of the selection (positions I-1, I-1+N, ... in file
                            order), e.g. one per machine; 'sqlmend merge' joins the N --out folders
  --strict                  exit 4 when the run is degenerate: the method's defining step (TS-SQL: a test case;
                            Memo-SQL: a memory hit; R3: a review round; MAGIC: a guideline revision kept)
                            happened in none of the questions (the summary and report.md say so either way)
${RUN_FLAGS_USAGE}

  Exit status: 0 every question answered; 3 questions failed (a model call got no reply, the graph could not
  finish) or were not run (the endpoint looked down): --resume runs them again; 130 Ctrl-C, 143 SIGTERM,
  129 SIGHUP (stopped: questions in flight finish, outputs are written, --resume continues); 4 a degenerate run
  under --strict; 1 user error; 2 usage.`;

/** eval's own flags, beside the run's and the selection's. */
const EVAL_OWN_FLAGS = {
  semantics: { type: "string" },
  "keep-distinct": { type: "boolean" },
  shard: { type: "string" },
  server: { type: "string" },
  strict: { type: "boolean" },
} as const;

/** eval's flags: the run's (model, graph knobs, node swaps, correction), every graph's own options, the selection's, eval's own. */
export const evalFlags = (modules?: RunModules) =>
  ({
    ...runFlags,
    ...graphFlags(modules),
    ...RUN_DIR_FLAGS,
    ...EVAL_OWN_FLAGS,
  }) as const;

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
 * The options of `sqlmend eval`, by name (camelCase): `graph` (a built-in's name) or `graphModule` (a file made with
 * `defineGraph`), `bench` (a folder, or "minibench"), `out`, and any other eval flag — `split`, `questions`, `dbDir`,
 * `limit`, `ids`, `concurrency`, `resume`, `semantics`, `model`, `baseUrl`, `config`, `roleModel: { ROLE: MODEL }`,
 * `temperature`, `seed`, `cache`, `maxFixRounds`, `fewShot`, `node: { SLOT: FILE }`, `checkpoints`, `initial`,
 * `correct`, `shard`, `server`, ... — and `options`, the graph's own (camelCase, as it declares them).
 */
type EvalCommon = Omit<ApiOptionsOf<typeof runFlags & typeof RUN_DIR_FLAGS & typeof EVAL_OWN_FLAGS>, "graph" | "node" | "out" | "semantics"> & {
  out: string;
  semantics?: "bird" | "spider";
  /** Slot swaps: by slot, a module file or the node factory itself (known by its source text's sha256). */
  node?: Readonly<Record<string, string | AnyNodeFactory>>;
};
export type EvalOptions<G extends BuiltInGraphName = BuiltInGraphName> =
  | (EvalCommon & { graph: G; graphModule?: undefined; options?: GraphOptionsOf<G> })
  | (EvalCommon & { graph?: undefined; graphModule: string | GraphSpec; options?: Record<string, unknown> });

/**
 * Runs a graph over a benchmark's questions, scores them and writes the run folder `sqlmend eval` writes
 * (results.jsonl, predictions, report.md, report.html, run.json): the launcher's eval is this, given its flags.
 */
export async function runEval<G extends BuiltInGraphName>(options: EvalOptions<G>, io: CliIO = defaultIO()): Promise<EvalResult> {
  const { graph, graphModule, options: graphOptions, ...rest } = options as EvalOptions<G> & { node?: Record<string, unknown> };
  const withGraph = { ...rest, ...withObjectModules(rest.node, graphModule) };
  return asApiErrors("runEval", async () => {
    const modules = await loadRunModules(moduleArgsOf(withGraph), io.cwd);
    const values = flagValuesOf("runEval", withGraph, evalFlags(modules) as FlagTable, graphOptions as Record<string, unknown> | undefined);
    return evaluate({ values, positionals: graph ? [graph] : [], modules }, io);
  });
}

/**
 * Every check eval makes of its flag values before it loads anything slow or spends a call: the graph and its
 * options, the selection, the model flags and --correct. `sqlmend experiment` calls it for every run before the first.
 */
export function checkEvalFlags(input: { values: FlagValues; positionals: string[]; modules: RunModules }): { spec: ReturnType<typeof runGraph>; concurrency: number; limit: number | undefined } {
  const values = input.values as FlagValuesOf<ReturnType<typeof evalFlags>>;
  const { positionals, modules } = input;
  const spec = runGraph(positionals[0], modules);
  graphOptionsOf(spec, values);
  if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
  if (!values.bench && !values["db-dir"]) throw new UsageError("--bench DIR is required (or --questions FILE --db-dir DIR)");
  if (!values.out) throw new UsageError("--out DIR is required");
  splitFrom(values.split, "dev");
  const concurrency = intFlag(values, "concurrency", 1) ?? 4;
  const limit = intFlag(values, "limit", 1);
  sampleFrom(values);
  if (values.semantics !== undefined && values.semantics !== "bird" && values.semantics !== "spider") {
    throw new UsageError(`--semantics takes bird or spider, not '${values.semantics}'`);
  }
  if (values.shard !== undefined) parseShard(values.shard);
  // The model flags and --correct are checked now too (buildRunner reads them again): what runs a graph (LangGraph,
  // LangChain, the checkpoint store) loads only once every flag has passed its check.
  modelFlagsFrom(values);
  scenarioFrom(values.correct, true);
  return { spec, concurrency, limit };
}

/** eval from its flag values (the launcher's parse, or `runEval`'s): the one body both run. */
export async function evaluate(input: { values: FlagValues; positionals: string[]; modules: RunModules; argv?: string[] }, io: CliIO): Promise<EvalResult> {
  const values = input.values as FlagValuesOf<ReturnType<typeof evalFlags>>;
  const { positionals, modules } = input;
  const { spec, concurrency, limit } = checkEvalFlags(input);
  const [{ buildRunner, examplesFor }, { cacheSummary, callFailures, exLine, summarize }, { failureOf }, { degenerateOf, evalQuestions, evalRecordStore, writeEvalOutputs }] = await Promise.all([
    import("../run/graph-runner.ts"),
    import("../report/eval-report.ts"),
    import("../run/results-record.ts"),
    import("./eval-question.ts"),
  ]);
  const { bench, source, benchDir, split, sample, ...selection } = await runQuestionsOf(values, io, "dev", limit);
  const semantics: Semantics = (values.semantics as Semantics | undefined) ?? (bench.layout === "spider" ? "spider" : "bird");
  // Spider semantics asked of another set (own databases): its hardness levels too, as for Spider's own files.
  if (semantics === "spider") addSpiderHardness(bench);
  const shard = values.shard !== undefined ? parseShard(values.shard) : undefined;
  const { questions, skipped } = shardOf(selection, shard);
  const examples = await examplesFor(spec, values, benchDir, split, bench);
  // A down endpoint is said now, in one line, before a question runs (a LangGraph server's models are its own).
  if (!values.server) await (await import("../run/model-setup.ts")).checkEndpointsFrom(values, io.env, io.cwd);

  const executor = getSharedExecutor();
  return inRunFolder("eval", values, io, async ({ outDir, notes: runNotes, warn, checkpoints, claim }) => {
    const runner = await buildRunner({
      warn,
      spec,
      modules,
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
    if (values.resume) recordEndpointsApart(outDir);
    // The mock model's runs say so everywhere and never touch the response cache.
    const mock = isMockRun({ models: runner.deps.models.describe() });
    const cacheSetting = mock ? MOCK_CACHE_SETTING : cacheModeFrom(values, io.env);
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
        settings: { ...answerSettings(values, [], where), ...graphSettings(runner.graphSpecs, values, io.cwd, outDir) },
        shard: shard ? shardName(shard) : null,
        // What was selected, for `sqlmend merge` (--resume checks the questions themselves: it may add, never drop).
        selection: { ids: values.ids?.flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean) ?? null, limit: limit ?? null, ...(sample ? { sample } : {}) },
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
        cache: cacheSetting,
        // Linking and few-shot retrieval rank by this model, or lexically (each linking says which, in inspect).
        embeddings: runner.deps.embeddings ? `${runner.deps.embeddings.model}${runner.deps.embeddings.fallback ? " (lexical ranking where the endpoint fails: --embedding-fallback lexical)" : ""}` : "none (lexical ranking)",
        ...(values.server ? { server: values.server } : {}),
        code: describeCode(code),
        ...answerSettings(values, [], where),
        ...graphSettings(runner.graphSpecs, values, io.cwd, outDir),
        ...(values["max-requests"] ? { "max-requests": values["max-requests"] } : {}),
        ...(sample ? { sample: `${sample.n} questions, --sample-seed ${sample.seed} (${sample.method})` } : {}),
        ...preflight,
      },
      models: { ...runner.deps.models.describe(), ...runner.deps.models.endpoints?.() },
      command: input.argv ? commandLine("eval", input.argv) : commandLineOf("eval", positionals, values),
      notes: runNotes,
    });
    const degenerate = degenerateOf(runner.spec.outcome, records).degenerate;
    io.stdout(
      `${exLine(summarize(records), `, ${semantics} semantics`)}; ${skipped.length} skipped${mock ? ` (${MOCK_LABEL})` : ""}\n` +
        unfinishedLines(run, failureOf) +
        (callFailures(records) ? `${callFailures(records)}\n` : "") +
        (cacheSetting === "on" || cacheSetting === "read" || cacheSetting === "refresh" ? `${cacheSummary(records.filter((r) => ranNow.has(r.id)))} in this run\n` : "") +
        (stopping ? `Stopped early: ${run.notRun} questions not run; --resume finishes the run.\n` : "") +
        (degenerate ? `${degenerate}${values.strict ? " (--strict: exit 4)" : "; --strict makes this exit non-zero"}\n` : "") +
        `Report: ${path.join(outDir, "report.md")}\n`,
    );
    const summary = summarize(records);
    return {
      // A degenerate run under --strict is not what was asked (a failed or stopped run keeps its own status).
      exitCode: run.exitCode === EXIT.ok && degenerate && values.strict ? EXIT.degenerate : run.exitCode,
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

