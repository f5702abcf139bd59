import { graphManifests } from "../../graphs/registry.js";
import { optionsUsage } from "../../core/options.js";
import { EXIT } from "../../core/exit.js";
export const graphsCommand = {
    name: "graphs",
    usage: "Usage: sqlmend graphs [--slots] [--options]\n\n  --slots    each graph's node slots (what --node SLOT=MODULE can replace)\n  --options  each graph's own options (flags of ask and eval)",
    async run(argv, io) {
        const width = Math.max(...graphManifests.map((g) => g.name.length));
        for (const spec of graphManifests) {
            io.stdout(`${spec.name.padEnd(width)}  ${spec.kind.padEnd(9)}  ${spec.summary}\n`);
            if (argv.includes("--slots")) {
                for (const [slot, info] of Object.entries(spec.slots))
                    io.stdout(`${"".padEnd(width)}    slot ${slot}: ${info.summary}${info.role ? ` (role: ${info.role})` : ""}\n`);
            }
            if (argv.includes("--options") && spec.options) {
                io.stdout(`${optionsUsage("  options", spec.options).replace(/^/gm, "".padEnd(width + 2))}\n`);
            }
        }
        return EXIT.ok;
    },
};
