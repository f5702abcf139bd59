/**
 * report.html in a real headless Chromium (Debian's /usr/bin/chromium driven by playwright-core): the page loads
 * with no console error and no request beyond itself, every chart has its marks, and the numbers drawn equal the
 * comparison's JSON (`sqlmend compare --json`) and the data the page embeds.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, chromium } from "playwright-core";
import { main } from "../cli/main.ts";
import type { EvalRecord } from "../runner/run/results-record.ts";
import { renderCompareHtml, renderEvalHtml } from "../runner/report/report-html.ts";
import { compareRuns } from "../runner/report/comparison.ts";
import { groupedBarChartParts, renderVegaLite, scatterChartParts } from "../tools/charts.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { startOpenAIServer } from "./support/openai-server.ts";
import { agentsConfig, methodAgents } from "./support/method-agents.ts";
import { runCli } from "./support/cli.ts";

const CHROMIUM = "/usr/bin/chromium";
// Skipped, with the reason printed, only where Debian's Chromium is not installed (.ci/run installs it).
const skip = fs.existsSync(CHROMIUM) ? undefined : `no ${CHROMIUM}: apt-get install chromium (.ci/run does)`;
if (skip) console.warn(`report-html: skipped: ${skip}`);

let dir: string;
let browser: Browser;

beforeAll(async () => {
  dir = makeTempDir();
  if (skip) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  removeTempDir(dir);
});

const record = (id: string, correct: boolean, difficulty: string, tokens: number, initialCorrect?: boolean): EvalRecord => ({
  id,
  dbId: "db",
  difficulty,
  question: `q${id}`,
  sql: "SELECT 1",
  correct,
  ...(initialCorrect !== undefined ? { initialCorrect } : {}),
  inputTokens: tokens,
  outputTokens: Number(id),
  calls: 2,
  latencyMs: 500 + Number(id),
  iterations: 0,
  usageByRole: {},
  thread: `t${id}`,
});

function writeRun(name: string, graph: string, records: EvalRecord[]) {
  const out = path.join(dir, name);
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, "run.json"), JSON.stringify({ graph, bench: "/b", split: "dev", semantics: "bird" }));
  fs.writeFileSync(path.join(out, "results.jsonl"), records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return out;
}

interface Mark {
  chart: string;
  series: string;
  group: string | null;
  value: number | null;
  x: number | null;
  y: number | null;
  /** A bar's drawn length (bars are horizontal). */
  length: number;
}

/** Opens a page, fails on any console error, page error or request other than the file itself. */
async function open(file: string) {
  const page = await browser.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  const marks = await page.$$eval(".mark", (els) =>
    els.map((el) => {
      const box = (el as unknown as { getBBox(): { width: number } }).getBBox();
      const n = (a: string) => (el.getAttribute(a) === null ? null : Number(el.getAttribute(a)));
      return { chart: el.getAttribute("data-chart")!, series: el.getAttribute("data-series")!, group: el.getAttribute("data-group"), value: n("data-value"), x: n("data-x"), y: n("data-y"), length: box.width };
    }),
  );
  const data = JSON.parse((await page.textContent("#sqlmend-data"))!);
  const cells = await page.$$eval("#summary tr[data-run] td[data-field]", (tds) => tds.map((td) => ({ run: td.parentElement!.getAttribute("data-run")!, field: td.getAttribute("data-field")!, text: td.textContent! })));
  const figures = await page.$$eval("figure", (fs) => fs.map((f) => ({ id: f.id, svgs: f.querySelectorAll("svg").length, width: f.querySelector("svg")!.getBoundingClientRect().width })));
  await page.close();
  return { errors, requests, marks: marks as Mark[], data, cells, figures };
}

describe("the chart module (Vega-Lite in Node)", () => {
  it("lays every chart out without a warning, one titled mark per value, and fetches nothing", async () => {
    const bars = await groupedBarChartParts({ id: "b", title: "t", groups: ["simple", "all"], series: [{ name: "A <x>", label: "A", values: [50, null] }, { name: "B", label: "B", values: [undefined, 75] }], max: 100, unit: "%" });
    const points = await scatterChartParts({ id: "p", title: "t", points: [{ name: "A", x: 10, y: 50 }, { name: "B", x: 10, y: 50 }], x: { title: "tokens" }, y: { title: "EX %", max: 100 } });
    expect([bars.rendered.warnings, points.rendered.warnings]).toEqual([[], []]);
    // A number is a titled bar; null a dash and no bar; undefined nothing.
    expect([...bars.html.matchAll(/class="mark"[^>]*data-value="([^"]+)"[^>]*><title>([^<]*)<\/title>/g)].map((m) => [m[1], m[2]])).toEqual([["50", "A &lt;x&gt; · simple: 50.00%"], ["75", "B · all: 75.00%"]]);
    expect([...points.html.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1])).toEqual(["A, B: each 50.00 at 10", "A, B: each 50.00 at 10"]);
    await expect(renderVegaLite({ data: { url: "http://127.0.0.1:9/data.json" }, mark: "point" } as never, { id: "u", title: "t" })).rejects.toThrow(/charts load nothing/);
  }, 60_000);
});

describe.skipIf(!!skip)("report.html in headless Chromium", () => {
  it("compare --html: loads cleanly; EX by difficulty, EX against tokens and flips drawn from the comparison's numbers", async () => {
    const ids = Array.from({ length: 10 }, (_, i) => String(i));
    const level = (id: string) => (Number(id) < 4 ? "simple" : Number(id) < 8 ? "moderate" : "challenging");
    const a = writeRun("a", "baseline", ids.map((id) => record(id, Number(id) % 2 === 0, level(id), 100)));
    const b = writeRun("b", "repair", ids.map((id) => record(id, Number(id) < 7, level(id), 250, Number(id) % 2 === 0)));
    const c = writeRun("c", "magic", ids.map((id) => record(id, Number(id) % 3 !== 0, level(id), 900, Number(id) % 2 === 0)));
    const out: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: () => {}, env: {}, cwd: dir };
    const html = path.join(dir, "compare.html");
    expect(await main(["compare", a, b, c, "--json", "--html", html], io)).toBe(0);
    const json = JSON.parse(out.join(""));
    const page = await open(html);
    expect(page.errors).toEqual([]);
    expect(page.requests).toEqual([pathToFileURL(html).href]);
    expect(page.figures.map((f) => f.id)).toEqual(["ex-by-difficulty", "ex-vs-tokens", "flips"]);
    for (const f of page.figures) expect(f.width).toBeGreaterThan(100);

    const bars = page.marks.filter((m) => m.chart === "ex-by-difficulty");
    expect(bars).toHaveLength(3 * 4); // 3 runs × (3 difficulties + all)
    for (const run of json.runs as { key: string; label: string; ex: number; tokensPerQuestion: number; byDifficulty: { difficulty: string; ex: number }[] }[]) {
      const name = `${run.key} ${run.label}`;
      for (const d of run.byDifficulty) expect(bars.find((m) => m.series === name && m.group === d.difficulty)?.value).toBeCloseTo(d.ex, 10);
      expect(bars.find((m) => m.series === name && m.group === "all")?.value).toBeCloseTo(run.ex, 10);
      const point = page.marks.find((m) => m.chart === "ex-vs-tokens" && m.series === name)!;
      expect([point.x, point.y]).toEqual([run.tokensPerQuestion, run.ex]);
      const cell = (field: string) => page.cells.find((x) => x.run === run.key && x.field === field)?.text;
      expect(cell("ex")).toBe(run.ex.toFixed(2));
      expect(cell("tokensPerQuestion")).toBe(run.tokensPerQuestion.toFixed(0));
    }
    // A bar's drawn length follows its value (EX 0 draws nothing, EX 100 the full plot).
    const lengths = bars.map((m) => m.length / (m.value ?? 1));
    const scale = lengths.find((h) => Number.isFinite(h) && h > 0)!;
    for (const m of bars) expect(m.length).toBeCloseTo((m.value ?? 0) * scale, 0);
    // Flips of the two correctors, from their initial verdicts: B fixes 1, 3, 5 and breaks 8; C fixes 1, 5, 7 and breaks 0, 6.
    const flips = page.marks.filter((m) => m.chart === "flips");
    const flip = (series: string, run: string) => flips.find((m) => m.series === series && m.group === run)?.value;
    expect([flip("wrong → right", "B b (repair)"), flip("right → wrong", "B b (repair)")]).toEqual([3, 1]);
    expect([flip("wrong → right", "C c (magic)"), flip("right → wrong", "C c (magic)")]).toEqual([3, 2]);
    expect(flips).toHaveLength(4);
    expect(page.data.runs.map((r: { ex: number }) => r.ex)).toEqual(json.runs.map((r: { ex: number }) => r.ex));
    expect(page.data.pairs.map((p: { holmP: number }) => p.holmP)).toEqual(json.pairs.map((p: { holmP: number }) => p.holmP));
  }, 60_000);

  it("an eval's report.html: EX by difficulty and, for a corrector, its flips", async () => {
    const records = [record("1", true, "simple", 10, false), record("2", false, "simple", 20, true), record("3", true, "moderate", 30, true), record("4", false, "moderate", 40, false)];
    const file = path.join(dir, "report.html");
    fs.writeFileSync(file, await renderEvalHtml(records, { graph: "repair <x>", dataset: "/b", split: "dev", command: "sqlmend eval repair" }));
    const page = await open(file);
    expect(page.errors).toEqual([]);
    expect(page.figures.map((f) => f.id)).toEqual(["ex-by-difficulty", "flips"]);
    const bars = page.marks.filter((m) => m.chart === "ex-by-difficulty");
    expect(bars.map((m) => [m.group, m.value])).toEqual([["simple", 50], ["moderate", 50], ["all", 50]]);
    expect(page.marks.filter((m) => m.chart === "flips").map((m) => [m.series, m.value])).toEqual([["wrong → right", 1], ["right → wrong", 1]]);
    expect(page.data.runs[0].label).toBe("repair <x>");
  }, 60_000);
  it("an experiment's report.html: its table equals table.json; per-database EX and the guideline's corrected-within-k drawn from it", async () => {
    const bench = path.join(dir, "minibench");
    await buildMinibench(bench);
    const questions = [(await loadBenchmark(bench, { split: "dev" })).questions, (await loadBenchmark(bench, { split: "train" })).questions];
    const server = await startOpenAIServer({ respond: methodAgents({ questions }).respond });
    try {
      fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
      fs.writeFileSync(path.join(dir, "page.yaml"), "name: page\nruns:\n  gen: {graph: baseline, options: {max-fix-rounds: 0}}\n  guideline: {kind: magic-guideline, options: {max-iter: 2}}\n  fix: {graph: repair, initial: gen}\n");
      const run = await runCli(["experiment", "page.yaml", "--bench", bench, "--out", "exp", "--limit", "8", "--checkpoints", "memory", "--price-in", "2", "--price-out", "8"], dir, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") });
      expect(run.code, run.err.slice(-2000)).toBe(0);
    } finally {
      await server.close();
    }
    const table = JSON.parse(fs.readFileSync(path.join(dir, "exp", "table.json"), "utf8"));
    const file = path.join(dir, "exp", "report.html");
    const page = await open(file);
    expect(page.errors).toEqual([]);
    expect(page.requests).toEqual([pathToFileURL(file).href]);
    expect(page.figures.map((f) => f.id)).toEqual(["ex-by-difficulty", "ex-vs-tokens", "flips", "ex-by-database", "corrected-within"]);
    const browser2 = await browser.newPage();
    await browser2.goto(pathToFileURL(file).href);
    const cells = await browser2.$$eval("#experiment tr[data-run] td[data-field]", (tds) => tds.map((td) => ({ run: td.parentElement!.getAttribute("data-run")!, field: td.getAttribute("data-field")!, text: td.textContent! })));
    await browser2.close();
    const evalRows = table.rows.filter((r: { guideline: unknown }) => !r.guideline);
    expect(evalRows.map((r: { run: string }) => r.run)).toEqual(["gen", "fix"]);
    for (const row of evalRows) {
      const cell = (field: string) => cells.find((c) => c.run === row.run && c.field === field)?.text;
      expect([row.run, cell("ex"), cell("questions"), cell("tokensPerQuestion"), cell("costPerQuestion")]).toEqual([row.run, row.ex.toFixed(2), String(row.questions), row.tokensPerQuestion.toFixed(0), row.costPerQuestion.toFixed(5)]);
    }
    // Figure 4: EX per database, each bar the run's share of right answers on that database.
    const perDb = page.marks.filter((m) => m.chart === "ex-by-database");
    const databases = new Set(perDb.map((m) => m.group));
    expect(databases.size).toBeGreaterThan(1);
    for (const r of page.data.runs) for (const d of r.byDatabase) expect(perDb.find((m) => m.series === `${r.key} ${r.label}` && m.group === d.db)?.value).toBeCloseTo((d.correct / d.count) * 100, 10);
    // Figure 3: the guideline run's failures corrected within k = 1, 2, as its stats say.
    const guideline = table.rows.find((r: { run: string }) => r.run === "guideline").guideline;
    expect(page.marks.filter((m) => m.chart === "corrected-within").map((m) => [m.group, m.value])).toEqual(guideline.correctedWithin.map((v: number, i: number) => [`k=${i + 1}`, v]));
    // Each EX with its 95 % interval, and the corrector tested against its initial SQL (gen's), in table.json and on the page.
    const fix = table.rows.find((r: { run: string }) => r.run === "fix");
    expect(table.intervals).toMatch(/Wilson score interval over every selected question/);
    expect(fix.exInterval.low).toBeLessThan(fix.ex);
    expect(fix.exInterval.high).toBeGreaterThanOrEqual(fix.ex);
    expect(fix.versus.reference).toBe("initial SQL (gen)");
    expect(fix.versus.tests[0]).toMatchObject({ onlyRow: fix.wrongToRight, onlyReference: fix.rightToWrong, family: 1 });
    expect(cells.find((c) => c.run === "fix" && c.field === "interval")?.text).toBe(`${fix.exInterval.low.toFixed(2)}–${fix.exInterval.high.toFixed(2)}`);
    expect(cells.find((c) => c.run === "fix" && c.field === "versus")?.text).toBe(`initial SQL (gen): +${fix.wrongToRight} / −${fix.rightToWrong}, EX +${fix.versus.tests[0].difference.toFixed(2)} [${fix.versus.tests[0].differenceInterval.low.toFixed(2)}, ${fix.versus.tests[0].differenceInterval.high.toFixed(2)}], p ${fix.versus.tests[0].p.toPrecision(3)}, Holm p ${fix.versus.tests[0].holmP.toPrecision(3)} (of 1)`);
    // The cost summary of table.md, on the page.
    const { cost } = await layout(file);
    expect(cost).toEqual([fs.readFileSync(path.join(dir, "exp", "table.md"), "utf8").match(/^Cost at .*$/m)![0]]);
  }, 120_000);

  it("an experiment with --repeats: EX per repeat drawn per run and seed; a repeat that answered nothing has no bar", async () => {
    const runs = { gen: [record("1", true, "simple", 100), record("2", false, "simple", 120)], fix: [record("1", true, "simple", 50, true), record("2", true, "simple", 60, false)] };
    const comparison = compareRuns(Object.entries(runs).map(([label, records], i) => ({ key: `R${i + 1}`, label, dir: path.join(dir, label), records: new Map(records.map((r) => [r.id, r])), run: {} })));
    const row = (run: string, ex: (number | null)[]) => ({ run, graph: "g", questions: 2, ex: 50, sd: 10, repeats: { seeds: [4, 5, 6], ex }, tokensPerQuestion: 1, callsPerQuestion: 1, costPerQuestion: null, failed: 0, interval: null, versus: null });
    const experiment = [row("gen", [50, 0, 100]), row("fix", [100, null, 50]), { ...row("held", []), repeats: null, sd: null }];
    const file = path.join(dir, "repeats.html");
    fs.writeFileSync(file, await renderCompareHtml(comparison, { command: "sqlmend experiment t --repeats 3", experiment }));
    const page = await open(file);
    expect(page.errors).toEqual([]);
    expect(page.figures.map((f) => f.id)).toContain("ex-per-repeat");
    const bars = page.marks.filter((m) => m.chart === "ex-per-repeat").map((m) => [m.group, m.series, m.value, m.length > 0 || m.value === 0]);
    // Every repeat of every repeated run, in seed order; fix's empty repeat 2 and the held run draw nothing.
    expect(bars).toEqual([
      ["gen", "repeat 1 (seed 4)", 50, true],
      ["gen", "repeat 2 (seed 5)", 0, true],
      ["gen", "repeat 3 (seed 6)", 100, true],
      ["fix", "repeat 1 (seed 4)", 100, true],
      ["fix", "repeat 3 (seed 6)", 50, true],
    ]);
  });
});

/** Every svg text's box (as drawn) per figure, with its svg's box; and each mark's fill colour per series. */
async function layout(file: string) {
  const page = await browser.newPage();
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  const figures = await page.$$eval("figure", (fs) =>
    fs.map((f) => {
      const style = (el: unknown) => (globalThis as unknown as { getComputedStyle(e: unknown): { fill: string; backgroundColor: string } }).getComputedStyle(el);
      const box = (el: { getBoundingClientRect(): { left: number; right: number; top: number; bottom: number } }) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      };
      const svg = f.querySelector("svg")!;
      return {
        id: f.id,
        caption: f.querySelector("figcaption")!.textContent!,
        svg: box(svg),
        texts: [...svg.querySelectorAll("text")].map((t) => ({ text: t.textContent!, ...box(t) })),
        ticks: [...svg.querySelectorAll("[data-axis='value'] .role-axis-label text")].map((t) => t.textContent!),
        fills: [...svg.querySelectorAll(".mark")].map((m) => ({ series: m.getAttribute("data-series")!, fill: style(m).fill })),
        keys: [...f.querySelectorAll(".key i")].map((i) => style(i).backgroundColor),
      };
    }),
  );
  const text = (selector: string) => page.$$eval(selector, (els) => els.map((e) => e.textContent!));
  const cost = await text("#cost");
  const summary = await page.$$eval("#summary tr[data-run] td[data-field]", (tds) => tds.map((td) => ({ run: td.parentElement!.getAttribute("data-run")!, field: td.getAttribute("data-field")!, text: td.textContent! })));
  const marks = await page.$$eval(".mark", (els) => els.map((el) => ({ chart: el.getAttribute("data-chart")!, series: el.getAttribute("data-series")!, group: el.getAttribute("data-group"), value: Number(el.getAttribute("data-value")) })));
  await page.close();
  return { figures, cost, summary, marks };
}

const rgb = (css: string) => css.match(/\d+/g)!.slice(0, 3).map(Number);

/** 14 correctors with long names on 3 databases, some with the same EX and tokens (their points coincide). */
function manyRuns() {
  const names = ["initial", "self-debugging.incorrect", "self-debugging.errors", "self-consistency.incorrect", "self-consistency.errors", "multiple-prompt.incorrect", "multiple-prompt.errors", "magic.incorrect", "magic.errors", "magic.all", "human-wang.incorrect", "human-pourreza.incorrect", "repair.all", "memo-refine.all"];
  const ids = Array.from({ length: 12 }, (_, i) => String(i));
  const runs = names.map((name, n) => {
    const records = ids.map((id) => ({ ...record(id, (Number(id) + (n % 4)) % 3 !== 0, ["simple", "moderate", "challenging"][Number(id) % 3]!, 100 * (n % 5) + 50, n ? Number(id) % 3 !== 0 : undefined), dbId: `database_${Number(id) % 3}` }));
    return { key: `R${n + 1}`, label: name, dir: path.join(dir, name), records: new Map(records.map((r) => [r.id, r])), run: {} };
  });
  return compareRuns(runs);
}

describe.skipIf(!!skip)("report.html a reader can read (Chromium)", () => {
  it("14 runs: a distinct colour per series, in the bars, the points and the legend", async () => {
    const file = path.join(dir, "many.html");
    fs.writeFileSync(file, await renderCompareHtml(manyRuns(), { command: "sqlmend compare ..." }));
    const { figures } = await layout(file);
    for (const id of ["ex-by-difficulty", "ex-vs-tokens", "ex-by-database"]) {
      const f = figures.find((x) => x.id === id)!;
      const bySeries = new Map<string, string>();
      for (const m of f.fills) {
        expect(bySeries.get(m.series) ?? m.fill, `${id}: one colour per series`).toBe(m.fill);
        bySeries.set(m.series, m.fill);
      }
      const colours = [...bySeries.values()].map(rgb);
      expect(colours).toHaveLength(14);
      // Every two series differ clearly (RGB distance), not merely in a digit.
      for (let i = 0; i < colours.length; i++) for (let j = i + 1; j < colours.length; j++) expect(Math.hypot(...colours[i]!.map((v, c) => v - colours[j]![c]!)), `${id}: series ${i} and ${j}`).toBeGreaterThan(40);
      expect(f.keys.map(rgb)).toEqual(colours);
    }
  }, 60_000);

  it("no label overlaps another or leaves its drawing: bar values, long run names, point names, ticks", async () => {
    const file = path.join(dir, "labels.html");
    const guidelines = [{ run: "guideline.m2-nm (repeat 1)", maxIter: 2, failures: 40, correctedWithin: [12, 20] }, { run: "guideline", maxIter: 5, failures: 38, correctedWithin: [10, 18, 22, 25, 26] }];
    fs.writeFileSync(file, await renderCompareHtml(manyRuns(), { command: "sqlmend experiment ...", guidelines }));
    const { figures } = await layout(file);
    expect(figures.map((f) => f.id)).toEqual(["ex-by-difficulty", "ex-vs-tokens", "flips", "ex-by-database", "corrected-within"]);
    for (const f of figures) {
      const inside = f.texts.filter((t) => t.text.trim());
      for (const t of inside) {
        expect(t.left >= f.svg.left - 0.5 && t.right <= f.svg.right + 0.5 && t.top >= f.svg.top - 0.5 && t.bottom <= f.svg.bottom + 0.5, `${f.id}: '${t.text}' leaves its drawing`).toBe(true);
      }
      for (let i = 0; i < inside.length; i++) {
        for (let j = i + 1; j < inside.length; j++) {
          const [a, b] = [inside[i]!, inside[j]!];
          const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
          expect(overlap, `${f.id}: '${a.text}' overlaps '${b.text}'`).toBe(false);
        }
      }
    }
  }, 60_000);

  it("count axes tick at whole numbers; Figure 3 draws no k past a run's max_i (nothing table.json lacks)", async () => {
    const file = path.join(dir, "counts.html");
    const guidelines = [{ run: "guideline.m2", maxIter: 2, failures: 4, correctedWithin: [1, 2] }, { run: "guideline", maxIter: 5, failures: 4, correctedWithin: [1, 2, 3, 3, 3] }];
    const records = [record("1", true, "simple", 10, false), record("2", false, "simple", 20, true), record("3", true, "simple", 20, false), record("4", true, "simple", 20, false)];
    const c = compareRuns([{ key: "A", label: "fix", dir: "", records: new Map(records.map((r) => [r.id, r])), run: {} }]);
    fs.writeFileSync(file, await renderCompareHtml(c, { command: "sqlmend experiment ...", guidelines }));
    const { figures, marks } = await layout(file);
    for (const id of ["flips", "corrected-within"]) {
      const ticks = figures.find((f) => f.id === id)!.ticks;
      expect(ticks.length, id).toBeGreaterThan(1);
      // Whole numbers, each once, evenly stepped from 0.
      const values = ticks.map(Number);
      for (const v of values) expect(Number.isInteger(v) && String(v) === ticks[values.indexOf(v)], `${id}: tick '${v}'`).toBe(true);
      expect(new Set(values).size).toBe(values.length);
      expect(values[0]).toBe(0);
      for (let i = 1; i < values.length; i++) expect(values[i]! - values[i - 1]!).toBe(values[1]);
    }
    const within = marks.filter((m) => m.chart === "corrected-within");
    for (const g of guidelines) expect(within.filter((m) => m.series === g.run).map((m) => [m.group, m.value])).toEqual(g.correctedWithin.map((v, i) => [`k=${i + 1}`, v]));
  }, 60_000);

  it("a repeated experiment's charts say which repeat they draw", async () => {
    const file = path.join(dir, "repeat.html");
    const row = { run: "gen", graph: "baseline", questions: 12, ex: 50, sd: 5, repeats: { seeds: [4, 5], ex: [45, 55] }, tokensPerQuestion: 1, callsPerQuestion: 1, costPerQuestion: null, failed: 0, interval: { low: 5, high: 95, over: "repeats", n: 2 }, versus: null };
    fs.writeFileSync(file, await renderCompareHtml(manyRuns(), { command: "sqlmend experiment t --repeats 2", experiment: [row], repeat: { k: 1, seed: 4, of: 2 } }));
    const { figures } = await layout(file);
    for (const f of figures.filter((x) => x.id !== "ex-per-repeat")) expect(f.caption, f.id).toMatch(/repeat 1 of 2 \(seed 4\)$/);
    expect(figures.find((f) => f.id === "ex-per-repeat")!.caption).toMatch(/EX per repeat/);
  }, 60_000);

  it("compare --html --price: cost per question in the summary, the cost on the page", async () => {
    const ids = ["1", "2", "3"];
    const a = writeRun("pa", "baseline", ids.map((id) => record(id, id !== "2", "simple", 1000)));
    const b = writeRun("pb", "repair", ids.map((id) => record(id, true, "simple", 3000, id !== "2")));
    const out: string[] = [];
    const html = path.join(dir, "priced.html");
    expect(await main(["compare", a, b, "--json", "--html", html, "--price", "2,8"], { stdout: (t: string) => void out.push(t), stderr: () => {}, env: {}, cwd: dir })).toBe(0);
    const json = JSON.parse(out.join(""));
    const { summary, cost } = await layout(html);
    for (const run of json.runs as { key: string; costPerQuestion: number }[]) {
      expect(run.costPerQuestion).toBeGreaterThan(0);
      expect(summary.find((c) => c.run === run.key && c.field === "costPerQuestion")?.text).toBe(run.costPerQuestion.toFixed(5));
    }
    expect(cost).toHaveLength(1);
    expect(cost[0]).toContain("Cost at $2 / $8 per million input / output tokens, over the 3 questions compared:");
    expect(cost[0]).toContain(`A $${(json.runs[0].costPerQuestion * 3).toFixed(4)}`);
  }, 60_000);
});

const HOSTILE = "<img src=x onerror=alert(1)>";
// A line separator too: Vega-Lite's generated expressions cannot hold one (it stopped the page).
const HOSTILE_DB = "</script><script>window.__hacked=1</script>\u2028x";

/**
 * `count` correctors on 12 questions of 4 difficulties and 3 databases (one named like a script), run 3 named like an
 * image tag; runs whose index differs by 6 have the same EX and tokens (their points coincide).
 */
function runsFixture(count: number) {
  const ids = Array.from({ length: 12 }, (_, i) => String(i));
  const levels = ["simple", "moderate", "challenging", "extra"];
  const runs = Array.from({ length: count }, (_, n) => {
    const records = ids.map((id) => ({ ...record(id, (Number(id) + (n % 6)) % 4 !== 0, levels[Number(id) % 4]!, 100 * (n % 6) + 50, Number(id) % 3 !== 0), dbId: ["concert_singer", HOSTILE_DB, "world_1"][Number(id) % 3]! }));
    return { key: `R${n + 1}`, label: n === 2 ? HOSTILE : `self-consistency.incorrect-${n + 1}`, dir: path.join(dir, `run${n}`), records: new Map(records.map((r) => [r.id, r])), run: {} };
  });
  return compareRuns(runs);
}

/** An experiment's page (renderCompareHtml, as `experiment` writes it) with every chart: MAGIC's figures and EX per repeat. */
async function experimentPage(file: string, count: number) {
  const comparison = runsFixture(count);
  const experiment = comparison.runs.map((r, i) => ({ run: r.label, graph: "repair", questions: 12, ex: r.ex, sd: 4, repeats: { seeds: [1, 2, 3], ex: [r.ex, Math.max(0, r.ex - i), i === 1 ? null : r.ex] }, tokensPerQuestion: r.tokensPerQuestion, callsPerQuestion: 2, costPerQuestion: null, failed: 0, interval: null, versus: null }));
  const guidelines = [{ run: `guideline ${HOSTILE}`, maxIter: 3, failures: 9, correctedWithin: [3, 5, 6] }, { run: "guideline.m2", maxIter: 2, failures: 9, correctedWithin: [2, 4] }];
  fs.writeFileSync(file, await renderCompareHtml(comparison, { command: "sqlmend experiment e.yaml", title: `sqlmend experiment: ${HOSTILE}`, experiment, guidelines, repeat: { k: 1, seed: 1, of: 3 } }));
}

/**
 * Opens a page at a viewport width (or as printed) and reads, per chart: its svg's box against the body's (the
 * column), the "all" group's label and bars, each mark's tooltip, and whether each scatter point is the element
 * at its own centre; with what the page ran or fetched (a hostile name must stay text).
 */
async function fit(file: string, width: number, media: "screen" | "print" = "screen") {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const requests: string[] = [];
  const dialogs: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.emulateMedia({ media });
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  const result = await page.evaluate(() => {
    // The DOM as far as this test reads it (the project compiles without DOM types).
    interface El {
      id: string;
      textContent: string | null;
      parentElement: El | null;
      getBoundingClientRect(): { left: number; right: number; top: number; width: number; height: number };
      getAttribute(name: string): string | null;
      querySelector(selector: string): El | null;
      querySelectorAll(selector: string): ArrayLike<El>;
      scrollIntoView(options: { block: string }): void;
    }
    const doc = (globalThis as unknown as { document: El & { body: El; documentElement: { scrollWidth: number; clientWidth: number }; elementFromPoint(x: number, y: number): El | null } }).document;
    const win = globalThis as unknown as { __hacked?: unknown; innerWidth: number };
    const all = (root: El, selector: string) => Array.from(root.querySelectorAll(selector));
    const box = (el: El) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, right: r.right, width: r.width };
    };
    const figures = all(doc, "figure").map((f) => {
      const svg = f.querySelector("svg")!;
      const marks = all(svg, ".mark");
      const allLabel = all(svg, ".role-title-text text").find((t) => t.textContent === "all");
      return {
        id: f.id,
        svgs: all(f, "svg").length,
        svg: box(svg),
        allLabel: allLabel ? box(allLabel) : null,
        allBars: marks.filter((m) => m.getAttribute("data-group") === "all").map(box),
        marks: marks.map((m) => ({ series: m.getAttribute("data-series")!, title: m.querySelector("title")?.textContent ?? "" })),
        // Each point is the element found at its own centre: visible and hoverable, none hidden under another.
        pointsOnTop:
          f.getAttribute("data-kind") !== "scatter"
            ? []
            : marks.map((m) => {
                m.scrollIntoView({ block: "center" });
                const r = m.getBoundingClientRect();
                const hit = doc.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return hit === m || hit?.parentElement === m;
              }),
        legend: all(f, ".legend .key").map((k) => k.textContent!),
      };
    });
    return { column: box(doc.body), viewport: win.innerWidth, scrollWidth: doc.documentElement.scrollWidth, clientWidth: doc.documentElement.clientWidth, figures, hacked: win.__hacked ?? null, images: all(doc, "img").length };
  });
  await page.close();
  return { ...result, requests, dialogs };
}

describe.skipIf(!!skip)("charts fit their column (Chromium)", () => {
  const check = (r: Awaited<ReturnType<typeof fit>>, where: string, runs: number) => {
    expect(r.figures.length, where).toBeGreaterThan(0);
    for (const f of r.figures) {
      const at = `${where} ${f.id}`;
      expect(f.svgs, at).toBe(1);
      // The drawing fits its column: no wider, not starting left of it nor ending right of it (nor off-screen).
      expect(f.svg.width, at).toBeGreaterThan(100);
      expect(f.svg.width, at).toBeLessThanOrEqual(r.column.width + 0.5);
      expect(f.svg.left, at).toBeGreaterThanOrEqual(r.column.left - 0.5);
      expect(f.svg.right, at).toBeLessThanOrEqual(Math.min(r.column.right, r.viewport) + 0.5);
      // Every mark has a tooltip naming its series.
      expect(f.marks.length, at).toBeGreaterThan(0);
      for (const m of f.marks) expect(m.title, at).toContain(m.series);
      for (const [i, onTop] of f.pointsOnTop.entries()) expect(onTop, `${at}: point ${f.marks[i]!.series} is hidden`).toBe(true);
    }
    // The "all" group is on the page: its label and one bar per run inside the drawing and the viewport.
    const difficulty = r.figures.find((f) => f.id === "ex-by-difficulty")!;
    expect(difficulty.allLabel, where).not.toBeNull();
    expect(difficulty.allBars, where).toHaveLength(runs);
    for (const b of [difficulty.allLabel!, ...difficulty.allBars]) {
      expect(b.left, where).toBeGreaterThanOrEqual(Math.max(0, difficulty.svg.left) - 0.5);
      expect(b.right, where).toBeLessThanOrEqual(Math.min(difficulty.svg.right, r.viewport) + 0.5);
    }
    // Nothing makes the page itself scroll sideways.
    expect(r.scrollWidth, where).toBeLessThanOrEqual(r.clientWidth);
  };

  it("an eval's report.html at 400 and 1,400 px and printed: each chart within its column, every mark with a tooltip", async () => {
    const levels = ["simple", "moderate", "challenging", "extra"];
    const records = Array.from({ length: 12 }, (_, i) => ({ ...record(String(i), i % 3 !== 0, levels[i % 4]!, 100 + i, i % 2 === 0), dbId: ["concert_singer", HOSTILE_DB, "world_1"][i % 3]! }));
    const file = path.join(dir, "fit-eval.html");
    // A benchmark in a deep data directory: its path is one unbroken word in the title.
    fs.writeFileSync(file, await renderEvalHtml(records, { graph: HOSTILE, dataset: "/home/researcher/projects/text-to-sql/.sqlmend/minibench", split: "dev", command: "sqlmend eval repair" }));
    for (const [width, media] of [[400, "screen"], [1400, "screen"], [720, "print"]] as const) {
      const r = await fit(file, width, media);
      check(r, `eval at ${width} (${media})`, 1);
      expect(r.figures.map((f) => f.id)).toEqual(["ex-by-difficulty", "flips", "ex-by-database"]);
      // The hostile graph and database names are text: no image, no script ran, no request, no dialog.
      expect([r.images, r.hacked, r.dialogs, r.requests]).toEqual([0, null, [], [pathToFileURL(file).href]]);
      expect(r.figures[0]!.legend).toEqual([HOSTILE]);
      expect(r.figures.find((f) => f.id === "ex-by-database")!.marks.map((m) => m.title).filter((t) => t.includes(HOSTILE_DB))).toHaveLength(1);
    }
  }, 120_000);

  for (const runs of [4, 13]) {
    it(`an experiment's report.html with ${runs} runs at 400 and 1,400 px and printed: each chart within its column, the "all" group shown, coincident points each visible`, async () => {
      const file = path.join(dir, `fit-${runs}.html`);
      await experimentPage(file, runs);
      for (const [width, media] of [[400, "screen"], [1400, "screen"], [720, "print"]] as const) {
        const r = await fit(file, width, media);
        check(r, `${runs} runs at ${width} (${media})`, runs);
        expect(r.figures.map((f) => f.id)).toEqual(["ex-by-difficulty", "ex-vs-tokens", "flips", "ex-by-database", "corrected-within", "ex-per-repeat"]);
        expect([r.images, r.hacked, r.dialogs, r.requests]).toEqual([0, null, [], [pathToFileURL(file).href]]);
        const scatter = r.figures.find((f) => f.id === "ex-vs-tokens")!;
        expect(scatter.marks).toHaveLength(runs);
        expect(scatter.legend).toContain(`R3 ${HOSTILE}`);
        // Runs 1 and 7 (and 2 and 8 …) coincide: each point's tooltip names both.
        if (runs > 6) expect(scatter.marks[0]!.title).toMatch(runs > 12 ? /^R1 [^,]+, R7 [^,]+, R13 [^,]+: each / : /^R1 [^,]+, R7 [^,]+: each /);
        expect(r.figures.find((f) => f.id === "corrected-within")!.legend).toContain(`guideline ${HOSTILE}`);
      }
    }, 120_000);
  }
});
