import type { Command } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { COMPARE_CONFIG, compareFrom } from "../../runner/score/run-compare.ts";

export const COMPARE_USAGE = `Usage: sqlmend compare OUT_A OUT_B [OUT_C ...] [--json] [--html FILE] [--show N] [--price IN,OUT]

Compares 'sqlmend eval' output folders on the questions all of them answered (failed ones are counted apart; runs
holding other questions under the same ids are refused): one table of EX with its 95 % interval (overall and per
difficulty), tokens, calls, latency and cost per question (tokens and cost are the method's: those the response cache
served count too, so a rerun from the cache compares the same); what the questions went through (each run's outcomes,
summed as its report.md sums them); per pair the questions only one got right, an exact
McNemar test on those, and with three runs or more its Holm-adjusted p-value over all pairs.
${usageOf(COMPARE_CONFIG, undefined, 18)}`;

/** `sqlmend compare`: its flags parsed once into compare's typed config, then the run API's body (`runner/score/run-compare.ts`). */
export const compareCommand: Command = {
  name: "compare",
  usage: COMPARE_USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, flagTableOf(COMPARE_CONFIG));
    return (await compareFrom({ config: configFromFlags(COMPARE_CONFIG, values), runs: positionals }, io)).exitCode;
  },
};
