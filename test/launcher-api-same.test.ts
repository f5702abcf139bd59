/**
 * score, compare and experiment: the launcher's flags and a script's options are one declaration (SCORE_CONFIG,
 * COMPARE_CONFIG, EXPERIMENT_CONFIG), parsed once into the same typed config, so both give the same figures. The mock
 * model (in process) answers; minibench built here.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkConfig } from "../core/config.ts";
import { configFromFlags, flagTableOf } from "../cli/shared/flag-config.ts";
import { parseFlags } from "../cli/shared/flags.ts";
import { compare, loadBenchmark, runExperiment, score } from "../index.ts";
import { SCORE_CONFIG } from "../runner/score/score-predictions.ts";
import { COMPARE_CONFIG } from "../runner/score/run-compare.ts";
import { EXPERIMENT_CONFIG } from "../runner/experiment/run-experiment.ts";
import { captureIO, minibenchFixture, runCli } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";

let dir: string;
let benchDir: string;
const env = () => ({ SQLMEND_HOME: path.join(dir, "home") });
const sqlmend = (...args: string[]) => runCli(args, dir, env());
const script = () => captureIO(dir, env());

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir } = await minibenchFixture(dir));
  fs.writeFileSync(path.join(dir, "pair.yaml"), "name: pair\nruns:\n  base: {graph: baseline, options: {max-fix-rounds: 0}}\n  fixed: {graph: repair, initial: base}\n");
});
afterAll(() => removeTempDir(dir));

describe("the launcher and the run API: one typed config, the same result", () => {
  it("each command's flags and a script's options give the same config", () => {
    const flags = <D extends Parameters<typeof flagTableOf>[0]>(defs: D, argv: string[]) => configFromFlags(defs, parseFlags(argv, flagTableOf(defs)).values);
    expect(flags(SCORE_CONFIG, ["--bench", "b", "--pred", "gold", "--metrics", "ex,soft-f1", "--semantics", "spider", "--timeout-ms", "500", "--only-predicted"])).toEqual(
      checkConfig("score", SCORE_CONFIG, { bench: "b", pred: "gold", metrics: ["ex", "soft-f1"], semantics: "spider", timeoutMs: 500, onlyPredicted: true }),
    );
    expect(flags(COMPARE_CONFIG, ["--show", "3", "--price", "1,2", "--json"])).toEqual(checkConfig("compare", COMPARE_CONFIG, { show: 3, price: [1, 2], json: true }));
    expect(flags(EXPERIMENT_CONFIG, ["--bench", "b", "--out", "o", "--repeats", "2", "--hold", "base", "--set", "initial=x.json", "--price-in", "0.5", "--price-out", "1", "--dry-run"])).toEqual(
      checkConfig("runExperiment", EXPERIMENT_CONFIG, { bench: "b", out: "o", repeats: 2, hold: ["base"], set: { initial: "x.json" }, priceIn: 0.5, priceOut: 1, dryRun: true }),
    );
    // A value of the wrong kind is refused by name: the flag on the command line, the option in a script.
    expect(() => flags(SCORE_CONFIG, ["--semantics", "sql"])).toThrow("--semantics takes bird, spider, not 'sql'");
    expect(() => checkConfig("score", SCORE_CONFIG, { semantics: "sql" })).toThrow("score: semantics takes bird, spider, not 'sql'");
    expect(() => checkConfig("runExperiment", EXPERIMENT_CONFIG, { repeats: 0 })).toThrow("runExperiment: repeats takes a whole number >= 1, not 0");
  });

  it("an error about an option names it as the caller wrote it: the flag on the command line, the option in a script", async () => {
    expect((await sqlmend("score", "--pred", "gold")).err).toContain("--bench DIR|minibench is required (or --questions FILE --db-dir DIR)");
    await expect(score({ pred: "gold" }, script().io)).rejects.toThrow(/^score: bench DIR\|minibench is required \(or questions FILE dbDir DIR\)$/);
    expect((await sqlmend("experiment", "pair.yaml", "--bench", benchDir, "--out", "h", "--hold", "base")).err).toContain("--hold RUN,... goes with --repeats N");
    await expect(runExperiment({ recipe: "pair.yaml", bench: benchDir, out: "h", hold: ["base"] }, script().io)).rejects.toThrow(/^runExperiment: hold RUN,\.\.\. goes with repeats N/);
    await expect(compare({ runs: ["a", "b"], price: [1] }, script().io)).rejects.toThrow(/^compare: price takes IN,OUT/);
    await expect(loadBenchmark({ dbDir: "dbs" }, script().io)).rejects.toThrow(/^loadBenchmark: dbDir DIR needs questions FILE$/);
  });

  it("score and compare: the launcher's --json is the report and the comparison the API returns", async () => {
    const cli = await sqlmend("score", "--bench", benchDir, "--pred", "gold", "--metrics", "ex,soft-f1", "--json");
    expect(cli.code).toBe(0);
    const api = await score({ bench: benchDir, pred: "gold", metrics: ["ex", "soft-f1"], json: true }, script().io);
    const printed = JSON.parse(cli.out) as { count: number; correct: number; softF1: number; byDifficulty: unknown };
    expect(printed.count).toBeGreaterThan(0);
    expect({ count: printed.count, correct: printed.correct, softF1: printed.softF1, byDifficulty: printed.byDifficulty }).toEqual({ count: api.report.count, correct: api.report.correct, softF1: api.report.softF1, byDifficulty: api.report.byDifficulty });

    for (const out of ["a", "b"]) expect((await sqlmend("eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "4", "--model", "mock", "--seed", out === "a" ? "1" : "2")).code).toBe(0);
    const compared = await sqlmend("compare", "a", "b", "--json", "--show", "2", "--price", "1,2");
    const { comparison } = await compare({ runs: ["a", "b"], json: true, show: 2, price: [1, 2] }, script().io);
    const { a: _a, b: _b, onlyInA: _1, onlyInB: _2, failedInA: _3, failedInB: _4, bothCorrect: _5, neitherCorrect: _6, onlyACorrect: _7, onlyBCorrect: _8, mcnemarP: _9, ...general } = JSON.parse(compared.out) as Record<string, unknown>;
    expect(general).toEqual(JSON.parse(JSON.stringify(comparison)));
    expect(comparison.runs.map((r) => r.costPerQuestion)).not.toContain(undefined);
  }, 120_000);

  it("experiment: the dry run prints the same plan, and a run writes the same rows, from the launcher and from runExperiment", async () => {
    const argv = ["experiment", "pair.yaml", "--bench", benchDir, "--out", "plan", "--limit", "3", "--dry-run", "--price-in", "1", "--price-out", "2", "--model", "mock"];
    const cli = await sqlmend(...argv);
    expect(cli.code).toBe(0);
    const io = script();
    const api = await runExperiment({ recipe: "pair.yaml", bench: benchDir, out: "plan", limit: 3, dryRun: true, priceIn: 1, priceOut: 2, model: "mock" }, io.io);
    expect(api.exitCode).toBe(0);
    expect(io.out()).toBe(cli.out);
    expect(cli.out).toMatch(/^\s+fixed\s+repair on base/m);

    const ran = await sqlmend("experiment", "pair.yaml", "--bench", benchDir, "--out", "cli-run", "--limit", "3", "--model", "mock", "--seed", "4");
    expect(ran.code).toBe(0);
    const result = await runExperiment({ recipe: "pair.yaml", bench: benchDir, out: "api-run", limit: 3, model: "mock", seed: 4 }, script().io);
    const cliRows = (JSON.parse(fs.readFileSync(path.join(dir, "cli-run", "table.json"), "utf8")) as { rows: unknown[] }).rows;
    const scrub = (rows: unknown) => JSON.parse(JSON.stringify(rows).replaceAll(path.join(dir, "api-run"), "OUT").replaceAll(path.join(dir, "cli-run"), "OUT"));
    expect(result.rows).toHaveLength(2);
    expect(scrub(result.rows)).toEqual(scrub(cliRows));
  }, 120_000);

  it("experiment: a guideline run gets the same typed options from the launcher's flags and from runExperiment's, the graphs' own included", async () => {
    fs.writeFileSync(path.join(dir, "learn.yaml"), "name: learn\nruns:\n  guide: {kind: magic-guideline, options: {no-manager: true}}\n");
    const cli = await sqlmend("experiment", "learn.yaml", "--bench", benchDir, "--out", "learn-cli", "--limit", "2", "--model", "mock", "--seed", "4", "--batch", "3", "--max-iter", "2");
    expect(cli.code, cli.err).toBe(0);
    // The graphs' own options go in `options`, typed, as every run function takes them.
    const api = await runExperiment({ recipe: "learn.yaml", bench: benchDir, out: "learn-api", limit: 2, model: "mock", seed: 4, batch: 3, options: { maxIter: 2 } }, script().io);
    expect(api.exitCode).toBe(0);
    const recorded = (out: string) => {
      const folder = path.join(dir, out, "guide");
      const run = JSON.parse(fs.readFileSync(path.join(folder, "run.json"), "utf8")) as { settings: Record<string, unknown> };
      const { batch, split, command } = JSON.parse(fs.readFileSync(path.join(folder, "stats.json"), "utf8")) as Record<string, unknown>;
      return JSON.parse(JSON.stringify({ settings: run.settings, batch, split, command }).replaceAll(path.join(dir, out), "OUT"));
    };
    const fromCli = recorded("learn-cli");
    expect(fromCli.batch).toBe(3);
    expect(JSON.stringify(fromCli.settings)).toMatch(/"max-iter":2\b/);
    expect(JSON.stringify(fromCli.settings)).toMatch(/"no-manager":true\b/);
    expect(recorded("learn-api")).toEqual(fromCli);

    // --samples is memo build's own and a voting graph's: forwarded once, typed, both take it (the dry run's counts say so).
    fs.writeFileSync(path.join(dir, "vote.yaml"), "name: vote\nruns:\n  sc: {graph: self-consistency}\n  memory: {kind: memo-build}\n");
    const plan = await sqlmend("experiment", "vote.yaml", "--bench", benchDir, "--out", "vote", "--dry-run", "--model", "mock", "--samples", "3");
    expect(plan.code, plan.err).toBe(0);
    expect(plan.out).toMatch(/^\s+sc\s+self-consistency\s.*1\.\.4\/question/m);
    expect(plan.out).toMatch(/^\s+memory\s+memo build\s.*per training question: 3 samples/m);
    const io = script();
    expect((await runExperiment({ recipe: "vote.yaml", bench: benchDir, out: "vote", dryRun: true, model: "mock", samples: 3 }, io.io)).exitCode).toBe(0);
    expect(io.out()).toBe(plan.out);
  }, 120_000);
});
