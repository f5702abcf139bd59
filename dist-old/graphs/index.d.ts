import type { GraphSpec } from "./spec.ts";
/**
 * Every graph the launcher can run, as specs for library use: the registry's (`graphs/registry.ts`, where a graph is
 * registered), each loaded once here, in its order.
 */
export declare const graphSpecs: GraphSpec[];
export declare function findGraph(name: string): GraphSpec | undefined;
export type { GraphSpec, BuildOptions } from "./spec.ts";
