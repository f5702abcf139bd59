import fs from "node:fs";
import path from "node:path";
import { firstLineOf, UsageError, UserError } from "../../core/errors.ts";
import type { CliIO } from "../../core/io.ts";
import { flagOf } from "../../core/options.ts";
import { flagWordingOf } from "../../core/config.ts";
import { optionDefsOf } from "../../graphs/manifests/manifest.ts";
import { findManifest, graphManifests } from "../../graphs/registry.ts";
import type { GraphInfo } from "../../graphs/spec.ts";
import { configOfFlagValues, type FlagValues } from "../run/api-options.ts";
import { RUN_CONFIG, RUN_DIR_CONFIG } from "../run/run-config.ts";
import { allGraphOptionDefs, graphOptionsOf, graphsOfRun, runGraph, runOptionDefs } from "../run/run-options.ts";
import { isGraphModule, loadRunModules } from "../run/user-modules.ts";
import type { EvalConfig } from "../eval/eval-config.ts";
import type { EvalInput } from "../eval/run-eval.ts";
import type { GuidelineConfig } from "../methods/magic/guideline-config.ts";
import type { MemoryBuildConfig } from "../methods/memo/memory-build-config.ts";
import type { CandidatesConfig } from "../methods/memo/candidates-config.ts";
import type { ForwardConfig, Forwarded } from "./forwarded-options.ts";
import type { Recipe } from "./recipe.ts";

// What each run of a recipe gets, typed (the options forwarded to every run, the recipe's options, the run's place) and the
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

/**
 * One run of the recipe as its body will get it, typed: an eval run's input (its config, graph, graph options and
 * modules), a guideline run's config and graph options, a memory build's or candidates file's config.
 */
export type Invocation =
  | { kind: "eval"; input: EvalInput }
  | { kind: "magic-guideline"; config: GuidelineConfig; graphOptions: Record<string, unknown> }
  | { kind: "memo-build"; config: MemoryBuildConfig }
  | { kind: "memo-candidates"; config: CandidatesConfig };

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
 * A run's typed input: the options forwarded to every run (typed once, by the launcher or `runExperiment`), then the
 * recipe's own (text by flag name, as a recipe writes them, `{run:…}`/`{set:…}` resolved: parsed here, once, by the
 * command's declarations), then the run's place. An option the run's command does not take is refused, naming the
 * run. The one place both the checks before the first run and the runs themselves get their input from.
 */
export async function invocationOf(ctx: RunContext, run: string, at: RunsAt): Promise<Invocation> {
  const { io, recipe, benchDir, splitOf, sets } = ctx;
  const ex = await import("./recipe.ts");
  const spec = recipe.runs[run]!;
  const split = splitOf(run);
  const outOf = at.outOf ?? ((name: string) => path.join(at.dir, name));
  // --ids name questions of the dev split: a run on another split runs without them (said once, by experimentFrom).
  const { ids: _dev, ...forOtherSplit } = { ...ctx.forwarded.config, ...at.extra };
  const forwardConfig: ForwardConfig = split === IDS_SPLIT ? { ...ctx.forwarded.config, ...at.extra } : forOtherSplit;
  const resolve = (v: string) => ex.resolveRefs(v, outOf, sets);
  const place: PlaceConfig = { bench: benchDir, out: outOf(run), split: split as EvalConfig["split"], ...(at.limit ? { limit: at.limit } : {}) };
  if (spec.initial) {
    place.initial = recipe.runs[spec.initial] ? initialFileOf(ctx, spec.initial, outOf) : path.resolve(io.cwd, resolve(spec.initial));
    place.correct = spec.correct ?? "all";
  }
  // --resume continues each run; a run not started yet has no run.json, and eval then starts it.
  if (at.resume && fs.existsSync(outOf(run))) place.resume = true;
  const { graphOptions: forwardedGraph, steps } = ctx.forwarded;
  if (spec.kind === "magic-guideline") {
    const { GUIDELINE_CONFIG, guidelineGraphOptionsOfValues, guidelineGraphs } = await import("../methods/magic/guideline-config.ts");
    const own = recipeValuesOf(run, spec.options, resolve, { ...GUIDELINE_CONFIG, ...flagDefsOf(allGraphOptionDefs()) });
    // A step's option a graph declares (`samples`) is checked with the graphs' options below (it is among them too).
    forwardedTo(run, steps, { ...GUIDELINE_CONFIG, ...allGraphOptionDefs() });
    const ownSteps = Object.fromEntries(Object.entries(steps).filter(([key]) => key in GUIDELINE_CONFIG));
    const config = { ...forwardedTo(run, { ...forwardConfig, ...ownSteps }, GUIDELINE_CONFIG), ...configOfFlagValues(GUIDELINE_CONFIG, own), ...place } as GuidelineConfig;
    const graphOptions = { ...graphOptionsTo(run, forwardedGraph, guidelineGraphs(config.initial)), ...guidelineGraphOptionsOfValues({ ...own, ...(config.initial !== undefined ? { initial: config.initial } : {}) }) };
    return { kind: spec.kind, config, graphOptions };
  }
  if (spec.kind === "memo-build") {
    // memo build writes a file: OUT/<run>/memory.sqlite; it keeps no checkpoints (--checkpoints is eval's).
    const { MEMORY_BUILD_CONFIG } = await import("../methods/memo/memory-build-config.ts");
    const memory = path.join(outOf(run), "memory.sqlite");
    const { checkpoints: _evalOnly, ...forMemo } = forwardConfig;
    // `samples` and `sampleTemperature` are a graph's options too: forwarded, they are the build's own here.
    graphOptionsTo(run, Object.fromEntries(Object.entries(forwardedGraph).filter(([key]) => !(key in MEMORY_BUILD_CONFIG))), []);
    const own = configOfFlagValues(MEMORY_BUILD_CONFIG, recipeValuesOf(run, spec.options, resolve, MEMORY_BUILD_CONFIG));
    const { resume: _run, ...memoPlace } = place;
    const config = { ...forwardedTo(run, { ...forMemo, ...steps }, MEMORY_BUILD_CONFIG), ...own, ...memoPlace, out: memory, ...(at.resume && fs.existsSync(memory) ? { resume: true } : {}) } as MemoryBuildConfig;
    return { kind: spec.kind, config };
  }
  if (spec.kind === "memo-candidates") {
    const { checkpoints } = ctx.forwarded.config;
    return { kind: spec.kind, config: { run: outOf(spec.from!), out: path.join(outOf(run), "candidates.json"), ...(checkpoints !== undefined ? { checkpoints } : {}) } };
  }
  // An eval run: a graph module of the user's own runs as `eval --graph FILE`; its --node and --graph modules load as
  // eval loads them; the graph's own options are the graphs' forwarded ones its graphs declare, then the recipe's.
  const { EVAL_CONFIG } = await import("../eval/eval-config.ts");
  const module = isGraphModule(spec.graph!);
  const modules = await loadRunModules({ ...(forwardConfig.node ? { node: forwardConfig.node } : {}), ...(module ? { graph: spec.graph! } : {}) }, io.cwd);
  const own = recipeValuesOf(run, spec.options, resolve, { ...EVAL_CONFIG, ...flagDefsOf(allGraphOptionDefs(modules)) });
  const config: EvalConfig = { ...forwardConfig, ...configOfFlagValues(EVAL_CONFIG, own), ...place, ...(module ? { graph: spec.graph! } : {}) };
  const graph = module ? undefined : spec.graph!;
  const graphSpec = runGraph(graph, modules);
  // A step's option a graph of the run also declares (`samples`) is the graph's here (in the graphs' forwarded options too).
  forwardedTo(run, steps, runOptionDefs(graphSpec, config.initial));
  const fromRecipe = graphOptionsOf(graphSpec, { ...own, ...(config.initial !== undefined ? { initial: config.initial } : {}) });
  const graphOptions = { ...graphOptionsTo(run, forwardedGraph, graphsOfRun(graphSpec, config.initial)), ...fromRecipe };
  return { kind: "eval", input: { config, graph, graphOptions, modules } };
}

/** A run's place in the experiment: what the experiment sets for it (its bench, folder, split, initial SQL). */
type PlaceConfig = Pick<EvalConfig, "bench" | "out" | "split" | "limit" | "initial" | "correct" | "resume">;

/** The flag declarations of a graph's own options, as a config's keys (for the names a recipe may give). */
const flagDefsOf = (defs: Record<string, unknown>): Record<string, { type: string }> => Object.fromEntries(Object.keys(defs).map((key) => [key, { type: "string" }]));

/** The forwarded options a run's command takes: each set one it does not take is refused, naming the run. */
function forwardedTo<T extends Record<string, unknown>>(run: string, given: T, defs: Record<string, unknown>): T {
  for (const [key, value] of Object.entries(given)) {
    if (value !== undefined && !(key in defs)) throw new UsageError(`run ${run}: --${flagOf(key)} is not a flag of its command`);
  }
  return given;
}

/**
 * The graphs' forwarded options a run's graphs declare (`defs`: theirs, by default); one they do not is refused, naming
 * the graphs that take it (as eval's parse refuses it) or, for a step that runs no graph of its own, the run.
 */
function graphOptionsTo(run: string, given: Record<string, unknown>, graphs: GraphInfo[], defs: Record<string, unknown> = Object.assign({}, ...graphs.map((graph) => optionDefsOf(graph)))): Record<string, unknown> {
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined || key in defs) continue;
    const owners = graphManifests.filter((graph) => key in optionDefsOf(graph)).map((graph) => graph.name);
    if (!graphs.length || !owners.length) throw new UsageError(`run ${run}: --${flagOf(key)} is not a flag of its command`);
    throw new UsageError(`--${flagOf(key)} is an option of ${owners.join(", ")}, not of ${graphs.map((graph) => graph.name).join(" or ")}`);
  }
  return given;
}

/**
 * A recipe's options for a run, as flag values by flag name (true a switch, false left out, a list one comma-separated
 * value unless the option repeats, `{run:…}`/`{set:…}` resolved): the text the command's declarations parse. A name
 * the command does not take is refused as its parse would refuse it, naming the run.
 */
function recipeValuesOf(run: string, options: Record<string, string | number | boolean | string[]>, resolve: (value: string) => string, defs: Record<string, { type: string }>): FlagValues {
  const byFlag = new Map(Object.entries(defs).map(([key, def]) => [flagOf(key), def] as const));
  const values: FlagValues = {};
  for (const [flag, value] of Object.entries(options)) {
    const def = byFlag.get(flag);
    if (!def) throw new UsageError(`run ${run}: --${flag} is not a flag of its command`);
    if (value === false) continue;
    const repeats = def.type === "strings" || def.type === "record" || def.type === "list";
    if (value === true) values[flag] = true;
    else if (Array.isArray(value)) values[flag] = repeats ? value.map((v) => resolve(String(v))) : value.map((v) => resolve(String(v))).join(",");
    else values[flag] = repeats ? [resolve(String(value))] : resolve(String(value));
  }
  return values;
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
  const [{ checkEvalConfig }, { checkGuideline }, { checkMemoryBuild }, { readPredictionFile }] = await Promise.all([
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
        const { spec: graph } = checkEvalConfig(call.input);
        const { graphOptions, config } = call.input;
        for (const [key, def] of Object.entries(optionDefsOf(graph))) {
          const value = graphOptions[key];
          if (def.type === "string" && def.file && typeof value === "string" && !produced.has(flagOf(key))) files.push([`--${flagOf(key)}`, value]);
        }
        if (graph.kind === "corrector" && config.initial !== undefined && !findManifest(config.initial) && !(spec.initial && recipe.runs[spec.initial])) files.push(["--initial", config.initial]);
      } else if (call.kind === "magic-guideline") {
        checkGuideline(call.config);
        if (call.config.initial !== undefined && !findManifest(call.config.initial)) files.push(["--initial", call.config.initial]);
      } else if (call.kind === "memo-build") checkMemoryBuild(call.config);
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

/** Flags of the non-eval steps (beside the shared ones). */
const STEP_FLAGS: Record<string, string[]> = { "magic-guideline": ["batch", "max-iter", "no-manager", "initial", "keep-distinct"], "memo-build": ["elicit", "samples", "sample-temperature"], "memo-candidates": [] };

/** Every option of every run is a flag its graph or step takes (so a recipe typo fails at once, --dry-run included). */
export async function checkOptions(recipe: Recipe, source: string, lineOf: (at: PropertyKey[], key?: string) => string, cwd: string) {
  const shared = new Set([...Object.keys(RUN_CONFIG), ...Object.keys(RUN_DIR_CONFIG)].map(flagOf));
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
