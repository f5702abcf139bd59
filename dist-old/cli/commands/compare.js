import { parseFlags } from "../shared/flags.js";
import { COMPARE_FLAGS, COMPARE_USAGE, compareFrom } from "../../runner/compare-run.js";
/** `sqlmend compare`: its flags, then the run API's compare (`runner/compare-run.ts`). */
export const compareCommand = {
    name: "compare",
    usage: COMPARE_USAGE,
    async run(argv, io) {
        const { values, positionals } = parseFlags(argv, COMPARE_FLAGS);
        return (await compareFrom({ values, positionals, argv }, io)).exitCode;
    },
};
