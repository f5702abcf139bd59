import fs from "node:fs";
import path from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { findManifest } from "../../graphs/registry.ts";
import type { GraphInfo, GraphManifest, GraphSpec } from "../../graphs/spec.ts";
import type { NodeDeps } from "../../nodes/types.ts";
import { createExampleStore, type ExampleStore } from "../../tools/retrieval/examples.ts";
import { loadBenchmark } from "../../tools/benchmarks/benchmark.ts";
import type { Benchmark } from "../../state/question.ts";
import { pairPredictions, predictionPairing, readPredictionFile, type Semantics } from "../../tools/benchmarks/score.ts";
import { fileOrder } from "../../runner/run-dir.ts";
import { extractSql } from "../../tools/reply.ts";
import type { SqlExecutor } from "../../tools/sqlite/types.ts";
import { firstLineOf, UsageError, UserError } from "./command.ts";
import type { InitialSource, Runner } from "../../runner/question.ts";
import { embeddingsFrom, modelsFrom } from "./model-setup.ts";
import { declaredOptionsFrom, examplesWantedBy, graphOptionsFrom, modelFlagsFrom, graphOptionsOf, loadSlotModules, type runFlags, scenarioFrom } from "./setup.ts";

type Values = Parameters<typeof graphOptionsFrom>[0] & { [K in keyof typeof runFlags]?: unknown };

/**
 * The training examples a run retrieves from (`--few-shot`, or a graph option such as R³'s `--k-shot`), or undefined
 * when none is wanted: the benchmark's train split, loaded once (the split itself when the run is on train).
 */
export async function examplesFor(spec: GraphInfo, values: Record<string, unknown>, benchDir: string | undefined, split: string, bench: Benchmark): Promise<ExampleStore | undefined> {
  const wantedBy = examplesWantedBy(spec, values);
  if (!wantedBy) return undefined;
  let train = bench;
  if (split !== "train" || bench.customQuestions) {
    if (benchDir === undefined) throw new UserError(`${wantedBy} needs a training split: run on a --bench layout that has one (--db-dir data has none)`);
    try {
      train = await loadBenchmark(benchDir, { split: "train" });
    } catch (error) {
      throw new UserError(`${wantedBy} needs the train split of ${benchDir}: ${firstLineOf(error)}`);
    }
  }
  return examplePoolOf(train, wantedBy);
}

/**
 * The example pool of a train split: its questions whose database is on disk (the reader skips the others; each
 * question's state says how many were left out). An empty pool is an error, never a silent zero-shot run.
 */
export function examplePoolOf(train: Benchmark, wantedBy: string): ExampleStore {
  const store = createExampleStore(train.questions, { count: train.skipped.length, reason: "database not found locally" });
  if (!store.size) {
    const why = train.skipped.length ? `: all ${train.skipped.length} of its questions lack their database (${train.skipped[0]!.reason}, ...)` : "";
    throw new UserError(`${wantedBy} needs training examples, but the train split of ${train.dir} has none with gold SQL${why}`);
  }
  return store;
}

/** Everything a command needs to run questions through a graph, from its flags. */
export async function buildRunner(args: {
  spec: GraphManifest;
  values: Values;
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
}): Promise<Runner> {
  const { values, env, cwd } = args;
  const options = { ...graphOptionsFrom(values), ...graphOptionsOf(args.spec, values), ...args.fixedOptions };
  const models = modelsFrom(values, env, cwd, args.roleToCheck, args.warn);
  const embeddings = embeddingsFrom(values, env, cwd, args.warn);
  // Example retrieval ranks by `embeddings` when configured (searchExamples makes the ranked view, once per run).
  const deps: NodeDeps = { models, executor: args.executor, examples: args.examples, ...(embeddings ? { embeddings } : {}) };
  if ((options.fewShot ?? 0) > 0 && !args.examples?.size) {
    throw new UserError("--few-shot needs training examples: the benchmark's train split (eval) or --examples BENCH (ask)");
  }
  if (args.server) {
    if (values.node !== undefined) throw new UsageError("--node swaps a node in this process; a LangGraph server builds its graphs from its langgraph.json");
    if (args.examples) throw new UsageError("training examples (--few-shot, k-shot) are not sent to a LangGraph server: run without --server, or with 0 shots");
  }
  const slots = await loadSlotModules(args.spec, values.node as string[] | undefined, cwd);
  // The graph's module (and with it LangGraph) loads only now, once every flag has been checked.
  const spec = await args.spec.load();
  const graph = args.server ? await servedGraph(args.server, spec, options, values, cwd) : spec.build(deps, { ...options, slots, checkpointer: args.checkpointer, cwd });
  let initial: InitialSource | undefined;
  if (spec.kind === "corrector" && !args.noInitial) {
    initial = await initialSource(values.initial as string | undefined, args, deps, options);
  } else if (spec.kind === "generator" && (values.initial !== undefined || values.correct !== undefined)) {
    throw new UsageError(`--initial and --correct apply to corrector graphs; '${spec.name}' is a generator`);
  }
  return {
    spec,
    graphSpecs: initial?.kind === "graph" ? [spec, initial.spec] : [spec],
    graph,
    deps,
    initial,
    scenario: scenarioFrom(values.correct as string | undefined, args.allowOracle),
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
  const source = await resolveInitialSource(initial, { cwd: args.cwd, values: args.values, checkpointer: args.checkpointer, alsoAllowed: [args.spec], benchQuestions: args.benchQuestions }, deps, options);
  if (!args.server || source.kind !== "graph") return source;
  const own = declaredOptionsFrom(source.spec, args.values, [args.spec]);
  return { ...source, graph: await servedGraph(args.server, source.spec, { ...options, ...own }, args.values, args.cwd) };
}

/** A graph on a LangGraph server, given this run's options and model settings (never a key), checked to be served. */
async function servedGraph(server: string, spec: GraphSpec, options: Record<string, unknown>, values: Values, cwd: string) {
  const { remoteGraph } = await import("../../runner/remote.ts");
  const { configFile: _file, ...models } = modelFlagsFrom(values);
  const remote = remoteGraph(server, spec.name, { options, models, cwd });
  await remote.check();
  // The server runs the graph under the limit its loop bounds give (runThread passes it as recursion_limit).
  return Object.assign(remote, { recursionLimit: spec.recursionLimit(options) });
}

/**
 * `--initial GRAPH|FILE`: a generator graph (built with its own declared options; `alsoAllowed` are the graphs whose
 * flags may appear beside them), or a predictions file in either official format. Default: baseline.
 */
export async function resolveInitialSource(
  initial: string | undefined,
  ctx: {
    cwd: string;
    values: Record<string, unknown>;
    checkpointer: BaseCheckpointSaver;
    alsoAllowed: GraphInfo[];
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
    const own = declaredOptionsFrom(generator, ctx.values, ctx.alsoAllowed);
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
  for (const [id, text] of paired) {
    const { sql, how } = initialSqlOf(text);
    predictions.set(id, sql);
    if (how !== "as written") extraction.set(id, how);
  }
  return { kind: "predictions", file, predictions, extraction };
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
