import { lazyCrypto, sha256OfFile } from "../../tools/hash.ts";
import fs from "node:fs";
import path from "node:path";
import type { ParseArgsConfig } from "node:util";
import { findManifest, graphManifests } from "../../graphs/registry.ts";
import type { GraphInfo, GraphManifest, GraphSpec } from "../../graphs/spec.ts";
import type { AnyNodeFactory, GraphOptions } from "../../nodes/types.ts";
import { optionDefsOf } from "../../graphs/manifests/manifest.ts";
import { parseArgs } from "node:util";
import { firstLineOf, UsageError, UserError } from "../../core/errors.ts";
import type { CliIO } from "../../core/io.ts";
import type { CorrectScenario } from "./question-thread.ts";
export type { CorrectScenario };
import { importModule } from "../../tools/import-module.ts";
import { type ModuleIdentity, moduleIdentity } from "../../tools/version.ts";
import { runPath, runPlace } from "./run-json.ts";
import type { ModelFlags } from "../../tools/models/models.ts";
import { STRUCTURED_METHODS } from "../../tools/models/structured-methods.ts";
import { CACHE_MODES, type CacheMode } from "../../tools/models/cache-modes.ts";
import { flagOf, type OptionDefs, optionFlags, optionsUsage, parseOption } from "../../core/options.ts";

/** Flags shared by `ask` and `eval`: the model, the graph's knobs, node swaps, checkpoints, correction set-up. */
export const runFlags = {
  model: { type: "string" },
  "base-url": { type: "string" },
  config: { type: "string" },
  "role-model": { type: "string", multiple: true },
  temperature: { type: "string" },
  seed: { type: "string" },
  "request-timeout-ms": { type: "string" },
  "max-retries": { type: "string" },
  "max-requests": { type: "string" },
  stream: { type: "boolean" },
  "structured-method": { type: "string" },
  "embedding-model": { type: "string" },
  "embedding-base-url": { type: "string" },
  "endpoint-alias": { type: "string" },
  "embedding-fallback": { type: "string" },
  cache: { type: "string" },
  "mock-error-rate": { type: "string" },
  "max-fix-rounds": { type: "string" },
  "few-shot": { type: "string" },
  "schema-max-chars": { type: "string" },
  "query-timeout-ms": { type: "string" },
  node: { type: "string", multiple: true },
  graph: { type: "string" },
  checkpoints: { type: "string" },
  initial: { type: "string" },
  correct: { type: "string" },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

export const RUN_FLAGS_USAGE = `Model:
  --model NAME              model on an OpenAI-compatible endpoint (or SQLMEND_MODEL); \`mock\`: the built-in mock
                            model, in process, no endpoint (answers from the gold SQL: not a measurement)
  --mock-error-rate R       --model mock: the share of questions whose first SQL it gets wrong (default 0.3;
                            which ones is fixed by --seed)
  --base-url URL            endpoint, e.g. http://127.0.0.1:11434/v1 (or OPENAI_BASE_URL); key from OPENAI_API_KEY
  --config FILE             model config JSON (default ./sqlmend.config.json when present)
  --role-model ROLE=NAME    a different model for one agent role (repeatable)
  --temperature T  --request-timeout-ms N  --max-retries N  --max-requests N (in flight, all roles)
  --seed N                  sent as the requests' seed, recorded in run.json, part of the response cache's key
  --stream                  stream replies  --structured-method auto|jsonSchema|functionCalling|jsonMode|text
  --embedding-model NAME    embeddings for linking and few-shot retrieval (or SQLMEND_EMBEDDING_MODEL; default: lexical)
  --embedding-base-url URL  the embedding endpoint when it is not --base-url (or SQLMEND_EMBEDDING_BASE_URL)
  --embedding-fallback lexical  rank lexically when the embedding endpoint fails, counted per question and in the
                            report (default: such a question is failed, and --resume asks again)
  --endpoint-alias NAME     names the server in the run's identity and the cache key (or SQLMEND_ENDPOINT_ALIAS);
                            without it a URL is recorded, not compared: servers of one model are interchangeable
  --cache on|off|read|refresh  model replies cached in <data dir>/responses.sqlite (default on, or SQLMEND_CACHE):
                            read uses hits and never writes, refresh never reads and overwrites;
                            --cache redis://HOST:PORT keeps it in Redis, shared by every machine that names it
Graph:
  --max-fix-rounds N        execution-error fix rounds (default 3)
  --few-shot K              examples retrieved from the training split (default 0)
  --schema-max-chars N      schema size budget in prompts (default 24000)
  --query-timeout-ms N      per-query time limit (default 30000)
  --node SLOT=MODULE        replace a node: MODULE's default export is a NodeFactory (repeatable); its
                            \`export const options = defineOptions({...})\` become flags of the run
  --graph MODULE            run a graph of your own: MODULE's default export is a graph made with defineGraph
                            (instead of naming a built-in graph)
  --checkpoints FILE|memory|postgres://USER:PASS@HOST:PORT/DB
                            checkpoint store (default .sqlmend/checkpoints.sqlite)
Correction (corrector graphs):
  --initial GRAPH|FILE      initial SQL from a generator graph (default baseline) or a predictions file
  --correct all|errors|incorrect   which initial SQL to correct (incorrect: eval only, gold as oracle)`;

// Everything here runs before a graph is built (flags, their checks, --help), so this module and its imports load no
// LangGraph or LangChain: graphs are known by their manifests; models come from cli/model-setup.ts.

export type RunValues = { [K in keyof typeof runFlags]?: (typeof runFlags)[K] extends { multiple: true } ? string[] : (typeof runFlags)[K]["type"] extends "boolean" ? boolean : string };

export function intFlag(values: Record<string, unknown>, name: string, min = 0): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} takes a whole number >= ${min}, not '${raw}'`);
  return n;
}

export function numberFlag(values: Record<string, unknown>, name: string): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new UsageError(`--${name} takes a number, not '${raw}'`);
  return n;
}

export function pairs(list: string[] | undefined, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list ?? []) {
    const at = item.indexOf("=");
    if (at <= 0 || at === item.length - 1) throw new UsageError(`--${flag} takes NAME=VALUE, not '${item}'`);
    out[item.slice(0, at)] = item.slice(at + 1);
  }
  return out;
}

export function modelFlagsFrom(values: RunValues): ModelFlags {
  const method = values["structured-method"];
  if (method !== undefined && !(STRUCTURED_METHODS as readonly string[]).includes(method)) {
    throw new UsageError(`--structured-method takes ${STRUCTURED_METHODS.slice(0, -1).join(", ")} or ${STRUCTURED_METHODS.at(-1)}, not '${method}'`);
  }
  if (values.cache !== undefined) cacheModeFrom(values, {});
  return {
    model: values.model,
    baseURL: values["base-url"],
    configFile: values.config,
    roleModels: pairs(values["role-model"], "role-model"),
    temperature: numberFlag(values, "temperature"),
    seed: intFlag(values, "seed"),
    timeoutMs: intFlag(values, "request-timeout-ms", 1),
    maxRetries: intFlag(values, "max-retries"),
    maxConcurrency: intFlag(values, "max-requests", 1),
    streaming: values.stream,
    structuredMethod: method as ModelFlags["structuredMethod"],
    embeddingModel: values["embedding-model"],
    embeddingBaseURL: values["embedding-base-url"],
    embeddingFallback: embeddingFallbackFrom(values["embedding-fallback"]),
    endpointAlias: values["endpoint-alias"],
    mockErrorRate: mockErrorRateFrom(values["mock-error-rate"]),
  };
}

function mockErrorRateFrom(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const rate = Number(value);
  if (value.trim() === "" || !Number.isFinite(rate) || rate < 0 || rate > 1) throw new UsageError(`--mock-error-rate takes a share from 0 to 1, not '${value}'`);
  return rate;
}

function embeddingFallbackFrom(value: string | undefined): "lexical" | undefined {
  if (value !== undefined && value !== "lexical") throw new UsageError(`--embedding-fallback takes lexical (rank lexically when the embedding endpoint fails), not '${value}'`);
  return value;
}

/** `--cache`, else SQLMEND_CACHE, else on. A Redis URL is "on", kept in that Redis (`cacheRedisFrom`). */
export function cacheModeFrom(values: { cache?: string }, env: NodeJS.ProcessEnv): CacheMode {
  const given = values.cache ?? (env.SQLMEND_CACHE || undefined);
  if (given === undefined) return "on";
  if (/^rediss?:\/\//i.test(given)) {
    try {
      new URL(given);
    } catch {
      throw new UsageError(`${values.cache !== undefined ? "--cache" : "SQLMEND_CACHE"}: '${given}' is not a Redis URL (redis://HOST:PORT[/DB])`);
    }
    return "on";
  }
  if (!(CACHE_MODES as readonly string[]).includes(given)) {
    throw new UsageError(`${values.cache !== undefined ? "--cache" : "SQLMEND_CACHE"} takes ${CACHE_MODES.join(", ")} or redis://HOST:PORT, not '${given}'`);
  }
  return given as CacheMode;
}

/** The Redis URL the cache lives in (`--cache redis://…`, or SQLMEND_CACHE), or undefined for the local file. */
export function cacheRedisFrom(values: { cache?: string }, env: NodeJS.ProcessEnv): string | undefined {
  const given = values.cache ?? (env.SQLMEND_CACHE || undefined);
  return given && /^rediss?:\/\//i.test(given) ? given : undefined;
}

export function graphOptionsFrom(values: RunValues): GraphOptions {
  return {
    maxFixRounds: intFlag(values, "max-fix-rounds"),
    fewShot: intFlag(values, "few-shot"),
    schemaMaxChars: intFlag(values, "schema-max-chars", 200),
    timeoutMs: intFlag(values, "query-timeout-ms", 1),
  };
}

/** parseArgs declarations for every graph's own options (its slots' included), so any graph's flags parse (and can be checked per graph), plus those the run's own modules declare. */
export const graphFlags = (modules?: RunModules) =>
  optionFlags([...graphManifests.map((graph) => optionDefsOf(graph)), ...(modules ? [moduleOptions(modules), modules.graph ? optionDefsOf(modules.graph.spec) : {}] : [])]);

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
      if (out[key]) throw new UserError(`--node ${slot}=${module} declares option --${flagOf(key)}, which another --node module declares too`);
      out[key] = def;
    }
  }
  return out;
}

const isOptionDefs = (value: unknown): value is OptionDefs =>
  !!value && typeof value === "object" && Object.values(value).every((d) => !!d && typeof d === "object" && typeof (d as { type?: unknown }).type === "string" && typeof (d as { help?: unknown }).help === "string");

/**
 * `--node` and `--graph` as `loadRunModules` reads them, from options or flag values: `node` as `SLOT=FILE` items, one
 * such string, or a record `{ SLOT: FILE }` (the run API's form); `graph` a module file.
 */
export function moduleArgsOf(given: { node?: unknown; graph?: unknown }): string[] {
  const node = given.node;
  const items = node === undefined ? [] : typeof node === "object" && !Array.isArray(node) ? Object.entries(node as Record<string, string>).map(([slot, file]) => `${slot}=${file}`) : ([] as string[]).concat(node as string | string[]);
  return [...items.flatMap((item) => ["--node", item]), ...(typeof given.graph === "string" ? ["--graph", given.graph] : [])];
}

/**
 * Loads the modules `argv` names with `--node SLOT=FILE` and `--graph FILE` (read before the flags are parsed, since
 * their options are flags). Each fails in one line: a module that does not load, or exports the wrong thing.
 */
export async function loadRunModules(argv: string[], cwd: string): Promise<RunModules> {
  const { values } = parseArgs({ args: argv, options: { node: { type: "string", multiple: true }, graph: { type: "string" }, server: { type: "string" } }, strict: false, allowPositionals: true });
  const modules: RunModules = { nodes: {} };
  const nodeList = (values.node as (string | boolean)[] | undefined)?.map(String);
  // Said before any module loads: a server builds its graphs from its own langgraph.json.
  if (values.server !== undefined && nodeList?.length) throw new UsageError("--node swaps a node in this process; a LangGraph server builds its graphs from its langgraph.json");
  // --graph with --server: the module describes the run here (options, outcome); the server runs the graph it serves under the module's name ('sqlmend serve --graph FILE').
  for (const [slot, module] of Object.entries(pairs(nodeList, "node"))) {
    const file = path.resolve(cwd, module);
    const loaded = await importUserModule(file, module, "node module");
    if (typeof loaded.default !== "function") throw new UserError(`${module} must default-export a node factory: (deps, options) => node`);
    if (loaded.options !== undefined && !isOptionDefs(loaded.options)) throw new UserError(`${module}: its 'options' export must be option declarations (defineOptions({ name: { type, default, help } }))`);
    modules.nodes[slot] = { module, file, factory: loaded.default as AnyNodeFactory, options: (loaded.options as OptionDefs | undefined) ?? {} };
  }
  if (typeof values.graph === "string") {
    const file = path.resolve(cwd, values.graph);
    const loaded = await importUserModule(file, values.graph, "graph module");
    const spec = loaded.default as GraphSpec | undefined;
    if (!spec || typeof spec !== "object" || typeof spec.build !== "function" || typeof spec.name !== "string" || !spec.slots) {
      throw new UserError(`${values.graph} must default-export a graph made with defineGraph({ name, state, slots, wire, ... })`);
    }
    if (findManifest(spec.name)) throw new UserError(`${values.graph}: its graph is named '${spec.name}', as a built-in graph is; give it a name of its own`);
    modules.graph = { module: values.graph, file, spec };
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
    if (own[key] || SHARED_OPTION_FLAGS.has(flagOf(key))) throw new UserError(`--node module option --${flagOf(key)} is already an option of the run; name it otherwise`);
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

const SHARED_OPTION_FLAGS = new Set(Object.keys(runFlags));

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

/** The graph's declared options from the flags, checked before anything slow starts (a corrector may also take its initial generator's). */
export function graphOptionsOf(spec: GraphInfo, values: Record<string, unknown>): Record<string, unknown> {
  const graphs = graphsOfRun(spec, values);
  // The shared knobs act through shared slots; a run none of whose graphs has that slot would ignore them silently.
  for (const [flag, slot] of [["few-shot", "generate"], ["max-fix-rounds", "fix"]] as const) {
    if (values[flag] !== undefined && !graphs.some((g) => g.slots[slot])) {
      throw new UsageError(`--${flag} applies to graphs with a '${slot}' slot, not ${graphs.map((g) => g.name).join(" or ")} (see its own options: sqlmend eval ${spec.name} --help)`);
    }
  }
  return declaredOptionsFrom(spec, values, graphs.slice(1));
}

/** The graphs whose options shape a run: the graph, and a corrector's initial generator when `--initial` names one. */
function graphsOfRun(spec: GraphInfo, values: Record<string, unknown>): GraphInfo[] {
  const initial = spec.kind === "corrector" ? findManifest(String(values.initial ?? "baseline")) : undefined;
  return initial ? [spec, initial] : [spec];
}

/**
 * Why this run needs the training split's examples, or undefined: `--few-shot K`, or a graph of the run (the graph,
 * and a corrector's initial generator) whose `needsExamples` says so for its options (e.g. r3's `--k-shot`).
 */
export function examplesWantedBy(spec: GraphInfo, values: Record<string, unknown>): string | undefined {
  if (Number(values["few-shot"] ?? 0) > 0) return `--few-shot ${values["few-shot"]}`;
  for (const graph of graphsOfRun(spec, values)) {
    const reason = graph.needsExamples?.(parseDeclared(graph, values));
    if (reason) return reason;
  }
  return undefined;
}

/** The shared flags that change answers or verdicts (not speed), as given: run.json records them and `--resume` keeps them. */
const ANSWER_FLAGS = ["max-fix-rounds", "few-shot", "schema-max-chars", "query-timeout-ms", "node", "graph", "initial", "correct", "keep-distinct", "embedding-fallback"] as const;

/**
 * The answer-changing shared flags a run was given (`except`: those its command records elsewhere in run.json). With
 * `where` (a run folder), files are recorded as `--resume` compares them: each `--node SLOT=MODULE` as
 * `{ SLOT: { path, sha256 } }` (`moduleIdentity`: the module's content, wherever it is), and `--initial FILE` by its
 * place from the run folder or its absolute path (`runPlace`), so a moved run still resumes.
 */
export function answerSettings(values: Record<string, unknown>, except: readonly string[] = [], where?: { cwd: string; runDir: string }): Record<string, unknown> {
  const out: Record<string, unknown> = Object.fromEntries(ANSWER_FLAGS.filter((k) => values[k] !== undefined && !except.includes(k)).map((k) => [k, values[k]]));
  if (!where) return out;
  if (out.node !== undefined) out.node = nodeIdentities(out.node as string[], where);
  // A graph of the user's own, like a --node module: by its content, so an edited graph never joins the run.
  if (typeof out.graph === "string") {
    const identity = userModuleIdentity(OBJECT_ID.test(out.graph) ? out.graph : path.resolve(where.cwd, out.graph));
    out.graph = { ...identity, path: OBJECT_ID.test(out.graph) ? identity.path : runPath(identity.path, where.runDir) };
  }
  if (typeof out.initial === "string" && !findManifest(out.initial)) out.initial = runPlace(path.resolve(where.cwd, out.initial), where.runDir);
  return out;
}

/** Every `--node SLOT=MODULE` as run.json records it: by slot, the module's path (from the run when inside it) and sha256. */
export function nodeIdentities(list: string[], where: { cwd: string; runDir: string }): Record<string, { path: string; sha256: string }> {
  return Object.fromEntries(
    Object.entries(pairs(list, "node")).map(([slot, modulePath]) => {
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
export function graphSettings(specs: GraphInfo[], values: Record<string, unknown>, cwd = process.cwd(), runDir?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    const given = parseDeclared(spec, values);
    for (const [key, def] of Object.entries(optionDefsOf(spec))) {
      if (def.affectsAnswers === false) continue;
      const value = given[key] ?? def.default;
      if (value !== undefined) out[flagOf(key)] = def.type === "string" && def.file ? fileSetting(String(value), cwd, runDir) : value;
    }
  }
  return out;
}

/** `--help` of ask/eval for a named graph: its own options after the shared ones. */
export async function graphUsage(argv: string[], io: CliIO): Promise<string> {
  // The options of `--node` and `--graph` modules are the run's too: loaded only when the command line names one.
  const named = argv.some((a) => /^--(node|graph)(=|$)/.test(a));
  const modules = named ? await loadRunModules(argv, io.cwd) : { nodes: {} };
  const builtIn = argv.filter((a) => !a.startsWith("-")).map(findManifest).find(Boolean);
  if (!builtIn && !modules.graph) return "\n\nName a graph before --help to see its own options: sqlmend eval GRAPH --help";
  const spec = runGraph(modules.graph ? undefined : builtIn!.name, modules);
  const defs = optionDefsOf(spec);
  return Object.keys(defs).length ? `\n\n${optionsUsage(`Options of ${spec.name}`, defs)}` : "";
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
export async function loadSlotModules(spec: Pick<GraphInfo, "name" | "slots">, list: string[] | undefined, cwd: string): Promise<Record<string, AnyNodeFactory>> {
  for (const slot of Object.keys(pairs(list, "node"))) {
    if (!spec.slots[slot]) throw new UserError(`graph '${spec.name}' has no slot '${slot}' (slots: ${Object.keys(spec.slots).join(", ")})`);
  }
  const modules = await loadRunModules(moduleArgsOf({ node: list ?? [] }), cwd);
  return Object.fromEntries(Object.entries(modules.nodes).map(([slot, { factory }]) => [slot, factory]));
}

export function scenarioFrom(value: string | undefined, allowOracle: boolean): CorrectScenario {
  const scenario = (value ?? "all") as CorrectScenario;
  if (!["all", "errors", "incorrect"].includes(scenario)) throw new UsageError(`--correct takes all, errors or incorrect, not '${value}'`);
  if (scenario === "incorrect" && !allowOracle) throw new UsageError("--correct incorrect needs gold SQL as an oracle: use it with 'eval'");
  return scenario;
}

/**
 * A script's module options with objects in them (`node: { generate: factory }`, `graphModule: spec`) as flag values
 * carry them: each object by its id (`objectModuleId`), files as they are.
 */
export function withObjectModules(node: Readonly<Record<string, unknown>> | undefined, graphModule: unknown): { node?: Record<string, string>; graph?: string } {
  const nodes = node === undefined ? undefined : Object.fromEntries(Object.entries(node).map(([slot, value]) => [slot, typeof value === "function" ? objectModuleId("node", value) : (value as string)]));
  const graph = graphModule === undefined ? undefined : typeof graphModule === "string" ? graphModule : objectModuleId("graph", graphModule);
  return { ...(nodes ? { node: nodes } : {}), ...(graph !== undefined ? { graph } : {}) };
}
