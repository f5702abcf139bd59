import type { Command } from "../shared/command.ts";
import { UsageError } from "../../core/errors.ts";
import { parseFlags } from "../shared/flags.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { flagOf, parseOption } from "../../core/options.ts";
import { allGraphOptionDefs } from "../../runner/run/run-options.ts";
import { loadRunModules } from "../../runner/run/user-modules.ts";
import { modulesOfArgv } from "../shared/module-flags.ts";
import { BUILT_IN_RECIPES } from "../../runner/experiment/built-in-recipes.ts";
import { EXPERIMENT_CONFIG, experimentFrom } from "../../runner/experiment/run-experiment.ts";
import { FORWARD_CONFIG, type Forwarded, STEP_CONFIG } from "../../runner/experiment/forwarded-options.ts";

const lines = (keys: (keyof typeof EXPERIMENT_CONFIG)[]) => usageOf(EXPERIMENT_CONFIG, keys, 16);

export const EXPERIMENT_USAGE = `Usage: sqlmend experiment RECIPE --bench DIR|minibench --out DIR [--limit N] [--sample N [--sample-seed S]] [--ids ...]
                         [--repeats N [--hold RUN,...]] [--set NAME=VALUE]
                         [--dry-run [--pilot N] [--price-in USD --price-out USD]] [--resume] [eval flags...]
       sqlmend experiment --list
       sqlmend experiment RECIPE --print     (the recipe as YAML: a start for your own)

Runs a recipe of named runs, each in OUT/<run>/ with eval's usual outputs (results.jsonl, predictions, report.md,
report.html, run.json), then writes OUT/table.md, OUT/table.json and OUT/report.html. A run that others take their
initial SQL from runs once, first. RECIPE is a built-in recipe's name or a YAML or JSON file:

  name: mine
  runs:
    initial: {graph: baseline}
    guideline: {kind: magic-guideline}
    magic.errors:
      graph: magic
      initial: initial
      correct: errors
      options: {guideline: "{run:guideline}/guideline.md"}
    repair.file: {graph: repair, initial: preds/predict_dev.json, options: {max-fix-rounds: 2}}
  table: {rows: [magic.errors, repair.file], columns: [ex, difficulty:simple, tokens, cost]}

  run fields: kind eval (default) | magic-guideline (sqlmend magic guideline, on the train split); graph (a
  built-in's name, or a graph module file of your own, run with --graph); options
  (flags by name, as on the command line); initial (a run of the recipe or a predictions file); correct
  all|errors|incorrect; split dev|train. "{run:NAME}" in an option is NAME's output folder.

  run fields also: kind memo-build (memo build, train split, OUT/<run>/memory.sqlite) | memo-candidates (with
  "from": a memo-sql run; OUT/<run>/candidates.json); paper {source, model, row, figures} (printed beside ours);
  needs (a method sqlmend lacks: never run, printed with the reason). "{set:NAME}" is the value of --set NAME=VALUE.
  table (optional, printed first): rows (run names), columns: ex, initial-ex, wrong-to-right, right-to-wrong,
  tokens, calls, cost, failed, difficulty:NAME, paper:FIGURE.

Built-in recipes (sqlmend experiment --list says what each reproduces): ${Object.keys(BUILT_IN_RECIPES).join(", ")}

${lines(["list", "print", "set", "limit"])}
  --sample N [--sample-seed S]  a seeded sample of N questions of every run's split, each database its share
  --ids A,...   dev questions: the runs on the dev split take them, a run on train runs without them (said)
${lines(["repeats", "hold", "dryRun", "pilot", "priceIn", "priceOut", "tsDir", "resume"])}
  Every other flag (--model, --config, --concurrency, --cache, --checkpoints, ...) goes to every run.`;

/** `sqlmend experiment`: its own flags parsed once into experiment's typed config, the others forwarded to every run, then the run API's body (`runner/experiment/run-experiment.ts`). */
export const experimentCommand: Command = {
  name: "experiment",
  usage: EXPERIMENT_USAGE,
  async run(argv, io) {
    // A --node or --graph module's own options are flags forwarded to the runs: loaded before the flags are parsed.
    const modules = await loadRunModules(modulesOfArgv(argv), io.cwd);
    const graphDefs = allGraphOptionDefs(modules);
    const graphTable = Object.fromEntries(Object.entries(graphDefs).map(([key, def]) => [flagOf(key), { type: def.type === "boolean" ? "boolean" : "string" } as const]));
    const { values, positionals } = parseFlags(argv, { ...graphTable, ...flagTableOf(FORWARD_CONFIG), ...flagTableOf(STEP_CONFIG), ...flagTableOf(EXPERIMENT_CONFIG) });
    if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
    // The options every run gets, parsed once: eval's, the steps', and the graphs' own by their declarations.
    const graphOptions: Record<string, unknown> = {};
    for (const [key, def] of Object.entries(graphDefs)) {
      const value = parseOption(key, def, values[flagOf(key)]);
      if (value !== undefined) graphOptions[key] = value;
    }
    const forwarded: Forwarded = { config: configFromFlags(FORWARD_CONFIG, values), steps: configFromFlags(STEP_CONFIG, values), graphOptions };
    return (await experimentFrom({ config: configFromFlags(EXPERIMENT_CONFIG, values), recipe: positionals[0], forwarded }, io)).exitCode;
  },
};
