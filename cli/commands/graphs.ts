import type { Command } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { GRAPHS_CONFIG } from "../../runner/lab/lab-config.ts";
import { optionsUsage } from "../../core/options.ts";
import { EXIT } from "../../core/exit.ts";
import { listGraphs } from "../../runner/lab/graph-catalog.ts";

export const graphsCommand: Command = {
  name: "graphs",
  usage: `Usage: sqlmend graphs [--slots] [--options] [--graph FILE] [--json]

${usageOf(GRAPHS_CONFIG, undefined, 16)}`,
  async run(argv, io) {
    const values = configFromFlags(GRAPHS_CONFIG, parseFlags(argv, flagTableOf(GRAPHS_CONFIG)).values);
    const graphs = await listGraphs({ ...(values.graph !== undefined ? { graph: values.graph } : {}), cwd: io.cwd });
    if (values.json) {
      io.stdout(`${JSON.stringify(graphs, null, 2)}\n`);
      return EXIT.ok;
    }
    const width = Math.max(...graphs.map((g) => g.name.length));
    for (const graph of graphs) {
      io.stdout(`${graph.name.padEnd(width)}  ${graph.kind.padEnd(9)}  ${graph.summary}${graph.module ? `  (${graph.module})` : ""}\n`);
      if (values.slots) for (const s of graph.slots) io.stdout(`${"".padEnd(width)}    slot ${s.slot}: ${s.summary}${s.role ? ` (role: ${s.role})` : ""}\n`);
      if (values.options && Object.keys(graph.options).length) io.stdout(`${optionsUsage("  options", graph.options).replace(/^/gm, "".padEnd(width + 2))}\n`);
    }
    return EXIT.ok;
  },
};
