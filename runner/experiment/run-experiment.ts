import fs from "node:fs";
import { flagWordingOf } from "../../core/config.ts";
import path from "node:path";
import { firstLineOf, UsageError, UserError } from "../../core/errors.ts";
import { isMockRun, MOCK_LABEL, mockMixRefusal } from "../../tools/models/mock-label.ts";
import { EXIT, isStopStatus } from "../../core/exit.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import { commandLine } from "../../core/secrets.ts";
import type { Recipe, RecipeRun } from "./recipe.ts";
import { BASELINE_INITIAL, BUILT_IN_RECIPES } from "./built-in-recipes.ts";
import { graphFlags, isGraphModule, loadRunModules, modulesConfigOf, type RunModules, runFlags } from "../run/run-options.ts";
import { optionDefsOf } from "../../graphs/manifests/manifest.ts";
import type { GraphInfo } from "../../graphs/spec.ts";
import type { RunRow } from "./table.ts";
import { RUN_DIR_FLAGS } from "../run/output-dir-flags.ts";
import { findManifest } from "../../graphs/registry.ts";
import { flagOf } from "../../core/options.ts";
import { type ApiOptionsOf, asApiErrors, commandLineOf, type FlagTable, type FlagValues, flagValuesOf } from "../run/api-options.ts";

/** `sqlmend experiment`'s own flags; every other flag goes to every run (`experimentForwardFlags`). */
export const EXPERIMENT_FLAGS = {
  bench: { type: "string" },
  out: { type: "string" },
  limit: { type: "string" },
  repeats: { type: "string" },
  hold: { type: "string" },
  pilot: { type: "string" },
  "price-in": { type: "string" },
  "price-out": { type: "string" },
  "dry-run": { type: "boolean" },
  resume: { type: "boolean" },
  list: { type: "boolean" },
  print: { type: "boolean" },
  set: { type: "string", multiple: true },
  "ts-dir": { type: "string" },
} as const;

/** The flags an experiment forwards to its runs: eval's (and its modules' options), magic guideline's and memo build's. */
export const experimentForwardFlags = (modules?: RunModules): FlagTable => {
  const { bench: _b, out: _o, limit: _l, resume: _r, ...forward } = { ...runFlags, ...graphFlags(modules), ...RUN_DIR_FLAGS, semantics: { type: "string" }, "keep-distinct": { type: "boolean" }, shard: { type: "string" }, server: { type: "string" }, batch: { type: "string" }, samples: { type: "string" }, elicit: { type: "string" }, "sample-temperature": { type: "string" } } as FlagTable;
  return forward;
};

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

  --list        the built-in recipes and what each reproduces (no other flag needed)
  --print       print the recipe as YAML and stop
  --set NAME=VALUE  a value the recipe names as {set:NAME} (a human-written guideline, another system's predictions);
                until given, the runs that need it are listed and printed with what they need; --set initial=FILE
                (a recipe whose correctors read a run 'initial'): FILE, scored as given, is that run, and they read it
  --limit N     the first N questions of every run
  --sample N [--sample-seed S]  a seeded sample of N questions of every run's split, each database its share
  --ids A,...   dev questions: the runs on the dev split take them, a run on train runs without them (said)
  --repeats N   run the whole recipe N times, repeat k in OUT/repeat-k/ with --seed k (sent to the model and part of
                the response cache's key, so each repeat is new samples): mean ± sd per cell, and the questions that
                flip between repeats (--seed S with --repeats: seeds S..S+N-1)
  --hold RUN,...  with --repeats: these runs are made once (repeat 1, its seed) and every repeat reads them, e.g.
                --hold initial: the correctors' spread over one fixed initial SQL, not over new initial SQL each time
  --dry-run     check every run's flags and files as its command will, then list the runs in order, their questions,
                and the calls and tokens still expected: measured (the run's finished questions, a pilot's, or another
                run of the same graph), else the graph's own call count
  --pilot N     with --dry-run: first run every run on a sample of N questions across the databases in OUT/pilot/
                (this spends tokens), then estimate
  --price-in USD --price-out USD   per million input / output tokens: the dry run's price, and a cost column
  --ts-dir DIR  Spider's test-suite databases, for the rows that report test-suite accuracy (metrics: [ts]);
                without it their TS cell says "not computed: needs --ts-dir DIR"
  --resume      continue a killed or finished experiment in --out (each run resumes; finished ones redo nothing)
  Every other flag (--model, --config, --concurrency, --cache, --checkpoints, ...) goes to every run.`;

type OwnValues = { [K in keyof typeof EXPERIMENT_FLAGS]?: (typeof EXPERIMENT_FLAGS)[K] extends { multiple: true } ? string[] : (typeof EXPERIMENT_FLAGS)[K]["type"] extends "boolean" ? boolean : string };

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
 * Runs a recipe (a built-in's name or a YAML/JSON file) as `sqlmend experiment` does — each run through the run API,
 * never through argv — and writes OUT/table.md, table.json and report.html. Options by name: `recipe`, `bench`, `out`,
 * `limit`, `repeats`, `hold`, `pilot`, `priceIn`, `priceOut`, `dryRun`, `resume`, `tsDir`, `set: { NAME: VALUE }`; every other
 * name is a flag forwarded to every run (`model`, `baseUrl`, `concurrency`, `cache`, ...).
 */
export type ExperimentOptions = Omit<ApiOptionsOf<typeof EXPERIMENT_FLAGS>, "set"> &
  Omit<ApiOptionsOf<typeof runFlags & typeof RUN_DIR_FLAGS>, keyof ApiOptionsOf<typeof EXPERIMENT_FLAGS> | "node" | "graph" | "initial" | "correct"> & {
    recipe: string;
    /** `--set NAME=VALUE`: a recipe's values (`initial: FILE`, `bird-memory: FILE`, ...). */
    set?: Readonly<Record<string, string>>;
    node?: Readonly<Record<string, string>>;
    semantics?: "bird" | "spider";
    keepDistinct?: boolean;
    batch?: number | string;
    samples?: number | string;
    elicit?: "sampling" | "pipeline";
    sampleTemperature?: number | string;
  };

export async function runExperiment(options: ExperimentOptions, io: CliIO = defaultIO()): Promise<ExperimentResult> {
  return asApiErrors("runExperiment", () => experimentOf(options as unknown as { recipe: string; [name: string]: unknown }, io));
}

async function experimentOf(options: { recipe: string; [name: string]: unknown }, io: CliIO): Promise<ExperimentResult> {
  const { recipe, set, ...rest } = options;
  const own: Record<string, unknown> = {};
  const forward: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) (flagOf(key) in EXPERIMENT_FLAGS ? own : forward)[key] = value;
  const ownValues = flagValuesOf("runExperiment", { ...own, ...(set ? { set } : {}) }, EXPERIMENT_FLAGS as FlagTable) as OwnValues;
  const modules = await loadRunModules(modulesConfigOf(forward), io.cwd);
  const forwarded = flagValuesOf("runExperiment", forward, experimentForwardFlags(modules));
  return experimentFrom({ own: ownValues, forwarded, positionals: [recipe] }, io);
}

/** experiment from its own flag values, the forwarded ones and the recipe (the launcher's parse, or `runExperiment`'s). */
export async function experimentFrom(input: { own: OwnValues; forwarded: FlagValues; positionals: string[]; argv?: string[] }, io: CliIO): Promise<ExperimentResult> {
  const { positionals } = input;
  const own = input.own as Record<string, string | boolean | undefined>;
  const ownValues = input.own as FlagValues;
  const forwarded: FlagValues = { ...input.forwarded };
  const sets: Record<string, string> = {};
  for (const item of input.own.set ?? []) {
    const eq = item.indexOf("=");
    if (eq < 1) throw new UsageError("--set takes NAME=VALUE (a value the recipe names as {set:NAME})");
    sets[item.slice(0, eq)] = item.slice(eq + 1);
  }
  const ex = await import("./recipe.ts");
  if (own.list) {
    io.stdout(`${listRecipes(BUILT_IN_RECIPES)}\n`);
    return { exitCode: EXIT.ok };
  }
  if (positionals.length !== 1) throw new UsageError(positionals.length ? `unexpected argument '${positionals[1]}'` : "name a recipe (built-in: correctors) or a recipe YAML or JSON file");
  const name = positionals[0]!;
  const file = path.resolve(io.cwd, name);
  // A built-in recipe goes through the same checks as a file (zod, runs named, no cycle).
  const builtIn = BUILT_IN_RECIPES[name];
  const read = builtIn ? { recipe: ex.validateRecipe(builtIn, name), lineOf: () => "" } : fs.existsSync(file) ? ex.readRecipe(readRecipeFile(file, name), name) : undefined;
  if (!read) throw new UserError(`no recipe '${name}': name a built-in recipe (${Object.keys(BUILT_IN_RECIPES).join(", ")}) or a recipe YAML or JSON file`);
  if (own.print) {
    const { stringify } = await import("yaml");
    io.stdout(stringify(read.recipe, { lineWidth: 0 }));
    return { exitCode: EXIT.ok };
  }
  if (typeof own.bench !== "string") throw new UsageError("--bench DIR is required");
  if (typeof own.out !== "string") throw new UsageError("--out DIR is required");
  const whole = (flag: string, min: number) => {
    if (own[flag] === undefined) return undefined;
    const n = Number(own[flag]);
    if (!Number.isInteger(n) || n < min) throw new UsageError(`--${flag} takes a whole number >= ${min}, not '${own[flag]}'`);
    return n;
  };
  const limit = whole("limit", 1);
  const repeats = whole("repeats", 1) ?? 1;
  const pilot = whole("pilot", 1);
  if (own.hold !== undefined && repeats < 2) throw new UsageError("--hold RUN,... goes with --repeats N (N >= 2): the runs every repeat shares");
  if (pilot !== undefined && !own["dry-run"]) throw new UsageError("--pilot N goes with --dry-run (a short real run of every run, then the estimate)");
  const price = (flag: string) => {
    if (own[flag] === undefined) return undefined;
    const n = Number(own[flag]);
    if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${flag} takes USD per million tokens (a number >= 0), not '${own[flag]}'`);
    return n;
  };
  const priceIn = price("price-in");
  const priceOut = price("price-out");
  if ((priceIn === undefined) !== (priceOut === undefined)) throw new UsageError("--price-in and --price-out go together (USD per million input and output tokens)");
  const prices = priceIn !== undefined ? { input: priceIn, output: priceOut! } : undefined;
  const tsDir = typeof own["ts-dir"] === "string" ? path.resolve(io.cwd, own["ts-dir"]) : undefined;
  if (tsDir !== undefined && !fs.existsSync(tsDir)) throw new UsageError(`--ts-dir ${own["ts-dir"]}: no such directory`);
  // Seeds: repeat k of N gets seed base+k-1 (base: a forwarded --seed, else 1); one run keeps a forwarded --seed as is.
  let seeds: number[] = [];
  if (repeats > 1) {
    const seedGiven = typeof forwarded.seed === "string" ? forwarded.seed : "1";
    const base = Number(seedGiven);
    if (!Number.isInteger(base)) throw new UsageError(`--seed takes a whole number, not '${seedGiven}'`);
    delete forwarded.seed;
    seeds = Array.from({ length: repeats }, (_, k) => base + k);
  }

  const { recipe, initialFile } = withInitialFile(read.recipe, sets, io.cwd, ex.setsOf);
  const order = ex.orderRuns(recipe, name);
  await checkOptions(recipe, name, read.lineOf, io.cwd);
  const held = typeof own.hold === "string" ? ex.heldRuns(recipe, own.hold) : new Set<string>();
  for (const s of Object.keys(sets)) if (!(s === "initial" && initialFile) && !Object.values(recipe.runs).some((r) => ex.setsOf(r).includes(s))) throw new UsageError(`--set ${s}: recipe ${recipe.name} has no {set:${s}}`);
  const { sampleFrom } = await import("../run/question-sample.ts");
  const sample = sampleFrom(forwarded);
  const blockedAtStart = new Map(order.map((run) => [run, ex.blockedReason(recipe, run, sets)] as const).filter((e): e is [string, string] => e[1] !== undefined));
  const outDir = path.resolve(io.cwd, own.out);
  const layout = ex.repeatLayout(outDir, repeats, held);
  const { dirOf: repeatDir, runDir: outOfRepeat, repeatsOf } = layout;
  const splitOf = (run: string) => recipe.runs[run]!.split ?? (recipe.runs[run]!.kind === "magic-guideline" || recipe.runs[run]!.kind === "memo-build" ? "train" : "dev");

  const { resolveBenchmarkDir } = await import("../../tools/benchmarks/resolve.ts");
  const { loadBenchmark } = await import("../../tools/benchmarks/benchmark.ts");
  const benchDir = await resolveBenchmarkDir(own.bench, io.env, io.cwd);
  const { parseResults } = await import("../run/results-record.ts");
  // Read once per folder: the table, the page and the dry run's estimates all read the same runs (after they ran).
  const recordsByDir = new Map<string, import("../run/results-record.ts").EvalRecord[]>();
  const recordsIn = (dir: string) => {
    const results = path.join(dir, "results.jsonl");
    if (!recordsByDir.has(dir)) recordsByDir.set(dir, fs.existsSync(results) ? [...parseResults(fs.readFileSync(results, "utf8")).records.values()] : []);
    return recordsByDir.get(dir)!;
  };

  const ctx: RunContext = { io, recipe, order, benchDir, splitOf, forwarded, sets, resume: own.resume === true, ...(initialFile ? { initialFile } : {}) };
  // Every run's flags, files and initial SQL are checked before the first run spends anything (the dry run's too).
  const firstRepeat: RunsAt = { dir: repeatDir(1), outOf: (run) => outOfRepeat(1, run), limit, extra: repeats > 1 ? { seed: String(seeds[0]) } : {}, blocked: new Map(blockedAtStart), resume: ctx.resume };
  await checkRuns(ctx, firstRepeat);
  // --ids name dev questions; a run on another split (a guideline or memory on train) runs on its own selection.
  const otherSplits = forwarded.ids !== undefined ? order.filter((run) => splitOf(run) !== IDS_SPLIT && !blockedAtStart.has(run) && recipe.runs[run]!.kind !== "memo-candidates") : [];
  const selected = [limit ? `--limit ${limit}` : "", sample ? `--sample ${sample.n}` : ""].filter(Boolean).join(" ") || "all";
  const one = otherSplits.length === 1;
  const idsLine = otherSplits.length ? `--ids are ${IDS_SPLIT} questions: ${otherSplits.map((run) => `${run} (${splitOf(run)})`).join(", ")} run${one ? "s" : ""} without them, on ${selected} of ${one ? "its" : "their"} split` : undefined;
  if (own["dry-run"]) {
    if (pilot !== undefined) {
      const pilotDir = path.join(outDir, "pilot");
      // The pilot is a sample across the databases (the first N questions of Spider dev are one database's).
      const size = Math.min(pilot, sample?.n ?? pilot);
      const sampleSeed = String(sample?.seed ?? 1);
      io.stderr(`sqlmend experiment ${recipe.name}: pilot of every run on a sample of ${size} questions stratified by database (--sample-seed ${sampleSeed}${limit ? `, of the first ${limit}` : ""}) in ${pilotDir} (spends tokens; --resume there continues it)\n`);
      const done = await executeRuns(ctx, { dir: pilotDir, limit, extra: { sample: String(size), "sample-seed": sampleSeed }, blocked: new Map(blockedAtStart), resume: true });
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
      counts.set(split, selectQuestions(bench, split === IDS_SPLIT ? (forwarded.ids as string[] | undefined) : undefined, limit, sample).questions.length);
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
    const done = await executeRuns(ctx, { dir: repeatDir(k), outOf: (run) => outOfRepeat(k, run), skip, limit, extra: repeats > 1 ? { seed: String(seeds[k - 1]) } : {}, blocked: blockedHere, resume: ctx.resume });
    if (isStopStatus(done.code)) return { exitCode: done.code };
    // A run blocked in any repeat (a file its dependency did not write there) is a row not run, with the repeat.
    for (const [run, reason] of blockedHere) if (!blocked.has(run)) blocked.set(run, repeats > 1 && !held.has(run) ? `${reason} (repeat ${k})` : reason);
  }

  // The mock model's runs (or predictions) are never tabled beside real ones.
  const runFiles = order.filter((run) => !blocked.has(run) && recipe.runs[run]!.kind === "eval").flatMap((run) => repeatsOf(run).map((k) => ({ name: run, dir: outOfRepeat(k, run) })));
  const initialDir = ctx.initialFile ? [{ name: `the initial predictions (${path.relative(io.cwd, ctx.initialFile)})`, dir: path.dirname(ctx.initialFile) }] : [];
  const refusal = mockMixRefusal([...runFiles, ...initialDir].flatMap(({ name, dir }) => {
    const file = path.join(dir, "run.json");
    if (!fs.existsSync(file)) return [];
    try {
      return [{ name, run: JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown> }];
    } catch {
      return [];
    }
  }));
  if (refusal) throw new UserError(`experiment ${recipe.name}: ${refusal}`);
  const allMock = runFiles.length > 0 && runFiles.every(({ dir }) => fs.existsSync(path.join(dir, "run.json")) && isMockRun(JSON.parse(fs.readFileSync(path.join(dir, "run.json"), "utf8"))));
  const tab = await import("./table.ts");
  const { selectedQuestionsIn } = await import("./paper-metrics.ts");
  const rows = order.flatMap((run) => {
    const spec = recipe.runs[run]!;
    if (blocked.has(run)) return [tab.otherRowOf(run, spec, { notRun: blocked.get(run)! })];
    if (spec.kind === "magic-guideline") {
      return repeatsOf(run).map((k) => {
        const name = repeats > 1 && !held.has(run) ? `${run} (repeat ${k})` : run;
        const file = path.join(outOfRepeat(k, run), "stats.json");
        // A guideline run that stopped before its stats (failed merges, Ctrl-C) is a row not run, with what to do.
        if (!fs.existsSync(file)) return tab.otherRowOf(name, spec, { notRun: `${path.relative(outDir, file)} was not written: the guideline run did not finish; --resume retries it` });
        const stats = JSON.parse(fs.readFileSync(file, "utf8")) as import("./table.ts").GuidelineFigures;
        const { questions, failures, corrected, exAfter, avgIterations, correctedWithin, maxIter, noManager } = stats;
        return tab.otherRowOf(name, spec, { guideline: { questions, failures, corrected, exAfter, avgIterations, correctedWithin, maxIter, noManager } });
      });
    }
    if (spec.kind !== "eval") return [];
    const ks = repeatsOf(run);
    return [tab.repeatedRowOf(run, spec, ks.map((k) => recordsIn(outOfRepeat(k, run))), seeds, prices, ks.map((k) => Math.max(recordsIn(outOfRepeat(k, run)).length, selectedQuestionsIn(outOfRepeat(k, run)) ?? 0)))];
  });
  for (const row of rows) if (held.has(row.run)) row.held = { seed: seeds[0]! };
  tab.plannedComparisons(recipe, rows, (run, k) => recordsIn(outOfRepeat(k, run)), { seeds, held });
  // The metrics each paper reports beyond EX (VES, test-suite accuracy), and the model each row ran with.
  await (await import("./paper-metrics.ts")).addRowMetrics(rows, recipe, { benchDir, tsDir, cwd: io.cwd, splitOf, dirsOf: (run) => repeatsOf(run).map((k) => outOfRepeat(k, run)), recordsIn });
  const table = `${allMock ? `> **${MOCK_LABEL}**: every run was answered by the built-in mock model (\`--model mock\`).\n\n` : ""}${tab.renderTable(recipe, rows, { ...(prices ? { prices } : {}), repeats })}`;
  fs.writeFileSync(path.join(outDir, "table.md"), table);
  fs.writeFileSync(path.join(outDir, "table.json"), `${JSON.stringify({ recipe, bench: benchDir, limit: limit ?? null, sample: sample ?? null, ids: forwarded.ids ?? null, sets, repeats, held: [...held], seeds, prices: prices ?? null, intervals: tab.intervalLegend(rows), rows }, null, 2)}
`);
  // One page over the dev runs (the questions all of them ran), charts as compare's; with repeats, repeat 1's.
  const [{ compareRuns }, { renderCompareHtml }] = await Promise.all([import("../report/comparison.ts"), import("../report/report-html.ts")]);
  const devRuns = order.filter((run) => recipe.runs[run]!.kind === "eval" && !blocked.has(run) && splitOf(run) === "dev");
  if (devRuns.length) {
    const comparison = compareRuns(
      devRuns.map((run, i) => ({ key: `R${i + 1}`, label: run, dir: outOfRepeat(1, run), records: new Map(recordsIn(outOfRepeat(1, run)).map((r) => [r.id, r])), run: {} })),
      prices,
    );
    const title = `sqlmend experiment: ${recipe.name}`;
    const note = `The Experiment table is table.json's (every answered question of each run${repeats > 1 ? `, means over ${repeats} repeats` : ""}); the summary and charts below compare the dev runs on the questions all of them answered${repeats > 1 ? " in repeat 1, except EX per repeat, which draws every repeat" : ""}.`;
    const experiment = tab.experimentHtmlRows(rows);
    const guidelines = rows.filter((r) => r.guideline).map((r) => ({ run: r.run, maxIter: r.guideline!.maxIter, failures: r.guideline!.failures, correctedWithin: r.guideline!.correctedWithin }));
    fs.writeFileSync(path.join(outDir, "report.html"), await renderCompareHtml(comparison, { command: input.argv ? commandLine("experiment", input.argv) : commandLineOf("experiment", positionals, { ...ownValues, ...forwarded }), title, note, experiment, guidelines, mock: allMock, ...(repeats > 1 ? { repeat: { k: 1, seed: seeds[0]!, of: repeats } } : {}), ...(prices ? { cost: tab.costSummary(rows, prices) } : {}) }));
  }
  io.stdout(`${table}\nTable: ${path.join(outDir, "table.md")}\n`);
  // Failed questions, or a guideline run without its stats: not what was asked (--resume retries them).
  // The rows as table.json holds them (a copy through JSON: what a script reads equals the file).
  const figures = (JSON.parse(fs.readFileSync(path.join(outDir, "table.json"), "utf8")) as { rows: RunRow[] }).rows;
  return { exitCode: rows.some((r) => r.failed || r.unrun || r.notRun?.includes("--resume retries it")) ? EXIT.incomplete : EXIT.ok, outDir, table: path.join(outDir, "table.md"), rows: figures };
}

interface RunContext {
  io: CliIO;
  recipe: Recipe;
  order: string[];
  benchDir: string;
  splitOf: (run: string) => string;
  forwarded: FlagValues;
  sets: Record<string, string>;
  resume: boolean;
  /** `--set initial=FILE`: the initial SQL the correctors of run `initial` read (that run scores it as given). */
  initialFile?: string;
}

/** One run of the recipe as its command will get it: the command, its flag values as parsed, and its --node/--graph modules. */
interface Invocation {
  kind: RecipeRun["kind"];
  values: FlagValues;
  positionals: string[];
  modules?: RunModules;
}

/** Where a batch of runs goes: the folder, the selection every run gets, and the runs left out. */
interface RunsAt {
  dir: string;
  outOf?: (run: string) => string;
  skip?: Set<string>;
  limit: number | undefined;
  extra: FlagValues;
  blocked: Map<string, string>;
  resume: boolean;
}

/**
 * A run's flag values as its command will parse them — the flags forwarded to every run, the recipe's options
 * (`{run:…}`/`{set:…}` resolved), the run's place — through the command's own flag table, --node and --graph modules'
 * options included. The one place both the checks before the first run and the runs themselves get them from.
 */
async function invocationOf(ctx: RunContext, run: string, at: RunsAt): Promise<Invocation> {
  const { io, recipe, benchDir, splitOf, sets } = ctx;
  const ex = await import("./recipe.ts");
  const spec = recipe.runs[run]!;
  const split = splitOf(run);
  const outOf = at.outOf ?? ((name: string) => path.join(at.dir, name));
  // --ids name questions of the dev split: a run on another split runs without them (said once, by experimentFrom).
  const { ids: _ids, ...otherSplit } = { ...ctx.forwarded, ...at.extra };
  const forwarded: FlagValues = split === IDS_SPLIT ? { ...ctx.forwarded, ...at.extra } : otherSplit;
  const resolve = (v: string) => ex.resolveRefs(v, outOf, sets);
  const place: FlagValues = { bench: benchDir, out: outOf(run), split, ...(at.limit ? { limit: String(at.limit) } : {}) };
  if (spec.initial) {
    place.initial = recipe.runs[spec.initial] ? initialFileOf(ctx, spec.initial, outOf) : path.resolve(io.cwd, resolve(spec.initial));
    place.correct = spec.correct ?? "all";
  }
  // --resume continues each run; a run not started yet has no run.json, and eval then starts it.
  if (at.resume && fs.existsSync(outOf(run))) place.resume = true;
  if (spec.kind === "magic-guideline") {
    const { MAGIC_GUIDELINE_FLAGS } = await import("../methods/magic-guideline.ts");
    return { kind: spec.kind, values: valuesFor(run, MAGIC_GUIDELINE_FLAGS, forwarded, spec.options, resolve, place), positionals: [] };
  }
  if (spec.kind === "memo-build") {
    // memo build writes a file: OUT/<run>/memory.sqlite; it keeps no checkpoints (--checkpoints is eval's).
    const { memoBuildFlags } = await import("../methods/memo-memory.ts");
    const memory = path.join(outOf(run), "memory.sqlite");
    const { checkpoints: _evalOnly, ...forMemo } = forwarded;
    return { kind: spec.kind, values: valuesFor(run, memoBuildFlags, forMemo, spec.options, resolve, { ...place, out: memory, resume: at.resume && fs.existsSync(memory) }), positionals: [] };
  }
  if (spec.kind === "memo-candidates") {
    return { kind: spec.kind, values: { run: outOf(spec.from!), out: path.join(outOf(run), "candidates.json"), ...(forwarded.checkpoints !== undefined ? { checkpoints: forwarded.checkpoints } : {}) }, positionals: [] };
  }
  // A graph module of the user's own runs as `eval --graph FILE`; its --node and --graph modules load as eval loads them.
  const { evalFlags } = await import("../eval/run-eval.ts");
  const module = isGraphModule(spec.graph!);
  const withGraph: FlagValues = { ...forwarded, ...(module ? { graph: spec.graph! } : {}) };
  const modules = await loadRunModules(modulesConfigOf(withGraph), io.cwd);
  return { kind: spec.kind, values: valuesFor(run, evalFlags(modules), withGraph, spec.options, resolve, place), positionals: module ? [] : [spec.graph!], modules };
}

/** The split `--ids` name questions of: the evaluated one. */
const IDS_SPLIT = "dev";

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
async function checkRuns(ctx: RunContext, at: RunsAt): Promise<void> {
  const { io, recipe, order } = ctx;
  const [{ checkEvalConfig, evalInputOfFlagValues }, { checkGuidelineFlags }, { checkMemoBuildFlags }, { readPredictionFile }] = await Promise.all([
    import("../eval/run-eval.ts"),
    import("../methods/magic-guideline.ts"),
    import("../methods/memo-memory.ts"),
    import("../../tools/benchmarks/score.ts"),
  ]);
  for (const run of order) {
    if (at.blocked.has(run) || at.skip?.has(run)) continue;
    const spec = recipe.runs[run]!;
    const named = (error: unknown) => {
      // A recipe names its runs' options as flags: an error about one says the flag (core/config.ts `flagWordingOf`).
      const line = `runs.${run}: ${flagWordingOf(error) ?? firstLineOf(error)}`;
      return error instanceof UsageError ? new UsageError(line) : new UserError(line);
    };
    try {
      const call = await invocationOf(ctx, run, at);
      // Values made from {run:NAME} are files that run writes: there once it has run.
      const produced = new Set(Object.entries(spec.options).filter(([, v]) => [v].flat().some((x) => /\{run:[^}]+\}/.test(String(x)))).map(([flag]) => flag));
      const files: [string, string][] = [];
      if (call.kind === "eval") {
        const { spec: graph } = checkEvalConfig(evalInputOfFlagValues({ values: call.values, positionals: call.positionals, modules: call.modules! }));
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
 * Runs the recipe's runs in order into `dir`/<run>/, through the commands' own code. A run that cannot run is added
 * to `blocked` with the reason (printed in the table), as are the runs that need it. A stop status (130 Ctrl-C, 143
 * SIGTERM, 129 SIGHUP): stopped.
 */
async function executeRuns(ctx: RunContext, at: RunsAt): Promise<{ code: number }> {
  const { io, recipe, order, sets } = ctx;
  const { blocked } = at;
  const ex = await import("./recipe.ts");
  const outOf = at.outOf ?? ((run: string) => path.join(at.dir, run));
  const [{ evaluate, evalInputOfFlagValues }, { learnFrom }, { memoBuild, memoCandidates }] = await Promise.all([import("../eval/run-eval.ts"), import("../methods/magic-guideline.ts"), import("../methods/memo-memory.ts")]);
  for (const run of order) {
    if (at.skip?.has(run)) continue;
    const spec = recipe.runs[run]!;
    // A run needing a file another run did not write (a guideline batch a short run never merged) is not run, with
    // the reason in the table — nor are the runs that need it.
    const missing = Object.values(spec.options).flat().map(String).filter((v) => /\{run:[^}]+\}\//.test(v)).map((v) => ex.resolveRefs(v, outOf, sets)).find((f) => !fs.existsSync(f));
    const lost = ex.dependenciesOf(recipe, run).find((d) => blocked.has(d));
    if (!blocked.has(run) && (missing || lost)) blocked.set(run, missing ? `${path.relative(at.dir, missing)} was not written by its run` : `run ${lost} did not run: ${blocked.get(lost!)}`);
    if (blocked.has(run)) {
      io.stderr(`\nsqlmend experiment ${recipe.name}: run ${run} not run: ${blocked.get(run)}\n`);
      continue;
    }
    const call = await invocationOf(ctx, run, at);
    io.stderr(`\nsqlmend experiment ${recipe.name}: run ${run} (${order.indexOf(run) + 1}/${order.length})\n`);
    const prefixed: CliIO = { ...io, stdout: (t) => io.stderr(t.replace(/^(?=.)/gm, `  ${run}: `)) };
    let code: number;
    if (call.kind === "magic-guideline") code = (await learnFrom(call, prefixed)).exitCode;
    else if (call.kind === "memo-build") {
      fs.mkdirSync(outOf(run), { recursive: true });
      code = (await memoBuild(call, prefixed)).exitCode;
    } else if (call.kind === "memo-candidates") {
      fs.mkdirSync(outOf(run), { recursive: true });
      code = (await memoCandidates(call, prefixed)).exitCode;
    } else code = (await evaluate(evalInputOfFlagValues({ values: call.values, positionals: call.positionals, modules: call.modules! }), prefixed)).exitCode;
    if (isStopStatus(code)) {
      io.stderr(`Stopped during run ${run}; --resume continues the experiment.\n`);
      return { code };
    }
    // 3: the run finished with failed questions (counted in the table; --resume retries them); the others go on.
    if (code === EXIT.incomplete) io.stderr(`warning: run ${run} finished with failed questions; the table counts them, --resume retries them\n`);
    else if (code !== EXIT.ok) throw new UserError(`run ${run} exited with ${code}; --resume continues the experiment once it is fixed`);
  }
  return { code: EXIT.ok };
}

/**
 * `--set initial=FILE` (for a recipe without its own {set:initial}): the recipe's run `initial`, whose SQL its
 * correctors correct, is replaced by FILE scored as given (as-given) — the paper's own initial SQL, e.g. DIN-SQL's —
 * and the correctors read FILE. The table's description says so.
 */
export function withInitialFile(recipe: Recipe, sets: Record<string, string>, cwd: string, setsOf: (run: RecipeRun) => string[]): { recipe: Recipe; initialFile?: string } {
  const value = sets.initial;
  if (value === undefined || Object.values(recipe.runs).some((r) => setsOf(r).includes("initial"))) return { recipe };
  const run = recipe.runs.initial;
  const readers = Object.entries(recipe.runs).filter(([, r]) => r.initial === "initial").map(([name]) => name);
  if (!run || run.kind !== "eval" || run.needs || !readers.length) throw new UsageError(`--set initial=FILE: recipe ${recipe.name} has no run 'initial' whose SQL its correctors read (nor a {set:initial})`);
  const file = path.resolve(cwd, value);
  const said = `The initial SQL is ${value} (--set initial), scored as given: run initial did not run ${run.graph}, and ${readers.length} correctors read the file.`;
  // The file scored as given: no corrector, and no reference (it would be tested against itself).
  const replaced: RecipeRun = { kind: "eval", graph: "as-given", options: {}, initial: file, correct: "all", reference: false, ...(run.paper ? { paper: run.paper } : {}) };
  // A row that said its initial SQL was the baseline's now names the file instead (the initial row too).
  const named = (r: RecipeRun): RecipeRun => (r.paper?.differs?.includes(BASELINE_INITIAL) ? { ...r, paper: { ...r.paper, differs: r.paper.differs.replace(BASELINE_INITIAL, `${value} (--set initial)`) } } : r);
  const runs = Object.fromEntries(Object.entries(recipe.runs).map(([name, r]) => [name, named(name === "initial" ? replaced : r)]));
  return { recipe: { ...recipe, description: recipe.description ? `${recipe.description} ${said}` : said, runs }, initialFile: file };
}

/** A recipe file's text; unreadable is one line. */
function readRecipeFile(file: string, name: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new UserError(`${name}: cannot read (${firstLineOf(error)})`);
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


/** `--list`: every built-in recipe, what it reproduces, its runs and those that need what sqlmend lacks or a --set value. */
function listRecipes(recipes: Record<string, import("./recipe.ts").Recipe>): string {
  return Object.values(recipes)
    .map((r) => {
      const runs = Object.values(r.runs);
      const needs = runs.filter((x) => x.needs).length;
      const sets = [...new Set(runs.flatMap((x) => [...Object.values(x.options).flat(), x.initial ?? ""].flatMap((v) => [...String(v).matchAll(/\{set:([^}]+)\}/g)].map((m) => m[1]!))))];
      const extra = [needs ? `${needs} need a method not in sqlmend (printed with the reason)` : "", sets.length ? `--set ${sets.map((x) => `${x}=FILE`).join(", ")} for the rows that need them` : ""].filter(Boolean);
      return `${r.name}\n  reproduces: ${r.reproduces ?? r.description ?? ""}\n  ${runs.length} runs${extra.length ? `; ${extra.join("; ")}` : ""}`;
    })
    .join("\n\n");
}

/** Flags of the non-eval steps (beside the shared ones). */
const STEP_FLAGS: Record<string, string[]> = { "magic-guideline": ["batch", "max-iter", "no-manager", "initial", "keep-distinct"], "memo-build": ["elicit", "samples", "sample-temperature"], "memo-candidates": [] };

/** Every option of every run is a flag its graph or step takes (so a recipe typo fails at once, --dry-run included). */
async function checkOptions(recipe: Recipe, source: string, lineOf: (at: PropertyKey[], key?: string) => string, cwd: string) {
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
