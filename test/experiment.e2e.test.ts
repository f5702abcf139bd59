/**
 * `sqlmend experiment`: the built-in `correctors` recipe on minibench against the scripted local server (every agent
 * role of every graph, test/support/method-agents.ts): one table of correctors × scenarios, the shared initial run
 * computed once, and a second identical experiment answered from the response cache. Recipe files: zod-checked,
 * dependency order, --dry-run, --resume.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import type { OpenAIServer } from "./support/openai-server.ts";
import { agentsFixture, runCli } from "./support/cli.ts";
import { BUILT_IN_RECIPES } from "../runner/experiment/built-in-recipes.ts";
import { knownCallsOf, questionCostsIn } from "../runner/experiment/dry-run-plan.ts";

let dir: string;
let benchDir: string;
let server: OpenAIServer;

const sqlmend = (...args: string[]) => runCli(args, dir, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") });

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, server } = await agentsFixture(dir));
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

describe("sqlmend experiment", () => {
  it("correctors: one table of correctors × scenarios; a second identical experiment is served from the cache", async () => {
    const dry = await sqlmend("experiment", "correctors", "--bench", benchDir, "--out", "e1", "--limit", "4", "--dry-run");
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toMatch(/^sqlmend experiment correctors: 17 runs/);
    expect(dry.out).toMatch(/^\s+initial\s+baseline\s+dev: 4 questions, 0 done; .*tokens unknown until measured \(--pilot N\)$/m);
    expect(dry.out).toMatch(/^\s+magic\.incorrect\s+magic on initial, --correct incorrect\s+dev: 4 questions/m);
    // The guideline run: bounds from the graphs it runs (baseline 1..4, the cycle 2..44, a merge 1..2 by default).
    expect(dry.out).toMatch(/^\s+guideline\s+magic guideline\s+train: 4 questions, 0 done; 4\.\.200 calls \(1\.\.50\/question by the declared counts of its steps; per training question: the initial SQL \(baseline 1\.\.4\); for a failure, the cycle \(2\.\.44\) and at most a merge \(1\.\.2, one per batch of corrected questions\)\)/m);
    expect(fs.existsSync(path.join(dir, "e1"))).toBe(false);

    const first = await sqlmend("experiment", "correctors", "--bench", benchDir, "--out", "e1", "--limit", "4", "--checkpoints", "ckpt.sqlite", "--concurrency", "2");
    expect(first.code, first.err.slice(-3000)).toBe(0);
    const grid = first.out.split("\n").filter((l) => /^\| (magic|r3-review|memo-refine|ts-sql-refine|repair) \|/.test(l));
    expect(grid).toHaveLength(5);
    for (const row of grid) expect(row.split("|").slice(2, -1).map((c) => c.trim())).toHaveLength(3);
    expect(first.out).toMatch(/^\| corrector \| all \| errors \| incorrect \|$/m);
    const table = JSON.parse(fs.readFileSync(path.join(dir, "e1", "table.json"), "utf8"));
    // 16 eval runs, and the guideline run with its stats (questions cycled, corrected within k).
    expect(table.rows).toHaveLength(17);
    expect(table.rows.find((r: { run: string }) => r.run === "guideline").guideline).toMatchObject({ questions: 4, maxIter: expect.any(Number) });
    for (const row of table.rows) expect([row.run, row.questions, row.failed]).toEqual([row.run, 4, 0]);
    // The shared initial run ran once; every corrector read its predictions.
    const initial = table.rows.find((r: { run: string }) => r.run === "initial");
    for (const row of table.rows.filter((r: { initial: string | null }) => r.initial)) expect(row.initialEx).toBe(initial.ex);
    // Under "incorrect" only wrong initial SQL is corrected; under "errors" only SQL that fails to execute.
    const applied = (run: string) => table.rows.find((r: { run: string }) => r.run === run).correctionsApplied;
    expect(applied("repair.all")).toBe(4);
    expect(applied("repair.incorrect")).toBe(4 - Math.round((initial.ex / 100) * 4));
    expect(applied("repair.errors")).toBeLessThan(4);
    expect(fs.readFileSync(path.join(dir, "e1", "magic.all", "report.html"), "utf8")).toContain("<svg");
    expect(fs.readFileSync(path.join(dir, "e1", "report.html"), "utf8")).toContain('id="flips"');

    const before = server.requests.length;
    const second = await sqlmend("experiment", "correctors", "--bench", benchDir, "--out", "e2", "--limit", "4", "--checkpoints", "ckpt.sqlite", "--concurrency", "2");
    expect(second.code, second.err.slice(-3000)).toBe(0);
    const served = /^Response cache over the eval runs: (\d+) of (\d+) model calls served/m.exec(second.out)!;
    const share = Number(served[1]) / Number(served[2]);
    expect(share).toBeGreaterThanOrEqual(0.95);
    expect(server.requests.length - before).toBeLessThanOrEqual(Math.ceil(0.05 * Number(served[2])));
    const grid2 = second.out.split("\n").filter((l) => /^\| (magic|r3-review|memo-refine|ts-sql-refine|repair) \|/.test(l));
    expect(grid2).toEqual(grid);
    console.log(`experiment correctors --limit 4: second run ${served[1]} of ${served[2]} calls served (${(share * 100).toFixed(1)}%), ${server.requests.length - before} requests`);

    // --dry-run of a finished experiment: nothing left; of a new one beside it, calls measured where a graph has run.
    const finished = await sqlmend("experiment", "correctors", "--bench", benchDir, "--out", "e2", "--limit", "4", "--dry-run");
    expect(finished.out).toMatch(/^\s+r3-review\.all\s.*dev: 4 questions, 4 done; 0 calls \(done\)$/m);
    expect(finished.out).toMatch(/^Expected calls: ~0 \(/m);
    fs.writeFileSync(path.join(dir, "more.json"), JSON.stringify({ name: "more", runs: { initial: { graph: "baseline" }, again: { graph: "baseline", options: { "max-fix-rounds": 1 } } } }));
    const more = await sqlmend("experiment", "more.json", "--bench", benchDir, "--out", "e2", "--limit", "4", "--dry-run");
    const perQ = table.rows.find((r: { run: string }) => r.run === "initial").callsPerQuestion as number;
    const perQTokens = table.rows.find((r: { run: string }) => r.run === "initial").tokensPerQuestion as number;
    expect(more.out).toContain(`dev: 4 questions, 0 done; ~${Math.round(perQ * 4)} calls, ~${Math.round(perQTokens * 4)} tokens (${perQ.toFixed(1)} calls, ${Math.round(perQTokens)} tokens /question measured in another baseline run)`);
    // The method's tokens do not change when the cache serves them: the second experiment's rows cost what the first's did.
    const table2 = JSON.parse(fs.readFileSync(path.join(dir, "e2", "table.json"), "utf8"));
    for (const row of table2.rows.filter((r: { guideline: unknown }) => !r.guideline)) {
      expect([row.run, Math.round(row.tokensPerQuestion)]).toEqual([row.run, Math.round(table.rows.find((r: { run: string }) => r.run === row.run).tokensPerQuestion)]);
    }

    // --resume of a finished experiment runs nothing again.
    const again = server.requests.length;
    const resumed = await sqlmend("experiment", "correctors", "--bench", benchDir, "--out", "e2", "--limit", "4", "--checkpoints", "ckpt.sqlite", "--resume", "--cache", "off");
    expect(resumed.code, resumed.err.slice(-2000)).toBe(0);
    expect(server.requests.slice(again).map((r) => `${r.model}: ${r.messages.at(-1)?.content.slice(0, 300)}`)).toEqual([]);
  }, 600_000);

  it("memo-correction runs end to end: memory built, candidates exported, every variant on the same candidates, the paper's figures beside ours", async () => {
    // SHARE's predictions (here: the gold SQL), scored as they are beside ours; SOLID-SQL's not given.
    const devItems = JSON.parse(fs.readFileSync(path.join(benchDir, "dev.json"), "utf8")) as { question_id: number; SQL: string; db_id: string }[];
    fs.writeFileSync(path.join(dir, "share.json"), JSON.stringify(Object.fromEntries(devItems.map((q) => [q.question_id, `${q.SQL}\t----- bird -----\t${q.db_id}`]))));
    const run = await sqlmend("experiment", "memo-correction", "--bench", benchDir, "--out", "mc", "--limit", "2", "--checkpoints", "mc.sqlite", "--concurrency", "2", "--set", "share=share.json");
    expect(run.code, run.err.slice(-3000)).toBe(0);
    expect(fs.existsSync(path.join(dir, "mc", "memory", "memory.sqlite"))).toBe(true);
    const candidates = JSON.parse(fs.readFileSync(path.join(dir, "mc", "candidates", "candidates.json"), "utf8"));
    expect(Object.keys(candidates.questions ?? candidates).length).toBeGreaterThan(0);
    const table = JSON.parse(fs.readFileSync(path.join(dir, "mc", "table.json"), "utf8"));
    const byRun = Object.fromEntries(table.rows.map((r: { run: string }) => [r.run, r]));
    for (const r of ["none", "direct", "top4", "random", "din-sql", "filtered"]) expect([r, byRun[r].questions, byRun[r].failed]).toEqual([r, 2, 0]);
    expect([byRun["share"].graph, byRun["share"].questions, byRun["share"].ex, byRun["share"].calls]).toEqual(["as-given", 2, 100, 0]);
    expect(byRun["solid-sql"].notRun).toMatch(/^--set solid-sql=VALUE \(SOLID-SQL's predictions file/);
    expect(run.out).toMatch(/^\| filtered \| Memo-SQL \(ICL \+ RAG, filtered\) \| EX \d+\.\d\d \(\d\/2\); with agent\/unrouted; [^|]*refiner: agent\/refiner[^|]* \| EX 68\.5 \| Memo-SQL Table 3, BIRD dev; Qwen3-Coder-30B/m);
    expect(run.out).toMatch(/^\| solid-sql \| SOLID-SQL \(Liu et al\., 2025a\) \| not run: --set solid-sql=VALUE/m);
    expect(run.out).toMatch(/^\| share \| SHARE \(Qu et al\., 2025\) \| EX 100\.00 \(2\/2\) \| EX 69\.2 \|/m);
    // The memory build's calls lie within the dry run's declared bounds for its 2 training questions.
    const built = Number(/^ {2}memory: Tokens this run: .* (\d+) calls$/m.exec(run.err)?.[1]);
    const bounds = knownCallsOf(BUILT_IN_RECIPES["memo-correction"]!.runs.memory!)!;
    expect(built).toBeGreaterThanOrEqual(2 * bounds.min);
    expect(built).toBeLessThanOrEqual(2 * bounds.max);
  }, 600_000);

  it("magic-guideline on a short run: the batch guidelines it never merged are rows not run, with the reason; Table 4's guideline runs beside the paper's", async () => {
    const run = await sqlmend("experiment", "magic-guideline", "--bench", benchDir, "--out", "mg", "--limit", "3", "--checkpoints", "mg.sqlite", "--concurrency", "2");
    expect(run.code, run.err.slice(-3000)).toBe(0);
    const table = JSON.parse(fs.readFileSync(path.join(dir, "mg", "table.json"), "utf8"));
    const byRun = Object.fromEntries(table.rows.map((r: { run: string }) => [r.run, r]));
    // 3 questions make one (short) batch: batch 1's guideline exists, batches 5 and 10 were never merged.
    expect([byRun["magic.batch-001"].questions, byRun["magic.batch-001"].notRun]).toEqual([3, null]);
    for (const b of ["005", "010"]) expect(byRun[`magic.batch-${b}`].notRun).toBe(`guideline/guideline-batch-${b}.md was not written by its run`);
    expect([byRun["magic.all"].questions, byRun["magic.all"].failed]).toEqual([3, 0]);
    for (const g of ["guideline", "guideline.m2", "guideline.m2-nm", "guideline.m5-nm"]) expect(byRun[g].guideline.questions).toBe(3);
    expect(byRun["guideline.m2-nm"].guideline).toMatchObject({ maxIter: 2, noManager: true });
    expect(run.out).toMatch(/^\| magic\.batch-005 \| 5 batches \| not run: guideline\/guideline-batch-005\.md was not written by its run \| EX 58\.8 \|/m);
    expect(run.out).toMatch(/^\| guideline\.m2-nm \| MAGIC max_i=2, w\/o manager \| EX \d+\.\d\d after the cycle; AVG_i \d\.\d\d; corrected within k=1\.\.2: \d+, \d+ of \d+; VES \d+\.\d\d(; with [^|]*)? \| BIRD EX 73\.01;/m);
    // The dry run's declared bounds for a guideline run hold for every question it ran (initial SQL and cycle).
    const recipe = BUILT_IN_RECIPES["magic-guideline"]!;
    let cycled = 0;
    for (const g of ["guideline", "guideline.m2", "guideline.m2-nm", "guideline.m5-nm"]) {
      const bounds = knownCallsOf(recipe.runs[g]!)!;
      const costs = questionCostsIn(path.join(dir, "mg", g), "magic-guideline", () => []);
      expect(costs).toHaveLength(3);
      for (const c of costs) expect([g, c.calls >= bounds.min && c.calls <= bounds.max]).toEqual([g, true]);
      cycled += costs.filter((c) => c.calls > 1).length;
    }
    expect(cycled).toBeGreaterThan(0);
  }, 600_000);

  it("checks a recipe file: zod errors name the field; unknown runs and cycles are refused", async () => {
    const write = (name: string, body: unknown) => {
      fs.writeFileSync(path.join(dir, name), JSON.stringify(body));
      return name;
    };
    const bad = await sqlmend("experiment", write("bad.json", { name: "x", runs: { a: { graph: "baseline", correct: "sometimes" } } }), "--bench", benchDir, "--out", "x");
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/bad\.json:1: runs\.a\.correct: /);
    const missing = await sqlmend("experiment", write("missing.json", { name: "x", runs: { a: { graph: "magic", initial: "b", options: { guideline: "{run:nowhere}/g.md" } } } }), "--bench", benchDir, "--out", "x");
    expect(missing.err).toMatch(/runs\.a: no run 'nowhere' in the recipe/);
    const cycle = await sqlmend("experiment", write("cycle.json", { name: "x", runs: { a: { graph: "baseline", options: { x: "{run:b}" } }, b: { graph: "baseline", options: { x: "{run:a}" } } } }), "--bench", benchDir, "--out", "x");
    expect(cycle.err).toMatch(/runs depend on each other: a → b → a/);
    const order = await sqlmend("experiment", write("order.json", { name: "x", runs: { fix: { graph: "repair", initial: "gen" }, gen: { graph: "baseline" } } }), "--bench", benchDir, "--out", "x", "--limit", "2", "--dry-run");
    expect(order.code, order.err).toBe(0);
    expect(order.out.indexOf("  gen ")).toBeLessThan(order.out.indexOf("  fix "));
  });
});
