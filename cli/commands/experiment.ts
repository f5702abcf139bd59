import fs from "node:fs";
import path from "node:path";
import type { CliIO, Command } from "../shared/command.ts";
import { UsageError, UserError } from "../shared/command.ts";
import { graphFlags, runFlags } from "../shared/setup.ts";
import { RUN_DIR_FLAGS } from "../../runner/run-dir.ts";
import { findManifest } from "../../graphs/registry.ts";
import { flagOf } from "../../core/options.ts";

const OWN_VALUE_FLAGS = new Set(["--bench", "--out", "--limit"]);
const OWN_BOOLEAN_FLAGS = new Set(["--dry-run", "--resume", "--list"]);

export const experimentCommand: Command = {
  name: "experiment",
  usage: `Usage: sqlmend experiment RECIPE --bench DIR|minibench --out DIR [--limit N] [--set NAME=VALUE] [--dry-run] [--resume] [eval flags...]
       sqlmend experiment --list

Runs a recipe of named runs, each in OUT/<run>/ with eval's usual outputs (results.jsonl, predictions, report.md,
report.html, run.json), then writes OUT/table.md, OUT/table.json and OUT/report.html. A run that others take their
initial SQL from runs once, first. RECIPE is a built-in recipe's name or a JSON file:

  {"name": "mine", "runs": {
     "initial": {"graph": "baseline"},
     "guideline": {"kind": "magic-guideline"},
     "magic.errors": {"graph": "magic", "initial": "initial", "correct": "errors",
                      "options": {"guideline": "{run:guideline}/guideline.md"}},
     "repair.file": {"graph": "repair", "initial": "preds/predict_dev.json", "options": {"max-fix-rounds": 2}}}}

  run fields: kind eval (default) | magic-guideline (sqlmend magic guideline, on the train split); graph; options
  (flags by name, as on the command line); initial (a run of the recipe or a predictions file); correct
  all|errors|incorrect; split dev|train. "{run:NAME}" in an option is NAME's output folder.

  run fields also: kind memo-build (memo build, train split, OUT/<run>/memory.sqlite) | memo-candidates (with
  "from": a memo-sql run; OUT/<run>/candidates.json); paper {source, model, row, figures} (printed beside ours);
  needs (a method sqlmend lacks: never run, printed with the reason). "{set:NAME}" is the value of --set NAME=VALUE.

Built-in recipes (sqlmend experiment --list says what each reproduces): correctors, magic-table1, magic-guideline,
r3-table3, memo-ablation, memo-correction, ts-sql-table4, ts-sql-table5

  --list        the built-in recipes and what each reproduces (no other flag needed)
  --set NAME=VALUE  a value the recipe names as {set:NAME} (a human-written guideline, another system's predictions);
                until given, the runs that need it are listed and printed with what they need
  --limit N     the first N questions of every run
  --dry-run     list the runs in order, their questions, and the calls still expected (measured in OUT: the run's
                finished questions, or another run of the same graph)
  --resume      continue a killed or finished experiment in --out (each run resumes; finished ones redo nothing)
  Every other flag (--model, --config, --concurrency, --cache, --checkpoints, ...) goes to every run.`,
  async run(argv, io) {
    const positionals: string[] = [];
    const own: Record<string, string | boolean> = {};
    const sets: Record<string, string> = {};
    const forwarded: string[] = [];
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
        if (inline === undefined && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("--") && !BOOLEAN_EVAL_FLAGS.has(flag)) forwarded.push(argv[++i]!);
      } else positionals.push(arg);
    }
    const ex = await import("../../runner/experiment.ts");
    const { BUILT_IN_RECIPES } = await import("../../runner/experiment-recipes.ts");
    if (own.list) {
      io.stdout(`${listRecipes(BUILT_IN_RECIPES)}\n`);
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError(positionals.length ? `unexpected argument '${positionals[1]}'` : "name a recipe (built-in: correctors) or a recipe JSON file");
    if (typeof own.bench !== "string") throw new UsageError("--bench DIR is required");
    if (typeof own.out !== "string") throw new UsageError("--out DIR is required");
    let limit: number | undefined;
    if (own.limit !== undefined) {
      limit = Number(own.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit takes a whole number >= 1, not '${own.limit}'`);
    }
    const name = positionals[0]!;
    const file = path.resolve(io.cwd, name);
    // A built-in recipe goes through the same checks as a file (zod, runs named, no cycle).
    const recipe = BUILT_IN_RECIPES[name] ? ex.parseRecipe(JSON.stringify(BUILT_IN_RECIPES[name]), name) : (fs.existsSync(file) ? ex.parseRecipe(fs.readFileSync(file, "utf8"), name) : undefined);
    if (!recipe) throw new UserError(`no recipe '${name}': name a built-in recipe (${Object.keys(BUILT_IN_RECIPES).join(", ")}) or a recipe JSON file`);
    const order = ex.orderRuns(recipe, name);
    checkOptions(recipe, name);
    for (const s of Object.keys(sets)) if (!Object.values(recipe.runs).some((r) => ex.setsOf(r).includes(s))) throw new UsageError(`--set ${s}: recipe ${recipe.name} has no {set:${s}}`);
    const blocked = new Map(order.map((run) => [run, ex.blockedReason(recipe, run, sets)] as const).filter((e): e is [string, string] => e[1] !== undefined));
    const outDir = path.resolve(io.cwd, own.out);
    const outOf = (run: string) => path.join(outDir, run);
    const splitOf = (run: string) => recipe.runs[run]!.split ?? (recipe.runs[run]!.kind === "magic-guideline" || recipe.runs[run]!.kind === "memo-build" ? "train" : "dev");

    const { resolveBenchmarkDir, loadBenchmark } = await import("../../tools/benchmarks/benchmark.ts");
    const benchDir = await resolveBenchmarkDir(own.bench, io.env, io.cwd);
    const { parseResults } = await import("../../runner/report.ts");
    const recordsOf = (run: string) => {
      const results = path.join(outOf(run), "results.jsonl");
      return fs.existsSync(results) ? [...parseResults(fs.readFileSync(results, "utf8")).records.values()] : [];
    };

    if (own["dry-run"]) {
      const { selectQuestions } = await import("../../runner/run-dir.ts");
      const counts = new Map<string, number>();
      for (const split of new Set(order.map(splitOf))) counts.set(split, selectQuestions(await loadBenchmark(benchDir, { split }), undefined, limit).questions.length);
      const lines = [`sqlmend experiment ${recipe.name}: ${order.length} runs on ${benchDir}, in this order`, ""];
      let expected = 0;
      let unknown = 0;
      for (const run of order) {
        const spec = recipe.runs[run]!;
        const questions = counts.get(splitOf(run))!;
        const reason = blocked.get(run);
        if (reason) {
          lines.push(`  ${run.padEnd(24)} ${(spec.graph ?? spec.paper?.row ?? spec.kind).padEnd(44)} not run: ${reason}`);
          continue;
        }
        if (spec.kind === "memo-candidates") {
          lines.push(`  ${run.padEnd(24)} ${`memo candidates of ${spec.from}`.padEnd(44)} no model calls (read from ${spec.from}'s checkpoints)`);
          continue;
        }
        const done = spec.kind === "eval" ? recordsOf(run) : [];
        // A guideline or memory step is done once it wrote its stats / memory (its own records are not eval's).
        const guidelineDone = (spec.kind === "magic-guideline" && fs.existsSync(path.join(outOf(run), "stats.json"))) || (spec.kind === "memo-build" && fs.existsSync(path.join(outOf(run), "memory.sqlite")));
        const todo = guidelineDone ? 0 : Math.max(0, questions - done.length);
        // Measured: this run's finished questions, else those of another run of the same graph in OUT.
        const sameGraph = done.length ? done : order.filter((o) => o !== run && recipe.runs[o]!.graph === spec.graph && recipe.runs[o]!.kind === "eval").flatMap(recordsOf);
        const perQuestion = spec.kind === "eval" && sameGraph.length ? sameGraph.reduce((n, r) => n + r.calls, 0) / sameGraph.length : undefined;
        if (perQuestion !== undefined) expected += perQuestion * todo;
        else if (todo) unknown++;
        const what = spec.kind === "magic-guideline" ? "magic guideline" : spec.kind === "memo-build" ? "memo build" : `${spec.graph}${spec.initial ? ` on ${spec.initial}, --correct ${spec.correct ?? "all"}` : ""}`;
        const calls = !todo ? "0 calls (done)" : perQuestion !== undefined ? `~${Math.round(perQuestion * todo)} calls (${perQuestion.toFixed(1)}/question measured${done.length ? "" : ` in another ${spec.graph} run`})` : "calls unknown until it runs";
        lines.push(`  ${run.padEnd(24)} ${what.padEnd(44)} ${splitOf(run)}: ${questions} questions, ${guidelineDone ? questions : done.length} done; ${calls}`);
      }
      if (blocked.size) lines.push("", `${blocked.size} run${blocked.size === 1 ? "" : "s"} not run (the table prints their rows with the reason)`);
      lines.push("", `Expected calls: ~${Math.round(expected)}${unknown ? ` plus those of ${unknown} run${unknown === 1 ? "" : "s"} not measured yet` : ""} (the response cache may serve many of them)`);
      io.stdout(`${lines.join("\n")}\n`);
      return 0;
    }

    const [{ evalCommand }, { magicCommand }, { memoCommand }] = await Promise.all([import("./eval.ts"), import("./magic.ts"), import("./memo.ts")]);
    const checkpointsFlag = forwarded.findIndex((a) => a === "--checkpoints" || a.startsWith("--checkpoints="));
    const checkpointsArgs = checkpointsFlag < 0 ? [] : forwarded[checkpointsFlag]!.includes("=") ? [forwarded[checkpointsFlag]!] : forwarded.slice(checkpointsFlag, checkpointsFlag + 2);
    for (const run of order) {
      const spec = recipe.runs[run]!;
      const split = splitOf(run);
      // A run needing a file another run did not write (a guideline batch a short run never merged) is not run, with
      // the reason in the table — nor are the runs that need it.
      const missing = Object.values(spec.options).flat().map(String).filter((v) => /\{run:[^}]+\}\//.test(v)).map((v) => ex.resolveRefs(v, outOf, sets)).find((f) => !fs.existsSync(f));
      const lost = ex.dependenciesOf(recipe, run).find((d) => blocked.has(d));
      if (!blocked.has(run) && (missing || lost)) blocked.set(run, missing ? `${path.relative(outDir, missing)} was not written by its run` : `run ${lost} did not run: ${blocked.get(lost!)}`);
      if (blocked.has(run)) {
        io.stderr(`\nsqlmend experiment ${recipe.name}: run ${run} not run: ${blocked.get(run)}\n`);
        continue;
      }
      const resolve = (v: string) => ex.resolveRefs(v, outOf, sets);
      const limitArgs = limit ? ["--limit", String(limit)] : [];
      const args = ["--bench", benchDir, "--out", outOf(run), "--split", split, ...limitArgs, ...optionArgs(spec.options, resolve)];
      if (spec.initial) {
        const initialFile = recipe.runs[spec.initial] ? path.join(outOf(spec.initial), `predict_${splitOf(spec.initial)}.json`) : path.resolve(io.cwd, resolve(spec.initial));
        args.push("--initial", initialFile, "--correct", spec.correct ?? "all");
      }
      if (own.resume) args.push("--resume");
      io.stderr(`\nsqlmend experiment ${recipe.name}: run ${run} (${order.indexOf(run) + 1}/${order.length})\n`);
      const prefixed: CliIO = { ...io, stdout: (t) => io.stderr(t.replace(/^(?=.)/gm, `  ${run}: `)) };
      let code: number;
      if (spec.kind === "magic-guideline") code = await magicCommand.run(["guideline", ...args, ...forwarded], prefixed);
      else if (spec.kind === "memo-build") {
        // memo build writes a file: OUT/<run>/memory.sqlite; it keeps no checkpoints (--checkpoints is eval's).
        const memory = path.join(outOf(run), "memory.sqlite");
        fs.mkdirSync(outOf(run), { recursive: true });
        const withoutCheckpoints = forwarded.filter((_, i) => i < checkpointsFlag || i >= checkpointsFlag + checkpointsArgs.length);
        code = await memoCommand.run(["build", "--bench", benchDir, "--out", memory, "--split", split, ...limitArgs, ...optionArgs(spec.options, resolve), ...(own.resume && fs.existsSync(memory) ? ["--resume"] : []), ...(checkpointsFlag < 0 ? forwarded : withoutCheckpoints)], prefixed);
      } else if (spec.kind === "memo-candidates") {
        fs.mkdirSync(outOf(run), { recursive: true });
        code = await memoCommand.run(["candidates", "--run", outOf(spec.from!), "--out", path.join(outOf(run), "candidates.json"), ...checkpointsArgs], prefixed);
      } else code = await evalCommand.run([spec.graph!, ...args, ...forwarded], prefixed);
      if (code === 130) {
        io.stderr(`Stopped during run ${run}; --resume continues the experiment.\n`);
        return 130;
      }
      // 3: the run finished with failed questions (counted in the table; --resume retries them); the others go on.
      if (code === 3) io.stderr(`warning: run ${run} finished with failed questions; the table counts them, --resume retries them\n`);
      else if (code !== 0) throw new UserError(`run ${run} exited with ${code}; --resume continues the experiment once it is fixed`);
    }

    const evalRuns = order.filter((run) => recipe.runs[run]!.kind === "eval" && !blocked.has(run));
    const rows = order.flatMap((run) => {
      const spec = recipe.runs[run]!;
      if (blocked.has(run)) return [ex.otherRowOf(run, spec, { notRun: blocked.get(run)! })];
      if (spec.kind === "magic-guideline") {
        const stats = JSON.parse(fs.readFileSync(path.join(outOf(run), "stats.json"), "utf8")) as import("../../runner/experiment.ts").GuidelineFigures;
        const { questions, failures, corrected, exAfter, avgIterations, correctedWithin, maxIter, noManager } = stats;
        return [ex.otherRowOf(run, spec, { guideline: { questions, failures, corrected, exAfter, avgIterations, correctedWithin, maxIter, noManager } })];
      }
      return spec.kind === "eval" ? [ex.rowOf(run, spec, recordsOf(run))] : [];
    });
    const table = ex.renderTable(recipe, rows);
    fs.writeFileSync(path.join(outDir, "table.md"), table);
    fs.writeFileSync(path.join(outDir, "table.json"), `${JSON.stringify({ recipe, bench: benchDir, limit: limit ?? null, sets, rows }, null, 2)}\n`);
    // One page over the dev runs (the questions all of them ran), charts as compare's.
    const [{ compareRuns }, { renderCompareHtml }] = await Promise.all([import("../../runner/compare.ts"), import("../../runner/report-html.ts")]);
    const devRuns = evalRuns.filter((run) => splitOf(run) === "dev");
    if (devRuns.length) {
      const keyOf = (i: number) => `R${i + 1}`;
      const comparison = compareRuns(devRuns.map((run, i) => ({ key: keyOf(i), label: run, dir: outOf(run), records: new Map(recordsOf(run).map((r) => [r.id, r])), run: {} })));
      fs.writeFileSync(path.join(outDir, "report.html"), renderCompareHtml(comparison, { command: `sqlmend experiment ${argv.join(" ")}`, title: `sqlmend experiment: ${recipe.name}` }));
    }
    io.stdout(`${table}\nTable: ${path.join(outDir, "table.md")}\n`);
    return rows.some((r) => r.failed) ? 3 : 0;
  },
};

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
function checkOptions(recipe: import("../../runner/experiment.ts").Recipe, source: string) {
  const shared = new Set([...Object.keys(runFlags), ...Object.keys(RUN_DIR_FLAGS)]);
  for (const [name, run] of Object.entries(recipe.runs)) {
    if (run.needs) continue;
    let own: string[];
    if (run.kind === "eval") {
      const spec = findManifest(run.graph!);
      if (!spec || spec.runBy) throw new UserError(`${source}: runs.${name}: no graph '${run.graph}' that eval runs`);
      own = Object.keys(spec.options ?? {}).map(flagOf);
    } else own = STEP_FLAGS[run.kind]!;
    for (const flag of Object.keys(run.options)) {
      if (!shared.has(flag) && !own.includes(flag)) throw new UserError(`${source}: runs.${name}: --${flag} is not an option of ${run.kind === "eval" ? run.graph : run.kind}`);
    }
  }
}
