import { type BaseCheckpointSaver, Command, Send } from "@langchain/langgraph";
import type { AnyNodeFactory, GraphOptions, NodeDeps } from "../nodes/types.ts";
import { markSlot, SlotContractError } from "../core/errors.ts";
import type { GraphInfo, SlotContract, SlotReturn } from "./manifests/manifest.ts";
import type { OutcomeSpec } from "./outcome.ts";
import { EMBEDDER_ROLE } from "../tools/models/embedder-role.ts";

export type { GraphInfo };

/**
 * Tasks of one step run at once at most: each running branch (Memo-SQL's nine critics, a baseline's 20 samples,
 * TS-SQL's coders) listens on its run's abort signal, and past Node's 10 listeners a leak warning is printed. Bound to
 * every graph rather than raising Node's limit for the whole host process (a library never changes its host); model
 * requests are capped at 8 in flight by default anyway (`--max-requests`).
 */
export const MAX_PARALLEL_TASKS = 8;

export interface BuildOptions<F extends SlotFactories = SlotFactories> extends GraphOptions {
  checkpointer?: BaseCheckpointSaver;
  /**
   * Replacement node factories by slot name: the "swap a node for a new strategy" hook. Typed per slot (a
   * replacement takes the state its slot is given), and checked when the graph is built: an unknown slot is an error
   * naming the graph's slots.
   */
  slots?: { [K in keyof F]?: F[K] };
  /** The launcher's working directory: relative file options (a guideline, ...) resolve against it. */
  cwd?: string;
}

/** A graph's slot table: slot name → the factory of its default node. */
export type SlotFactories = Record<string, AnyNodeFactory>;

/** A slot as a spec holds it: its summary and contract (from the manifest) and its default factory. */
export interface SlotSpec<F extends AnyNodeFactory = AnyNodeFactory> extends SlotContract {
  summary: string;
  factory: F;
}

/**
 * A graph as the registry (`graphs/registry.ts`) lists it: its manifest (`graphs/manifests/`, which imports no
 * LangGraph, LangChain or node code) and how to load its spec, so the launcher describes graphs and checks flags
 * before anything slow loads.
 */
export interface GraphManifest extends GraphInfo {
  /** The spec module (LangGraph, the nodes) imported on demand. */
  load(): Promise<GraphSpec>;
}

/** The state schema a graph is built over (a LangGraph `StateSchema`): its `fields` are the keys a node may write. */
export interface GraphState {
  fields: Record<string, unknown>;
}

/** What the launcher, langgraph.json and tests know about a graph. */
export interface GraphSpec<F extends SlotFactories = SlotFactories> extends GraphInfo {
  slots: { [K in keyof F]: SlotSpec<F[K]> } & Record<string, SlotSpec>;
  /** The graph's state: every slot's declared `writes` are among its fields (checked when the spec is made). */
  state: GraphState;
  /** What a question went through, beyond the shared fields (`graphs/outcome.ts`): results.jsonl's `outcome`. */
  outcome?: OutcomeSpec;
  /**
   * Checks a run's inputs against the questions it will answer, before any runs (eval): returns what the report
   * records about them, or throws a UserError to refuse (memo-sql: a memory holding evaluated questions).
   */
  preflight?(run: RunPreflight): Record<string, unknown>;
  /**
   * LangGraph's recursion limit for a thread under these options: the most supersteps its declared loop bounds allow
   * (`steps`), plus a margin. `build` binds it to the compiled graph (`withConfig`), so every caller — the launcher,
   * a script, Studio, a LangGraph server — runs under it.
   */
  recursionLimit(options?: GraphOptions): number;
  /**
   * The compiled graph, its recursion limit bound. Throws, naming the graph, for a replacement of a slot it does not
   * have. The compiled graph's exact type varies per method; callers use invoke/stream/getState/getStateHistory.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  build(deps: NodeDeps, options?: BuildOptions<F>): any;
}

/** The factory type of one slot of a graph, e.g. `SlotFactory<typeof tsSqlSpec, "vote">`: what a replacement must be. */
export type SlotFactory<G, K extends string> = G extends GraphSpec<infer F> ? (K extends keyof F ? F[K] : never) : never;

/** What `GraphSpec.preflight` sees of a run. */
export interface RunPreflight {
  questions: { id: string; dbId: string; question: string; goldSql?: string | undefined }[];
  /** The benchmark folder (a layout's, or own data's databases folder). */
  bench: string;
  split: string;
  /** The question file, when not the layout's own (`--questions`). */
  questionsFile?: string;
  /** The graph's declared option values (camelCase), as `build` gets them. */
  options: Record<string, unknown>;
  cwd: string;
}

/** What a graph's builder is handed: `node(slot)` gives the slot's node (the replacement, or the default), checked. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SlotNodeOf = (slot: string, extraOptions?: Record<string, unknown>) => any;

/**
 * A graph's spec from its manifest (the one description) plus a factory per slot and the builder: a slot without a
 * factory, or a factory without a slot, does not compile. The builder wires `node(slot)` for each slot and compiles;
 * the kit checks replacements, binds the recursion limit and names the graph.
 */
export function defineSpec<M extends GraphInfo, F extends { [K in keyof M["slots"]]: AnyNodeFactory }>(
  manifest: M,
  impl: {
    state: GraphState;
    factories: F;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    build(deps: NodeDeps, options: BuildOptions<F>, node: SlotNodeOf): any;
    outcome?: OutcomeSpec;
    preflight?: GraphSpec["preflight"];
    /** The most supersteps one thread can take under these options (every loop at its bound). */
    steps(options: GraphOptions): number;
  },
): GraphSpec<F> {
  const { slots, ...info } = manifest as GraphInfo;
  // A margin over the bound: resumed threads, gates that pass once (Memo-SQL's vote) and a replacement node's own
  // Command routing may add a step or two; a limit too high only lets a runaway custom graph run longer.
  const recursionLimit = (options: GraphOptions = {}) => Math.max(25, impl.steps(options) + 10);
  const factories = impl.factories as Record<string, AnyNodeFactory>;
  // Types miss a spread object with extra keys; the lists must match exactly.
  const [want, have] = [Object.keys(slots).sort().join(","), Object.keys(factories).sort().join(",")];
  if (want !== have) throw new Error(`graph '${manifest.name}': slots ${want} but factories for ${have}`);
  checkDeclaredWrites(manifest.name, slots, impl.state);
  const spec: GraphSpec<F> = {
    ...info,
    state: impl.state,
    slots: Object.fromEntries(Object.entries(slots).map(([slot, info]) => [slot, { ...info, factory: factories[slot]! }])) as GraphSpec<F>["slots"],
    recursionLimit,
    build(deps, options = {}) {
      checkSlots(spec, options.slots);
      const node: SlotNodeOf = (slot, extra = {}) => nodeForSlot(spec, slot, deps, { ...options, ...extra } as BuildOptions);
      const compiled = impl.build(deps, options, node);
      const limit = recursionLimit(options);
      // Bound to the graph itself: a notebook, Studio or a server invoking it directly holds the loops' bounds.
      const bound = compiled.withConfig({ recursionLimit: limit, ...(compiled.config?.maxConcurrency ? {} : { maxConcurrency: MAX_PARALLEL_TASKS }) });
      bound.name = manifest.name;
      bound.recursionLimit = limit;
      return bound;
    },
    ...(impl.outcome ? { outcome: impl.outcome } : {}),
    ...(impl.preflight ? { preflight: impl.preflight } : {}),
  };
  return spec;
}

/** Every slot's declared writes are fields of the graph's state; LangGraph would drop any other key in silence. */
export function checkDeclaredWrites(graph: string, slots: Record<string, SlotContract>, state: GraphState): void {
  for (const [slot, contract] of Object.entries(slots)) {
    const missing = [...(contract.writes ?? []), ...(contract.requires ?? [])].filter((field) => !(field in state.fields));
    if (missing.length) throw new Error(`graph '${graph}': slot '${slot}' declares it writes ${missing.join(", ")}, which the graph's state lacks (add the field to the state, or fix the declaration)`);
  }
}

/**
 * The node for a slot: the user's replacement if one was given, else the graph's default; either held to the slot's
 * contract (`checkedNode`).
 */
export function nodeForSlot(spec: Pick<GraphSpec, "name" | "slots" | "state">, slot: string, deps: NodeDeps, options: BuildOptions) {
  const known = spec.slots[slot];
  if (!known) throw new Error(`graph '${spec.name}' has no slot '${slot}' (slots: ${Object.keys(spec.slots).join(", ")})`);
  const replacement = options.slots?.[slot] as AnyNodeFactory | undefined;
  // Defaults are held to the same contract, and to their declared writes and role: a few property checks per step,
  // and the declarations (which the slot reference prints) stay honest.
  const factory = replacement ?? known.factory;
  const fields = new Set(Object.keys(spec.state.fields));
  return checkedNode(spec.name, slot, { ...known, ...(replacement ? { writes: undefined, role: undefined } : {}) }, factory(deps, options) as AnyNode, options, fields);
}

type AnyNode = (state: unknown, config?: unknown) => Promise<unknown>;

/** Bookkeeping any node may write besides its declared fields: its model calls, their usage, the attempt history. */
const ALWAYS_WRITABLE = new Set(["calls", "usage", "attempts"]);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(value));
const lgName = (value: unknown): unknown => (value && typeof value === "object" ? (value as { lg_name?: unknown }).lg_name : undefined);

/**
 * A Send made by another copy of LangGraph (a node module loaded as CommonJS gets the CommonJS build): LangGraph
 * checks Sends with `instanceof` and would drop it without a word, so it is made again with ours.
 */
function ownSend(target: unknown): unknown {
  if (target instanceof Send || lgName(target) !== "Send") return target;
  const { node, args } = target as { node: string; args: unknown };
  return new Send(node, args);
}

/** A Command (ours, or one of another LangGraph copy, recognised by its `lg_name`) with its Sends made ours. */
function ownCommand(command: Record<string, unknown>): Command {
  const goto = command.goto;
  const routed = Array.isArray(goto) ? goto.map(ownSend) : goto === undefined ? undefined : ownSend(goto);
  const params = {
    ...(command.update !== undefined ? { update: command.update } : {}),
    ...(routed !== undefined ? { goto: routed } : {}),
    ...(command.resume !== undefined ? { resume: command.resume } : {}),
    ...(command.graph !== undefined ? { graph: command.graph } : {}),
  };
  return new Command(params as ConstructorParameters<typeof Command>[0]);
}

const describeReturn = (value: unknown): string =>
  value === undefined ? "nothing" : value === null ? "null" : Array.isArray(value) ? "an array" : isPlainObject(value) ? "a plain update" : typeof value === "object" ? `a ${value.constructor?.name ?? "object"}` : `a ${typeof value}`;

/**
 * A replacement node held to its slot's contract (`SlotContract`, declared in the manifests): a Command where the slot
 * routes, the keys its routes read. A node that breaks it throws one line naming the slot and what it must return, so
 * the question fails visibly instead of ending quietly with no SQL.
 */
export function checkedNode(graph: string, slot: string, contract: SlotContract, node: AnyNode, options: Record<string, unknown> = {}, stateFields?: ReadonlySet<string>): AnyNode {
  const where = `slot '${slot}' of graph '${graph}'`;
  const routes = contract.routesTo?.length ? ` routing to ${contract.routesTo.join(" or ")}` : "";
  const checked = async (state: unknown, config?: unknown) => {
    const out = await node(state, config);
    const command = lgName(out) === "Command";
    if (contract.returns === "Command" && !command) throw new SlotContractError(`${where} must return a Command${routes} (new Command({ update, goto })); got ${describeReturn(out)}`);
    if (!command && !isPlainObject(out)) throw new SlotContractError(`${where} must return an update (an object of state fields) or a Command; got ${describeReturn(out)}`);
    const update = command ? (out as { update?: unknown }).update : out;
    const missing = (contract.requires ?? []).filter((key) => !isPlainObject(update) || !(key in update));
    if (missing.length) {
      const got = isPlainObject(update) ? Object.keys(update).join(", ") || "none" : describeReturn(update);
      throw new SlotContractError(`${where} must return ${contract.requires!.join(", ")} in its update (missing: ${missing.join(", ")}; got keys: ${got})`);
    }
    const returned = returnOf(command, out, update);
    if (command && contract.returns === "Command" && !returned.goto.length && !mayWait(contract)) {
      throw new SlotContractError(`${where} must return a Command${routes}; got a Command routing nowhere (its branch would end there)`);
    }
    for (const rule of contract.rules ?? []) {
      const broken = rule.broken(returned, isPlainObject(state) ? state : {}, options);
      if (broken) throw new SlotContractError(`${where} must ${rule.must}; ${broken}`);
    }
    if (isPlainObject(update)) {
      const keys = Object.keys(update);
      const foreign = stateFields ? keys.filter((key) => !stateFields.has(key)) : [];
      // LangGraph drops a key its state lacks without a word: the node's work would vanish.
      if (foreign.length) throw new SlotContractError(`${where} wrote ${foreign.join(", ")}, which the graph's state lacks (its fields: ${[...stateFields!].join(", ")})`);
      const undeclared = contract.writes ? keys.filter((key) => !contract.writes!.includes(key) && !ALWAYS_WRITABLE.has(key)) : [];
      if (undeclared.length) throw new SlotContractError(`${where} wrote ${undeclared.join(", ")}, beyond its declared writes (${contract.writes!.join(", ")})`);
      // A node held to its declarations calls the model only as its declared role (embedding requests aside).
      const roles = contract.writes && Array.isArray(update.calls) ? update.calls.map((call) => (call as { role?: unknown }).role) : [];
      const foreignRoles = [...new Set(roles.filter((role) => role !== contract.role && role !== EMBEDDER_ROLE))];
      if (foreignRoles.length) throw new SlotContractError(`${where} called the model as ${foreignRoles.join(", ")}, ${contract.role ? `not its declared role (${contract.role})` : "but declares no role"}`);
    }
    if (!command) return out;
    const goto = (out as { goto?: unknown }).goto;
    const foreign = !(out instanceof Command) || (Array.isArray(goto) ? goto : [goto]).some((g) => lgName(g) === "Send" && !(g instanceof Send));
    return foreign ? ownCommand(out as Record<string, unknown>) : out;
  };
  // Whatever the node throws (its own error or a broken contract) says which slot threw it: results.jsonl and inspect name it.
  return async (state, config) => {
    try {
      return await checked(state, config);
    } catch (error) {
      markSlot(error, slot);
      throw error;
    }
  };
}

/** A slot that may route nowhere (`goto: []`) while it waits: a gate, whose routes name "nowhere". */
const mayWait = (contract: SlotContract): boolean => !!contract.routesTo?.some((route) => route.startsWith("nowhere"));

/** A return as `SlotRule`s read it: the update, and a Command's routes by node name (a Send's node, END). */
function returnOf(command: boolean, out: unknown, update: unknown): SlotReturn {
  const goto = command ? (out as { goto?: unknown }).goto : undefined;
  const targets = (Array.isArray(goto) ? goto : goto === undefined || goto === null ? [] : [goto]).map((g) => (typeof g === "string" ? g : String((g as { node?: unknown }).node)));
  return { command, update: isPlainObject(update) ? update : {}, goto: targets };
}

/** Rejects replacement slots the graph does not have, naming the ones it has. */
export function checkSlots(spec: Pick<GraphInfo, "name" | "slots">, slots: Record<string, unknown> | undefined): void {
  for (const slot of Object.keys(slots ?? {})) {
    if (!spec.slots[slot]) throw new Error(`graph '${spec.name}' has no slot '${slot}' (slots: ${Object.keys(spec.slots).join(", ")})`);
  }
}
