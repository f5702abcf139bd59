import type { GraphManifest } from "./spec.ts";
/**
 * Every graph the launcher can run, described without loading any (no LangGraph): `graphs`, `--help`, flags and
 * their validation read these; `load()` imports a spec when a command builds its graph. A graph is registered here
 * only: the library's `graphSpecs` (graphs/index.ts) load these, and `npm run served` writes graphs/served.ts and
 * langgraph.json from them (test/served-graphs.test.ts fails while they lag).
 */
export declare const graphManifests: GraphManifest[];
export declare function findManifest(name: string): GraphManifest | undefined;
/** The registry's entry for a graph that must exist (a command's own graph, e.g. `magic-feedback`). */
export declare function manifestOf(name: string): GraphManifest;
