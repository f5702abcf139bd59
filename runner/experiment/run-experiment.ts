import fs from "node:fs";
import path from "node:path";
import { UsageError, UserError } from "../../core/errors.ts";
import { EXIT, isStopStatus } from "../../core/exit.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import { checkConfig, commandLineOfConfig, type ConfigInput, type ConfigOf, defineConfig, inApiWords, opt, optionUsageError } from "../../core/config.ts";
import type { GraphInfo } from "../../graphs/spec.ts";
import { asApiErrors } from "../run/api-options.ts";
import { FORWARD_CONFIG, type Forwarded, forwardedOfApi, STEP_CONFIG } from "./forwarded-options.ts";
import { isGraphModule, loadRunModules, modulesConfigOf } from "../run/user-modules.ts";
import { BUILT_IN_RECIPES } from "./built-in-recipes.ts";
import { executeRuns } from "./execute-runs.ts";
import { writeExperimentOutputs } from "./experiment-outputs.ts";
import { withInitialFile } from "./initial-file.ts";
import { listRecipes } from "./recipe-list.ts";
import { checkOptions, checkRuns, IDS_SPLIT, type RunContext, type RunsAt } from "./recipe-runs.ts";
import type { RunRow } from "./table-rows.ts";

/** `experiment`'s own options, declared once (help texts included); every other option goes to every run (./forwarded-options.ts). */
export const EXPERIMENT_CONFIG = defineConfig({
  bench: { type: "string", metavar: "DIR|minibench", help: "the benchmark every run reads" },
  out: { type: "string", metavar: "DIR", help: "the experiment's folder: OUT/<run>/, table.md, table.json, report.html" },
  list: { type: "boolean", help: "the built-in recipes and what each reproduces (no other flag needed)" },
  print: { type: "boolean", help: "print the recipe as YAML and stop" },
  set: {
    type: "record",
    metavar: "NAME=VALUE",
    help: `a value the recipe names as {set:NAME} (a human-written guideline, another system's predictions);
until given, the runs that need it are listed and printed with what they need; --set initial=FILE
(a recipe whose correctors read a run 'initial'): FILE, scored as given, is that run, and they read it`,
  },
  limit: { type: "int", min: 1, help: "the first N questions of every run" },
  repeats: {
    type: "int",
    min: 1,
    help: `run the whole recipe N times, repeat k in OUT/repeat-k/ with --seed k (sent to the model and part of
the response cache's key, so each repeat is new samples): mean ± sd per cell, and the questions that
flip between repeats (--seed S with --repeats: seeds S..S+N-1)`,
  },
  hold: {
    type: "list",
    metavar: "RUN,...",
    help: `with --repeats: these runs are made once (repeat 1, its seed) and every repeat reads them, e.g.
--hold initial: the correctors' spread over one fixed initial SQL, not over new initial SQL each time`,
  },
  dryRun: {
    type: "boolean",
    help: `check every run's flags and files as its command will, then list the runs in order, their questions,
and the calls and tokens still expected: measured (the run's finished questions, a pilot's, or another
run of the same graph), else the graph's own call count`,
  },
  pilot: {
    type: "int",
    min: 1,
    help: `with --dry-run: first run every run on a sample of N questions across the databases in OUT/pilot/
(this spends tokens), then estimate`,
  },
  priceIn: { type: "number", metavar: "USD", min: 0, help: "per million input tokens (with --price-out): the dry run's price, and a cost column" },
  priceOut: { type: "number", metavar: "USD", min: 0, help: "per million output tokens (with --price-in)" },
  tsDir: {
    type: "string",
    metavar: "DIR",
    help: `Spider's test-suite databases, for the rows that report test-suite accuracy (metrics: [ts]);
without it their TS cell says "not computed: needs --ts-dir DIR"`,
  },
  resume: { type: "boolean", help: "continue a killed or finished experiment in --out (each run resumes; finished ones redo nothing)" },
});

/** experiment's own typed config, as the launcher parses it and `runExperiment` checks it. */
export type ExperimentConfig = ConfigOf<typeof EXPERIMENT_CONFIG>;

/** What an experiment did: its exit status, and where its table is. */
export interface ExperimentResult {
  exitCode: number;
  outDir?: string;
  table?: string;
  /**
   * The table's rows as table.json holds them: each run's EX with its interval, per difficulty and database, its
   * planned comparisons, tokens and cost (absent for `--dry-run`, `--list`, `--print`).
   */
  rows?: RunRow[];
}

/**
 * What a script passes to `runExperiment`: the recipe (a built-in's name or a YAML/JSON file), experiment's own
 * options (closed: a misspelt one does not compile) and the options forwarded to every run.
 */
export type ExperimentOptions = ConfigInput<typeof EXPERIMENT_CONFIG> &
  Omit<ConfigInput<typeof FORWARD_CONFIG>, "graph" | "initial" | "correct"> & {
    recipe: string;
    /** The graphs' own options (camelCase), forwarded to the runs whose graphs declare them. */
    options?: Record<string, unknown>;
  } & ConfigInput<typeof STEP_CONFIG>;

/**
 * Runs a recipe as `sqlmend experiment` does — each run through the run API, never through argv — and writes
 * OUT/table.md, table.json and report.html; returns the rows as table.json holds them.
 */
export async function runExperiment(options: ExperimentOptions, io: CliIO = defaultIO()): Promise<ExperimentResult> {
  return inApiWords("runExperiment", () => asApiErrors("runExperiment", async () => {
    const { recipe, ...rest } = options as ExperimentOptions & Record<string, unknown>;
    const own: Record<string, unknown> = {};
    const forward: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(rest)) (key in EXPERIMENT_CONFIG ? own : forward)[key] = value;
    const config = checkConfig("runExperiment", EXPERIMENT_CONFIG, own);
    const modules = await loadRunModules(modulesConfigOf(forward), io.cwd);
    return experimentFrom({ config, recipe, forwarded: forwardedOfApi(forward, modules) }, io);
  }));
}

/**
 * experiment's body: its own typed config, the recipe, and the options forwarded to every run, typed (the launcher's parse, or
 * `runExperiment`'s): --list and --print, the checks of every run before any spends, the dry run, the repeats, then
 * the outputs (experiment-outputs.ts).
 */
export async function experimentFrom(input: { config: ExperimentConfig; recipe: string | undefined; forwarded: Forwarded }, io: CliIO): Promise<ExperimentResult> {
  const { config } = input;
  const forwarded: Forwarded = { config: { ...input.forwarded.config }, steps: { ...input.forwarded.steps }, graphOptions: { ...input.forwarded.graphOptions } };
  const sets: Record<string, string> = { ...config.set };
  const ex = await import("./recipe.ts");
  if (config.list) {
    io.stdout(`${listRecipes(BUILT_IN_RECIPES)}\n`);
    return { exitCode: EXIT.ok };
  }
  if (input.recipe === undefined) throw new UsageError("name a recipe (built-in: correctors) or a recipe YAML or JSON file");
  const name = input.recipe;
  const file = path.resolve(io.cwd, name);
  // A built-in recipe goes through the same checks as a file (zod, runs named, no cycle).
  const builtIn = BUILT_IN_RECIPES[name];
  const read = builtIn ? { recipe: ex.validateRecipe(builtIn, name), lineOf: () => "" } : fs.existsSync(file) ? ex.readRecipe(ex.readRecipeFile(file, name), name) : undefined;
  if (!read) throw new UserError(`no recipe '${name}': name a built-in recipe (${Object.keys(BUILT_IN_RECIPES).join(", ")}) or a recipe YAML or JSON file`);
  if (config.print) {
    const { stringify } = await import("yaml");
    io.stdout(stringify(read.recipe, { lineWidth: 0 }));
    return { exitCode: EXIT.ok };
  }
  if (config.bench === undefined) throw optionUsageError`${opt("bench")} DIR is required`;
  if (config.out === undefined) throw optionUsageError`${opt("out")} DIR is required`;
  const { limit, pilot } = config;
  const repeats = config.repeats ?? 1;
  if (config.hold !== undefined && repeats < 2) throw optionUsageError`${opt("hold")} RUN,... goes with ${opt("repeats")} N (N >= 2): the runs every repeat shares`;
  if (pilot !== undefined && !config.dryRun) throw optionUsageError`${opt("pilot")} N goes with ${opt("dryRun")} (a short real run of every run, then the estimate)`;
  const { priceIn, priceOut } = config;
  if ((priceIn === undefined) !== (priceOut === undefined)) throw optionUsageError`${opt("priceIn")} and ${opt("priceOut")} go together (USD per million input and output tokens)`;
  const prices = priceIn !== undefined ? { input: priceIn, output: priceOut! } : undefined;
  const tsDir = config.tsDir !== undefined ? path.resolve(io.cwd, config.tsDir) : undefined;
  if (tsDir !== undefined && !fs.existsSync(tsDir)) throw optionUsageError`${opt("tsDir")} ${config.tsDir}: no such directory`;
  // Seeds: repeat k of N gets seed base+k-1 (base: a forwarded --seed, else 1); one run keeps a forwarded --seed as is.
  let seeds: number[] = [];
  if (repeats > 1) {
    const base = forwarded.config.seed ?? 1;
    delete forwarded.config.seed;
    seeds = Array.from({ length: repeats }, (_, k) => base + k);
  }

  const { recipe, initialFile } = withInitialFile(read.recipe, sets, io.cwd, ex.setsOf);
  const order = ex.orderRuns(recipe, name);
  await checkOptions(recipe, name, read.lineOf, io.cwd);
  const held = config.hold !== undefined ? ex.heldRuns(recipe, config.hold) : new Set<string>();
  for (const s of Object.keys(sets)) if (!(s === "initial" && initialFile) && !Object.values(recipe.runs).some((r) => ex.setsOf(r).includes(s))) throw optionUsageError`${opt("set")} ${s}: recipe ${recipe.name} has no {set:${s}}`;
  const { sampleOf } = await import("../run/question-sample.ts");
  const sample = sampleOf(forwarded.config);
  const blockedAtStart = new Map(order.map((run) => [run, ex.blockedReason(recipe, run, sets)] as const).filter((e): e is [string, string] => e[1] !== undefined));
  const outDir = path.resolve(io.cwd, config.out);
  const layout = ex.repeatLayout(outDir, repeats, held);
  const { dirOf: repeatDir, runDir: outOfRepeat } = layout;
  const splitOf = (run: string) => recipe.runs[run]!.split ?? (recipe.runs[run]!.kind === "magic-guideline" || recipe.runs[run]!.kind === "memo-build" ? "train" : "dev");

  const { resolveBenchmarkDir } = await import("../../tools/benchmarks/resolve.ts");
  const { loadBenchmark } = await import("../../tools/benchmarks/benchmark.ts");
  const benchDir = await resolveBenchmarkDir(config.bench, io.env, io.cwd);
  const { parseResults } = await import("../run/results-record.ts");
  // Read once per folder: the table, the page and the dry run's estimates all read the same runs (after they ran).
  const recordsByDir = new Map<string, import("../run/results-record.ts").EvalRecord[]>();
  const recordsIn = (dir: string) => {
    const results = path.join(dir, "results.jsonl");
    if (!recordsByDir.has(dir)) recordsByDir.set(dir, fs.existsSync(results) ? [...parseResults(fs.readFileSync(results, "utf8")).records.values()] : []);
    return recordsByDir.get(dir)!;
  };

  const ctx: RunContext = { io, recipe, order, benchDir, splitOf, forwarded, sets, resume: config.resume === true, ...(initialFile ? { initialFile } : {}) };
  // Every run's flags, files and initial SQL are checked before the first run spends anything (the dry run's too).
  const firstRepeat: RunsAt = { dir: repeatDir(1), outOf: (run) => outOfRepeat(1, run), limit, extra: repeats > 1 ? { seed: seeds[0]! } : {}, blocked: new Map(blockedAtStart), resume: ctx.resume };
  await checkRuns(ctx, firstRepeat);
  // --ids name dev questions; a run on another split (a guideline or memory on train) runs on its own selection.
  const otherSplits = forwarded.config.ids !== undefined ? order.filter((run) => splitOf(run) !== IDS_SPLIT && !blockedAtStart.has(run) && recipe.runs[run]!.kind !== "memo-candidates") : [];
  const selected = [limit ? `--limit ${limit}` : "", sample ? `--sample ${sample.n}` : ""].filter(Boolean).join(" ") || "all";
  const one = otherSplits.length === 1;
  const idsLine = otherSplits.length ? `--ids are ${IDS_SPLIT} questions: ${otherSplits.map((run) => `${run} (${splitOf(run)})`).join(", ")} run${one ? "s" : ""} without them, on ${selected} of ${one ? "its" : "their"} split` : undefined;
  if (config.dryRun) {
    if (pilot !== undefined) {
      const pilotDir = path.join(outDir, "pilot");
      // The pilot is a sample across the databases (the first N questions of Spider dev are one database's).
      const size = Math.min(pilot, sample?.n ?? pilot);
      const sampleSeed = sample?.seed ?? 1;
      io.stderr(`sqlmend experiment ${recipe.name}: pilot of every run on a sample of ${size} questions stratified by database (--sample-seed ${sampleSeed}${limit ? `, of the first ${limit}` : ""}) in ${pilotDir} (spends tokens; --resume there continues it)\n`);
      const done = await executeRuns(ctx, { dir: pilotDir, limit, extra: { sample: size, sampleSeed }, blocked: new Map(blockedAtStart), resume: true });
      if (isStopStatus(done.code)) return { exitCode: done.code };
    }
    const { selectQuestions } = await import("../run/question-sample.ts");
    const counts = new Map<string, number>();
    const notes: string[] = [];
    if (initialFile) notes.push(`initial: --set initial=${sets.initial}: not run; its correctors read that file, and its row scores it as given (as-given)`);
    if (sample) notes.push(`--sample ${sample.n} --sample-seed ${sample.seed}: ${sample.method}`);
    if (idsLine) notes.push(idsLine);
    for (const split of new Set(order.map(splitOf))) {
      const bench = await loadBenchmark(benchDir, { split });
      counts.set(split, selectQuestions(bench, split === IDS_SPLIT ? forwarded.config.ids : undefined, limit, sample).questions.length);
      // Questions the benchmark lists but cannot run (a database file missing) are said, as eval says them.
      if (bench.skipped.length) notes.push(`${split}: ${bench.skipped.length} questions skipped (first: ${bench.skipped[0]!.id}, ${bench.skipped[0]!.reason}); every run leaves them out`);
    }
    const plan = await import("./dry-run-plan.ts");
    // Graph modules named by runs, loaded as the runs load them, so their declared calls are estimated too.
    const graphModules = new Map<string, GraphInfo>();
    for (const run of order.map((r) => recipe.runs[r]!)) {
      if (run.graph && isGraphModule(run.graph) && !graphModules.has(run.graph)) graphModules.set(run.graph, (await loadRunModules({ graph: run.graph }, io.cwd)).graph!.spec);
    }
    io.stdout(`${plan.renderPlan({ recipe, order, benchDir, layout, seeds, prices, counts, splitOf, blocked: blockedAtStart, outDir, recordsIn, notes, knownCalls: (run) => plan.knownCallsOf(recipe.runs[run]!, forwarded, graphModules) })}${(await import("./paper-metrics.ts")).renderPaperPlan(recipe, order, tsDir)}\n`);
    return { exitCode: EXIT.ok };
  }

  if (idsLine) io.stderr(`sqlmend experiment ${recipe.name}: ${idsLine}\n`);
  const blocked = new Map(blockedAtStart);
  for (let k = 1; k <= repeats; k++) {
    if (repeats > 1) io.stderr(`\nsqlmend experiment ${recipe.name}: repeat ${k} of ${repeats} (--seed ${seeds[k - 1]}) in ${repeatDir(k)}\n`);
    // Held runs ran in repeat 1: later repeats skip them, and what blocked them there blocks them here.
    const blockedHere = new Map([...blockedAtStart, ...[...blocked].filter(([run]) => held.has(run))]);
    const skip = k > 1 ? held : new Set<string>();
    const done = await executeRuns(ctx, { dir: repeatDir(k), outOf: (run) => outOfRepeat(k, run), skip, limit, extra: repeats > 1 ? { seed: seeds[k - 1]! } : {}, blocked: blockedHere, resume: ctx.resume });
    if (isStopStatus(done.code)) return { exitCode: done.code };
    // A run blocked in any repeat (a file its dependency did not write there) is a row not run, with the repeat.
    for (const [run, reason] of blockedHere) if (!blocked.has(run)) blocked.set(run, repeats > 1 && !held.has(run) ? `${reason} (repeat ${k})` : reason);
  }

  return writeExperimentOutputs({
    io,
    recipe,
    order,
    blocked,
    held,
    layout,
    repeats,
    seeds,
    prices,
    outDir,
    benchDir,
    tsDir,
    limit,
    sample,
    ids: forwarded.config.ids,
    sets,
    initialFile,
    splitOf,
    recordsIn,
    command: commandOf(name, config, input.forwarded),
  });
}

/** The command line report.html shows for an experiment (display only, never parsed): its options, then the forwarded ones. */
function commandOf(recipe: string, config: ExperimentConfig, forwarded: Forwarded): string {
  return commandLineOfConfig("experiment", [recipe], { ...EXPERIMENT_CONFIG, ...FORWARD_CONFIG, ...STEP_CONFIG }, { ...config, ...forwarded.config, ...forwarded.steps }, forwarded.graphOptions);
}
