import { UsageError } from "../../core/errors.ts";
import { configOfFlagValues, type FlagValues, legacyFlagTableOf } from "../run/api-options.ts";
import { graphFlags, graphOptionsOf, type RunModules, runGraph } from "../run/run-options.ts";
import { EVAL_CONFIG } from "./eval-config.ts";
import type { EvalInput } from "./run-eval.ts";

// eval's typed input from flag values: for `sqlmend experiment`, whose runs are still flag values (a recipe's
// options by flag name), until it builds the typed config itself. The launcher's eval parses argv itself
// (cli/commands/eval.ts); runEval checks a script's options (core/config.ts `checkConfig`).

/**
 * eval's input from flag values (by flag name) and positionals: for `sqlmend experiment`, whose runs are still flag
 * values (recipes), until it builds the typed config itself.
 */
export function evalInputOfFlagValues(input: { values: FlagValues; positionals: string[]; modules: RunModules }): EvalInput {
  const graph = input.positionals[0];
  if (input.positionals.length > 1) throw new UsageError(`unexpected argument '${input.positionals[1]}'`);
  const spec = runGraph(graph, input.modules);
  return { config: configOfFlagValues(EVAL_CONFIG, input.values), graph, graphOptions: graphOptionsOf(spec, input.values), modules: input.modules };
}

/** eval's flags as a parseArgs table (its own, every graph's options, the modules'): for `sqlmend experiment`'s recipes. */
export const evalFlags = (modules?: RunModules) => ({ ...legacyFlagTableOf(EVAL_CONFIG), ...graphFlags(modules) }) as const;

