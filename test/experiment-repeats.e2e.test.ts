/**
 * `sqlmend experiment --repeats N`: each repeat a full replication with its own seed, sent to the model and part of
 * the response cache's key (so repeats are new samples, and a rerun of the repeats is served from the cache); the
 * table gives mean ± sd and the questions that flip. Recipes in YAML with errors naming the line; --print; a
 * recipe's own table; --dry-run's tokens and price, and --pilot.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";
import { agentsConfig, methodAgents } from "./support/method-agents.ts";
import { runCli } from "./support/cli.ts";

let dir: string;
let benchDir: string;
let server: OpenAIServer;

const sqlmend = (...args: string[]) => runCli(args, dir, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") });
const write = (name: string, text: string) => {
  fs.writeFileSync(path.join(dir, name), text);
  return name;
};

const RECIPE = `# two runs: a generator and a corrector on its SQL
name: seeded
runs:
  gen:
    graph: baseline
    options:
      max-fix-rounds: 0
  fix:
    graph: repair
    initial: gen
    correct: errors
table:
  title: Seeded
  rows: [gen, fix]
  columns: [ex, difficulty:simple, tokens, cost]
`;

beforeAll(async () => {
  dir = makeTempDir();
  benchDir = path.join(dir, "minibench");
  await buildMinibench(benchDir);
  const questions = [(await loadBenchmark(benchDir, { split: "dev" })).questions, (await loadBenchmark(benchDir, { split: "train" })).questions];
  // The writer with seed 2 gets every question wrong; with any other seed, the default plan (most right).
  const usual = methodAgents({ questions });
  const unlucky = methodAgents({ questions, initial: () => "wrong-result" });
  server = await startOpenAIServer({ respond: (req) => (req.body.seed === 2 ? unlucky : usual).respond(req) });
  fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

describe("sqlmend experiment --repeats, YAML recipes", () => {
  it("--repeats 2: a seed per repeat sent to the model, mean ± sd and flips; a rerun is served from the cache", async () => {
    const first = await sqlmend("experiment", write("seeded.yaml", RECIPE), "--bench", benchDir, "--out", "r1", "--limit", "8", "--repeats", "2", "--checkpoints", "ck.sqlite", "--price-in", "1", "--price-out", "2");
    expect(first.code, first.err.slice(-3000)).toBe(0);
    // Each repeat in its own folder, with its seed in run.json; every request carried its repeat's seed.
    for (const k of [1, 2]) expect(JSON.parse(fs.readFileSync(path.join(dir, "r1", `repeat-${k}`, "gen", "run.json"), "utf8")).models.seed).toBe(k);
    expect(new Set(server.requests.map((r) => r.body.seed))).toEqual(new Set([1, 2]));
    const table = JSON.parse(fs.readFileSync(path.join(dir, "r1", "table.json"), "utf8"));
    expect([table.repeats, table.seeds]).toEqual([2, [1, 2]]);
    const gen = table.rows.find((r: { run: string }) => r.run === "gen");
    // Repeat 1 (default plan: questions 0 and 1 of each 4 wrong or failing) vs repeat 2 (all wrong).
    const ex1 = gen.repeats.ex[0] as number;
    expect(ex1).toBeGreaterThan(0);
    expect(gen.repeats.ex[1]).toBe(0);
    expect(gen.ex).toBeCloseTo(ex1 / 2, 6);
    expect(gen.repeats.sd).toBeCloseTo(Math.abs(ex1) / Math.SQRT2, 6);
    expect(gen.repeats.flips).toBe(Math.round((ex1 / 100) * gen.repeats.compared));
    expect(first.out).toMatch(new RegExp(`^\\| gen \\| 1, 2 \\| ${ex1.toFixed(2)}, 0\\.00 \\| ${(ex1 / 2).toFixed(2)} ± ${(ex1 / Math.SQRT2).toFixed(2)} \\| ${gen.repeats.flips} of ${gen.repeats.compared} \\|$`, "m"));
    // Per database (MAGIC Figure 4): the databases' right answers add up to the run's.
    expect(gen.byDatabase.length).toBeGreaterThan(1);
    expect(gen.byDatabase.reduce((a: number, d: { count: number; ex: number }) => a + (d.count * d.ex) / 100, 0)).toBeCloseTo(gen.correct, 6);
    expect(first.out).toMatch(/^## EX per database \(%\)\n\n\| database \| gen \| fix \|$/m);
    // The recipe's own table first, with the chosen columns; cost at the given prices.
    expect(first.out).toMatch(/^## Seeded\n\n\| run \| EX % \| simple EX % \| tokens\/q \| cost\/q \|$/m);
    expect(gen.costPerQuestion).toBeCloseTo((gen.inputTokensPerQuestion * 1 + gen.outputTokensPerQuestion * 2) / 1e6, 12);
    expect(first.out).toMatch(/^Cost at \$1 \/ \$2 per million input \/ output tokens: \$\d/m);
    // report.html draws every repeat's EX beside the means (repeat 2's writer got everything wrong).
    const html = fs.readFileSync(path.join(dir, "r1", "report.html"), "utf8");
    expect(html).toMatch(/<path class="mark" data-chart="ex-per-repeat" data-series="repeat 2 \(seed 2\)" data-group="gen" data-value="0"/);
    expect(html).toContain(`data-chart="ex-per-repeat" data-series="repeat 1 (seed 1)" data-group="gen" data-value="${ex1}"`);
    // The comparison's charts are repeat 1's, and say so; EX's interval is over the repeats, each corrector tested per repeat.
    expect(html).toMatch(/<figcaption[^>]*>EX by difficulty \(%\) — repeat 1 of 2 \(seed 1\)<\/figcaption>/);
    expect([gen.exInterval.over, gen.exInterval.n]).toEqual(["repeats", 2]);
    expect(table.rows.find((r: { run: string }) => r.run === "fix").versus.tests.map((t: { seed: number }) => t.seed)).toEqual([1, 2]);

    // The same experiment again: every call served from the cache, the same figures.
    const before = server.requests.length;
    const again = await sqlmend("experiment", "seeded.yaml", "--bench", benchDir, "--out", "r2", "--limit", "8", "--repeats", "2", "--checkpoints", "ck.sqlite");
    expect(again.code, again.err.slice(-3000)).toBe(0);
    expect(server.requests.length - before).toBe(0);
    const table2 = JSON.parse(fs.readFileSync(path.join(dir, "r2", "table.json"), "utf8"));
    expect(table2.rows.find((r: { run: string }) => r.run === "gen").repeats).toEqual(gen.repeats);
    expect(table2.rows.find((r: { run: string }) => r.run === "gen").tokensPerQuestion).toBeCloseTo(gen.tokensPerQuestion, 6);

    // --resume of the finished repeats runs nothing again, even with the cache off; a repeat's folder removed is
    // run again (with its own seed) and the table is the same.
    fs.rmSync(path.join(dir, "r1", "repeat-2"), { recursive: true });
    const beforeResume = server.requests.length;
    const resumed = await sqlmend("experiment", "seeded.yaml", "--bench", benchDir, "--out", "r1", "--limit", "8", "--repeats", "2", "--checkpoints", "ck2.sqlite", "--resume", "--cache", "off");
    expect(resumed.code, resumed.err.slice(-3000)).toBe(0);
    const again2 = server.requests.slice(beforeResume);
    expect(again2.length).toBeGreaterThan(0);
    expect(new Set(again2.map((r) => r.body.seed))).toEqual(new Set([2]));
    expect(JSON.parse(fs.readFileSync(path.join(dir, "r1", "table.json"), "utf8")).rows.find((r: { run: string }) => r.run === "gen").repeats).toEqual(gen.repeats);

    // --seed S with --repeats: seeds S..S+N-1.
    const dry = await sqlmend("experiment", "seeded.yaml", "--bench", benchDir, "--out", "r3", "--limit", "4", "--repeats", "3", "--seed", "7", "--dry-run");
    expect(dry.out).toMatch(/^sqlmend experiment seeded: 2 runs on .*, 3 repeats \(seeds 7, 8, 9\), in this order$/m);
    // Nothing measured in r3: the calls come from the graphs' declared counts (baseline with no fix round: exactly
    // one; repair under --correct errors: none up to its three fix rounds), × 4 questions × 3 repeats.
    expect(dry.out).toMatch(/^\s+gen\s+baseline\s+dev: 4 questions × 3 repeats, 0 done; ~12 calls \(typically 1, 1\.\.1\/question by the graph's declared count\), tokens unknown until measured \(--pilot N\)$/m);
    expect(dry.out).toMatch(/^\s+fix\s+repair on gen, --correct errors\s+dev: 4 questions × 3 repeats, 0 done; 0\.\.36 calls \(0\.\.3\/question by the graph's declared count\)/m);
    expect(dry.out).toMatch(/^Expected calls: ~12 plus 0\.\.36 by the graphs' declared bounds \(/m);
    // A forwarded flag counts as it will run: --max-fix-rounds 1 on every run caps repair at one fix.
    const capped = await sqlmend("experiment", "seeded.yaml", "--bench", benchDir, "--out", "r3", "--limit", "4", "--dry-run", "--max-fix-rounds", "1");
    expect(capped.out).toMatch(/^\s+fix\s+repair on gen, --correct errors\s+dev: 4 questions, 0 done; 0\.\.4 calls/m);
  }, 300_000);

  it("--repeats 2 --hold gen: gen is made once and both repeats correct that same SQL; the table says it is held", async () => {
    const bad = await sqlmend("experiment", write("seeded.yaml", RECIPE), "--bench", benchDir, "--out", "h", "--repeats", "2", "--hold", "fix");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--hold fix: it reads run gen, which would differ per repeat; hold it too \(--hold fix,gen\)/);
    expect((await sqlmend("experiment", "seeded.yaml", "--bench", benchDir, "--out", "h", "--hold", "gen")).err).toMatch(/--hold RUN,\.\.\. goes with --repeats N/);

    const dry = await sqlmend("experiment", "seeded.yaml", "--bench", benchDir, "--out", "h", "--limit", "4", "--repeats", "2", "--hold", "gen", "--dry-run");
    expect(dry.out).toMatch(/^\s+gen\s+baseline\s+dev: 4 questions once \(held\), 0 done; ~4 calls/m);
    expect(dry.out).toMatch(/^\s+fix\s+repair on gen, --correct errors\s+dev: 4 questions × 2 repeats, 0 done;/m);

    const before = server.requests.length;
    const held = await sqlmend("experiment", "seeded.yaml", "--bench", benchDir, "--out", "h", "--limit", "8", "--repeats", "2", "--hold", "gen", "--checkpoints", "ck-h.sqlite", "--cache", "off");
    expect(held.code, held.err.slice(-3000)).toBe(0);
    // The writer ran once, under repeat 1's seed; under seed 2 (the unlucky writer) it was never asked (no cache: the
    // first test's runs must not answer for it).
    const writes = server.requests.slice(before).filter((r) => r.body.model === "agent/generator");
    expect(writes.length).toBeGreaterThan(0);
    expect(new Set(writes.map((r) => r.body.seed))).toEqual(new Set([1]));
    expect(fs.existsSync(path.join(dir, "h", "repeat-1", "gen", "results.jsonl"))).toBe(true);
    expect(fs.existsSync(path.join(dir, "h", "repeat-2", "gen"))).toBe(false);
    // Both repeats of fix started from the same SQL: the same initial EX, and repeat 2's fixer got seed 2.
    const table = JSON.parse(fs.readFileSync(path.join(dir, "h", "table.json"), "utf8"));
    expect(table.held).toEqual(["gen"]);
    const gen = table.rows.find((r: { run: string }) => r.run === "gen");
    const fix = table.rows.find((r: { run: string }) => r.run === "fix");
    expect([gen.held, gen.repeats]).toEqual([{ seed: 1 }, null]);
    expect(fix.repeats.seeds).toEqual([1, 2]);
    const initialOf = (k: number) => fs.readFileSync(path.join(dir, "h", `repeat-${k}`, "fix", "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).map((r: { id: string; initialCorrect: boolean }) => `${r.id}:${r.initialCorrect}`).sort();
    expect(initialOf(2)).toEqual(initialOf(1));
    expect(fix.initialEx).toBeCloseTo(gen.ex, 6);
    expect(held.out).toMatch(/Held runs were made once \(repeat 1, seed 1\) and every repeat read them, so their figures are that one run's: gen\./);
    expect(held.out).toMatch(/^Not repeated \(--hold\): gen \(EX \d+\.\d\d, seed 1\)\.$/m);
    // --resume of the held experiment runs nothing again.
    const beforeResume = server.requests.length;
    const resumed = await sqlmend("experiment", "seeded.yaml", "--bench", benchDir, "--out", "h", "--limit", "8", "--repeats", "2", "--hold", "gen", "--checkpoints", "ck-h.sqlite", "--resume", "--cache", "off");
    expect(resumed.code, resumed.err.slice(-3000)).toBe(0);
    expect(server.requests.length).toBe(beforeResume);
  }, 300_000);

  it("--dry-run --pilot N measures every run on N questions in OUT/pilot, then prices the rest", async () => {
    const dry = await sqlmend("experiment", "seeded.yaml", "--bench", benchDir, "--out", "p", "--limit", "4", "--dry-run", "--pilot", "2", "--price-in", "3", "--price-out", "15", "--checkpoints", "ck.sqlite");
    expect(dry.code, dry.err.slice(-3000)).toBe(0);
    const pilot = [...fs.readFileSync(path.join(dir, "p", "pilot", "gen", "results.jsonl"), "utf8").trim().split("\n")].map((l) => JSON.parse(l));
    expect(pilot).toHaveLength(2);
    const calls = pilot.reduce((a, r) => a + r.calls, 0) / 2;
    const tokensIn = pilot.reduce((a, r) => a + r.inputTokens + (r.savedInputTokens ?? 0), 0) / 2;
    const tokensOut = pilot.reduce((a, r) => a + r.outputTokens + (r.savedOutputTokens ?? 0), 0) / 2;
    expect(dry.out).toMatch(new RegExp(`^\\s+gen\\s+baseline\\s+dev: 4 questions, 0 done; ~${Math.round(calls * 4)} calls, ~${Math.round((tokensIn + tokensOut) * 4)} tokens, ~\\$[\\d.]+ \\(${calls.toFixed(1)} calls, ${Math.round(tokensIn + tokensOut)} tokens /question measured in the pilot\\)$`, "m"));
    expect(dry.out).toMatch(/^Expected price: ~\$\d+\.\d\d at \$3 \/ \$15 per million input \/ output tokens$/m);
    // Nothing ran in OUT itself.
    expect(fs.existsSync(path.join(dir, "p", "gen"))).toBe(false);
  }, 300_000);

  it("YAML recipe errors name the line; --print gives a built-in recipe as YAML that reads back", async () => {
    const bad = await sqlmend("experiment", write("bad.yaml", RECIPE.replace("correct: errors", "correct: sometimes")), "--bench", benchDir, "--out", "x");
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/bad\.yaml:11: runs\.fix\.correct: /);
    const unknown = await sqlmend("experiment", write("unknown.yaml", RECIPE.replace("    correct: errors", "    correct: errors\n    corect: all")), "--bench", benchDir, "--out", "x");
    expect(unknown.err).toMatch(/unknown\.yaml:12: runs\.fix\.corect: /);
    const option = await sqlmend("experiment", write("option.yaml", RECIPE.replace("max-fix-rounds: 0", "max-fix-round: 0")), "--bench", benchDir, "--out", "x");
    expect(option.err).toMatch(/option\.yaml:7: runs\.gen: --max-fix-round is not an option of baseline/);
    const broken = await sqlmend("experiment", write("broken.yaml", "name: x\nruns:\n  a: {graph: baseline\n"), "--bench", benchDir, "--out", "x");
    expect(broken.err).toMatch(/broken\.yaml:\d: not YAML or JSON/);
    const row = await sqlmend("experiment", write("row.yaml", RECIPE.replace("rows: [gen, fix]", "rows: [gen, fixx]")), "--bench", benchDir, "--out", "x");
    expect(row.err).toMatch(/table\.rows: no run 'fixx'/);

    const printed = await sqlmend("experiment", "magic-table1", "--print");
    expect(printed.code).toBe(0);
    write("printed.yaml", printed.out);
    const dry = await sqlmend("experiment", "printed.yaml", "--bench", benchDir, "--out", "y", "--dry-run");
    const builtIn = await sqlmend("experiment", "magic-table1", "--bench", benchDir, "--out", "y", "--dry-run");
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out.split("\n").slice(2)).toEqual(builtIn.out.split("\n").slice(2));
  });
});
