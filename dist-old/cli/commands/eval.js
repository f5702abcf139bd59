import { parseFlags } from "../shared/flags.js";
import { graphUsage, loadRunModules } from "../../runner/run-options.js";
import { EVAL_USAGE, evalFlags, evaluate } from "../../runner/eval-run.js";
/** `sqlmend eval`: its flags, then the run API's eval (`runner/eval-run.ts`). */
export const evalCommand = {
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
