import fs from "node:fs";
import path from "node:path";
import { firstLineOf, UsageError, UserError } from "../core/errors.js";
import { EXIT, isStopStatus } from "../core/exit.js";
import { defaultIO } from "../core/io.js";
import { commandLine } from "../core/secrets.js";
import { BUILT_IN_RECIPES } from "./experiment-recipes.js";
import { graphFlags, isGraphModule, loadRunModules, moduleArgsOf, runFlags } from "./run-options.js";
import { optionDefsOf } from "../graphs/manifests/manifest.js";
import { RUN_DIR_FLAGS } from "./run-dir-flags.js";
import { findManifest } from "../graphs/registry.js";
import { flagOf } from "../core/options.js";
import { commandLineOf, flagValuesOf } from "./run-values.js";
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
};
/** The flags an experiment forwards to its runs: eval's (and its modules' options), magic guideline's and memo build's. */
export const experimentForwardFlags = (modules) => {
    const { bench: _b, out: _o, limit: _l, resume: _r, ...forward } = { ...runFlags, ...graphFlags(modules), ...RUN_DIR_FLAGS, semantics: { type: "string" }, "keep-distinct": { type: "boolean" }, shard: { type: "string" }, server: { type: "string" }, batch: { type: "string" }, samples: { type: "string" }, elicit: { type: "string" }, "sample-temperature": { type: "string" } };
    return forward;
};
export const EXPERIMENT_USAGE = `Usage: sqlmend experiment RECIPE --bench DIR|minibench --out DIR [--limit N] [--repeats N [--hold RUN,...]] [--set NAME=VALUE]
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
  Every other flag (--model, --config, --concurrency, --cache, --checkpoints, ...) goes to every run.`;
/**
 * Runs a recipe (a built-in's name or a YAML/JSON file) as `sqlmend experiment` does — each run through the run API,
 * never through argv — and writes OUT/table.md, table.json and report.html. Options by name: `recipe`, `bench`, `out`,
 * `limit`, `repeats`, `hold`, `pilot`, `priceIn`, `priceOut`, `dryRun`, `resume`, `set: { NAME: VALUE }`; every other
 * name is a flag forwarded to every run (`model`, `baseUrl`, `concurrency`, `cache`, ...).
 */
export async function runExperiment(options, io = defaultIO()) {
    const { recipe, set, ...rest } = options;
    const own = {};
    const forward = {};
    for (const [key, value] of Object.entries(rest))
        (flagOf(key) in EXPERIMENT_FLAGS ? own : forward)[key] = value;
    const ownValues = flagValuesOf("runExperiment", { ...own, ...(set ? { set } : {}) }, EXPERIMENT_FLAGS);
    const modules = await loadRunModules(moduleArgsOf(forward), io.cwd);
    const forwarded = flagValuesOf("runExperiment", forward, experimentForwardFlags(modules));
    return experimentFrom({ own: ownValues, forwarded, positionals: [recipe] }, io);
}
/** experiment from its own flag values, the forwarded ones and the recipe (the launcher's parse, or `runExperiment`'s). */
export async function experimentFrom(input, io) {
    const { positionals } = input;
    const own = input.own;
    const ownValues = input.own;
    const forwarded = { ...input.forwarded };
    const sets = {};
    for (const item of input.own.set ?? []) {
        const eq = item.indexOf("=");
        if (eq < 1)
            throw new UsageError("--set takes NAME=VALUE (a value the recipe names as {set:NAME})");
        sets[item.slice(0, eq)] = item.slice(eq + 1);
    }
    const ex = await import("./experiment.js");
    if (own.list) {
        io.stdout(`${listRecipes(BUILT_IN_RECIPES)}\n`);
        return { exitCode: EXIT.ok };
    }
    if (positionals.length !== 1)
        throw new UsageError(positionals.length ? `unexpected argument '${positionals[1]}'` : "name a recipe (built-in: correctors) or a recipe YAML or JSON file");
    const name = positionals[0];
    const file = path.resolve(io.cwd, name);
    // A built-in recipe goes through the same checks as a file (zod, runs named, no cycle).
    const builtIn = BUILT_IN_RECIPES[name];
    const read = builtIn ? { recipe: ex.validateRecipe(builtIn, name), lineOf: () => "" } : fs.existsSync(file) ? ex.readRecipe(readRecipeFile(file, name), name) : undefined;
    if (!read)
        throw new UserError(`no recipe '${name}': name a built-in recipe (${Object.keys(BUILT_IN_RECIPES).join(", ")}) or a recipe YAML or JSON file`);
    const { recipe } = read;
    if (own.print) {
        const { stringify } = await import("yaml");
        io.stdout(stringify(recipe, { lineWidth: 0 }));
        return { exitCode: EXIT.ok };
    }
    if (typeof own.bench !== "string")
        throw new UsageError("--bench DIR is required");
    if (typeof own.out !== "string")
        throw new UsageError("--out DIR is required");
    const whole = (flag, min) => {
        if (own[flag] === undefined)
            return undefined;
        const n = Number(own[flag]);
        if (!Number.isInteger(n) || n < min)
            throw new UsageError(`--${flag} takes a whole number >= ${min}, not '${own[flag]}'`);
        return n;
    };
    const limit = whole("limit", 1);
    const repeats = whole("repeats", 1) ?? 1;
    const pilot = whole("pilot", 1);
    if (own.hold !== undefined && repeats < 2)
        throw new UsageError("--hold RUN,... goes with --repeats N (N >= 2): the runs every repeat shares");
    if (pilot !== undefined && !own["dry-run"])
        throw new UsageError("--pilot N goes with --dry-run (a short real run of every run, then the estimate)");
    const price = (flag) => {
        if (own[flag] === undefined)
            return undefined;
        const n = Number(own[flag]);
        if (!Number.isFinite(n) || n < 0)
            throw new UsageError(`--${flag} takes USD per million tokens (a number >= 0), not '${own[flag]}'`);
        return n;
    };
    const priceIn = price("price-in");
    const priceOut = price("price-out");
    if ((priceIn === undefined) !== (priceOut === undefined))
        throw new UsageError("--price-in and --price-out go together (USD per million input and output tokens)");
    const prices = priceIn !== undefined ? { input: priceIn, output: priceOut } : undefined;
    // Seeds: repeat k of N gets seed base+k-1 (base: a forwarded --seed, else 1); one run keeps a forwarded --seed as is.
    let seeds = [];
    if (repeats > 1) {
        const seedGiven = typeof forwarded.seed === "string" ? forwarded.seed : "1";
        const base = Number(seedGiven);
        if (!Number.isInteger(base))
            throw new UsageError(`--seed takes a whole number, not '${seedGiven}'`);
        delete forwarded.seed;
        seeds = Array.from({ length: repeats }, (_, k) => base + k);
    }
    const order = ex.orderRuns(recipe, name);
    await checkOptions(recipe, name, read.lineOf, io.cwd);
    const held = typeof own.hold === "string" ? ex.heldRuns(recipe, own.hold) : new Set();
    for (const s of Object.keys(sets))
        if (!Object.values(recipe.runs).some((r) => ex.setsOf(r).includes(s)))
            throw new UsageError(`--set ${s}: recipe ${recipe.name} has no {set:${s}}`);
    const blockedAtStart = new Map(order.map((run) => [run, ex.blockedReason(recipe, run, sets)]).filter((e) => e[1] !== undefined));
    const outDir = path.resolve(io.cwd, own.out);
    const layout = ex.repeatLayout(outDir, repeats, held);
    const { dirOf: repeatDir, runDir: outOfRepeat, repeatsOf } = layout;
    const splitOf = (run) => recipe.runs[run].split ?? (recipe.runs[run].kind === "magic-guideline" || recipe.runs[run].kind === "memo-build" ? "train" : "dev");
    const { resolveBenchmarkDir } = await import("../tools/benchmarks/resolve.js");
    const { loadBenchmark } = await import("../tools/benchmarks/benchmark.js");
    const benchDir = await resolveBenchmarkDir(own.bench, io.env, io.cwd);
    const { parseResults } = await import("./report.js");
    // Read once per folder: the table, the page and the dry run's estimates all read the same runs (after they ran).
    const recordsByDir = new Map();
    const recordsIn = (dir) => {
        const results = path.join(dir, "results.jsonl");
        if (!recordsByDir.has(dir))
            recordsByDir.set(dir, fs.existsSync(results) ? [...parseResults(fs.readFileSync(results, "utf8")).records.values()] : []);
        return recordsByDir.get(dir);
    };
    const ctx = { io, recipe, order, benchDir, splitOf, forwarded, sets, resume: own.resume === true };
    if (own["dry-run"]) {
        if (pilot !== undefined) {
            const pilotDir = path.join(outDir, "pilot");
            io.stderr(`sqlmend experiment ${recipe.name}: pilot of every run on ${Math.min(pilot, limit ?? pilot)} questions in ${pilotDir} (spends tokens; --resume there continues it)\n`);
            const done = await executeRuns(ctx, { dir: pilotDir, limit: Math.min(pilot, limit ?? pilot), extra: {}, blocked: new Map(blockedAtStart), resume: true });
            if (isStopStatus(done.code))
                return { exitCode: done.code };
        }
        const { selectQuestions } = await import("./selection.js");
        const counts = new Map();
        const notes = [];
        for (const split of new Set(order.map(splitOf))) {
            const bench = await loadBenchmark(benchDir, { split });
            counts.set(split, selectQuestions(bench, undefined, limit).questions.length);
            // Questions the benchmark lists but cannot run (a database file missing) are said, as eval says them.
            if (bench.skipped.length)
                notes.push(`${split}: ${bench.skipped.length} questions skipped (first: ${bench.skipped[0].id}, ${bench.skipped[0].reason}); every run leaves them out`);
        }
        const plan = await import("./experiment-plan.js");
        io.stdout(`${plan.renderPlan({ recipe, order, benchDir, layout, seeds, prices, counts, splitOf, blocked: blockedAtStart, outDir, recordsIn, notes, knownCalls: (run) => plan.knownCallsOf(recipe.runs[run], forwarded) })}\n`);
        return { exitCode: EXIT.ok };
    }
    const blocked = new Map(blockedAtStart);
    for (let k = 1; k <= repeats; k++) {
        if (repeats > 1)
            io.stderr(`\nsqlmend experiment ${recipe.name}: repeat ${k} of ${repeats} (--seed ${seeds[k - 1]}) in ${repeatDir(k)}\n`);
        // Held runs ran in repeat 1: later repeats skip them, and what blocked them there blocks them here.
        const blockedHere = new Map([...blockedAtStart, ...[...blocked].filter(([run]) => held.has(run))]);
        const skip = k > 1 ? held : new Set();
        const done = await executeRuns(ctx, { dir: repeatDir(k), outOf: (run) => outOfRepeat(k, run), skip, limit, extra: repeats > 1 ? { seed: String(seeds[k - 1]) } : {}, blocked: blockedHere, resume: ctx.resume });
        if (isStopStatus(done.code))
            return { exitCode: done.code };
        // A run blocked in any repeat (a file its dependency did not write there) is a row not run, with the repeat.
        for (const [run, reason] of blockedHere)
            if (!blocked.has(run))
                blocked.set(run, repeats > 1 && !held.has(run) ? `${reason} (repeat ${k})` : reason);
    }
    const tab = await import("./experiment-table.js");
    const rows = order.flatMap((run) => {
        const spec = recipe.runs[run];
        if (blocked.has(run))
            return [tab.otherRowOf(run, spec, { notRun: blocked.get(run) })];
        if (spec.kind === "magic-guideline") {
            return repeatsOf(run).map((k) => {
                const name = repeats > 1 && !held.has(run) ? `${run} (repeat ${k})` : run;
                const file = path.join(outOfRepeat(k, run), "stats.json");
                // A guideline run that stopped before its stats (failed merges, Ctrl-C) is a row not run, with what to do.
                if (!fs.existsSync(file))
                    return tab.otherRowOf(name, spec, { notRun: `${path.relative(outDir, file)} was not written: the guideline run did not finish; --resume retries it` });
                const stats = JSON.parse(fs.readFileSync(file, "utf8"));
                const { questions, failures, corrected, exAfter, avgIterations, correctedWithin, maxIter, noManager } = stats;
                return tab.otherRowOf(name, spec, { guideline: { questions, failures, corrected, exAfter, avgIterations, correctedWithin, maxIter, noManager } });
            });
        }
        if (spec.kind !== "eval")
            return [];
        return [tab.repeatedRowOf(run, spec, repeatsOf(run).map((k) => recordsIn(outOfRepeat(k, run))), seeds, prices)];
    });
    for (const row of rows)
        if (held.has(row.run))
            row.held = { seed: seeds[0] };
    const table = tab.renderTable(recipe, rows, { ...(prices ? { prices } : {}), repeats });
    fs.writeFileSync(path.join(outDir, "table.md"), table);
    fs.writeFileSync(path.join(outDir, "table.json"), `${JSON.stringify({ recipe, bench: benchDir, limit: limit ?? null, sets, repeats, held: [...held], seeds, prices: prices ?? null, rows }, null, 2)}\n`);
    // One page over the dev runs (the questions all of them ran), charts as compare's; with repeats, repeat 1's.
    const [{ compareRuns }, { renderCompareHtml }] = await Promise.all([import("./compare.js"), import("./report-html.js")]);
    const devRuns = order.filter((run) => recipe.runs[run].kind === "eval" && !blocked.has(run) && splitOf(run) === "dev");
    if (devRuns.length) {
        const comparison = compareRuns(devRuns.map((run, i) => ({ key: `R${i + 1}`, label: run, dir: outOfRepeat(1, run), records: new Map(recordsIn(outOfRepeat(1, run)).map((r) => [r.id, r])), run: {} })), prices);
        const title = `sqlmend experiment: ${recipe.name}`;
        const note = `The Experiment table is table.json's (every answered question of each run${repeats > 1 ? `, means over ${repeats} repeats` : ""}); the summary and charts below compare the dev runs on the questions all of them answered${repeats > 1 ? " in repeat 1, except EX per repeat, which draws every repeat" : ""}.`;
        const experiment = rows.filter((r) => !r.notRun && !r.guideline).map((r) => ({ run: r.run, graph: r.graph, questions: r.questions, ex: r.ex, sd: r.repeats ? r.repeats.sd : null, repeats: r.repeats ? { seeds: r.repeats.seeds, ex: r.repeats.ex } : null, tokensPerQuestion: r.tokensPerQuestion, callsPerQuestion: r.callsPerQuestion, costPerQuestion: r.costPerQuestion, failed: r.failed }));
        const guidelines = rows.filter((r) => r.guideline).map((r) => ({ run: r.run, maxIter: r.guideline.maxIter, failures: r.guideline.failures, correctedWithin: r.guideline.correctedWithin }));
        fs.writeFileSync(path.join(outDir, "report.html"), renderCompareHtml(comparison, { command: input.argv ? commandLine("experiment", input.argv) : commandLineOf("experiment", positionals, { ...ownValues, ...forwarded }), title, note, experiment, guidelines }));
    }
    io.stdout(`${table}\nTable: ${path.join(outDir, "table.md")}\n`);
    // Failed questions, or a guideline run without its stats: not what was asked (--resume retries them).
    return { exitCode: rows.some((r) => r.failed || r.notRun?.includes("--resume retries it")) ? EXIT.incomplete : EXIT.ok, outDir, table: path.join(outDir, "table.md") };
}
/**
 * Runs the recipe's runs in order into `dir`/<run>/, through the commands' own code. A run that cannot run is added
 * to `blocked` with the reason (printed in the table), as are the runs that need it. A stop status (130 Ctrl-C, 143
 * SIGTERM, 129 SIGHUP): stopped.
 */
async function executeRuns(ctx, at) {
    const { io, recipe, order, benchDir, splitOf, sets } = ctx;
    const forwarded = { ...ctx.forwarded, ...at.extra };
    const { blocked } = at;
    const ex = await import("./experiment.js");
    const outOf = at.outOf ?? ((run) => path.join(at.dir, run));
    const [{ evaluate, evalFlags }, { learnFrom, MAGIC_GUIDELINE_FLAGS }, { memoBuild, memoBuildFlags, memoCandidates }] = await Promise.all([import("./eval-run.js"), import("./magic-guideline.js"), import("./memo-memory.js")]);
    for (const run of order) {
        if (at.skip?.has(run))
            continue;
        const spec = recipe.runs[run];
        const split = splitOf(run);
        // A run needing a file another run did not write (a guideline batch a short run never merged) is not run, with
        // the reason in the table — nor are the runs that need it.
        const missing = Object.values(spec.options).flat().map(String).filter((v) => /\{run:[^}]+\}\//.test(v)).map((v) => ex.resolveRefs(v, outOf, sets)).find((f) => !fs.existsSync(f));
        const lost = ex.dependenciesOf(recipe, run).find((d) => blocked.has(d));
        if (!blocked.has(run) && (missing || lost))
            blocked.set(run, missing ? `${path.relative(at.dir, missing)} was not written by its run` : `run ${lost} did not run: ${blocked.get(lost)}`);
        if (blocked.has(run)) {
            io.stderr(`\nsqlmend experiment ${recipe.name}: run ${run} not run: ${blocked.get(run)}\n`);
            continue;
        }
        const resolve = (v) => ex.resolveRefs(v, outOf, sets);
        // The run's values as its command would have parsed them: the forwarded flags, the recipe's options, the run's place.
        const place = { bench: benchDir, out: outOf(run), split, ...(at.limit ? { limit: String(at.limit) } : {}) };
        if (spec.initial) {
            place.initial = recipe.runs[spec.initial] ? path.join(outOf(spec.initial), `predict_${splitOf(spec.initial)}.json`) : path.resolve(io.cwd, resolve(spec.initial));
            place.correct = spec.correct ?? "all";
        }
        // --resume continues each run; a run not started yet has no run.json, and eval then starts it.
        if (at.resume && fs.existsSync(outOf(run)))
            place.resume = true;
        io.stderr(`\nsqlmend experiment ${recipe.name}: run ${run} (${order.indexOf(run) + 1}/${order.length})\n`);
        const prefixed = { ...io, stdout: (t) => io.stderr(t.replace(/^(?=.)/gm, `  ${run}: `)) };
        let code;
        if (spec.kind === "magic-guideline") {
            const values = valuesFor(run, MAGIC_GUIDELINE_FLAGS, forwarded, spec.options, resolve, place);
            code = (await learnFrom({ values, positionals: [] }, prefixed)).exitCode;
        }
        else if (spec.kind === "memo-build") {
            // memo build writes a file: OUT/<run>/memory.sqlite; it keeps no checkpoints (--checkpoints is eval's).
            const memory = path.join(outOf(run), "memory.sqlite");
            fs.mkdirSync(outOf(run), { recursive: true });
            const { checkpoints: _evalOnly, ...forMemo } = forwarded;
            const values = valuesFor(run, memoBuildFlags, forMemo, spec.options, resolve, { ...place, out: memory, resume: at.resume && fs.existsSync(memory) });
            code = (await memoBuild({ values, positionals: [] }, prefixed)).exitCode;
        }
        else if (spec.kind === "memo-candidates") {
            fs.mkdirSync(outOf(run), { recursive: true });
            const values = { run: outOf(spec.from), out: path.join(outOf(run), "candidates.json"), ...(forwarded.checkpoints !== undefined ? { checkpoints: forwarded.checkpoints } : {}) };
            code = (await memoCandidates({ values, positionals: [] }, prefixed)).exitCode;
        }
        else {
            // A graph module of the user's own runs as `eval --graph FILE`; its --node and --graph modules load as eval loads them.
            const module = isGraphModule(spec.graph);
            const withGraph = { ...forwarded, ...(module ? { graph: spec.graph } : {}) };
            const modules = await loadRunModules(moduleArgsOf(withGraph), io.cwd);
            const values = valuesFor(run, evalFlags(modules), withGraph, spec.options, resolve, place);
            code = (await evaluate({ values, positionals: module ? [] : [spec.graph], modules }, prefixed)).exitCode;
        }
        if (isStopStatus(code)) {
            io.stderr(`Stopped during run ${run}; --resume continues the experiment.\n`);
            return { code };
        }
        // 3: the run finished with failed questions (counted in the table; --resume retries them); the others go on.
        if (code === EXIT.incomplete)
            io.stderr(`warning: run ${run} finished with failed questions; the table counts them, --resume retries them\n`);
        else if (code !== EXIT.ok)
            throw new UserError(`run ${run} exited with ${code}; --resume continues the experiment once it is fixed`);
    }
    return { code: EXIT.ok };
}
/** A recipe file's text; unreadable is one line. */
function readRecipeFile(file, name) {
    try {
        return fs.readFileSync(file, "utf8");
    }
    catch (error) {
        throw new UserError(`${name}: cannot read (${firstLineOf(error)})`);
    }
}
/**
 * A run's flag values: the flags forwarded to every run and the recipe's options (`{run:…}`/`{set:…}` resolved; true
 * a flag, false left out, a list one comma-separated value, or the items of a repeatable flag), then the run's place.
 * A value the run's command does not take is refused as its parse would refuse it, naming the run.
 */
function valuesFor(run, table, forwarded, options, resolve, place) {
    const values = {};
    const put = (flag, value) => {
        if (value === undefined || value === false)
            return;
        const known = table[flag];
        if (!known)
            throw new UsageError(`run ${run}: --${flag} is not a flag of its command`);
        values[flag] = Array.isArray(value) && !known.multiple ? value.join(",") : known.multiple && typeof value === "string" ? [value] : value;
    };
    for (const [flag, value] of Object.entries(forwarded))
        put(flag, value);
    for (const [flag, value] of Object.entries(options))
        put(flag, value === true || value === false ? value : Array.isArray(value) ? value.map((v) => resolve(String(v))) : resolve(String(value)));
    for (const [flag, value] of Object.entries(place))
        put(flag, value);
    return values;
}
/** `--list`: every built-in recipe, what it reproduces, its runs and those that need what sqlmend lacks or a --set value. */
function listRecipes(recipes) {
    return Object.values(recipes)
        .map((r) => {
        const runs = Object.values(r.runs);
        const needs = runs.filter((x) => x.needs).length;
        const sets = [...new Set(runs.flatMap((x) => [...Object.values(x.options).flat(), x.initial ?? ""].flatMap((v) => [...String(v).matchAll(/\{set:([^}]+)\}/g)].map((m) => m[1]))))];
        const extra = [needs ? `${needs} need a method not in sqlmend (printed with the reason)` : "", sets.length ? `--set ${sets.map((x) => `${x}=FILE`).join(", ")} for the rows that need them` : ""].filter(Boolean);
        return `${r.name}\n  reproduces: ${r.reproduces ?? r.description ?? ""}\n  ${runs.length} runs${extra.length ? `; ${extra.join("; ")}` : ""}`;
    })
        .join("\n\n");
}
/** Flags of the non-eval steps (beside the shared ones). */
const STEP_FLAGS = { "magic-guideline": ["batch", "max-iter", "no-manager", "initial", "keep-distinct"], "memo-build": ["elicit", "samples", "sample-temperature"], "memo-candidates": [] };
/** Every option of every run is a flag its graph or step takes (so a recipe typo fails at once, --dry-run included). */
async function checkOptions(recipe, source, lineOf, cwd) {
    const shared = new Set([...Object.keys(runFlags), ...Object.keys(RUN_DIR_FLAGS)]);
    for (const [name, run] of Object.entries(recipe.runs)) {
        if (run.needs)
            continue;
        let own;
        if (run.kind === "eval") {
            // A graph of the user's own (`graph: ./my-graph.ts`, run with --graph) is loaded now, so its options are checked too.
            const spec = isGraphModule(run.graph) ? (await loadRunModules(["--graph", run.graph], cwd)).graph.spec : findManifest(run.graph);
            if (!spec || spec.runBy)
                throw new UserError(`${source}${lineOf(["runs", name], "graph")}: runs.${name}: no graph '${run.graph}' that eval runs`);
            own = Object.keys(optionDefsOf(spec)).map(flagOf);
        }
        else
            own = STEP_FLAGS[run.kind];
        for (const flag of Object.keys(run.options)) {
            if (!shared.has(flag) && !own.includes(flag))
                throw new UserError(`${source}${lineOf(["runs", name, "options"], flag)}: runs.${name}: --${flag} is not an option of ${run.kind === "eval" ? run.graph : run.kind}`);
        }
    }
}
