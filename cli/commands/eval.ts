import type { Command } from "../shared/command.ts";
import { UsageError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { modulesOfArgv } from "../shared/module-flags.ts";
import { graphUsage, RUN_FLAGS_USAGE, SELECTION_USAGE, SUBSET_USAGE } from "../usage/run-usage.ts";
import { graphFlags, graphOptionsOf, runGraph } from "../../runner/run/run-options.ts";
import { loadRunModules, type RunModules } from "../../runner/run/user-modules.ts";
import { EVAL_CONFIG } from "../../runner/eval/eval-config.ts";
import { evaluate } from "../../runner/eval/run-eval.ts";

/** What `sqlmend eval` prints for `--help`. */
export const EVAL_USAGE = `Usage: sqlmend eval GRAPH|--graph FILE --bench DIR|minibench --out DIR [--split dev|train|test|minidev] [--questions FILE]
                    [--limit N] [--ids ID,...] [--concurrency K] [--resume] [--semantics bird|spider]
                    [--keep-distinct] [--shard I/N] [--strict]
       sqlmend eval GRAPH --questions FILE.jsonl|.csv --db-dir DIR --out DIR [...]

${SELECTION_USAGE}
${usageOf(EVAL_CONFIG, ["out"])}
${SUBSET_USAGE}
${usageOf(EVAL_CONFIG, ["concurrency", "resume", "semantics", "keepDistinct", "server", "shard", "strict"])}
${RUN_FLAGS_USAGE}

  Exit status: 0 every question answered; 3 questions failed (a model call got no reply, the graph could not
  finish) or were not run (the endpoint looked down): --resume runs them again; 130 Ctrl-C, 143 SIGTERM,
  129 SIGHUP (stopped: questions in flight finish, outputs are written, --resume continues); 4 a degenerate run
  under --strict; 1 user error; 2 usage.`;

/** eval's flag table: its declared options, every graph's own options, and the options of the modules it names. */
const evalFlagTable = (modules?: RunModules) => ({ ...flagTableOf(EVAL_CONFIG), ...graphFlags(modules) });

/** `sqlmend eval`: argv parsed once into eval's typed config, then the run API's eval body (`runner/eval/run-eval.ts`). */
export const evalCommand: Command = {
  name: "eval",
  usage: EVAL_USAGE,
  helpFor: graphUsage,
  async run(argv, io) {
    // A --node or --graph module's own options are flags of the run: loaded before the flags are parsed.
    const modules = await loadRunModules(modulesOfArgv(argv), io.cwd);
    const { values, positionals } = parseFlags(argv, evalFlagTable(modules));
    const config = configFromFlags(EVAL_CONFIG, values);
    const [graph, extra] = positionals;
    if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
    // The graph's own options (and a corrector's initial generator's), parsed by their declarations.
    const graphOptions = graphOptionsOf(runGraph(graph, modules), values);
    return (await evaluate({ config, graph, graphOptions, modules }, io)).exitCode;
  },
};
