/**
 * `sqlmend experiment`'s built-in recipes: each passes --dry-run on minibench with every run listed (those that
 * cannot run with the reason), --list says what each reproduces, and table.md prints ours beside the paper's figures.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { runCli } from "./support/cli.ts";
import { BUILT_IN_RECIPES } from "../runner/experiment/built-in-recipes.ts";
import { parseRecipe } from "../runner/experiment/recipe.ts";
import { otherRowOf, repeatedRowOf, rowOf } from "../runner/experiment/table-rows.ts";
import { renderTable } from "../runner/experiment/table-markdown.ts";
import { questionCostsIn } from "../runner/experiment/dry-run-plan.ts";
import { cacheSummary } from "../runner/report/eval-report.ts";
import { type EvalRecord } from "../runner/run/results-record.ts";

let dir: string;
let benchDir: string;
const sqlmend = (...args: string[]) => runCli(args, dir, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") });

beforeAll(async () => {
  dir = makeTempDir();
  benchDir = path.join(dir, "minibench");
  await buildMinibench(benchDir);
});
afterAll(() => removeTempDir(dir));

const PAPER_TABLES = ["magic-table1", "magic-table2", "magic-guideline", "magic-table5", "r3-table1", "r3-table2", "r3-table3", "memo-table1", "memo-ablation", "memo-correction", "memo-table6", "memo-table7", "ts-sql-table4", "ts-sql-table5", "ts-sql-table6"];

describe("experiment built-in recipes", () => {
  it("one recipe per paper table, each listed by --list with what it reproduces", async () => {
    expect(Object.keys(BUILT_IN_RECIPES)).toEqual(["correctors", ...PAPER_TABLES]);
    // --help names every built-in recipe (its list is kept apart so --help loads none of them).
    expect((await sqlmend("experiment", "--help")).out).toContain(`Built-in recipes (sqlmend experiment --list says what each reproduces): ${Object.keys(BUILT_IN_RECIPES).join(", ")}`);
    const list = await sqlmend("experiment", "--list");
    expect(list.code, list.err).toBe(0);
    for (const name of Object.keys(BUILT_IN_RECIPES)) expect(list.out).toMatch(new RegExp(`^${name}\\n  reproduces: \\S`, "m"));
    expect(list.out).toMatch(/MAGIC Table 1/);
    expect(list.out).toMatch(/--set guideline-wang=FILE, guideline-pourreza=FILE/);
  });

  it("every paper row carries the paper's figures; rows sqlmend cannot run say why", () => {
    for (const name of PAPER_TABLES) {
      const recipe = parseRecipe(JSON.stringify(BUILT_IN_RECIPES[name]), name);
      const evals = Object.entries(recipe.runs).filter(([, r]) => r.kind === "eval");
      for (const [run, r] of evals) {
        expect(r.paper, `${name}.${run}`).toBeDefined();
        expect(Object.keys(r.paper!.figures).length, `${name}.${run}`).toBeGreaterThan(0);
        expect(r.paper!.model, `${name}.${run}`).toMatch(/GPT|Gemini|Qwen|Llama|DeepSeek|CodeS|as in its paper/);
      }
    }
    const t1 = BUILT_IN_RECIPES["magic-table1"]!.runs;
    expect(t1["magic.incorrect"]!.paper!.figures.EX).toBe(59.13);
    // MAGIC's guideline-independent baselines are correctors of the initial run's SQL, under each scenario.
    for (const graph of ["self-debugging", "self-consistency", "multiple-prompt"]) {
      for (const s of ["incorrect", "errors", "all"]) {
        expect(t1[`${graph}.${s}`]).toMatchObject({ graph, initial: "initial", correct: s });
        expect(t1[`${graph}.${s}`]!.needs).toBeUndefined();
      }
    }
    expect(t1["human-wang.errors"]!.options.guideline).toBe("{set:guideline-wang}");
    expect(BUILT_IN_RECIPES["r3-table3"]!.runs["3r-pot"]!.paper!.figures["GPT-4 Spider"]).toBe(88.1);
    expect(BUILT_IN_RECIPES["ts-sql-table4"]!.runs["no-cg"]!.paper!.figures.EX).toBe(29.47);
  });

  it("every built-in recipe passes --dry-run on minibench, every run listed", async () => {
    for (const [name, recipe] of Object.entries(BUILT_IN_RECIPES)) {
      const dry = await sqlmend("experiment", name, "--bench", benchDir, "--out", `dry-${name}`, "--limit", "3", "--dry-run");
      expect(dry.code, `${name}: ${dry.err}`).toBe(0);
      expect(dry.out).toMatch(new RegExp(`^sqlmend experiment ${name}: ${Object.keys(recipe.runs).length} runs`));
      for (const [run, spec] of Object.entries(recipe.runs)) {
        const line = dry.out.split("\n").find((l) => l.trimStart().startsWith(`${run} `));
        expect(line, `${name}: ${run}`).toBeDefined();
        if (spec.needs) expect(line).toContain(`not run: ${spec.needs}`);
        else if (spec.kind === "memo-candidates") expect(line).toContain("no model calls");
        else if (!/\{set:/.test(JSON.stringify(spec))) expect(line).toMatch(/: \d+ questions, 0 done/);
      }
      expect(fs.existsSync(path.join(dir, `dry-${name}`))).toBe(false);
    }
  }, 120_000);

  it("--set NAME=FILE makes a row that needs a file runnable; an unknown --set and a mistyped option are refused", async () => {
    const without = await sqlmend("experiment", "magic-table1", "--bench", benchDir, "--out", "s", "--dry-run");
    expect(without.out).toMatch(/^\s+human-wang\.all\s.*not run: --set guideline-wang=VALUE \(a human-written guideline file\)$/m);
    fs.writeFileSync(path.join(dir, "wang.md"), "Check the joins.\n");
    const withSet = await sqlmend("experiment", "magic-table1", "--bench", benchDir, "--out", "s", "--dry-run", "--set", "guideline-wang=wang.md");
    expect(withSet.code, withSet.err).toBe(0);
    expect(withSet.out).toMatch(/^\s+human-wang\.all\s+magic on initial, --correct all\s+dev: \d+ questions/m);
    expect(withSet.out).toMatch(/^\s+human-pourreza\.all\s.*not run: --set guideline-pourreza=VALUE/m);
    const unknown = await sqlmend("experiment", "r3-table3", "--bench", benchDir, "--out", "s", "--dry-run", "--set", "nothing=x");
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/--set nothing: recipe r3-table3 has no \{set:nothing\}/);
    fs.writeFileSync(path.join(dir, "typo.json"), JSON.stringify({ name: "t", runs: { a: { graph: "r3", options: { reviewer: 1 } } } }));
    const typo = await sqlmend("experiment", "typo.json", "--bench", benchDir, "--out", "s", "--dry-run");
    expect(typo.code).toBe(1);
    expect(typo.err).toMatch(/runs\.a: --reviewer is not an option of r3/);
  }, 60_000);

  it("table.md: ours beside the paper's figures, rows not run with their reason, guideline runs with AVG_i and corrected within k", () => {
    const recipe = BUILT_IN_RECIPES["magic-guideline"]!;
    const rec = (id: string, correct: boolean, initialCorrect: boolean) =>
      ({ id, correct, initialCorrect, correction: "applied", calls: 2, inputTokens: 10, outputTokens: 5 }) as unknown as EvalRecord;
    const rows = [
      rowOf("magic.all", recipe.runs["magic.all"]!, [rec("1", true, false), rec("2", true, true), rec("3", false, false)]),
      otherRowOf("guideline.m2", recipe.runs["guideline.m2"]!, { guideline: { questions: 10, failures: 4, corrected: 3, exAfter: 90, avgIterations: 1.25, correctedWithin: [2, 3], maxIter: 2, noManager: false } }),
      otherRowOf("self-consistency.all", BUILT_IN_RECIPES["magic-table1"]!.runs["self-consistency.all"]!, { notRun: "method not in sqlmend: self-consistency over 20 DIN-SQL samples" }),
    ];
    const table = renderTable(recipe, rows);
    expect(table).toContain("## Ours beside the paper's");
    expect(table).toMatch(/^\| magic\.all \| 39 \(All\) batches \| EX 66\.67 \(2\/3\) \| EX 59\.13 \| MAGIC Table 3, BIRD dev \(incorrect SQL corrected\); GPT-4 \(DIN-SQL's initial SQL\) \| initial SQL: sqlmend's baseline \(run initial\), not DIN-SQL's; the guideline learnt from the baseline's train-split mistakes, not DIN-SQL's \|$/m);
    expect(table).toMatch(/^\| guideline\.m2 \| MAGIC max_i=2, w\/ manager \| EX 90\.00 after the cycle; AVG_i 1\.25; corrected within k=1\.\.2: 2, 3 of 4 \| BIRD EX 78\.94; BIRD VES 80\.22; BIRD AVG_i 1\.12; Spider EX 86\.52; Spider AVG_i 1\.05 \|/m);
    expect(table).toMatch(/^\| self-consistency\.all \| Self-Consistency \(Wang et al\., 2022\) \| not run: method not in sqlmend: self-consistency over 20 DIN-SQL samples \| EX 57\.17; Simple 64; Moderate 49\.68; Challenging 37\.5 \|/m);
    expect(table).toMatch(/^- self-consistency\.all: method not in sqlmend/m);
    expect(table).toMatch(/^\| guideline\.m2 \| 2 \| yes \| 10 \| 4 \| 3 \| 90\.00 \| 1\.25 \| 2, 3 \|$/m);
  });

  it("a corrector row compares with its initial SQL on the questions it answered: a failed one (no initial SQL) counts in neither", () => {
    const spec = BUILT_IN_RECIPES.correctors!.runs["repair.all"] ?? Object.values(BUILT_IN_RECIPES.correctors!.runs).find((r) => r.initial)!;
    const rec = (id: string, correct: boolean, initialCorrect: boolean, failure?: string) =>
      ({ id, dbId: "db", correct, initialCorrect, correction: failure ? undefined : "applied", calls: 1, inputTokens: 10, outputTokens: 5, usageByRole: {}, ...(failure ? { failure } : {}) }) as unknown as EvalRecord;
    // Question 3's initial run failed: a record from before issue 30 still carries the verdict on its "" SQL.
    const row = rowOf("repair.all", spec, [rec("1", true, true), rec("2", true, false), rec("3", false, false, "no initial SQL: the initial run failed (1 model call got no reply)")]);
    expect([row.ex, row.answeredEx, row.initialEx, row.wrongToRight, row.rightToWrong, row.failed]).toEqual([(2 / 3) * 100, 100, 50, 1, 0, 1]);
  });

  it("--repeats: a repeat whose questions all failed scores 0 (a failed prediction is wrong) and its failures are counted", () => {
    const spec = BUILT_IN_RECIPES.correctors!.runs.initial!;
    const rec = (id: string, correct: boolean, failure?: string) => ({ id, dbId: "db", correct, calls: 1, inputTokens: 10, outputTokens: 5, usageByRole: {}, ...(failure ? { failure } : {}) }) as unknown as EvalRecord;
    const one = [rec("1", true), rec("2", false), rec("3", true), rec("4", true)];
    const down = one.map((r) => rec(r.id, false, "model call failed: connection refused"));
    const three = [rec("1", true), rec("2", true), rec("3", true), rec("4", false)];
    const row = repeatedRowOf("initial", spec, [one, down, three], [1, 2, 3]);
    expect(row.repeats!.ex).toEqual([75, 0, 75]);
    expect([row.ex, row.answeredEx, row.partial, row.failed]).toEqual([50, null, true, 4]);
    // Questions 2 and 4 flip between repeats 1 and 3 (repeat 2, which answered none, is not compared).
    expect([row.repeats!.flips, row.repeats!.compared]).toEqual([2, 4]);
    expect(renderTable({ name: "t", runs: { initial: spec } }, [row], { repeats: 3 })).toMatch(/^\| initial \| 1, 2, 3 \| 75\.00, 0\.00, 75\.00 \| 50\.00 ± 43\.30 \| 2 of 4 \|$/m);
  });

  it("--dry-run's cost of a guideline run counts each training question once, with what the cache served", () => {
    const run = path.join(dir, "guideline-costs");
    fs.mkdirSync(run, { recursive: true });
    const line = (id: string, calls: number, saved = 0) =>
      JSON.stringify({ id, dbId: "db", question: "q", initialSql: "SELECT 1", initialCorrect: false, usageByRole: { manager: { calls, inputTokens: 100 * calls, outputTokens: 10 * calls, latencyMs: 1, savedInputTokens: saved, savedOutputTokens: saved } } });
    // Question 2 was killed and written again by --resume; a line half-written by the kill is not a question.
    fs.writeFileSync(path.join(run, "results.jsonl"), [line("1", 2), line("2", 1), '{"id": "3", "dbId', line("2", 3, 50), ""].join("\n"));
    expect(questionCostsIn(run, "magic-guideline", () => [])).toEqual([
      { calls: 2, input: 200, output: 20 },
      { calls: 3, input: 350, output: 80 },
    ]);
  });

  it("calls/q, like tokens/q, are the method's chat calls: embedding requests (shared by the vector cache) are left out", () => {
    const spec = BUILT_IN_RECIPES.correctors!.runs.initial!;
    const rec = (id: string, embedderCalls: number) =>
      ({ id, dbId: "db", correct: true, calls: 3 + embedderCalls, cachedCalls: 1, inputTokens: 90 + (embedderCalls ? 10 : 0), outputTokens: 10, usageByRole: { writer: { calls: 3, inputTokens: 90, outputTokens: 10, latencyMs: 1 }, ...(embedderCalls ? { embedder: { calls: embedderCalls, inputTokens: 10, outputTokens: 0, latencyMs: 1 } } : {}) } }) as unknown as EvalRecord;
    // The first run embedded (2 requests); its rerun found the vectors cached: the same method, the same calls/q.
    const first = rowOf("initial", spec, [rec("1", 2), rec("2", 0)]);
    const rerun = rowOf("initial", spec, [rec("1", 0), rec("2", 0)]);
    expect([first.callsPerQuestion, rerun.callsPerQuestion]).toEqual([3, 3]);
    expect([first.tokensPerQuestion, rerun.tokensPerQuestion]).toEqual([100, 100]);
    // The response cache's share is of the calls it could serve: chat calls, not the vector cache's requests.
    expect([first.calls, rerun.calls]).toEqual([6, 6]);
    expect(cacheSummary([rec("1", 2)])).toMatch(/^Response cache: 1 of 3 model calls served \(33\.33%\)/);
  });
});
