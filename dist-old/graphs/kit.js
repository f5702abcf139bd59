import { defineSpec } from "./spec.js";
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
export function defineGraph(def) {
    const contracts = {};
    const factories = {};
    for (const [slot, { factory, ...contract }] of Object.entries(def.slots)) {
        if (typeof factory !== "function")
            throw new Error(`graph '${def.name}': slot '${slot}' has no factory (its default node's (deps, options) => node)`);
        contracts[slot] = contract;
        factories[slot] = factory;
    }
    const manifest = {
        name: def.name,
        summary: def.summary,
        kind: def.kind,
        slots: contracts,
        ...(def.options ? { options: def.options } : {}),
        ...(def.calls ? { calls: def.calls } : {}),
        ...(def.needsExamples ? { needsExamples: def.needsExamples } : {}),
    };
    return defineSpec(manifest, {
        state: def.state,
        factories: factories,
        steps: def.steps,
        ...(def.outcome ? { outcome: def.outcome } : {}),
        ...(def.preflight ? { preflight: def.preflight } : {}),
        build(deps, options, node) {
            const wired = def.wire({ node, options, deps });
            // A StateGraph is compiled here, with the run's checkpointer; a compiled one is taken as it is.
            return typeof wired?.compile === "function" ? wired.compile({ checkpointer: options.checkpointer }) : wired;
        },
    });
}
