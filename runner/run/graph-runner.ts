import fs from "node:fs";
import path from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { findManifest } from "../../graphs/registry.ts";
import { lazyCrypto } from "../../tools/hash.ts";
import { moduleIdentity } from "../../tools/version.ts";
import type { GraphInfo, GraphManifest, GraphSpec } from "../../graphs/spec.ts";
import type { NodeDeps } from "../../nodes/types.ts";
import { createExampleStore, type ExampleStore } from "../../tools/retrieval/examples.ts";
import { loadBenchmark } from "../../tools/benchmarks/benchmark.ts";
import type { Benchmark, Question } from "../../state/question.ts";
import { noAnswerOf, pairPredictions, predictionPairing, readPredictionFile, type Semantics } from "../../tools/benchmarks/score.ts";
import { fileOrder } from "./question-sample.ts";
import { extractSql } from "../../tools/reply.ts";
import type { SqlExecutor } from "../../tools/sqlite/types.ts";
import { firstLineOf, UserError } from "../../core/errors.ts";
import type { GraphRunner, InitialSource } from "./question-thread.ts";
import { EVAL_RESULTS } from "./results-record.ts";
import { type EvalRecord, failureOf, isFailed, parseResults } from "./results-record.ts";
import { embeddingsFrom, modelsFrom } from "./model-setup.ts";
import { checkRunGraphOptions, examplesWantedBy, graphOptionsFrom, optionsOfGraph, runGraph, scenarioFrom } from "./run-options.ts";
import { loadRunModules, loadSlotModules, type RunModules } from "./user-modules.ts";
import { modelFlagsFrom } from "./model-options.ts";
import { configValue, opt, type OptionText, optionUsageError, optionUserError } from "../../core/config.ts";
import { flagOf } from "../../core/options.ts";
import { optionDefsOf } from "../../graphs/manifests/manifest.ts";
import { RUN_CONFIG, type RunConfig } from "./run-config.ts";

/**
 * The training examples a run retrieves from (`--few-shot`, or a graph option such as R³'s `--k-shot`), or undefined
 * when none is wanted: the benchmark's train split, loaded once (the split itself when the run is on train).
 */
export async function examplesFor(spec: GraphInfo, config: RunConfig, graphOptions: Record<string, unknown>, benchDir: string | undefined, split: string, bench: Benchmark): Promise<ExampleStore | undefined> {
  const wantedBy = examplesWantedBy(spec, config, graphOptions);
  if (!wantedBy) return undefined;
  let train = bench;
  if (split !== "train" || bench.customQuestions) {
    if (benchDir === undefined) throw optionUserError`${wantedBy} needs a training split: run on a ${opt("bench")} layout that has one (${opt("dbDir")} data has none)`;
    try {
      train = await loadBenchmark(benchDir, { split: "train" });
    } catch (error) {
      throw optionUserError`${wantedBy} needs the train split of ${benchDir}: ${firstLineOf(error)}`;
    }
  }
  return examplePoolOf(train, wantedBy);
}

/**
 * The example pool of a train split: its questions whose database is on disk (the reader skips the others; each
 * question's state says how many were left out). An empty pool is an error, never a silent zero-shot run.
 */
export function examplePoolOf(train: Benchmark, wantedBy: OptionText | string): ExampleStore {
  const store = createExampleStore(train.questions, { count: train.skipped.length, reason: "database not found locally" });
  if (!store.size) {
    const why = train.skipped.length ? `: all ${train.skipped.length} of its questions lack their database (${train.skipped[0]!.reason}, ...)` : "";
    throw optionUserError`${wantedBy} needs training examples, but the train split of ${train.dir} has none with gold SQL${why}`;
  }
  return store;
}

/** Everything a command needs to run questions through a graph, from its typed config. */
export async function buildRunner(args: {
  spec: GraphManifest;
  config: RunConfig;
  /** The graph's own options (and a corrector's initial generator's), typed: `{ kShot: 5 }`. */
  graphOptions: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  cwd: string;
  executor: SqlExecutor;
  checkpointer: BaseCheckpointSaver;
  semantics: Semantics;
  examples?: ExampleStore;
  allowOracle: boolean;
  /**
   * The benchmark whose questions a predictions file for --initial answers: its every question, skipped ones included,
   * in file order (a text-format file has a line for each, paired by position).
   */
  benchQuestions?: Benchmark;
  /** ask: initial SQL given inline with --sql. */
  inlineInitialSql?: string;
  /** A corrector run on SQL the command gives it (the TS-SQL audit gives the gold): no --initial source is built. */
  noInitial?: boolean;
  /** Option values the command fixes, over the flags' (the audit: no revision). */
  fixedOptions?: Record<string, unknown>;
  /** The role whose model must be configured (checked before anything runs). */
  roleToCheck?: string;
  /** eval --server: the graphs run on this LangGraph server, scoring stays here. */
  server?: string;
  /** Where warnings go (a damaged response cache set aside); default stderr. */
  warn?: (line: string) => void;
  /** The `--node` modules the command already loaded (to read their options): not imported again. */
  modules?: RunModules;
  /** `--model mock` only: the questions whose gold it answers from (default: `benchQuestions`'). Never given to a real model. */
  known?: () => Question[][];
}): Promise<GraphRunner> {
  const { config, env, cwd } = args;
  checkRunGraphOptions(args.spec, config, args.graphOptions);
  const options = { ...graphOptionsFrom(config), ...optionsOfGraph(args.spec, args.graphOptions), ...args.fixedOptions };
  const known = args.known ?? (args.benchQuestions ? () => [args.benchQuestions!.questions] : undefined);
  const models = modelsFrom(config, env, cwd, args.roleToCheck, args.warn, known);
  const embeddings = embeddingsFrom(config, env, cwd, args.warn);
  // Example retrieval ranks by `embeddings` when configured (searchExamples makes the ranked view, once per run).
  const deps: NodeDeps = { models, executor: args.executor, examples: args.examples, ...(embeddings ? { embeddings } : {}) };
  if ((options.fewShot ?? 0) > 0 && !args.examples?.size) {
    throw optionUserError`${opt("fewShot")} needs training examples: the benchmark's train split (eval) or --examples BENCH (ask)`;
  }
  if (args.server) {
    if (config.node !== undefined) throw optionUsageError`${opt("node")} swaps a node in this process; a LangGraph server builds its graphs from its langgraph.json`;
    if (args.examples) throw optionUsageError`training examples (${opt("fewShot")}, k-shot) are not sent to a LangGraph server: run without ${opt("server")}, or with 0 shots`;
  }
  const slots = args.modules
    ? Object.fromEntries(Object.entries(args.modules.nodes).map(([slot, { factory }]) => [slot, factory]))
    : await loadSlotModules(args.spec, config.node, cwd);
  // The graph's module (and with it LangGraph) loads only now, once every flag has been checked.
  const spec = await args.spec.load();
  const graph = args.server ? await servedGraph(args.server, spec, options, config, cwd) : spec.build(deps, { ...options, slots, checkpointer: args.checkpointer, cwd });
  let initial: InitialSource | undefined;
  if (spec.kind === "corrector" && !args.noInitial) {
    initial = await initialSource(config.initial, args, deps, options);
  } else if (spec.kind === "generator" && (config.initial !== undefined || config.correct !== undefined)) {
    throw optionUsageError`${opt("initial")} and ${opt("correct")} apply to corrector graphs; '${spec.name}' is a generator`;
  }
  return {
    spec,
    graphSpecs: initial?.kind === "graph" ? [spec, initial.spec] : [spec],
    graph,
    deps,
    initial,
    scenario: scenarioFrom(config.correct, args.allowOracle),
    semantics: args.semantics,
    queryTimeoutMs: options.timeoutMs,
  };
}

async function initialSource(
  initial: string | undefined,
  args: Parameters<typeof buildRunner>[0],
  deps: NodeDeps,
  options: ReturnType<typeof graphOptionsFrom>,
): Promise<InitialSource> {
  if (args.inlineInitialSql !== undefined) {
    return { kind: "predictions", file: "--sql", predictions: new Map([["ask", args.inlineInitialSql]]) };
  }
  const source = await resolveInitialSource(initial, { cwd: args.cwd, graphOptions: args.graphOptions, checkpointer: args.checkpointer, benchQuestions: args.benchQuestions }, deps, options);
  if (!args.server || source.kind !== "graph") return source;
  const own = optionsOfGraph(source.spec, args.graphOptions);
  return { ...source, graph: await servedGraph(args.server, source.spec, { ...options, ...own }, args.config, args.cwd) };
}

/** A graph on a LangGraph server, given this run's options and model settings (never a key), checked to be served. */
async function servedGraph(server: string, spec: GraphSpec, options: Record<string, unknown>, config: RunConfig, cwd: string) {
  const { remoteGraph } = await import("./remote-graph.ts");
  const { configFile: _file, ...models } = modelFlagsFrom(config);
  const remote = remoteGraph(server, spec.name, { options, models, cwd });
  await remote.check();
  // The server runs the graph under the limit its loop bounds give (runThread passes it as recursion_limit).
  return Object.assign(remote, { recursionLimit: spec.recursionLimit(options) });
}

/**
 * `initial` GRAPH|FILE: a generator graph (built with its own declared options, taken from the run's typed graph
 * options), or a predictions file in either official format. Default: baseline.
 */
export async function resolveInitialSource(
  initial: string | undefined,
  ctx: {
    cwd: string;
    /** The run's typed graph options: the generator takes those it declares. */
    graphOptions: Record<string, unknown>;
    checkpointer: BaseCheckpointSaver;
    /** Every question of the split, skipped ones included: the lines a text-format predictions file must have. */
    benchQuestions?: Benchmark;
  },
  deps: NodeDeps,
  options: ReturnType<typeof graphOptionsFrom>,
): Promise<InitialSource> {
  const name = initial ?? "baseline";
  const generator = findManifest(name);
  if (generator) {
    if (generator.runBy) throw new UserError(`--initial ${name}: '${name}' is run by '${generator.runBy}'; name a generator graph`);
    if (generator.kind !== "generator") throw new UserError(`--initial ${name}: '${name}' is a corrector; name a generator graph`);
    const own = optionsOfGraph(generator, ctx.graphOptions);
    const spec = await generator.load();
    return { kind: "graph", spec, graph: spec.build(deps, { ...options, ...own, checkpointer: ctx.checkpointer }) };
  }
  const file = path.resolve(ctx.cwd, name);
  if (!fs.existsSync(file)) throw new UserError(`--initial ${name}: neither a generator graph nor a predictions file`);
  const read = await readPredictionFile(file);
  // A text-format file's n-th line is the n-th question's, of every question of the split (as eval writes them).
  const bench = ctx.benchQuestions;
  const paired = bench
    ? pairPredictions(file, read, fileOrder([...bench.questions, ...bench.skipped]), { pairing: predictionPairing(bench), hint: "; --initial needs a line per question of the split, or the .json format" })
    : read.predictions;
  const predictions = new Map<string, string>();
  const extraction = new Map<string, "extracted" | "none">();
  // Eval's no-answer marks: questions the run that wrote the file failed or did not run, with or without its results.
  const marked = new Map<string, string>();
  for (const [id, text] of paired) {
    const mark = noAnswerOf(text);
    if (mark) {
      marked.set(id, `the initial run ${mark === "not run" ? "did not run it" : "failed"} (marked in ${path.basename(file)})`);
      predictions.set(id, "");
      continue;
    }
    const { sql, how } = initialSqlOf(text);
    predictions.set(id, sql);
    if (how !== "as written") extraction.set(id, how);
  }
  const beside = unansweredBy(file, predictions);
  // The run's own record, when it is beside the file, says more than the mark.
  const unanswered = marked.size || beside ? new Map([...marked, ...(beside ?? [])]) : undefined;
  return { kind: "predictions", file, predictions, extraction, unanswered };
}

/**
 * A predictions file that a sqlmend run wrote (`results.jsonl` beside it) has a line for every question, "" where the
 * run failed or did not get to it: those ids, with why, so a corrector fails them rather than correcting "" (a
 * `--resume` then corrects them once the initial run has answered them).
 */
function unansweredBy(file: string, predictions: Map<string, string>): Map<string, string> | undefined {
  const results = path.join(path.dirname(file), EVAL_RESULTS);
  if (!fs.existsSync(results)) return undefined;
  let records: Map<string, EvalRecord>;
  try {
    records = parseResults(fs.readFileSync(results, "utf8")).records;
  } catch (error) {
    throw new UserError(`--initial ${file}: the run's ${EVAL_RESULTS} beside it does not read (${firstLineOf(error)})`);
  }
  const unanswered = new Map<string, string>();
  for (const id of predictions.keys()) {
    const record = records.get(id);
    if (!record) unanswered.set(id, `the initial run (${path.dirname(file)}) has not run it`);
    else if (isFailed(record)) unanswered.set(id, `the initial run failed (${failureOf(record) ?? "no reason recorded"})`);
  }
  return unanswered;
}

/**
 * `--initial FILE` holds SQL, but often raw model text: fences, prose, `<think>` around the query. Plain SQL is taken
 * as written; anything else goes through the reply parser the graphs use (`extractSql`): "extracted", or "none" when
 * it holds no SQL (then the initial SQL is empty). Counted per question in the record and the report.
 */
export function initialSqlOf(text: string): { sql: string; how: "as written" | "extracted" | "none" } {
  const trimmed = text.trim();
  if (/^(WITH|SELECT|VALUES)\b/i.test(trimmed) && !trimmed.includes("```") && !/<\/?think/i.test(trimmed)) return { sql: trimmed, how: "as written" };
  const sql = trimmed ? extractSql(trimmed) : null;
  return sql ? { sql, how: "extracted" } : { sql: "", how: "none" };
}

/**
 * The runner `sqlmend replay` continues a recorded run's threads with: the run's graph built with the options its
 * run.json recorded (by flag name, read back into the typed config and graph options), the node swaps `nodes` (the run's, with the replay's over them per slot), and the
 * models of this command's flags. A file option whose file changed since the run is refused: the suffix would not
 * run under what the prefix ran under.
 */
export async function replayRunner(args: {
  original: { dir: string; graph: string; settings: Record<string, unknown>; semantics: Semantics; split: string };
  /** Every node swap the suffix runs with, by slot. */
  nodes: Readonly<Record<string, string>>;
  /** A graph module (`--graph FILE`) for a run of a user's graph, over the one run.json recorded. */
  graph?: string | undefined;
  /** This command's model options. */
  config: RunConfig;
  env: NodeJS.ProcessEnv;
  cwd: string;
  executor: SqlExecutor;
  checkpointer: BaseCheckpointSaver;
  bench: Benchmark;
  benchDir: string | undefined;
  warn: (line: string) => void;
}): Promise<GraphRunner> {
  const { original } = args;
  // A graph of the user's own (`eval --graph FILE`): this command's --graph, else the module the run recorded.
  // Recorded by content ({ path, sha256 }; the path from the run folder when inside it): the same bytes, or refused.
  const recordedModule = original.settings.graph as { path?: string; sha256?: string } | string | undefined;
  const recordedGraph = typeof recordedModule === "string" ? recordedModule : recordedModule?.path ? path.resolve(original.dir, recordedModule.path) : undefined;
  const graphFile = args.graph ?? recordedGraph;
  if (graphFile && typeof recordedModule === "object" && recordedModule.sha256 && moduleIdentity(path.resolve(args.cwd, graphFile)).sha256 !== recordedModule.sha256) {
    throw new UserError(`--graph ${graphFile} is not the module ${original.dir} ran (its sha256 differs): the replay would not continue under what its prefix ran under`);
  }
  if (!graphFile && !findManifest(original.graph)) throw new UserError(`${original.dir} was run by graph '${original.graph}', which this version does not have (a graph of your own: --graph FILE)`);
  const modules = await loadRunModules({ node: args.nodes, graph: graphFile }, args.cwd);
  const manifest = runGraph(graphFile ? undefined : original.graph, modules);
  if (manifest.name !== original.graph) throw new UserError(`--graph ${graphFile} is graph '${manifest.name}'; ${original.dir} was run by '${original.graph}'`);
  // run.json's settings (by flag name) back into the typed config and graph options they were recorded from.
  const recorded: Record<string, unknown> = {};
  const graphOptions: Record<string, unknown> = {};
  const graphDefs = optionDefsOf(manifest);
  const runKeys = new Map(Object.keys(RUN_CONFIG).map((key) => [flagOf(key), key as keyof typeof RUN_CONFIG]));
  for (const [flag, value] of Object.entries(original.settings)) {
    // The suffix corrects no initial SQL anew (the prefix holds it), and swaps nodes by `nodes`.
    if (flag === "node" || flag === "graph" || flag === "initial" || flag === "correct") continue;
    let given = value;
    if (value && typeof value === "object" && !Array.isArray(value) && "path" in value) {
      const file = String((value as { path: unknown }).path);
      const now = fs.existsSync(file) ? lazyCrypto().createHash("sha256").update(fs.readFileSync(file)).digest("hex") : undefined;
      const then = (value as { sha256?: unknown }).sha256;
      if (now !== then) throw new UserError(`--${flag} ${file} ${now ? "changed" : "is gone"} since ${original.dir} ran: the replay would not continue under what its prefix ran under`);
      given = file;
    }
    const runKey = runKeys.get(flag);
    if (runKey) recorded[runKey] = configValue(runKey, RUN_CONFIG[runKey], given, "api");
    else {
      const key = Object.keys(graphDefs).find((k) => flagOf(k) === flag);
      if (key) graphOptions[key] = given;
    }
  }
  const config: RunConfig = { ...args.config, ...recorded, ...(Object.keys(args.nodes).length ? { node: { ...args.nodes } } : {}) };
  const examples = await examplesFor(manifest, config, graphOptions, args.benchDir, original.split, args.bench);
  return buildRunner({ spec: manifest, config, graphOptions, env: args.env, cwd: args.cwd, executor: args.executor, checkpointer: args.checkpointer, semantics: original.semantics, examples, allowOracle: true, noInitial: true, warn: args.warn, known: () => [args.bench.questions] });
}
