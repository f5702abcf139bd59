import { graphManifests } from "../../graphs/registry.ts";
import type { GraphInfo } from "../../graphs/spec.ts";
import type { OptionDefs } from "../../core/options.ts";

/** What `sqlmend graphs` lists of one graph: without building it. */
export interface GraphDescription {
  name: string;
  kind: string;
  summary: string;
  /** A graph module's path (`--graph FILE`); absent for a built-in graph. */
  module?: string;
  slots: { slot: string; summary: string; role?: string; reads?: readonly string[]; writes?: readonly string[]; payload?: string }[];
  options: OptionDefs;
}

const describe = (info: GraphInfo, module?: string): GraphDescription => ({
  name: info.name,
  kind: info.kind,
  summary: info.summary,
  ...(module ? { module } : {}),
  slots: Object.entries(info.slots).map(([slot, s]) => ({ slot, summary: s.summary, ...(s.role ? { role: s.role } : {}), ...(s.reads ? { reads: s.reads } : {}), ...(s.writes ? { writes: s.writes } : {}), ...(s.payload ? { payload: s.payload } : {}) })),
  options: (info.options ?? {}) as OptionDefs,
});

/**
 * The graphs a run can name: the built-in ones, or with `graph` the user's graph module (`--graph FILE`, loaded as
 * `eval --graph` loads it: a module of one's own is described like a built-in).
 */
export async function listGraphs(args: { graph?: string; cwd?: string } = {}): Promise<GraphDescription[]> {
  if (args.graph === undefined) return graphManifests.map((m) => describe(m));
  // Loaded only for a module: listing the built-in graphs loads no LangGraph (the launcher's start-up is measured).
  const { loadRunModules } = await import("../run/user-modules.ts");
  const modules = await loadRunModules({ graph: args.graph }, args.cwd ?? process.cwd());
  return [describe(modules.graph!.spec, modules.graph!.module)];
}
