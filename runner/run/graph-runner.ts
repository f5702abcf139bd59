
import fs from "node:fs";
import path from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { findManifest } from "../../graphs/registry.ts";
import { lazyCrypto } from "../../tools/hash.ts";
import { moduleIdentity } from "../../tools/version.ts";
import type { GraphManifest, GraphSpec } from "../../graphs/spec.ts";
import type { NodeDeps } from "../../nodes/types.ts";
import { type ExampleStore } from "../../tools/retrieval/examples.ts";
import type { Benchmark, Question } from "../../state/question.ts";
import { type Semantics } from "../../tools/benchmarks/score.ts";
import type { SqlExecutor } from "../../tools/sqlite/types.ts";
import { UserError } from "../../core/errors.ts";
import type { GraphRunner, InitialSource } from "./question-thread.ts";
import { embeddingsFrom, modelsFrom } from "./model-setup.ts";
import { checkRunGraphOptions, graphOptionsFrom, optionsOfGraph, runGraph, scenarioFrom } from "./run-options.ts";
import { loadRunModules, loadSlotModules, type RunModules } from "./user-modules.ts";
import { modelFlagsFrom } from "./model-options.ts";
import { configValue, opt, optionUsageError, optionUserError } from "../../core/config.ts";
import { flagOf } from "../../core/options.ts";
import { optionDefsOf } from "../../graphs/manifests/manifest.ts";
import { RUN_CONFIG, type RunConfig } from "./run-config.ts";
import { examplesFor } from "./training-examples.ts";
import { resolveInitialSource } from "./initial-sql.ts";

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
    throw optionUserError`${opt("fewShot")} needs training examples: the benchmark's train split (eval) or ${opt("examples")} BENCH (ask)`;
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
    throw optionUserError`${opt("graph")} ${graphFile} is not the module ${original.dir} ran (its sha256 differs): the replay would not continue under what its prefix ran under`;
  }
  if (!graphFile && !findManifest(original.graph)) throw optionUserError`${original.dir} was run by graph '${original.graph}', which this version does not have (a graph of your own: ${opt("graph")} FILE)`;
  const modules = await loadRunModules({ node: args.nodes, graph: graphFile }, args.cwd);
  const manifest = runGraph(graphFile ? undefined : original.graph, modules);
  if (manifest.name !== original.graph) throw optionUserError`${opt("graph")} ${graphFile} is graph '${manifest.name}'; ${original.dir} was run by '${original.graph}'`;
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
