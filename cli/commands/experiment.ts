import fs from "node:fs";
import path from "node:path";
import type { CliIO, Command } from "../shared/command.ts";
import { firstLineOf, UsageError, UserError, commandLine } from "../shared/command.ts";
import type { Recipe } from "../../runner/experiment.ts";
import { graphFlags, isGraphModule, loadRunModules, runFlags } from "../../runner/run-options.ts";
import { optionDefsOf } from "../../graphs/manifests/manifest.ts";
import { isStopStatus, RUN_DIR_FLAGS } from "../../runner/run-dir.ts";
import { findManifest } from "../../graphs/registry.ts";
import { flagOf } from "../../core/options.ts";
import { EXIT } from "../../core/exit.ts";

const OWN_VALUE_FLAGS = new Set(["--bench", "--out", "--limit", "--repeats", "--hold", "--pilot", "--price-in", "--price-out"]);
const OWN_BOOLEAN_FLAGS = new Set(["--dry-run", "--resume", "--list", "--print"]);
const BUILT_IN_NAMES = "correctors, magic-table1, magic-table2, magic-guideline, r3-table3, memo-ablation, memo-correction, ts-sql-table4, ts-sql-table5";

export const experimentCommand: Command = {
  name: "experiment",
  usage: `Usage: sqlmend experiment RECIPE --bench DIR|minibench --out DIR [--limit N] [--repeats N [--hold RUN,...]] [--set NAME=VALUE]
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

Built-in recipes (sqlmend experiment --list says what each reproduces): ${BUILT_IN_NAMES}

  --list        the built-in recipes and what each reproduces (no other flag needed)
  --print       print the recipe as YAML and stop
  --set NAME=VALUE  a value the recipe names as {set:NAME} (a human-written guideline, another system's predictions);
                until given, the runs that need it are listed and printed with what they need
  --limit N     the first N questions of every run
  --repeats N   run the whole recipe N times, repeat k in OUT/repeat-k/ with --seed k (sent to the model and part of
                the response cache's key, so each repeat is new samples): mean ± sd per cell, and the questions that
                flip between repeats (--seed S with --repeats: seeds S..S+N-1)
  --hold RUN,...  with --repeats: these runs are made once (repeat 1, its seed) and every repeat reads them, e.g.
                --hold initial: the correctors' spread over one fixed initial SQL, not over new initial SQL each time
  --dry-run     list the runs in order, their questions, and the calls and tokens still expected: measured (the run's
                finished questions, a pilot's, or another run of the same graph), else the graph's own call count
  --pilot N     with --dry-run: first run every run on N questions in OUT/pilot/ (this spends tokens), then estimate
  --price-in USD --price-out USD   per million input / output tokens: the dry run's price, and a cost column
  --resume      continue a killed or finished experiment in --out (each run resumes; finished ones redo nothing)
  Every other flag (--model, --config, --concurrency, --cache, --checkpoints, ...) goes to every run.`,
  async run(argv, io) {
    const positionals: string[] = [];
    const own: Record<string, string | boolean> = {};
    const sets: Record<string, string> = {};
    const forwarded: string[] = [];
    const given: Record<string, unknown> = {};
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i]!;
      const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
      if (flag === "--set") {
        const value = inline ?? argv[++i];
        const eq = value?.indexOf("=") ?? -1;
        if (value === undefined || eq < 1) throw new UsageError("--set takes NAME=VALUE (a value the recipe names as {set:NAME})");
        sets[value.slice(0, eq)] = value.slice(eq + 1);
      } else if (OWN_VALUE_FLAGS.has(flag)) {
        const value = inline ?? argv[++i];
        if (value === undefined) throw new UsageError(`${flag} needs a value`);
        own[flag.slice(2)] = value;
      } else if (OWN_BOOLEAN_FLAGS.has(flag)) own[flag.slice(2)] = true;
      else if (arg.startsWith("-")) {
        forwarded.push(arg);
        // A flag's value goes with it (boolean flags of eval are followed by another flag or nothing).
        const value = inline === undefined && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("--") && !BOOLEAN_EVAL_FLAGS.has(flag) ? argv[++i]! : undefined;
        if (value !== undefined) forwarded.push(value);
        // By name, for the dry run's call counts (the flags every run gets).
        given[flag.replace(/^-+/, "")] = inline ?? value ?? true;
      } else positionals.push(arg);
    }
    const ex = await import("../../runner/experiment.ts");
    const { BUILT_IN_RECIPES } = await import("../../runner/experiment-recipes.ts");
    if (own.list) {
      io.stdout(`${listRecipes(BUILT_IN_RECIPES)}\n`);
      return EXIT.ok;
    }
    if (positionals.length !== 1) throw new UsageError(positionals.length ? `unexpected argument '${positionals[1]}'` : "name a recipe (built-in: correctors) or a recipe YAML or JSON file");
    const name = positionals[0]!;
    const file = path.resolve(io.cwd, name);
    // A built-in recipe goes through the same checks as a file (zod, runs named, no cycle).
    const builtIn = BUILT_IN_RECIPES[name];
    const read = builtIn ? { recipe: ex.validateRecipe(builtIn, name), lineOf: () => "" } : fs.existsSync(file) ? ex.readRecipe(readRecipeFile(file, name), name) : undefined;
    if (!read) throw new UserError(`no recipe '${name}': name a built-in recipe (${Object.keys(BUILT_IN_RECIPES).join(", ")}) or a recipe YAML or JSON file`);
    const { recipe } = read;
    if (own.print) {
      const { stringify } = await import("yaml");
      io.stdout(stringify(recipe, { lineWidth: 0 }));
      return EXIT.ok;
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
    // Seeds: repeat k of N gets seed base+k-1 (base: a forwarded --seed, else 1); one run keeps a forwarded --seed as is.
    const seedAt = forwarded.findIndex((a) => a === "--seed" || a.startsWith("--seed="));
    let seeds: number[] = [];
    if (repeats > 1) {
      const given = seedAt < 0 ? "1" : forwarded[seedAt]!.includes("=") ? forwarded[seedAt]!.slice(7) : forwarded[seedAt + 1];
      const base = Number(given);
      if (!Number.isInteger(base)) throw new UsageError(`--seed takes a whole number, not '${given}'`);
      if (seedAt >= 0) forwarded.splice(seedAt, forwarded[seedAt]!.includes("=") ? 1 : 2);
      seeds = Array.from({ length: repeats }, (_, k) => base + k);
    }

    const order = ex.orderRuns(recipe, name);
    await checkOptions(recipe, name, read.lineOf, io.cwd);
    const held = typeof own.hold === "string" ? ex.heldRuns(recipe, own.hold) : new Set<string>();
    for (const s of Object.keys(sets)) if (!Object.values(recipe.runs).some((r) => ex.setsOf(r).includes(s))) throw new UsageError(`--set ${s}: recipe ${recipe.name} has no {set:${s}}`);
    const blockedAtStart = new Map(order.map((run) => [run, ex.blockedReason(recipe, run, sets)] as const).filter((e): e is [string, string] => e[1] !== undefined));
    const outDir = path.resolve(io.cwd, own.out);
    const layout = ex.repeatLayout(outDir, repeats, held);
    const { dirOf: repeatDir, runDir: outOfRepeat, repeatsOf } = layout;
    const splitOf = (run: string) => recipe.runs[run]!.split ?? (recipe.runs[run]!.kind === "magic-guideline" || recipe.runs[run]!.kind === "memo-build" ? "train" : "dev");

    const { resolveBenchmarkDir, loadBenchmark } = await import("../../tools/benchmarks/benchmark.ts");
    const benchDir = await resolveBenchmarkDir(own.bench, io.env, io.cwd);
    const { parseResults } = await import("../../runner/report.ts");
    // Read once per folder: the table, the page and the dry run's estimates all read the same runs (after they ran).
    const recordsByDir = new Map<string, import("../../runner/report.ts").EvalRecord[]>();
    const recordsIn = (dir: string) => {
      const results = path.join(dir, "results.jsonl");
      if (!recordsByDir.has(dir)) recordsByDir.set(dir, fs.existsSync(results) ? [...parseResults(fs.readFileSync(results, "utf8")).records.values()] : []);
      return recordsByDir.get(dir)!;
    };

    const ctx: RunContext = { io, recipe, order, benchDir, splitOf, forwarded, sets, resume: own.resume === true };
    if (own["dry-run"]) {
      if (pilot !== undefined) {
        const pilotDir = path.join(outDir, "pilot");
        io.stderr(`sqlmend experiment ${recipe.name}: pilot of every run on ${Math.min(pilot, limit ?? pilot)} questions in ${pilotDir} (spends tokens; --resume there continues it)\n`);
        const done = await executeRuns(ctx, { dir: pilotDir, limit: Math.min(pilot, limit ?? pilot), extra: [], blocked: new Map(blockedAtStart), resume: true });
        if (isStopStatus(done.code)) return done.code;
      }
      const { selectQuestions } = await import("../../runner/run-dir.ts");
      const counts = new Map<string, number>();
      const notes: string[] = [];
      for (const split of new Set(order.map(splitOf))) {
        const bench = await loadBenchmark(benchDir, { split });
        counts.set(split, selectQuestions(bench, undefined, limit).questions.length);
        // Questions the benchmark lists but cannot run (a database file missing) are said, as eval says them.
        if (bench.skipped.length) notes.push(`${split}: ${bench.skipped.length} questions skipped (first: ${bench.skipped[0]!.id}, ${bench.skipped[0]!.reason}); every run leaves them out`);
      }
      const plan = await import("../../runner/experiment-plan.ts");
      io.stdout(`${plan.renderPlan({ recipe, order, benchDir, layout, seeds, prices, counts, splitOf, blocked: blockedAtStart, outDir, recordsIn, notes, knownCalls: (run) => plan.knownCallsOf(recipe.runs[run]!, given) })}\n`);
      return EXIT.ok;
    }

    const blocked = new Map(blockedAtStart);
    for (let k = 1; k <= repeats; k++) {
      if (repeats > 1) io.stderr(`\nsqlmend experiment ${recipe.name}: repeat ${k} of ${repeats} (--seed ${seeds[k - 1]}) in ${repeatDir(k)}\n`);
      // Held runs ran in repeat 1: later repeats skip them, and what blocked them there blocks them here.
      const blockedHere = new Map([...blockedAtStart, ...[...blocked].filter(([run]) => held.has(run))]);
      const skip = k > 1 ? held : new Set<string>();
      const done = await executeRuns(ctx, { dir: repeatDir(k), outOf: (run) => outOfRepeat(k, run), skip, limit, extra: repeats > 1 ? ["--seed", String(seeds[k - 1])] : [], blocked: blockedHere, resume: ctx.resume });
      if (isStopStatus(done.code)) return done.code;
      // A run blocked in any repeat (a file its dependency did not write there) is a row not run, with the repeat.
      for (const [run, reason] of blockedHere) if (!blocked.has(run)) blocked.set(run, repeats > 1 && !held.has(run) ? `${reason} (repeat ${k})` : reason);
    }

    const tab = await import("../../runner/experiment-table.ts");
    const rows = order.flatMap((run) => {
      const spec = recipe.runs[run]!;
      if (blocked.has(run)) return [tab.otherRowOf(run, spec, { notRun: blocked.get(run)! })];
      if (spec.kind === "magic-guideline") {
        return repeatsOf(run).map((k) => {
          const name = repeats > 1 && !held.has(run) ? `${run} (repeat ${k})` : run;
          const file = path.join(outOfRepeat(k, run), "stats.json");
          // A guideline run that stopped before its stats (failed merges, Ctrl-C) is a row not run, with what to do.
          if (!fs.existsSync(file)) return tab.otherRowOf(name, spec, { notRun: `${path.relative(outDir, file)} was not written: the guideline run did not finish; --resume retries it` });
          const stats = JSON.parse(fs.readFileSync(file, "utf8")) as import("../../runner/experiment-table.ts").GuidelineFigures;
          const { questions, failures, corrected, exAfter, avgIterations, correctedWithin, maxIter, noManager } = stats;
          return tab.otherRowOf(name, spec, { guideline: { questions, failures, corrected, exAfter, avgIterations, correctedWithin, maxIter, noManager } });
        });
      }
      if (spec.kind !== "eval") return [];
      return [tab.repeatedRowOf(run, spec, repeatsOf(run).map((k) => recordsIn(outOfRepeat(k, run))), seeds, prices)];
    });
    for (const row of rows) if (held.has(row.run)) row.held = { seed: seeds[0]! };
    const table = tab.renderTable(recipe, rows, { ...(prices ? { prices } : {}), repeats });
    fs.writeFileSync(path.join(outDir, "table.md"), table);
    fs.writeFileSync(path.join(outDir, "table.json"), `${JSON.stringify({ recipe, bench: benchDir, limit: limit ?? null, sets, repeats, held: [...held], seeds, prices: prices ?? null, rows }, null, 2)}\n`);
    // One page over the dev runs (the questions all of them ran), charts as compare's; with repeats, repeat 1's.
    const [{ compareRuns }, { renderCompareHtml }] = await Promise.all([import("../../runner/compare.ts"), import("../../runner/report-html.ts")]);
    const devRuns = order.filter((run) => recipe.runs[run]!.kind === "eval" && !blocked.has(run) && splitOf(run) === "dev");
    if (devRuns.length) {
      const comparison = compareRuns(
        devRuns.map((run, i) => ({ key: `R${i + 1}`, label: run, dir: outOfRepeat(1, run), records: new Map(recordsIn(outOfRepeat(1, run)).map((r) => [r.id, r])), run: {} })),
        prices,
      );
      const title = `sqlmend experiment: ${recipe.name}`;
      const note = `The Experiment table is table.json's (every answered question of each run${repeats > 1 ? `, means over ${repeats} repeats` : ""}); the summary and charts below compare the dev runs on the questions all of them answered${repeats > 1 ? " in repeat 1, except EX per repeat, which draws every repeat" : ""}.`;
      const experiment = rows.filter((r) => !r.notRun && !r.guideline).map((r) => ({ run: r.run, graph: r.graph, questions: r.questions, ex: r.ex, sd: r.repeats ? r.repeats.sd : null, repeats: r.repeats ? { seeds: r.repeats.seeds, ex: r.repeats.ex } : null, tokensPerQuestion: r.tokensPerQuestion, callsPerQuestion: r.callsPerQuestion, costPerQuestion: r.costPerQuestion, failed: r.failed }));
      const guidelines = rows.filter((r) => r.guideline).map((r) => ({ run: r.run, maxIter: r.guideline!.maxIter, failures: r.guideline!.failures, correctedWithin: r.guideline!.correctedWithin }));
      fs.writeFileSync(path.join(outDir, "report.html"), renderCompareHtml(comparison, { command: commandLine("experiment", argv), title, note, experiment, guidelines }));
    }
    io.stdout(`${table}\nTable: ${path.join(outDir, "table.md")}\n`);
    // Failed questions, or a guideline run without its stats: not what was asked (--resume retries them).
    return rows.some((r) => r.failed || r.notRun?.includes("--resume retries it")) ? EXIT.incomplete : EXIT.ok;
  },
};

interface RunContext {
  io: CliIO;
  recipe: Recipe;
  order: string[];
  benchDir: string;
  splitOf: (run: string) => string;
  forwarded: string[];
  sets: Record<string, string>;
  resume: boolean;
}

/**
 * Runs the recipe's runs in order into `dir`/<run>/, through the commands' own code. A run that cannot run is added
 * to `blocked` with the reason (printed in the table), as are the runs that need it. A stop status (130 Ctrl-C, 143
 * SIGTERM, 129 SIGHUP): stopped.
 */
async function executeRuns(
  ctx: RunContext,
  at: { dir: string; outOf?: (run: string) => string; skip?: Set<string>; limit: number | undefined; extra: string[]; blocked: Map<string, string>; resume: boolean },
): Promise<{ code: number }> {
  const { io, recipe, order, benchDir, splitOf, sets } = ctx;
  const forwarded = [...ctx.forwarded, ...at.extra];
  const { blocked } = at;
  const ex = await import("../../runner/experiment.ts");
  const outOf = at.outOf ?? ((run: string) => path.join(at.dir, run));
  const [{ evalCommand }, { magicCommand }, { memoCommand }] = await Promise.all([import("./eval.ts"), import("./magic.ts"), import("./memo.ts")]);
  const checkpointsFlag = forwarded.findIndex((a) => a === "--checkpoints" || a.startsWith("--checkpoints="));
  const checkpointsArgs = checkpointsFlag < 0 ? [] : forwarded[checkpointsFlag]!.includes("=") ? [forwarded[checkpointsFlag]!] : forwarded.slice(checkpointsFlag, checkpointsFlag + 2);
  for (const run of order) {
    if (at.skip?.has(run)) continue;
    const spec = recipe.runs[run]!;
    const split = splitOf(run);
    // A run needing a file another run did not write (a guideline batch a short run never merged) is not run, with
    // the reason in the table — nor are the runs that need it.
    const missing = Object.values(spec.options).flat().map(String).filter((v) => /\{run:[^}]+\}\//.test(v)).map((v) => ex.resolveRefs(v, outOf, sets)).find((f) => !fs.existsSync(f));
    const lost = ex.dependenciesOf(recipe, run).find((d) => blocked.has(d));
    if (!blocked.has(run) && (missing || lost)) blocked.set(run, missing ? `${path.relative(at.dir, missing)} was not written by its run` : `run ${lost} did not run: ${blocked.get(lost!)}`);
    if (blocked.has(run)) {
      io.stderr(`\nsqlmend experiment ${recipe.name}: run ${run} not run: ${blocked.get(run)}\n`);
      continue;
    }
    const resolve = (v: string) => ex.resolveRefs(v, outOf, sets);
    const limitArgs = at.limit ? ["--limit", String(at.limit)] : [];
    const args = ["--bench", benchDir, "--out", outOf(run), "--split", split, ...limitArgs, ...optionArgs(spec.options, resolve)];
    if (spec.initial) {
      const initialFile = recipe.runs[spec.initial] ? path.join(outOf(spec.initial), `predict_${splitOf(spec.initial)}.json`) : path.resolve(io.cwd, resolve(spec.initial));
      args.push("--initial", initialFile, "--correct", spec.correct ?? "all");
    }
    // --resume continues each run; a run not started yet has no run.json, and eval then starts it.
    if (at.resume && fs.existsSync(outOf(run))) args.push("--resume");
    io.stderr(`\nsqlmend experiment ${recipe.name}: run ${run} (${order.indexOf(run) + 1}/${order.length})\n`);
    const prefixed: CliIO = { ...io, stdout: (t) => io.stderr(t.replace(/^(?=.)/gm, `  ${run}: `)) };
    let code: number;
    if (spec.kind === "magic-guideline") code = await magicCommand.run(["guideline", ...args, ...forwarded], prefixed);
    else if (spec.kind === "memo-build") {
      // memo build writes a file: OUT/<run>/memory.sqlite; it keeps no checkpoints (--checkpoints is eval's).
      const memory = path.join(outOf(run), "memory.sqlite");
      fs.mkdirSync(outOf(run), { recursive: true });
      const withoutCheckpoints = forwarded.filter((_, i) => i < checkpointsFlag || i >= checkpointsFlag + checkpointsArgs.length);
      code = await memoCommand.run(["build", "--bench", benchDir, "--out", memory, "--split", split, ...limitArgs, ...optionArgs(spec.options, resolve), ...(at.resume && fs.existsSync(memory) ? ["--resume"] : []), ...(checkpointsFlag < 0 ? forwarded : withoutCheckpoints)], prefixed);
    } else if (spec.kind === "memo-candidates") {
      fs.mkdirSync(outOf(run), { recursive: true });
      code = await memoCommand.run(["candidates", "--run", outOf(spec.from!), "--out", path.join(outOf(run), "candidates.json"), ...checkpointsArgs], prefixed);
    } else code = await evalCommand.run([...(isGraphModule(spec.graph!) ? ["--graph", spec.graph!] : [spec.graph!]), ...args, ...forwarded], prefixed);
    if (isStopStatus(code)) {
      io.stderr(`Stopped during run ${run}; --resume continues the experiment.\n`);
      return { code };
    }
    // 3: the run finished with failed questions (counted in the table; --resume retries them); the others go on.
    if (code === EXIT.incomplete) io.stderr(`warning: run ${run} finished with failed questions; the table counts them, --resume retries them\n`);
    else if (code !== 0) throw new UserError(`run ${run} exited with ${code}; --resume continues the experiment once it is fixed`);
  }
  return { code: 0 };
}

/** A recipe file's text; unreadable is one line. */
function readRecipeFile(file: string, name: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new UserError(`${name}: cannot read (${firstLineOf(error)})`);
  }
}

/** The boolean flags of eval and magic guideline (forwarded without a value). */
const BOOLEAN_EVAL_FLAGS = new Set(
  Object.entries({ ...runFlags, ...graphFlags(), ...RUN_DIR_FLAGS, "keep-distinct": { type: "boolean" }, "no-manager": { type: "boolean" } } as Record<string, { type: string }>)
    .filter(([, d]) => d.type === "boolean")
    .map(([flag]) => `--${flag}`),
);

/** Recipe options as flags: true → --flag, false → left out, a list → the flag repeated. */
function optionArgs(options: Record<string, string | number | boolean | string[]>, resolve: (value: string) => string): string[] {
  return Object.entries(options).flatMap(([flag, value]) => {
    if (value === true) return [`--${flag}`];
    if (value === false) return [];
    if (Array.isArray(value)) return value.flatMap((v) => [`--${flag}`, resolve(v)]);
    return [`--${flag}`, resolve(String(value))];
  });
}

/** `--list`: every built-in recipe, what it reproduces, its runs and those that need what sqlmend lacks or a --set value. */
function listRecipes(recipes: Record<string, import("../../runner/experiment.ts").Recipe>): string {
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
      const spec = isGraphModule(run.graph!) ? (await loadRunModules(["--graph", run.graph!], cwd)).graph!.spec : findManifest(run.graph!);
      if (!spec || spec.runBy) throw new UserError(`${source}${lineOf(["runs", name], "graph")}: runs.${name}: no graph '${run.graph}' that eval runs`);
      own = Object.keys(optionDefsOf(spec)).map(flagOf);
    } else own = STEP_FLAGS[run.kind]!;
    for (const flag of Object.keys(run.options)) {
      if (!shared.has(flag) && !own.includes(flag)) throw new UserError(`${source}${lineOf(["runs", name, "options"], flag)}: runs.${name}: --${flag} is not an option of ${run.kind === "eval" ? run.graph : run.kind}`);
    }
  }
}
