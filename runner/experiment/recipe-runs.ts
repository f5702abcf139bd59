import fs from "node:fs";
import path from "node:path";
import { firstLineOf, UsageError, UserError } from "../../core/errors.ts";
import type { CliIO } from "../../core/io.ts";
import { flagOf } from "../../core/options.ts";
import { flagWordingOf } from "../../core/config.ts";
import { optionDefsOf } from "../../graphs/manifests/manifest.ts";
import { findManifest } from "../../graphs/registry.ts";
import type { FlagTable, FlagValues } from "../run/api-options.ts";
import { RUN_DIR_FLAGS } from "../run/output-dir-flags.ts";
import { isGraphModule, loadRunModules, type RunModules, runFlags } from "../run/run-options.ts";
import type { EvalInput } from "../eval/run-eval.ts";
import { FORWARD_CONFIG, type ForwardConfig, type Forwarded } from "./forwarded-options.ts";
import type { Recipe, RecipeRun } from "./recipe.ts";

// What each run of a recipe gets (the flags forwarded to every run, the recipe's options, the run's place) and the
// checks every run passes before the first one spends anything.

export interface RunContext {
  io: CliIO;
  recipe: Recipe;
  order: string[];
  benchDir: string;
  splitOf: (run: string) => string;
  forwarded: Forwarded;
  sets: Record<string, string>;
  resume: boolean;
  /** `--set initial=FILE`: the initial SQL the correctors of run `initial` read (that run scores it as given). */
  initialFile?: string;
}

/** One run of the recipe as its command will get it: the command, its flag values as parsed, and its --node/--graph modules. */
export interface Invocation {
  kind: RecipeRun["kind"];
  values: FlagValues;
  positionals: string[];
  modules?: RunModules;
  /** An eval run's typed input: what `evaluate` runs. */
  input?: EvalInput;
}

/** Where a batch of runs goes: the folder, the selection every run gets, and the runs left out. */
export interface RunsAt {
  dir: string;
  outOf?: (run: string) => string;
  skip?: Set<string>;
  limit: number | undefined;
  /** What this batch of runs adds to the options forwarded to every run: a repeat's seed, a pilot's sample. */
  extra: Pick<ForwardConfig, "seed" | "sample" | "sampleSeed">;
  blocked: Map<string, string>;
  resume: boolean;
}

/**
 * A run's flag values as its command will parse them — the flags forwarded to every run, the recipe's options
 * (`{run:…}`/`{set:…}` resolved), the run's place — through the command's own flag table, --node and --graph modules'
 * options included. The one place both the checks before the first run and the runs themselves get them from.
 */
export async function invocationOf(ctx: RunContext, run: string, at: RunsAt): Promise<Invocation> {
  const { io, recipe, benchDir, splitOf, sets } = ctx;
  const ex = await import("./recipe.ts");
  const spec = recipe.runs[run]!;
  const split = splitOf(run);
  const outOf = at.outOf ?? ((name: string) => path.join(at.dir, name));
  // --ids name questions of the dev split: a run on another split runs without them (said once, by experimentFrom).
  const extraFlags: FlagValues = Object.fromEntries(Object.entries(at.extra).map(([key, value]) => [flagOf(key), String(value)]));
  const { ids: _ids, ...otherSplit } = { ...ctx.forwarded.flags, ...extraFlags };
  const forwarded: FlagValues = split === IDS_SPLIT ? { ...ctx.forwarded.flags, ...extraFlags } : otherSplit;
  const resolve = (v: string) => ex.resolveRefs(v, outOf, sets);
  const place: FlagValues = { bench: benchDir, out: outOf(run), split, ...(at.limit ? { limit: String(at.limit) } : {}) };
  if (spec.initial) {
    place.initial = recipe.runs[spec.initial] ? initialFileOf(ctx, spec.initial, outOf) : path.resolve(io.cwd, resolve(spec.initial));
    place.correct = spec.correct ?? "all";
  }
  // --resume continues each run; a run not started yet has no run.json, and eval then starts it.
  if (at.resume && fs.existsSync(outOf(run))) place.resume = true;
  if (spec.kind === "magic-guideline") {
    const { MAGIC_GUIDELINE_FLAGS } = await import("../methods/magic/guideline-flags.ts");
    return { kind: spec.kind, values: valuesFor(run, MAGIC_GUIDELINE_FLAGS, forwarded, spec.options, resolve, place), positionals: [] };
  }
  if (spec.kind === "memo-build") {
    // memo build writes a file: OUT/<run>/memory.sqlite; it keeps no checkpoints (--checkpoints is eval's).
    const { memoBuildFlags } = await import("../methods/memo/memory-build-flags.ts");
    const memory = path.join(outOf(run), "memory.sqlite");
    const { checkpoints: _evalOnly, ...forMemo } = forwarded;
    return { kind: spec.kind, values: valuesFor(run, memoBuildFlags, forMemo, spec.options, resolve, { ...place, out: memory, resume: at.resume && fs.existsSync(memory) }), positionals: [] };
  }
  if (spec.kind === "memo-candidates") {
    return { kind: spec.kind, values: { run: outOf(spec.from!), out: path.join(outOf(run), "candidates.json"), ...(forwarded.checkpoints !== undefined ? { checkpoints: forwarded.checkpoints } : {}) }, positionals: [] };
  }
  // An eval run's input, typed: the options forwarded to every run as they were typed once (by the launcher or
  // runExperiment), then the recipe's (text, as a recipe writes them: parsed here) and the run's place; the graph's own
  // options from the graphs' forwarded flags and the recipe's. A graph module of the user's own runs as `eval --graph
  // FILE`; its --node and --graph modules load as eval loads them.
  const { evalFlags, evalInputOfFlagValues } = await import("../eval/eval-flag-values.ts");
  const { ids: _dev, ...forOtherSplit } = { ...ctx.forwarded.config, ...at.extra };
  const config: ForwardConfig = split === IDS_SPLIT ? { ...ctx.forwarded.config, ...at.extra } : forOtherSplit;
  const module = isGraphModule(spec.graph!);
  if (module) place.graph = spec.graph!;
  const modules = await loadRunModules({ ...(config.node ? { node: config.node } : {}), ...(module ? { graph: spec.graph! } : {}) }, io.cwd);
  const runLevel = new Set(Object.keys(FORWARD_CONFIG).map(flagOf));
  const graphsOwn = Object.fromEntries(Object.entries(forwarded).filter(([flag]) => !runLevel.has(flag)));
  const { limit: _text, ...placeFlags } = place;
  const values = valuesFor(run, evalFlags(modules), graphsOwn, spec.options, resolve, placeFlags);
  const positionals = module ? [] : [spec.graph!];
  const fromRecipe = evalInputOfFlagValues({ values, positionals, modules });
  return { kind: spec.kind, values, positionals, modules, input: { ...fromRecipe, config: { ...config, ...fromRecipe.config, ...(at.limit ? { limit: at.limit } : {}) } } };
}

/** The split `--ids` name questions of: the evaluated one. */
export const IDS_SPLIT = "dev";

/** Where a corrector reads the initial SQL of run `initial`: its predictions, or with `--set initial=FILE` that file. */
function initialFileOf(ctx: RunContext, initial: string, outOf: (run: string) => string): string {
  if (initial === "initial" && ctx.initialFile) return ctx.initialFile;
  return path.join(outOf(initial), `predict_${ctx.splitOf(initial)}.json`);
}

/**
 * Everything a run would check before it spends, for every run, before the first runs (the dry run too): its flags
 * through its command's own checks, the files its options name (a guideline, a predictions file, a `--set` file) and
 * its initial SQL — a run of the recipe or a predictions file that reads. Files a run of the recipe writes are not
 * there yet: they are checked when that run has run. Refusals name the run.
 */
export async function checkRuns(ctx: RunContext, at: RunsAt): Promise<void> {
  const { io, recipe, order } = ctx;
  const [{ checkEvalConfig }, { checkGuidelineFlags }, { checkMemoBuildFlags }, { readPredictionFile }] = await Promise.all([
    import("../eval/run-eval.ts"),
    import("../methods/magic/guideline-training.ts"),
    import("../methods/memo/build-memory.ts"),
    import("../../tools/benchmarks/score.ts"),
  ]);
  for (const run of order) {
    if (at.blocked.has(run) || at.skip?.has(run)) continue;
    const spec = recipe.runs[run]!;
    // A recipe names a run's options as flags (`max-fix-rounds`): its refusals say them so, from a script too.
    const named = (error: unknown) => {
      const line = `runs.${run}: ${(flagWordingOf(error) ?? firstLineOf(error)).split("\n")[0]}`;
      return error instanceof UsageError ? new UsageError(line) : new UserError(line);
    };
    try {
      const call = await invocationOf(ctx, run, at);
      // Values made from {run:NAME} are files that run writes: there once it has run.
      const produced = new Set(Object.entries(spec.options).filter(([, v]) => [v].flat().some((x) => /\{run:[^}]+\}/.test(String(x)))).map(([flag]) => flag));
      const files: [string, string][] = [];
      if (call.kind === "eval") {
        const { spec: graph } = checkEvalConfig(call.input!);
        for (const [key, def] of Object.entries(optionDefsOf(graph))) {
          const value = call.values[flagOf(key)];
          if (def.type === "string" && def.file && typeof value === "string" && !produced.has(flagOf(key))) files.push([`--${flagOf(key)}`, value]);
        }
        if (graph.kind === "corrector" && typeof call.values.initial === "string" && !findManifest(call.values.initial) && !(spec.initial && recipe.runs[spec.initial])) files.push(["--initial", call.values.initial]);
      } else if (call.kind === "magic-guideline") {
        checkGuidelineFlags(call);
        if (typeof call.values.initial === "string" && !findManifest(call.values.initial)) files.push(["--initial", call.values.initial]);
      } else if (call.kind === "memo-build") checkMemoBuildFlags(call);
      for (const [flag, value] of files) {
        const file = path.resolve(io.cwd, value);
        if (!fs.existsSync(file)) {
          const given = flag === "--initial" && spec.initial ? `initial '${spec.initial}'` : `${flag} ${value}`;
          throw new UserError(`${given}: ${flag === "--initial" ? "neither a run of the recipe nor a predictions file" : "no such file"}${file !== value ? ` (${file})` : ""}`);
        }
        if (flag === "--initial") await readPredictionFile(file);
      }
    } catch (error) {
      if (error instanceof UserError) throw named(error);
      throw error;
    }
  }
}

/**
 * A run's flag values: the flags forwarded to every run and the recipe's options (`{run:…}`/`{set:…}` resolved; true
 * a flag, false left out, a list one comma-separated value, or the items of a repeatable flag), then the run's place.
 * A value the run's command does not take is refused as its parse would refuse it, naming the run.
 */
function valuesFor(run: string, table: FlagTable, forwarded: FlagValues, options: Record<string, string | number | boolean | string[]>, resolve: (value: string) => string, place: FlagValues): FlagValues {
  const values: FlagValues = {};
  const put = (flag: string, value: FlagValues[string]) => {
    if (value === undefined || value === false) return;
    const known = table[flag];
    if (!known) throw new UsageError(`run ${run}: --${flag} is not a flag of its command`);
    values[flag] = Array.isArray(value) && !known.multiple ? value.join(",") : known.multiple && typeof value === "string" ? [value] : value;
  };
  for (const [flag, value] of Object.entries(forwarded)) put(flag, value);
  for (const [flag, value] of Object.entries(options)) put(flag, value === true || value === false ? value : Array.isArray(value) ? value.map((v) => resolve(String(v))) : resolve(String(value)));
  for (const [flag, value] of Object.entries(place)) put(flag, value);
  return values;
}

/** Flags of the non-eval steps (beside the shared ones). */
const STEP_FLAGS: Record<string, string[]> = { "magic-guideline": ["batch", "max-iter", "no-manager", "initial", "keep-distinct"], "memo-build": ["elicit", "samples", "sample-temperature"], "memo-candidates": [] };

/** Every option of every run is a flag its graph or step takes (so a recipe typo fails at once, --dry-run included). */
export async function checkOptions(recipe: Recipe, source: string, lineOf: (at: PropertyKey[], key?: string) => string, cwd: string) {
  const shared = new Set([...Object.keys(runFlags), ...Object.keys(RUN_DIR_FLAGS)]);
  for (const [name, run] of Object.entries(recipe.runs)) {
    if (run.needs) continue;
    let own: string[];
    if (run.kind === "eval") {
      // A graph of the user's own (`graph: ./my-graph.ts`, run with --graph) is loaded now, so its options are checked too.
      const spec = isGraphModule(run.graph!) ? (await loadRunModules({ graph: run.graph! }, cwd)).graph!.spec : findManifest(run.graph!);
      if (!spec || spec.runBy) throw new UserError(`${source}${lineOf(["runs", name], "graph")}: runs.${name}: no graph '${run.graph}' that eval runs`);
      own = Object.keys(optionDefsOf(spec)).map(flagOf);
    } else own = STEP_FLAGS[run.kind]!;
    for (const flag of Object.keys(run.options)) {
      if (!shared.has(flag) && !own.includes(flag)) throw new UserError(`${source}${lineOf(["runs", name, "options"], flag)}: runs.${name}: --${flag} is not an option of ${run.kind === "eval" ? run.graph : run.kind}`);
    }
  }
}
