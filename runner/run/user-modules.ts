import { lazyCrypto } from "../../tools/hash.ts";
import fs from "node:fs";
import path from "node:path";
import { findManifest } from "../../graphs/registry.ts";
import type { GraphInfo, GraphSpec } from "../../graphs/spec.ts";
import type { AnyNodeFactory } from "../../nodes/types.ts";
import { firstLineOf, UserError } from "../../core/errors.ts";
import { importModule } from "../../tools/import-module.ts";
import { type ModuleIdentity, moduleIdentity } from "../../tools/version.ts";
import { type OptionDefs } from "../../core/options.ts";
import { configValue, graphOpt, opt, optionUsageError, optionUserError } from "../../core/config.ts";
import { RUN_CONFIG } from "./run-config.ts";

// A user's modules a run names (`node: { SLOT: FILE }`, `graph: FILE`, or objects a script passes): loaded, known by
// their identity (a file's import closure, an object's source text), their options the run's.

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
export function moduleOptions(modules: RunModules): OptionDefs {
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

export const OBJECT_ID = /^object:(node|graph):([0-9a-f]{64})$/;

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

/** Loads `--node SLOT=MODULE` replacements for `spec` (each module default-exports a node factory), by slot. */
export async function loadSlotModules(spec: Pick<GraphInfo, "name" | "slots">, nodes: Readonly<Record<string, string>> | undefined, cwd: string): Promise<Record<string, AnyNodeFactory>> {
  for (const slot of Object.keys(nodes ?? {})) {
    if (!spec.slots[slot]) throw new UserError(`graph '${spec.name}' has no slot '${slot}' (slots: ${Object.keys(spec.slots).join(", ")})`);
  }
  const modules = await loadRunModules({ node: nodes }, cwd);
  return Object.fromEntries(Object.entries(modules.nodes).map(([slot, { factory }]) => [slot, factory]));
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
