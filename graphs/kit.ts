import type { OptionDefs } from "../core/options.ts";
import type { AnyNodeFactory, GraphOptions, NodeDeps } from "../nodes/types.ts";
import type { CallBounds, GraphInfo, SlotContract } from "./manifests/manifest.ts";
import type { OutcomeSpec } from "./outcome.ts";
import { type BuildOptions, defineSpec, type GraphSpec, type GraphState, type RunPreflight, type SlotNodeOf } from "./spec.ts";

/** A slot of a graph made with `defineGraph`: its default node's factory and its contract, in one place. */
export interface SlotDef<F extends AnyNodeFactory = AnyNodeFactory> extends SlotContract {
  summary: string;
  factory: F;
}

/** What a graph's `wire` is given: the checked node of each slot, the run's options and dependencies. */
export interface WireKit<F extends Record<string, AnyNodeFactory>> {
  /** The node for a slot — the run's replacement (`--node`, `slots`) or the default — held to the slot's contract. */
  node: (slot: keyof F & string, extraOptions?: Record<string, unknown>) => ReturnType<SlotNodeOf>;
  options: BuildOptions<F>;
  deps: NodeDeps;
}

/**
 * A whole graph in one declaration — a new method is one file (docs/guides/new-method.md):
 *
 *   export default defineGraph({
 *     name: "my-method", summary: "...", kind: "generator", state: MyState,
 *     options: defineOptions({ ... }),
 *     slots: { schema: { ...SHARED_SLOTS.schema }, write: { summary, role, reads, writes, factory: writeNode }, ... },
 *     steps: (options) => ...,           // the most supersteps a thread can take: the recursion limit derives from it
 *     wire: ({ node }) => new StateGraph(MyState, { input: SqlInputState }).addNode("schema", node("schema"))...,
 *   });
 *
 * The result is a `GraphSpec` like the built-ins': `--graph FILE` runs it through ask, eval, replay and experiments;
 * `build(deps, { slots })` swaps its slots (typed per slot, unknown ones refused); its writes are checked against
 * `state`; the recursion limit is bound to the compiled graph.
 */
export function defineGraph<const S extends Record<string, SlotDef>>(def: {
  name: string;
  summary: string;
  kind: "generator" | "corrector";
  state: GraphState;
  slots: S;
  /** Graph-wide knobs (flags of ask and eval); a knob only one slot's default reads belongs in that slot's `options`. */
  options?: OptionDefs;
  /** The most supersteps one thread can take under these options (every loop at its bound). */
  steps(options: GraphOptions): number;
  /** The model calls one question costs (`CallBounds`), when known: experiments' dry runs read it. */
  calls?: (options: Record<string, unknown>) => CallBounds;
  needsExamples?: GraphInfo["needsExamples"];
  outcome?: OutcomeSpec;
  preflight?: (run: RunPreflight) => Record<string, unknown>;
  /** Wires the slots' nodes into a `StateGraph` and returns it (the kit compiles it with the run's checkpointer). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  wire(kit: WireKit<{ [K in keyof S]: S[K]["factory"] }>): any;
}): GraphSpec<{ [K in keyof S]: S[K]["factory"] }> {
  type F = { [K in keyof S]: S[K]["factory"] };
  const contracts: Record<string, SlotContract & { summary: string }> = {};
  const factories: Record<string, AnyNodeFactory> = {};
  for (const [slot, { factory, ...contract }] of Object.entries(def.slots)) {
    if (typeof factory !== "function") throw new Error(`graph '${def.name}': slot '${slot}' has no factory (its default node's (deps, options) => node)`);
    contracts[slot] = contract;
    factories[slot] = factory;
  }
  const manifest: GraphInfo = {
    name: def.name,
    summary: def.summary,
    kind: def.kind,
    slots: contracts,
    ...(def.options ? { options: def.options } : {}),
    ...(def.calls ? { calls: def.calls } : {}),
    ...(def.needsExamples ? { needsExamples: def.needsExamples } : {}),
  };
  const spec = defineSpec(manifest as GraphInfo & { slots: Record<keyof F, SlotContract & { summary: string }> }, {
    state: def.state,
    factories: factories as F,
    steps: def.steps,
    ...(def.outcome ? { outcome: def.outcome } : {}),
    ...(def.preflight ? { preflight: def.preflight } : {}),
    build(deps, options, node) {
      const wired = def.wire({ node, options, deps });
      // A StateGraph is compiled here, with the run's checkpointer; a compiled one is taken as it is.
      return typeof wired?.compile === "function" ? wired.compile({ checkpointer: options.checkpointer }) : wired;
    },
  }) as unknown as GraphSpec<F>;
  // What a graph passed as an object (`runEval({ graphModule: spec })`) is known by: its wiring, bounds and outcome.
  Object.defineProperty(spec, "sourceText", { value: [def.wire, def.steps, def.calls, def.outcome?.of].map((f) => (typeof f === "function" ? f.toString() : "")).join("\n"), enumerable: false });
  return spec;
}
