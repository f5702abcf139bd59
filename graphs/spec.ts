import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { GraphOptions, NodeDeps, NodeFactory } from "../nodes/types.ts";
import type { OptionDefs } from "./options.ts";

export interface BuildOptions extends GraphOptions {
  checkpointer?: BaseCheckpointSaver;
  /** Replacement node factories by slot name: the "swap a node for a new strategy" hook. */
  slots?: Record<string, NodeFactory>;
  /** The launcher's working directory: relative file options (a guideline, ...) resolve against it. */
  cwd?: string;
}

export interface SlotSpec {
  summary: string;
  factory: NodeFactory;
}

/**
 * What can be known of a graph without building it (so without LangGraph): what `graphs`, `--help`, flag parsing and
 * option validation read. A spec (`GraphSpec`) is one of these plus its node factories and `build`.
 */
export interface GraphInfo {
  name: string;
  summary: string;
  /** A generator writes SQL from a question; a corrector revises the SQL it is given (input field `sql`). */
  kind: "generator" | "corrector";
  /** Slot name → what its node does; every slot is a node of the built graph (a test checks). */
  slots: Record<string, { summary: string }>;
  /** The graph's own knobs: the launcher makes flags, help, validation, report settings and the resume check of them. */
  options?: OptionDefs;
  /**
   * Whether a run needs the training split's examples (`deps.examples`), given the graph's own option values as
   * parsed from the flags (absent when not given): the reason (e.g. "--k-shot 5"), or undefined. `eval` then loads
   * the train split, as for `--few-shot`.
   */
  needsExamples?: (options: Record<string, unknown>) => string | undefined;
  /**
   * A graph only one command can run meaningfully (it needs inputs eval and ask do not give, e.g. the gold SQL): that
   * command. eval, ask and --initial refuse the graph with one line naming it.
   */
  runBy?: string;
}

/**
 * A graph's manifest (`graphs/manifests/`): its description, and how to load its spec. Manifest modules import no
 * LangGraph, LangChain or node code, so the launcher describes graphs and checks flags before anything slow loads.
 */
export interface GraphManifest extends GraphInfo {
  /** The spec module (LangGraph, the nodes) imported on demand. */
  load(): Promise<GraphSpec>;
}

/** What the launcher, langgraph.json and tests know about a graph. */
export interface GraphSpec extends GraphInfo {
  slots: Record<string, SlotSpec>;
  // The compiled graph's exact type varies per method; callers use invoke/stream/getState/getStateHistory.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  build(deps: NodeDeps, options?: BuildOptions): any;
}

/** Keeps a manifest's literal slot names, so `specOf` can demand a factory for each and no other. */
export const defineManifest = <const M extends GraphManifest>(manifest: M): M => manifest;

/**
 * A graph's spec from its manifest (the one description) plus a factory per slot and the builder: a slot without a
 * factory, or a factory without a slot, does not compile.
 */
export function specOf<M extends GraphManifest>(
  manifest: M,
  impl: { factories: { [K in keyof M["slots"]]: NodeFactory }; build: GraphSpec["build"] },
): GraphSpec {
  const { load: _load, slots, ...info } = manifest;
  const factories = impl.factories as Record<string, NodeFactory>;
  // Types miss a spread object with extra keys; the lists must match exactly.
  const [want, have] = [Object.keys(slots).sort().join(","), Object.keys(factories).sort().join(",")];
  if (want !== have) throw new Error(`graph '${manifest.name}': slots ${want} but factories for ${have}`);
  return {
    ...info,
    slots: Object.fromEntries(Object.entries(slots).map(([slot, { summary }]) => [slot, { summary, factory: factories[slot]! }])),
    build: impl.build,
  };
}

/** The node for a slot: the user's replacement if one was given, else the graph's default. */
export function slotNode(spec: Pick<GraphSpec, "name" | "slots">, slot: string, deps: NodeDeps, options: BuildOptions) {
  const known = spec.slots[slot];
  if (!known) throw new Error(`graph '${spec.name}' has no slot '${slot}'`);
  return (options.slots?.[slot] ?? known.factory)(deps, options);
}

/** Rejects replacement slots the graph does not have, naming the ones it has. */
export function checkSlots(spec: GraphInfo, slots: Record<string, unknown> | undefined): void {
  for (const slot of Object.keys(slots ?? {})) {
    if (!spec.slots[slot]) throw new Error(`graph '${spec.name}' has no slot '${slot}' (slots: ${Object.keys(spec.slots).join(", ")})`);
  }
}
