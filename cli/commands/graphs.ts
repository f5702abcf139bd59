import type { Command } from "../command.ts";
import { graphSpecs } from "../../graphs/index.ts";

export const graphsCommand: Command = {
  name: "graphs",
  usage: "Usage: sqlmend graphs [--slots]",
  async run(argv, io) {
    const width = Math.max(...graphSpecs.map((g) => g.name.length));
    for (const spec of graphSpecs) {
      io.stdout(`${spec.name.padEnd(width)}  ${spec.kind.padEnd(9)}  ${spec.summary}\n`);
      if (argv.includes("--slots")) {
        for (const [slot, info] of Object.entries(spec.slots)) io.stdout(`${"".padEnd(width)}    slot ${slot}: ${info.summary}\n`);
      }
    }
    return 0;
  },
};
