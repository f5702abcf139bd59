/**
 * An experiment's statistics: every EX cell with its 95 % interval (Wilson over the questions, Student's t over
 * repeats), and planned comparisons — each row against its own reference (a corrector against its initial SQL, an
 * ablation against the run its recipe names) by exact McNemar, Holm-adjusted over those planned comparisons only.
 */
import { describe, expect, it } from "vitest";
import { validateRecipe } from "../runner/experiment/recipe.ts";
import { renderCompareHtml } from "../runner/report/report-html.ts";
import { repeatedRowOf, rowOf, type RunRow } from "../runner/experiment/table-rows.ts";
import { renderTable } from "../runner/experiment/table-markdown.ts";
import { plannedComparisons } from "../runner/experiment/planned-comparisons.ts";
import { experimentHtmlRows } from "../runner/experiment/experiment-html-rows.ts";
import { compareRuns } from "../runner/report/comparison.ts";
import { withInitialFile } from "../runner/experiment/initial-file.ts";
import { setsOf } from "../runner/experiment/recipe.ts";
import { BASELINE_INITIAL } from "../runner/experiment/built-in-recipes.ts";
import { BUILT_IN_RECIPES } from "../runner/experiment/built-in-recipes.ts";
import type { EvalRecord } from "../runner/run/results-record.ts";

const rec = (id: string, correct: boolean, initialCorrect?: boolean, failure?: string) =>
  ({ id, dbId: "db", difficulty: "simple", correct, ...(initialCorrect !== undefined ? { initialCorrect } : {}), calls: 1, inputTokens: 10, outputTokens: 5, usageByRole: {}, ...(failure ? { failure } : {}) }) as unknown as EvalRecord;

const ids = Array.from({ length: 40 }, (_, i) => String(i));
/** The initial SQL: right on the first 20 questions. */
const initiallyRight = (id: string) => Number(id) < 20;

describe("planned comparisons", () => {
  it("a corrector's 11/0 flip against its initial SQL stays significant after Holm over the 12 planned comparisons, where Holm over all 78 pairs would not", async () => {
    const correctors = Array.from({ length: 12 }, (_, i) => `c${i + 1}`);
    const recipe = validateRecipe({ name: "many", runs: { initial: { graph: "baseline" }, ...Object.fromEntries(correctors.map((c) => [c, { graph: "repair", initial: "initial", correct: "all" }])) } }, "many");
    // c1 turns 11 wrong answers right and breaks none; every other corrector changes nothing.
    const records: Record<string, EvalRecord[]> = {
      initial: ids.map((id) => rec(id, initiallyRight(id))),
      ...Object.fromEntries(correctors.map((c) => [c, ids.map((id) => rec(id, initiallyRight(id) || (c === "c1" && Number(id) < 31), initiallyRight(id)))])),
    };
    const rows: RunRow[] = Object.keys(recipe.runs).map((run) => rowOf(run, recipe.runs[run]!, records[run]!));
    plannedComparisons(recipe, rows, (run) => records[run]!, { seeds: [], held: new Set() });
    const c1 = rows.find((r) => r.run === "c1")!;
    expect(rows.find((r) => r.run === "initial")!.versus).toBeNull();
    expect(c1.versus!.reference).toBe("initial SQL (initial)");
    const [test] = c1.versus!.tests;
    const p = 2 * 0.5 ** 11;
    expect(test).toMatchObject({ seed: null, compared: 40, onlyRow: 11, onlyReference: 0, family: 12 });
    expect(test!.p).toBeCloseTo(p, 12);
    expect(test!.holmP).toBeCloseTo(12 * p, 12);
    expect(test!.holmP).toBeLessThan(0.05);
    // The same flip among all 78 pairs of the 13 runs: Holm over them all leaves it "not significant".
    const all = compareRuns(Object.keys(recipe.runs).map((run, i) => ({ key: `R${i + 1}`, label: run, dir: "", records: new Map(records[run]!.map((r) => [r.id, r])), run: {} })));
    expect(all.pairs).toHaveLength(78);
    const pair = all.pairs.find((x) => x.a === "R1" && x.b === "R2")!;
    expect([pair.onlyACorrect.length, pair.onlyBCorrect.length]).toEqual([0, 11]);
    expect(pair.holmP).toBeGreaterThan(0.05);
    const table = renderTable(recipe, rows);
    expect(table).toContain("Holm-adjusted over the 12 planned comparisons of this experiment");
    // The effect: +27.50 points (11 of 40), with its paired interval; no change still has an interval around 0.
    expect(test!.difference).toBeCloseTo(27.5, 9);
    expect(test!.differenceInterval.low).toBeGreaterThan(0);
    expect(table).toMatch(/^\| c1 \| initial SQL \(initial\) \| 40 \| 11 \| 0 \| \+27\.50 \[\d+\.\d\d, \d+\.\d\d\] \| 0\.000977 \| 0\.0117 \| significant \|$/m);
    expect(table).toMatch(/^\| c2 \| initial SQL \(initial\) \| 40 \| 0 \| 0 \| \+0\.00 \[-\d+\.\d\d, \d+\.\d\d\] \| 1\.00 \| 1\.00 \| not significant \|$/m);
    // One family per page: the experiment page's all-pairs table is labelled exploratory; its planned cells carry the effect.
    const html = await renderCompareHtml(all, { command: "sqlmend experiment many", experiment: experimentHtmlRows(rows) });
    expect(html).toContain("<h2>Exploratory: every pair (not the planned family)</h2>");
    expect(html).not.toContain("<h2>Pairs</h2>");
    expect(html).toMatch(/initial SQL \(initial\): \+11 \/ −0, EX \+27\.50 \[\d+\.\d\d, \d+\.\d\d\], p 0\.000977, Holm p 0\.0117 \(of 12\)/);
    const c2 = rows.find((r) => r.run === "c2")!.versus!.tests[0]!;
    expect([c2.differenceInterval.low < 0, c2.differenceInterval.high > 0]).toEqual([true, true]);
  });

  it("an ablation against the run its recipe names, paired on the questions both answered; a reference that did not run is said", () => {
    const recipe = validateRecipe({ name: "abl", runs: { full: { graph: "baseline" }, "no-x": { graph: "baseline", reference: "full" }, "no-y": { graph: "baseline", reference: "gone" }, gone: { graph: "baseline", needs: "a method sqlmend lacks" } } }, "abl");
    const records: Record<string, EvalRecord[]> = {
      full: ids.slice(0, 10).map((id) => rec(id, Number(id) < 6)),
      // Question 0 failed in no-x: no answer, not a pair.
      "no-x": ids.slice(0, 10).map((id) => (id === "0" ? rec(id, false, undefined, "model call failed") : rec(id, Number(id) < 2 || id === "9"))),
      "no-y": ids.slice(0, 10).map((id) => rec(id, true)),
    };
    const rows = ["full", "no-x", "no-y"].map((run) => rowOf(run, recipe.runs[run]!, records[run]!));
    rows.push({ ...rowOf("gone", recipe.runs.gone!, []), notRun: "a method sqlmend lacks" });
    plannedComparisons(recipe, rows, (run) => records[run]!, { seeds: [], held: new Set() });
    const noX = rows.find((r) => r.run === "no-x")!.versus!;
    // Pairs 1..9: full right on 1..5, no-x on 1 and 9.
    expect(noX.tests[0]).toMatchObject({ compared: 9, onlyRow: 1, onlyReference: 4, family: 1 });
    expect(rows.find((r) => r.run === "no-y")!.versus).toEqual({ reference: "gone", tests: [], pooled: null, notTested: "run gone did not run: a method sqlmend lacks" });
    expect(renderTable(recipe, rows)).toMatch(/^\| no-y \| gone \| not tested: run gone did not run: a method sqlmend lacks \|/m);
    // A reference that is not an eval run of the recipe is refused with the run's name.
    expect(() => validateRecipe({ name: "bad", runs: { a: { graph: "baseline", reference: "b" } } }, "bad.yaml")).toThrow(/bad\.yaml: runs\.a: reference 'b' must be another eval run of the recipe/);
  });

  it("the built-in recipes name each row's reference per paper: ablations against the full method, reviewers against the writer alone", () => {
    const ref = (recipe: string, run: string) => BUILT_IN_RECIPES[recipe]!.runs[run]!.reference;
    expect(["no-dg", "no-ci", "no-cg", "no-all"].map((r) => ref("ts-sql-table4", r))).toEqual(["ts-sql", "ts-sql", "ts-sql", "ts-sql"]);
    expect(["pot", "1r-cot", "1r-pot", "3r-pot"].map((r) => ref("r3-table3", r))).toEqual(["cot", "cot", "pot", "1r-pot"]);
    expect(ref("memo-ablation", "no-refine")).toBe("full");
    // The full row runs as the paper's Qwen3 full (no ICL); our ICL default is tested against it.
    expect(ref("memo-ablation", "icl")).toBe("full");
    expect(ref("memo-ablation", "full")).toBeUndefined();
    expect(ref("memo-correction", "share")).toBe(false);
    // Correctors keep their default: their own initial SQL.
    expect(ref("magic-table1", "magic.errors")).toBeUndefined();
  });

  it("every selected question counts: failed and never-run questions are wrong, the row is partial, and a comparison with no pairs is not tested and outside the family", () => {
    const recipe = validateRecipe({ name: "r3", runs: { cot: { graph: "baseline" }, "1r-pot": { graph: "baseline", reference: "cot" }, "3r-pot": { graph: "baseline", reference: "1r-pot" } } }, "r3");
    const twelve = ids.slice(0, 12);
    const records: Record<string, EvalRecord[]> = {
      // cot: 5 of 8 answered right, 4 failed.
      cot: twelve.map((id) => (Number(id) >= 8 ? rec(id, false, undefined, "model call failed") : rec(id, Number(id) < 5))),
      // 1r-pot answered only questions 8..11, where cot failed: no pair with cot.
      "1r-pot": twelve.map((id) => (Number(id) < 8 ? rec(id, false, undefined, "model call failed") : rec(id, true))),
      // 3r-pot: 1 of 1 answered, 8 failed, 3 never ran.
      "3r-pot": twelve.slice(0, 9).map((id) => (id === "8" ? rec(id, true) : rec(id, true, undefined, "model call failed"))),
    };
    const rows = Object.keys(records).map((run) => rowOf(run, recipe.runs[run]!, records[run]!, undefined, 12));
    const [cot, one, three] = rows as [RunRow, RunRow, RunRow];
    expect([cot.ex, cot.answeredEx, cot.partial]).toEqual([(5 / 12) * 100, 62.5, true]);
    // A failed question's partial SQL that happened to be right is no answer: 1 right, not 9.
    expect([three.correct, three.ex, three.answeredEx, three.failed, three.unrun, three.partial]).toEqual([1, (1 / 12) * 100, 100, 8, 3, true]);
    expect(three.exInterval!.n).toBe(12);
    plannedComparisons(recipe, rows, (run) => records[run]!, { seeds: [], held: new Set() });
    expect(one.versus).toEqual({ reference: "cot", tests: [], pooled: null, notTested: "no question both answered with gold: nothing to pair" });
    expect(three.versus!.tests.map((t) => [t.compared, t.family])).toEqual([[1, 1]]);
    const table = renderTable(recipe, rows);
    expect(table).toMatch(/^\| 3r-pot \| baseline \|  \|  \| 9 \| 8\.33 \[[\d.]+, [\d.]+\] partial \(8 failed, 3 not run; answered only: 100\.00 \(1 of 1\)\) \|/m);
    expect(table).toMatch(/^\| 1r-pot \| cot \| not tested: no question both answered with gold/m);
    expect(table).toContain("Holm-adjusted over the 1 planned comparisons");
  });

  it("a question written from an empty initial SQL is never credited as a correction", () => {
    const recipe = validateRecipe({ name: "e", runs: { gen: { graph: "baseline" }, fix: { graph: "repair", initial: "gen" } } }, "e");
    const withInitial = (id: string, initialSql: string) => ({ ...rec(id, true, false), initialSql }) as EvalRecord;
    const records = [withInitial("1", "SELECT 1"), withInitial("2", ""), withInitial("3", "  ")];
    const row = rowOf("fix", recipe.runs.fix!, records);
    expect([row.wrongToRight, row.initialEx]).toEqual([1, 0]);
    plannedComparisons(recipe, [rowOf("gen", recipe.runs.gen!, []), row], () => records, { seeds: [], held: new Set() });
    expect(row.versus!.tests[0]).toMatchObject({ compared: 1, onlyRow: 1 });
  });

  it("with --repeats, a test per repeat, each Holm-adjusted within its repeat", () => {
    const recipe = validateRecipe({ name: "r", runs: { gen: { graph: "baseline" }, fix: { graph: "repair", initial: "gen" } } }, "r");
    const perRepeat = [ids.map((id) => rec(id, initiallyRight(id) || id === "30", initiallyRight(id))), ids.map((id) => rec(id, initiallyRight(id) && id !== "0", initiallyRight(id)))];
    const gen = repeatedRowOf("gen", recipe.runs.gen!, [ids.map((id) => rec(id, initiallyRight(id))), ids.map((id) => rec(id, initiallyRight(id)))], [4, 5]);
    const fix = repeatedRowOf("fix", recipe.runs.fix!, perRepeat, [4, 5]);
    plannedComparisons(recipe, [gen, fix], (run, k) => (run === "fix" ? perRepeat[k - 1]! : []), { seeds: [4, 5], held: new Set() });
    expect(fix.versus!.tests.map((t) => [t.seed, t.onlyRow, t.onlyReference, t.family])).toEqual([[4, 1, 0, 1], [5, 0, 1, 1]]);
    // Pooled over the repeats: question 30 right in half the repeats (+), question 0 wrong in half (−).
    expect(fix.versus!.pooled).toMatchObject({ seed: null, compared: 40, onlyRow: 1, onlyReference: 1, family: 1 });
    expect(fix.versus!.pooled!.difference).toBeCloseTo(0, 9);
    expect(renderTable(recipe, [gen, fix], { repeats: 2 })).toMatch(/^\| fix \| initial SQL \(gen\) \| pooled \| 40 \| 1 \| 1 \| \+0\.00 \[/m);
  });

  it("--set initial=FILE: the file's row names its file, is not tested against itself, is no corrector in the grid, and the family is the correctors'", () => {
    const recipe0 = validateRecipe({ name: "si", runs: { initial: { graph: "baseline", paper: { source: "P", model: "m", row: "DIN-SQL", figures: {}, differs: BASELINE_INITIAL } }, "magic.all": { graph: "repair", initial: "initial", correct: "all" }, "magic.errors": { graph: "repair", initial: "initial", correct: "errors" }, "fix.all": { graph: "repair", initial: "initial", correct: "all" } } }, "si");
    const { recipe } = withInitialFile(recipe0, { initial: "din.json" }, "/tmp", setsOf);
    const records = (run: string) => ids.slice(0, 10).map((id) => rec(id, run === "initial" ? Number(id) < 5 : Number(id) < 6, run === "initial" ? undefined : Number(id) < 5));
    const rows = Object.keys(recipe.runs).map((run) => rowOf(run, recipe.runs[run]!, records(run)));
    plannedComparisons(recipe, rows, (run) => records(run), { seeds: [], held: new Set() });
    const initial = rows.find((r) => r.run === "initial")!;
    expect([initial.versus, initial.scenario, initial.initial]).toEqual([null, null, "file din.json"]);
    expect(rows.filter((r) => r.versus).map((r) => r.versus!.tests[0]!.family)).toEqual([3, 3, 3]);
    const table = renderTable(recipe, rows);
    expect(table).toContain("Holm-adjusted over the 3 planned comparisons");
    // The grid holds the correctors only; the file's row names it and its set-up cell names the file.
    const grid = table.slice(table.indexOf("## Correctors × scenarios"), table.indexOf("## Runs"));
    expect(grid).not.toMatch(/^\| initial \|/m);
    expect(grid).toMatch(/^\| magic \|/m);
    expect(table).toMatch(/^\| initial \| as-given \| file din\.json \|  \|/m);
    expect(table).toMatch(/^\| initial \| DIN-SQL \| .* \| din\.json \(--set initial\) \|$/m);
  });
});

describe("EX intervals", () => {
  it("one run: the Wilson score interval over the questions, per EX cell, in table.json's row and table.md", () => {
    const recipe = validateRecipe({ name: "w", runs: { gen: { graph: "baseline" } } }, "w");
    const records = ids.slice(0, 10).map((id) => rec(id, Number(id) < 7));
    const row = rowOf("gen", recipe.runs.gen!, records);
    expect(row.exInterval!.over).toBe("questions");
    expect(row.exInterval!.n).toBe(10);
    // 7 of 10: Wilson 95 % is 39.68..89.22.
    expect(row.exInterval!.low).toBeCloseTo(39.68, 2);
    expect(row.exInterval!.high).toBeCloseTo(89.22, 2);
    expect(row.byDifficulty[0]!.interval).toEqual(row.exInterval);
    const table = renderTable(recipe, [row]);
    expect(table).toMatch(/^EX \[low, high\]: a 95 % interval, the Wilson score interval over every selected question/m);
    expect(table).toMatch(/^\| gen \| baseline \|  \|  \| 10 \| 70\.00 \[39\.68, 89\.22\] \|/m);
    expect(table).toMatch(/^\| gen \| 70\.00 \[39\.68, 89\.22\] \(10\) \| 70\.00 \[39\.68, 89\.22\] \|$/m);
  });

  it("--repeats: a seeded bootstrap over questions × repeats, never zero width on a small sample", () => {
    const recipe = validateRecipe({ name: "t", runs: { gen: { graph: "baseline" }, pot: { graph: "baseline" } } }, "t");
    // pot: 8 of 8 right in all three repeats: the repeats agree, the 8 questions are still a small sample.
    const pot = repeatedRowOf("pot", recipe.runs.pot!, [1, 2, 3].map(() => ids.slice(0, 8).map((id) => rec(id, true))), [1, 2, 3]);
    expect(pot.exInterval!.over).toBe("repeats");
    expect(pot.exInterval!.high).toBe(100);
    // At least Wilson's 8 of 8: 67.56.
    expect(pot.exInterval!.low).toBeLessThanOrEqual(67.57);
    const run = (right: number) => ids.slice(0, 10).map((id) => rec(id, Number(id) < right));
    const gen = repeatedRowOf("gen", recipe.runs.gen!, [run(5), run(6), run(7)], [1, 2, 3]);
    expect(gen.exInterval!.low).toBeLessThan(35);
    expect(gen.exInterval!.high).toBeGreaterThan(84);
    // Seeded: the same figures, the same interval.
    expect(repeatedRowOf("gen", recipe.runs.gen!, [run(5), run(6), run(7)], [1, 2, 3]).exInterval).toEqual(gen.exInterval);
    const table = renderTable(recipe, [gen, pot], { repeats: 3 });
    expect(table).toMatch(/^EX \[low, high\]: a 95 % interval, over repeats: a seeded bootstrap over questions × repeats/m);
    expect(table).not.toContain("[100.00, 100.00]");
  });
});
