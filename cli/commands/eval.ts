import type { Command } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { graphUsage, loadRunModules } from "../../runner/run/run-options.ts";
import { EVAL_USAGE, evalFlags, evaluate } from "../../runner/eval/run-eval.ts";

/** `sqlmend eval`: its flags, then the run API's eval (`runner/eval/run-eval.ts`). */
export const evalCommand: Command = {
  name: "eval",
  usage: EVAL_USAGE,
  helpFor: graphUsage,
  async run(argv, io) {
    // A --node or --graph module's own options are flags of the run: loaded before the flags are parsed.
    const modules = await loadRunModules(argv, io.cwd);
    const { values, positionals } = parseFlags(argv, evalFlags(modules));
    return (await evaluate({ values, positionals, modules, argv }, io)).exitCode;
  },
};
