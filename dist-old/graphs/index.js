import { graphManifests } from "./registry.js";
/**
 * Every graph the launcher can run, as specs for library use: the registry's (`graphs/registry.ts`, where a graph is
 * registered), each loaded once here, in its order.
 */
export const graphSpecs = await Promise.all(graphManifests.map((manifest) => manifest.load()));
export function findGraph(name) {
    return graphSpecs.find((spec) => spec.name === name);
}
