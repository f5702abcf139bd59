import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { GraphOptions, NodeDeps, NodeFactory } from "../nodes/types.ts";
import type { GraphInfo } from "./manifests/manifest.ts";
import type { OutcomeSpec } from "./outcome.ts";

export type { GraphInfo };

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
 * A graph as the registry (`graphs/registry.ts`) lists it: its manifest (`graphs/manifests/`, which imports no
 * LangGraph, LangChain or node code) and how to load its spec, so the launcher describes graphs and checks flags
 * before anything slow loads.
 */
export interface GraphManifest extends GraphInfo {
  /** The spec module (LangGraph, the nodes) imported on demand. */
  load(): Promise<GraphSpec>;
}

/** What the launcher, langgraph.json and tests know about a graph. */
export interface GraphSpec extends GraphInfo {
  slots: Record<string, SlotSpec>;
  /** What a question went through, beyond the shared fields (`graphs/outcome.ts`): results.jsonl's `outcome`. */
  outcome?: OutcomeSpec;
  /**
   * Checks a run's inputs against the questions it will answer, before any runs (eval): returns what the report
   * records about them, or throws a UserError to refuse (memo-sql: a memory holding evaluated questions).
   */
  preflight?(run: RunPreflight): Record<string, unknown>;
  /**
   * LangGraph's recursion limit for a thread under these options: the most supersteps its declared loop bounds allow
   * (`steps`), plus a margin. `build` attaches it to the compiled graph (`recursionLimit`), which `runThread` passes.
   */
  recursionLimit(options?: GraphOptions): number;
  // The compiled graph's exact type varies per method; callers use invoke/stream/getState/getStateHistory.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  build(deps: NodeDeps, options?: BuildOptions): any;
}

/** What `GraphSpec.preflight` sees of a run. */
export interface RunPreflight {
  questions: { id: string; dbId: string; question: string }[];
  bench: string;
  split: string;
  /** The graph's declared option values (camelCase), as `build` gets them. */
  options: Record<string, unknown>;
  cwd: string;
}

/**
 * A graph's spec from its manifest (the one description) plus a factory per slot and the builder: a slot without a
 * factory, or a factory without a slot, does not compile.
 */
export function specOf<M extends GraphInfo>(
  manifest: M,
  impl: {
    factories: { [K in keyof M["slots"]]: NodeFactory };
    build: GraphSpec["build"];
    outcome?: OutcomeSpec;
    preflight?: GraphSpec["preflight"];
    /** The most supersteps one thread can take under these options (every loop at its bound). */
    steps(options: GraphOptions): number;
  },
): GraphSpec {
  const { slots, ...info } = manifest as GraphInfo;
  // A margin over the bound: resumed threads, gates that pass once (Memo-SQL's vote) and a replacement node's own
  // Command routing may add a step or two; a limit too high only lets a runaway custom graph run longer.
  const recursionLimit = (options: GraphOptions = {}) => Math.max(25, impl.steps(options) + 10);
  const factories = impl.factories as Record<string, NodeFactory>;
  // Types miss a spread object with extra keys; the lists must match exactly.
  const [want, have] = [Object.keys(slots).sort().join(","), Object.keys(factories).sort().join(",")];
  if (want !== have) throw new Error(`graph '${manifest.name}': slots ${want} but factories for ${have}`);
  return {
    ...info,
    slots: Object.fromEntries(Object.entries(slots).map(([slot, { summary }]) => [slot, { summary, factory: factories[slot]! }])),
    recursionLimit,
    build(deps, options) {
      const compiled = impl.build(deps, options);
      compiled.recursionLimit = recursionLimit(options);
      return compiled;
    },
    ...(impl.outcome ? { outcome: impl.outcome } : {}),
    ...(impl.preflight ? { preflight: impl.preflight } : {}),
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
