/**
 * Every option a run of the graph takes: the graph-wide ones, then those of each slot not replaced, then those a
 * replacement module declares (`extra`). What flags, `--help`, validation, settings and `--resume` derive from.
 */
export function optionDefsOf(graph, replaced = [], extra = {}) {
    const skip = new Set(replaced);
    const defs = { ...graph.options };
    for (const [slot, info] of Object.entries(graph.slots))
        if (!skip.has(slot))
            Object.assign(defs, info.options);
    return { ...defs, ...extra };
}
/** Keeps a manifest's literal slot names, so `defineSpec` can demand a factory for each and no other. */
export const defineManifest = (manifest) => manifest;
