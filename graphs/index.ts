import { graphManifests } from "./registry.ts";
import type { GraphSpec } from "./spec.ts";

/**
 * Every graph the launcher can run, as specs for library use: the registry's (`graphs/registry.ts`, where a graph is
 * registered), each loaded once here, in its order.
 */
export const graphSpecs: GraphSpec[] = await Promise.all(graphManifests.map((manifest) => manifest.load()));

export function findGraph(name: string): GraphSpec | undefined {
  return graphSpecs.find((spec) => spec.name === name);
}

export type { GraphSpec, BuildOptions } from "./spec.ts";
