import type { Command } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { loadRunModules } from "../../runner/run/run-options.ts";
import { modulesOfArgv } from "../shared/module-flags.ts";
import { EXPERIMENT_FLAGS, EXPERIMENT_USAGE, experimentForwardFlags, experimentFrom } from "../../runner/experiment/run-experiment.ts";

/** `sqlmend experiment`: its own flags and those it forwards to every run, then the run API (`runner/experiment/run-experiment.ts`). */
export const experimentCommand: Command = {
  name: "experiment",
  usage: EXPERIMENT_USAGE,
  async run(argv, io) {
    // A --node or --graph module's own options are flags forwarded to the runs: loaded before the flags are parsed.
    const modules = await loadRunModules(modulesOfArgv(argv), io.cwd);
    const { values, positionals } = parseFlags(argv, { ...experimentForwardFlags(modules), ...EXPERIMENT_FLAGS });
    const own = Object.fromEntries(Object.entries(values).filter(([flag]) => flag in EXPERIMENT_FLAGS));
    const forwarded = Object.fromEntries(Object.entries(values).filter(([flag]) => !(flag in EXPERIMENT_FLAGS)));
    return (await experimentFrom({ own, forwarded, positionals, argv }, io)).exitCode;
  },
};
