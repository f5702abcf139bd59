import { CORRECTION_CONFIG, GRAPH_CONFIG, MODEL_CONFIG } from "../../runner/run/run-config.ts";
import { usageOf } from "../shared/flag-config.ts";
import { modulesOfArgv } from "../shared/module-flags.ts";
import type { CliIO } from "../../core/io.ts";
import { optionsUsage } from "../../core/options.ts";
import { optionDefsOf } from "../../graphs/manifests/manifest.ts";
import { findManifest } from "../../graphs/registry.ts";
import { loadRunModules } from "../../runner/run/user-modules.ts";
import { runGraph } from "../../runner/run/run-options.ts";

// The `--help` sections every run command shares, made from the run-level declarations (runner/run/run-config.ts).

/** The models, the graph's shared knobs, correction: `ask`, `eval` and the methods' runs. */
export const RUN_FLAGS_USAGE = `Model:
${usageOf(MODEL_CONFIG)}
Graph:
${usageOf(GRAPH_CONFIG)}
Correction (corrector graphs):
${usageOf(CORRECTION_CONFIG)}`;

export { SELECTION_USAGE, SUBSET_USAGE } from "./selection-usage.ts";

/** `--help` of ask/eval for a named graph: its own options after the shared ones. */
export async function graphUsage(argv: string[], io: CliIO): Promise<string> {
  // The options of `--node` and `--graph` modules are the run's too: loaded only when the command line names one.
  const named = argv.some((a) => /^--(node|graph)(=|$)/.test(a));
  const modules = named ? await loadRunModules(modulesOfArgv(argv), io.cwd) : { nodes: {} };
  const builtIn = argv.filter((a) => !a.startsWith("-")).map(findManifest).find(Boolean);
  if (!builtIn && !modules.graph) return "\n\nName a graph before --help to see its own options: sqlmend eval GRAPH --help";
  const spec = runGraph(modules.graph ? undefined : builtIn!.name, modules);
  const defs = optionDefsOf(spec);
  return Object.keys(defs).length ? `\n\n${optionsUsage(`Options of ${spec.name}`, defs)}` : "";
}
