import { lazyCrypto, sha256OfFile } from "../../tools/hash.ts";
import fs from "node:fs";
import path from "node:path";
import { findManifest, graphManifests } from "../../graphs/registry.ts";
import type { GraphInfo, GraphManifest, GraphSpec } from "../../graphs/spec.ts";
import type { AnyNodeFactory, GraphOptions } from "../../nodes/types.ts";
import { optionDefsOf } from "../../graphs/manifests/manifest.ts";
import { firstLineOf, UsageError, UserError } from "../../core/errors.ts";
import type { CorrectScenario } from "./question-thread.ts";
export type { CorrectScenario };
import { importModule } from "../../tools/import-module.ts";
import { type ModuleIdentity, moduleIdentity } from "../../tools/version.ts";
import { runPath, runPlace } from "./run-json.ts";
import type { ModelFlags } from "../../tools/models/models.ts";
import { CACHE_MODES, type CacheMode } from "../../tools/models/cache-modes.ts";
import { flagOf, type OptionDefs, optionFlags, parseOption } from "../../core/options.ts";
import { configValue, graphOpt, opt, type OptionText, optionText, optionUsageError, optionUserError } from "../../core/config.ts";
import { type ModelConfig, RUN_CONFIG, type RunConfig, RUN_OPTION_KEYS } from "./run-config.ts";

// Everything here runs before a graph is built (option checks, --help), so this module and its imports load no
// LangGraph or LangChain: graphs are known by their manifests; models come from model-setup.ts.

/** The model settings of a run's typed config (core/config.ts: already checked by kind), as tools/models reads them. */
export function modelFlagsFrom(config: ModelConfig): ModelFlags {
  if (config.cache !== undefined) cacheModeFrom(config, {});
  return {
    model: config.model,
    baseURL: config.baseUrl,
    configFile: config.config,
    roleModels: config.roleModel ?? {},
    temperature: config.temperature,
    seed: config.seed,
    timeoutMs: config.requestTimeoutMs,
    maxRetries: config.maxRetries,
    maxConcurrency: config.maxRequests,
    streaming: config.stream,
    structuredMethod: config.structuredMethod,
    embeddingModel: config.embeddingModel,
    embeddingBaseURL: config.embeddingBaseUrl,
    embeddingFallback: config.embeddingFallback,
    endpointAlias: config.endpointAlias,
    mockErrorRate: config.mockErrorRate,
  };
}

/** `cache`, else SQLMEND_CACHE, else on. A Redis URL is "on", kept in that Redis (`cacheRedisFrom`). */
export function cacheModeFrom(config: { cache?: string | undefined }, env: NodeJS.ProcessEnv): CacheMode {
  const given = config.cache ?? (env.SQLMEND_CACHE || undefined);
  if (given === undefined) return "on";
  if (/^rediss?:\/\//i.test(given)) {
    try {
      new URL(given);
    } catch {
      if (config.cache !== undefined) throw optionUsageError`${opt("cache")}: '${given}' is not a Redis URL (redis://HOST:PORT[/DB])`;
      throw new UsageError(`SQLMEND_CACHE: '${given}' is not a Redis URL (redis://HOST:PORT[/DB])`);
    }
    return "on";
  }
  if (!(CACHE_MODES as readonly string[]).includes(given)) {
    if (config.cache !== undefined) throw optionUsageError`${opt("cache")} takes ${CACHE_MODES.join(", ")} or redis://HOST:PORT, not '${given}'`;
    throw new UsageError(`SQLMEND_CACHE takes ${CACHE_MODES.join(", ")} or redis://HOST:PORT, not '${given}'`);
  }
  return given as CacheMode;
}

/** The Redis URL the cache lives in (`cache: "redis://…"`, or SQLMEND_CACHE), or undefined for the local file. */
export function cacheRedisFrom(config: { cache?: string | undefined }, env: NodeJS.ProcessEnv): string | undefined {
  const given = config.cache ?? (env.SQLMEND_CACHE || undefined);
  return given && /^rediss?:\/\//i.test(given) ? given : undefined;
}

/** The graph's shared knobs of a run's typed config, as the nodes read them. */
export function graphOptionsFrom(config: RunConfig): GraphOptions {
  return { maxFixRounds: config.maxFixRounds, fewShot: config.fewShot, schemaMaxChars: config.schemaMaxChars, timeoutMs: config.queryTimeoutMs };
}

/** parseArgs declarations for every graph's own options (its slots' included), so any graph's flags parse (and can be checked per graph), plus those the run's own modules declare. */
export const graphFlags = (modules?: RunModules) =>
  optionFlags([...graphManifests.map((graph) => optionDefsOf(graph)), ...(modules ? [moduleOptions(modules), modules.graph ? optionDefsOf(modules.graph.spec) : {}] : [])]);

/** Every graph's own options by name (its slots' included), and the run's modules': what options forwarded to many runs may name. */
export const allGraphOptionDefs = (modules?: RunModules): OptionDefs =>
  Object.assign({}, ...graphManifests.map((graph) => optionDefsOf(graph)), ...(modules ? [moduleOptions(modules), modules.graph ? optionDefsOf(modules.graph.spec) : {}] : []));

/** A user's modules a run names (`--node SLOT=FILE`, `--graph FILE`), loaded before its flags are parsed: their options become flags. */
export interface RunModules {
  /** By slot: the factory (the default export) and the options it declares (its `options` export). */
  nodes: Record<string, { module: string; file: string; factory: AnyNodeFactory; options: OptionDefs }>;
  /** A graph module: its spec (the default export, made with `defineGraph`). */
  graph?: { module: string; file: string; spec: GraphSpec };
}

/** A recipe's `graph:` that names a module file (run with `--graph`) rather than a built-in graph. */
export const isGraphModule = (graph: string): boolean => /\.(m|c)?(t|j)s$/.test(graph);

/** The options every `--node` module declares, one set (two modules declaring one name is an error). */
function moduleOptions(modules: RunModules): OptionDefs {
  const out: OptionDefs = {};
  for (const [slot, { module, options }] of Object.entries(modules.nodes)) {
    for (const [key, def] of Object.entries(options)) {
      if (out[key]) throw optionUserError`${opt("node")} ${slot}=${module} declares option ${graphOpt(key)}, which another ${opt("node")} module declares too`;
      out[key] = def;
    }
  }
  return out;
}

const isOptionDefs = (value: unknown): value is OptionDefs =>
  !!value && typeof value === "object" && Object.values(value).every((d) => !!d && typeof d === "object" && typeof (d as { type?: unknown }).type === "string" && typeof (d as { help?: unknown }).help === "string");

/** The modules a run names, as `loadRunModules` takes them: `node` by slot (a module file, or an object's id), `graph` a module file. */
export interface ModulesConfig {
  node?: Readonly<Record<string, string>> | undefined;
  graph?: string | undefined;
  /** eval's LangGraph server: no --node swaps with it. */
  server?: string | undefined;
}

/**
 * Loads the modules a run names (`node: { SLOT: FILE }`, `graph: FILE`), before the run's options are checked, since
 * their options are the run's. Each fails in one line: a module that does not load, or exports the wrong thing.
 */
export async function loadRunModules(given: ModulesConfig, cwd: string): Promise<RunModules> {
  const modules: RunModules = { nodes: {} };
  const nodes = Object.entries(given.node ?? {});
  // Said before any module loads: a server builds its graphs from its own langgraph.json.
  if (given.server !== undefined && nodes.length) throw optionUsageError`${opt("node")} swaps a node in this process; a LangGraph server builds its graphs from its langgraph.json`;
  // graph with server: the module describes the run here (options, outcome); the server runs the graph it serves under the module's name ('sqlmend serve --graph FILE').
  for (const [slot, module] of nodes) {
    const file = path.resolve(cwd, module);
    const loaded = await importUserModule(file, module, "node module");
    if (typeof loaded.default !== "function") throw new UserError(`${module} must default-export a node factory: (deps, options) => node`);
    if (loaded.options !== undefined && !isOptionDefs(loaded.options)) throw new UserError(`${module}: its 'options' export must be option declarations (defineOptions({ name: { type, default, help } }))`);
    modules.nodes[slot] = { module, file, factory: loaded.default as AnyNodeFactory, options: (loaded.options as OptionDefs | undefined) ?? {} };
  }
  if (typeof given.graph === "string") {
    const file = path.resolve(cwd, given.graph);
    const loaded = await importUserModule(file, given.graph, "graph module");
    const spec = loaded.default as GraphSpec | undefined;
    if (!spec || typeof spec !== "object" || typeof spec.build !== "function" || typeof spec.name !== "string" || !spec.slots) {
      throw new UserError(`${given.graph} must default-export a graph made with defineGraph({ name, state, slots, wire, ... })`);
    }
    if (findManifest(spec.name)) throw new UserError(`${given.graph}: its graph is named '${spec.name}', as a built-in graph is; give it a name of its own`);
    modules.graph = { module: given.graph, file, spec };
  }
  return modules;
}

/**
 * Nodes and graphs a script passes as objects (`runEval({ node: { generate: factory } })`, `graphModule: spec`): each
 * under an id that flag values carry (`object:node:<sha256>`), the sha256 of its source text its identity, which
 * run.json records and `--resume` checks as it checks a file's.
 */
const objectModules = new Map<string, { value: unknown; sha256: string }>();
const OBJECT_ID = /^object:(node|graph):([0-9a-f]{64})$/;

/** The text a node factory or graph spec is known by: its functions' source (a graph from `defineGraph`: its wiring and slots). */
function sourceTextOf(value: unknown): string {
  if (typeof value === "function") return value.toString();
  const spec = value as { name?: unknown; sourceText?: unknown; build?: unknown; slots?: Record<string, { factory?: unknown }> };
  const slots = Object.entries(spec.slots ?? {}).map(([slot, s]) => `${slot}:${typeof s.factory === "function" ? s.factory.toString() : ""}`);
  return [String(spec.name), typeof spec.sourceText === "string" ? spec.sourceText : String(spec.build), ...slots].join("\n");
}

/** A node factory or graph spec given as an object: the id a run's flag values name it by. */
export function objectModuleId(kind: "node" | "graph", value: unknown): string {
  const sha256 = lazyCrypto().createHash("sha256").update(sourceTextOf(value)).digest("hex");
  const id = `object:${kind}:${sha256}`;
  objectModules.set(id, { value, sha256 });
  return id;
}

/** A module's identity as run.json records it: a file's import closure, an object's source text. */
export function userModuleIdentity(file: string): ModuleIdentity {
  const id = OBJECT_ID.exec(path.basename(file));
  return id ? { path: `${id[1]} object`, sha256: id[2]! } : moduleIdentity(file);
}

async function importUserModule(file: string, given: string, what: string): Promise<{ default?: unknown; options?: unknown }> {
  const object = objectModules.get(given);
  if (object) return { default: object.value, options: (object.value as { options?: unknown }).options };
  if (OBJECT_ID.test(given)) throw new UserError(`cannot load ${what}: an object passed to an earlier call of this process, not to this one`);
  if (!fs.existsSync(file)) throw new UserError(`cannot load ${what} ${given}: no such file`);
  try {
    return await importModule(file);
  } catch (error) {
    throw new UserError(`cannot load ${what} ${given}: ${firstLineOf(error)}`);
  }
}

/**
 * The graph a run names — a built-in by name, or `--graph FILE` — as the run sees it: its options are the graph's,
 * its slots' (but not a replaced slot's: a `--node` replacement does not read them) and the replacement modules'.
 */
export function runGraph(name: string | undefined, modules: RunModules): GraphManifest {
  let base: GraphManifest;
  if (modules.graph) {
    if (name) throw new UsageError(`name a graph or give --graph ${modules.graph.module}, not both`);
    const spec = modules.graph.spec;
    base = { ...spec, load: async () => spec };
  } else {
    base = requireGraph(name);
  }
  const replaced = Object.keys(modules.nodes);
  for (const slot of replaced) {
    if (!base.slots[slot]) throw new UserError(`graph '${base.name}' has no slot '${slot}' (slots: ${Object.keys(base.slots).join(", ")})`);
  }
  const extra = moduleOptions(modules);
  const own = optionDefsOf(base);
  for (const key of Object.keys(extra)) {
    if (own[key] || SHARED_OPTION_FLAGS.has(flagOf(key))) throw optionUserError`${opt("node")} module option ${opt(key)} is already an option of the run; name it otherwise`;
  }
  if (!replaced.length && !Object.keys(extra).length) return base;
  // A replaced slot's own options go (its default, which read them, does not run); the modules' join the graph's.
  const options = { ...base.options, ...extra };
  const withoutOptions = <T extends { options?: OptionDefs }>(slots: Record<string, T>) =>
    Object.fromEntries(Object.entries(slots).map(([slot, info]) => [slot, replaced.includes(slot) ? { ...info, options: undefined } : info]));
  return { ...base, options, slots: withoutOptions(base.slots), load: async () => {
    const spec = await base.load();
    return { ...spec, options, slots: withoutOptions(spec.slots) } as GraphSpec;
  } };
}

const SHARED_OPTION_FLAGS = new Set(RUN_OPTION_KEYS.map(flagOf));

/**
 * The values of `spec`'s declared options given on the command line (defaults are the nodes' business, via
 * readOptions). A flag that only other graphs declare is refused, naming them, unless `alsoAllowed` (the initial
 * generator of a corrector run) declares it.
 */
export function declaredOptionsFrom(spec: GraphInfo, values: Record<string, unknown>, alsoAllowed: GraphInfo[] = []): Record<string, unknown> {
  const mine = new Set([spec, ...alsoAllowed].flatMap((g) => Object.keys(optionDefsOf(g)).map(flagOf)));
  for (const other of graphManifests) {
    for (const key of Object.keys(optionDefsOf(other))) {
      const flag = flagOf(key);
      if (values[flag] !== undefined && !mine.has(flag)) {
        const replacedSlot = other.name === spec.name ? Object.entries(other.slots).find(([, info]) => info.options?.[key]) : undefined;
        if (replacedSlot) throw new UsageError(`--${flag} is read by slot '${replacedSlot[0]}' of ${spec.name}, which --node replaces: drop it`);
        const owners = graphManifests.filter((g) => Object.keys(optionDefsOf(g)).some((k) => flagOf(k) === flag)).map((g) => g.name);
        throw new UsageError(`--${flag} is an option of ${owners.join(", ")}, not of ${[spec, ...alsoAllowed].map((g) => g.name).join(" or ")}`);
      }
    }
  }
  return parseDeclared(spec, values);
}

/** The options `graphs` declare among flag values, parsed: for the commands that still read flag values (magic guideline). */
export function graphOptionsOfValues(graphs: GraphInfo[], values: Record<string, unknown>): Record<string, unknown> {
  return Object.assign({}, ...graphs.map((graph) => parseDeclared(graph, values)));
}

/** The graph's declared options given on the command line, parsed and checked (absent when not given). */
function parseDeclared(spec: GraphInfo, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(optionDefsOf(spec))) {
    const value = parseOption(key, def, values[flagOf(key)]);
    if (value === undefined && def.type === "string" && def.required) throw new UsageError(`${spec.name} needs --${flagOf(key)} ${def.metavar ?? "VALUE"}`);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * The launcher's flags of the graph's own options (and a corrector's initial generator's), parsed by their declarations
 * into the typed record the run takes (`{ kShot: 5 }`); a flag only other graphs declare is refused, naming them.
 */
export function graphOptionsOf(spec: GraphInfo, values: Record<string, unknown>): Record<string, unknown> {
  const graphs = graphsOfRun(spec, typeof values.initial === "string" ? values.initial : undefined);
  const options = Object.assign({}, ...graphs.map((g, i) => (i === 0 ? declaredOptionsFrom(g, values, graphs.slice(1)) : parseDeclared(g, values))));
  checkRunGraphOptions(spec, { fewShot: values["few-shot"], maxFixRounds: values["max-fix-rounds"], initial: values.initial as string | undefined }, options);
  return options;
}

/**
 * The checks of a run's graph options that no one option's declaration makes: the shared knobs act through shared
 * slots (a run none of whose graphs has that slot would ignore them silently), and a required option is given.
 */
export function checkRunGraphOptions(spec: GraphInfo, config: { fewShot?: unknown; maxFixRounds?: unknown; initial?: string | undefined }, graphOptions: Record<string, unknown>): void {
  const graphs = graphsOfRun(spec, config.initial);
  for (const [key, slot] of [["fewShot", "generate"], ["maxFixRounds", "fix"]] as const) {
    if (config[key] !== undefined && !graphs.some((g) => g.slots[slot])) {
      throw optionUsageError`${opt(key)} applies to graphs with a '${slot}' slot, not ${graphs.map((g) => g.name).join(" or ")} (see its own options: sqlmend eval ${spec.name} --help)`;
    }
  }
  for (const [key, def] of Object.entries(optionDefsOf(spec))) {
    if (def.type === "string" && def.required && graphOptions[key] === undefined) throw optionUsageError`${spec.name} needs ${graphOpt(key)} ${def.metavar ?? "VALUE"}`;
  }
}

/** The options of `graph` among a run's typed graph options (the run's record holds its initial generator's too). */
export function optionsOfGraph(graph: GraphInfo, graphOptions: Record<string, unknown>): Record<string, unknown> {
  const declared = optionDefsOf(graph);
  return Object.fromEntries(Object.entries(graphOptions).filter(([key, value]) => key in declared && value !== undefined));
}

/** Every option the run's graphs declare (the graph's, a corrector's initial generator's): what a script's `options` may name. */
export function runOptionDefs(spec: GraphInfo, initial: string | undefined): OptionDefs {
  return Object.assign({}, ...graphsOfRun(spec, initial).reverse().map((g) => optionDefsOf(g)));
}

/** The graphs whose options shape a run: the graph, and a corrector's initial generator when `initial` names one. */
export function graphsOfRun(spec: GraphInfo, initial: string | undefined): GraphInfo[] {
  const generator = spec.kind === "corrector" ? findManifest(initial ?? "baseline") : undefined;
  return generator ? [spec, generator] : [spec];
}

/**
 * Why this run needs the training split's examples, or undefined: `fewShot` K, or a graph of the run (the graph,
 * and a corrector's initial generator) whose `needsExamples` says so for its options (e.g. r3's `--k-shot`).
 */
export function examplesWantedBy(spec: GraphInfo, config: Pick<RunConfig, "fewShot" | "initial">, graphOptions: Record<string, unknown>): OptionText | string | undefined {
  if ((config.fewShot ?? 0) > 0) return optionText`${opt("fewShot")} ${config.fewShot}`;
  for (const graph of graphsOfRun(spec, config.initial)) {
    const reason = graph.needsExamples?.(optionsOfGraph(graph, graphOptions));
    if (reason) return reason;
  }
  return undefined;
}

/** The shared options that change answers or verdicts (not speed): run.json records them (by flag name) and `--resume` keeps them. */
const ANSWER_KEYS = ["maxFixRounds", "fewShot", "schemaMaxChars", "queryTimeoutMs", "node", "graph", "initial", "correct", "keepDistinct", "embeddingFallback"] as const;

/** The answer-changing options of a run's typed config. */
export type AnswerConfig = Pick<RunConfig, Exclude<(typeof ANSWER_KEYS)[number], "keepDistinct">> & { keepDistinct?: boolean | undefined };

/**
 * The answer-changing shared options a run was given, under their flag names (`except`: flag names its command
 * records elsewhere in run.json). With `where` (a run folder), files are recorded as `--resume` compares them: each
 * node swap as `{ SLOT: { path, sha256 } }` (`moduleIdentity`: the module's content, wherever it is), and an initial
 * predictions file by its place from the run folder or its absolute path (`runPlace`), so a moved run still resumes.
 */
export function answerSettings(config: AnswerConfig, except: readonly string[] = [], where?: { cwd: string; runDir: string }): Record<string, unknown> {
  const out: Record<string, unknown> = Object.fromEntries(ANSWER_KEYS.filter((k) => config[k] !== undefined && !except.includes(flagOf(k))).map((k) => [flagOf(k), config[k]]));
  if (!where) return out;
  if (out.node !== undefined) out.node = nodeIdentities(out.node as Record<string, string>, where);
  // A graph of the user's own, like a --node module: by its content, so an edited graph never joins the run.
  if (typeof out.graph === "string") {
    const identity = userModuleIdentity(OBJECT_ID.test(out.graph) ? out.graph : path.resolve(where.cwd, out.graph));
    out.graph = { ...identity, path: OBJECT_ID.test(out.graph) ? identity.path : runPath(identity.path, where.runDir) };
  }
  if (typeof out.initial === "string" && !findManifest(out.initial)) out.initial = runPlace(path.resolve(where.cwd, out.initial), where.runDir);
  return out;
}

/** Every node swap as run.json records it: by slot, the module's path (from the run when inside it) and sha256. */
export function nodeIdentities(nodes: Readonly<Record<string, string>>, where: { cwd: string; runDir: string }): Record<string, { path: string; sha256: string }> {
  return Object.fromEntries(
    Object.entries(nodes).map(([slot, modulePath]) => {
      const file = OBJECT_ID.test(modulePath) ? modulePath : path.resolve(where.cwd, modulePath);
      try {
        const identity = userModuleIdentity(file);
        return [slot, { ...identity, path: OBJECT_ID.test(modulePath) ? identity.path : runPath(identity.path, where.runDir) }];
      } catch (error) {
        throw new UserError(`cannot read node module ${modulePath}: ${firstLineOf(error)}`);
      }
    }),
  );
}

/** A file option as the report and `--resume` record it: its path (from the run folder when inside it) and the sha256 of its bytes. */
function fileSetting(value: string, cwd: string, runDir: string | undefined): { path: string; sha256?: string } {
  const file = path.resolve(cwd, value);
  const recorded = runDir ? runPath(file, runDir) : file;
  try {
    return { path: recorded, sha256: sha256OfFile(file) };
  } catch {
    return { path: recorded };
  }
}

/**
 * A graph's options as the report and `--resume` record them: every declared option that changes answers, with its
 * default filled in, under its flag name.
 */
export function graphSettings(specs: GraphInfo[], graphOptions: Record<string, unknown>, cwd = process.cwd(), runDir?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    const given = optionsOfGraph(spec, graphOptions);
    for (const [key, def] of Object.entries(optionDefsOf(spec))) {
      if (def.affectsAnswers === false) continue;
      const value = given[key] ?? def.default;
      if (value !== undefined) out[flagOf(key)] = def.type === "string" && def.file ? fileSetting(String(value), cwd, runDir) : value;
    }
  }
  return out;
}

export function requireGraph(name: string | undefined): GraphManifest {
  if (!name) throw new UsageError("name a graph (see 'sqlmend graphs')");
  const spec = findManifest(name);
  if (!spec) throw new UserError(`unknown graph '${name}' (graphs: ${graphManifests.map((g) => g.name).join(", ")})`);
  // Its inputs (gold SQL, a batch of feedbacks, ...) come from that command: ask or eval would fail every question.
  if (spec.runBy) throw new UserError(`graph '${name}' is run by '${spec.runBy}', not by ask or eval`);
  return spec;
}

/** Loads `--node SLOT=MODULE` replacements for `spec` (each module default-exports a node factory), by slot. */
export async function loadSlotModules(spec: Pick<GraphInfo, "name" | "slots">, nodes: Readonly<Record<string, string>> | undefined, cwd: string): Promise<Record<string, AnyNodeFactory>> {
  for (const slot of Object.keys(nodes ?? {})) {
    if (!spec.slots[slot]) throw new UserError(`graph '${spec.name}' has no slot '${slot}' (slots: ${Object.keys(spec.slots).join(", ")})`);
  }
  const modules = await loadRunModules({ node: nodes }, cwd);
  return Object.fromEntries(Object.entries(modules.nodes).map(([slot, { factory }]) => [slot, factory]));
}

export function scenarioFrom(correct: CorrectScenario | undefined, allowOracle: boolean): CorrectScenario {
  const scenario = correct ?? "all";
  if (scenario === "incorrect" && !allowOracle) throw optionUsageError`${opt("correct")} incorrect needs gold SQL as an oracle: use it with 'eval'`;
  return scenario;
}

/**
 * Node swaps and a graph module given by a script or a recipe (`node` a record `{ SLOT: FILE }`, `SLOT=FILE` items or
 * one such item; `graph` a module file) as `loadRunModules` takes them.
 */
export function modulesConfigOf(given: { node?: unknown; graph?: unknown }): ModulesConfig {
  const node = given.node;
  const items = node === undefined ? [] : typeof node === "object" && !Array.isArray(node) ? Object.entries(node as Record<string, string>).map(([slot, file]) => `${slot}=${file}`) : ([] as string[]).concat(node as string | string[]);
  const record = configValue("node", RUN_CONFIG.node, items.length ? items : undefined, "api") as Record<string, string> | undefined;
  return { ...(record ? { node: record } : {}), ...(typeof given.graph === "string" ? { graph: given.graph } : {}) };
}

/**
 * A script's module options with objects in them (`node: { generate: factory }`, `graphModule: spec`) as the typed
 * config carries them: each object by its id (`objectModuleId`), files as they are.
 */
export function withObjectModules(node: Readonly<Record<string, unknown>> | undefined, graphModule: unknown): { node?: Record<string, string>; graph?: string } {
  const nodes = node === undefined ? undefined : Object.fromEntries(Object.entries(node).map(([slot, value]) => [slot, typeof value === "function" ? objectModuleId("node", value) : (value as string)]));
  const graph = graphModule === undefined ? undefined : typeof graphModule === "string" ? graphModule : objectModuleId("graph", graphModule);
  return { ...(nodes ? { node: nodes } : {}), ...(graph !== undefined ? { graph } : {}) };
}
