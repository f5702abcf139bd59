import type { Command } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { COMPARE_FLAGS, COMPARE_USAGE, compareFrom } from "../../runner/score/run-compare.ts";

/** `sqlmend compare`: its flags, then the run API's compare (`runner/score/run-compare.ts`). */
export const compareCommand: Command = {
  name: "compare",
  usage: COMPARE_USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, COMPARE_FLAGS);
    return (await compareFrom({ values, positionals, argv }, io)).exitCode;
  },
};
