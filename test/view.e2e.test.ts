/**
 * `sqlmend view` in a real headless Chromium (Debian's /usr/bin/chromium driven by playwright-core) over real runs
 * (the launcher, the real ChatOpenAI client against the local server, real SQLite checkpoints): a run page filtered
 * to its wrong questions; a question page (gold/final diff, steps, a thrown node's error with its slot and stack); a
 * comparison's fixed and broken questions; a `--graph` run and its replay (the fork and the reused prefix); an export
 * opened from file:// with no server; a hostile model reply and column name shown as text that runs nothing; no table
 * (chart included) wider than its column at 400 and 1,400 px. One set of runs for the whole file.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, chromium, type Page } from "playwright-core";
import type { Question } from "../state/question.ts";
import { exportView, startView, type ViewServer } from "../runner/view/server.ts";
import { minibenchFixture, questionOf, runCli } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";

const CHROMIUM = "/usr/bin/chromium";
const skip = fs.existsSync(CHROMIUM) ? undefined : `no ${CHROMIUM}: apt-get install chromium (.ci/run does)`;
if (skip) console.warn(`view: skipped: ${skip}`);

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LIBRARY = JSON.stringify(path.join(ROOT, "index.ts"));
const HOSTILE_REPLY = `<img src=x onerror=alert(1)></script><script>alert(2)</script><!--`;
const HOSTILE_COLUMN = `<img src=y onerror=alert(3)>`;

/** A graph of one's own (`--graph`): baseline with a tidy slot that throws on one question. */
const graphModule = (throwOn: string) => `
import { END, START, StateGraph, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { defineGraph, routeAfterExecute, SHARED_SLOTS, SqlInputState, sqlStateFields } from ${LIBRARY};
const TidyState = new StateSchema({ ...sqlStateFields, tidied: z.number().int().default(0) });
const tidy = () => async (state) => {
  if (state.questionId === ${JSON.stringify(throwOn)}) { const found = undefined; return { sql: found.sql }; }
  return { sql: state.sql.trim().replace(/;+$/, ""), tidied: 1 };
};
export default defineGraph({
  name: "tidy-view", summary: "baseline with a tidy step", kind: "generator", state: TidyState,
  slots: { schema: SHARED_SLOTS.schema, generate: SHARED_SLOTS.generate, tidy: { summary: "strip semicolons", reads: ["sql"], writes: ["sql", "tidied"], factory: tidy }, execute: SHARED_SLOTS.execute, fix: SHARED_SLOTS.fix },
  steps: (o) => 4 + 2 * (o.maxFixRounds ?? 3),
  outcome: { of: (state) => ({ tidied: state.tidied }) },
  wire: ({ node, options: o }) => new StateGraph(TidyState, { input: SqlInputState })
    .addNode("schema", node("schema")).addNode("generate", node("generate")).addNode("tidy", node("tidy"))
    .addNode("execute", node("execute")).addNode("fix", node("fix"))
    .addEdge(START, "schema").addEdge("schema", "generate").addEdge("generate", "tidy").addEdge("tidy", "execute")
    .addConditionalEdges("execute", routeAfterExecute(o.maxFixRounds), ["fix", END]).addEdge("fix", "execute"),
});
`;

let dir: string;
let dev: Question[];
let model: OpenAIServer;
let browser: Browser;
let view: ViewServer;
let runA: string, runB: string, runG: string, runR: string;
/** Which run the model answers for: a gets a hostile reply on question 1; b answers question 3 wrong. */
let mode: "a" | "b" = "a";

beforeAll(async () => {
  dir = makeTempDir();
  let benchDir: string;
  ({ benchDir, dev } = await minibenchFixture(dir));
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  fs.writeFileSync(path.join(dir, "tidy-graph.mts"), graphModule(dev[2]!.id));
  fs.writeFileSync(path.join(dir, "tidy-node.mts"), `export default () => async (state) => ({ sql: state.sql.trim(), tidied: 2 });\n`);
  model = await startOpenAIServer({
    respond: (req) => {
      const q = dev.find((x) => x.question === questionOf(req));
      const sql = (text: string) => ({ content: `\`\`\`sql\n${text}\n\`\`\``, usage: { prompt_tokens: 100, completion_tokens: 10 } });
      if (!q) return sql("SELECT 1");
      if (mode === "a" && q.id === dev[1]!.id) return { content: `${HOSTILE_REPLY}\n\`\`\`sql\nSELECT 1 AS "${HOSTILE_COLUMN}"\n\`\`\`` };
      if (mode === "b" && q.id === dev[3]!.id) return sql("SELECT 42");
      return sql(q.goldSql!);
    },
  });
  const env = { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home"), SQLMEND_CACHE: "off" };
  const flags = ["--model", "m", "--base-url", model.url, "--max-retries", "0"];
  const sqlmend = async (...args: string[]) => {
    const run = await runCli(args, dir, env);
    expect(run.code, run.out + run.err).not.toBe(1);
  };
  [runA, runB, runG, runR] = ["a", "b", "g", "r"].map((n) => path.join(dir, `run-${n}`)) as [string, string, string, string];
  await sqlmend("eval", "baseline", "--bench", benchDir, "--out", runA, "--limit", "5", ...flags);
  mode = "b";
  await sqlmend("eval", "baseline", "--bench", benchDir, "--out", runB, "--limit", "5", ...flags);
  await sqlmend("eval", "--graph", "tidy-graph.mts", "--bench", benchDir, "--out", runG, "--limit", "4", ...flags);
  await sqlmend("replay", runG, "--from", "tidy", "--node", "tidy=tidy-node.mts", "--out", runR, ...flags);
  view = await startView({ runs: [runA, runB, runG, runR], cwd: dir, env: { ...process.env, ...env } });
  if (skip) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await view?.close();
  await model?.close();
  removeTempDir(dir);
});

/** A page that records dialogs (a script that ran), page errors, and any request off this server or file. */
async function open(url: string, width = 1400): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on("dialog", (d) => { dialogs.push(d.message()); void d.dismiss(); });
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("request", (r) => { if (!r.url().startsWith(view.url) && !r.url().startsWith("file:")) errors.push(`request ${r.url()}`); });
  await page.goto(url);
  return { page, dialogs, errors };
}
/** In the page: every visible table, chart table, pre, grid cell and step wider than its parent or the main column. */
const OVERFLOWING = `(() => {
  const main = document.querySelector("main").getBoundingClientRect();
  return [...document.querySelectorAll("table, .chart-table, figure.chart, figure.chart svg, pre, .grid > div, .step")]
    .filter((e) => e.offsetParent !== null)
    .map((e) => ({ what: e.tagName + "." + e.className, right: e.getBoundingClientRect().right, parent: e.parentElement.getBoundingClientRect().right }))
    .filter((e) => e.right > Math.min(e.parent, main.right) + 1);
})()`;
const ids = (page: Page, selector: string) => page.locator(selector).evaluateAll((rows) => rows.map((r) => r.getAttribute("data-id")));

describe.skipIf(skip)("sqlmend view in Chromium", () => {
  it("filters a run's questions to its wrong ones", async () => {
    const { page, errors } = await open(`${view.url}run/0`);
    await page.waitForSelector("#table-0[data-ready]");
    expect(await page.locator("#table-0 tbody tr").count()).toBe(5);
    // EX by difficulty and by database drawn as charts, a bar per group with its value, 'all' among them.
    expect(await page.locator("figure.chart").count()).toBe(2);
    expect(await page.locator("#ex-by-difficulty-0 .mark[data-group='all']").getAttribute("data-value")).toBe("80");
    await page.selectOption("#table-0 select[name=v]", "wrong");
    expect(await ids(page, "#table-0 tbody tr")).toEqual([dev[1]!.id]);
    expect(page.url()).toContain("v=wrong");
    await page.close();
    expect(errors).toEqual([]);
  }, 60_000);

  it("shows a question's gold/final diff and its steps; a hostile reply and column name are text and run nothing", async () => {
    const { page, dialogs, errors } = await open(`${view.url}run/0/q/${dev[1]!.id}`);
    expect(await page.locator(".gold-diff del").count()).toBeGreaterThan(0);
    expect(await page.locator(".gold-diff ins").allTextContents()).toContainEqual(expect.stringContaining(HOSTILE_COLUMN));
    expect(await page.locator(".step h3").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("generate"), expect.stringContaining("execute")]));
    // The gold's verdict on the step that wrote the SQL.
    expect(await page.locator(".step", { hasText: "generate" }).locator(".v").first().textContent()).toBe("wrong");
    await page.locator("details.call summary").first().click();
    expect(await page.locator("pre.reply").first().textContent()).toContain(HOSTILE_REPLY);
    expect(await page.locator(".results .result-table th").allTextContents()).toContain(HOSTILE_COLUMN);
    expect(await page.locator("img, script:not([type])").count()).toBe(1); // the page's own script, no other
    expect(dialogs).toEqual([]);
    await page.close();
    expect(errors).toEqual([]);
  }, 60_000);

  it("compares two runs: the fixed and broken questions", async () => {
    const { page } = await open(`${view.url}compare?runs=0,1`);
    expect(await page.locator(".fixed li").allTextContents()).toEqual([dev[1]!.id]);
    expect(await page.locator(".broken li").allTextContents()).toEqual([dev[3]!.id]);
    expect(await page.locator("#compare-ex .mark[data-group='all']").evaluateAll((m) => m.map((e) => [e.getAttribute("data-series"), e.getAttribute("data-value")]))).toEqual([["run-a", "80"], ["run-b", "80"]]);
    await page.close();
  }, 60_000);

  it("opens a --graph run's thrown node (slot and stack) and its replay (fork and reused prefix)", async () => {
    const run = await open(`${view.url}run/2`);
    expect(await run.page.locator("main").textContent()).toContain("tidy-graph.mts");
    await run.page.close();
    const thrown = await open(`${view.url}run/2/q/${dev[2]!.id}`);
    const error = thrown.page.locator(".error:has(.slot)").first();
    expect(await error.locator(".slot").textContent()).toBe("tidy");
    expect(await error.textContent()).toContain("Cannot read properties of undefined (reading 'sql')");
    expect(await error.locator("pre.stack").textContent()).toContain("tidy-graph.mts");
    await thrown.page.close();
    const replayed = await open(`${view.url}run/3/q/${dev[0]!.id}`);
    expect(await replayed.page.locator(".fork").first().textContent()).toContain("reused");
    expect(await replayed.page.locator(".step.reused").count()).toBeGreaterThan(0);
    await replayed.page.close();
    const compare = await open(`${view.url}compare?runs=2,3`);
    expect(await compare.page.locator(".pair .note").textContent()).toContain("replays");
    expect(await compare.page.locator("table.side .fork").count()).toBeGreaterThan(0);
    await compare.page.close();
  }, 60_000);

  it("opens an export from file:// with no server", async () => {
    const file = path.join(dir, "export.html");
    const result = await exportView({ runs: [runA], out: file, maxQuestions: 2, cwd: dir, io: { stdout: () => {}, stderr: () => {}, env: { ...process.env, SQLMEND_HOME: path.join(dir, "home") }, cwd: dir } });
    expect(result.leftOut).toEqual(["run-a: the pages of 3 question(s) (in the table only)"]);
    const { page, dialogs, errors } = await open(pathToFileURL(file).href);
    await page.waitForSelector("#table-0[data-ready]");
    expect(await page.locator("section.page:visible").count()).toBe(1);
    expect(await page.locator("section.page:visible .note").first().textContent()).toContain("2 of 5 questions");
    await page.selectOption("#table-0 select[name=v]", "wrong");
    await page.locator("#table-0 tbody tr a").first().click();
    // The page's script shows the question's section after the click (a busy machine may take a moment).
    await page.locator("section.page:visible h1", { hasText: `Question ${dev[1]!.id}` }).waitFor({ timeout: 15_000 });
    expect(await page.locator("section.page:visible .gold-diff del").count()).toBeGreaterThan(0);
    await page.close();
    // A comparison in one file: its page first, the fixed question linking to its page in the file.
    const compareFile = path.join(dir, "compare.html");
    await exportView({ runs: [runA, runB], out: compareFile, maxQuestions: 2, cwd: dir, io: { stdout: () => {}, stderr: () => {}, env: { ...process.env, SQLMEND_HOME: path.join(dir, "home") }, cwd: dir } });
    const compared = await open(pathToFileURL(compareFile).href);
    expect(await compared.page.locator("section.page:visible").getAttribute("id")).toBe("compare");
    await compared.page.locator(".fixed li a").click();
    await compared.page.locator("section.page:visible h1", { hasText: `Question ${dev[1]!.id}` }).waitFor({ timeout: 15_000 });
    await compared.page.close();
    expect([...dialogs, ...compared.dialogs]).toEqual([]);
    expect([...errors, ...compared.errors]).toEqual([]);
  }, 60_000);

  it("breaks no one-word header of the run list mid-word at 400 px (its columns take their words' widths)", async () => {
    const { page } = await open(view.url, 400);
    // A header's text laid out on more lines than it has words was broken inside a word.
    const headers = await page.evaluate<string[]>(`[...document.querySelectorAll("table th")].filter((th) => th.offsetParent).map((th) => th.textContent)`);
    expect(headers).toEqual(["run", "graph", "questions", "EX", "failed"]);
    const broken = await page.evaluate<string[]>(`[...document.querySelectorAll("table th")].filter((th) => th.offsetParent).filter((th) => {
      const range = document.createRange();
      range.selectNodeContents(th);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      return lines > th.textContent.trim().split(/\\s+/).length;
    }).map((th) => th.textContent)`);
    expect(broken).toEqual([]);
    await page.close();
  }, 30_000);

  it("keeps every table within its column at 400 and 1,400 px", async () => {
    for (const width of [400, 1400]) {
      for (const url of [view.url, `${view.url}run/0`, `${view.url}run/0/q/${dev[1]!.id}`, `${view.url}compare?runs=0,1`]) {
        const { page } = await open(url, width);
        const over = await page.evaluate<{ what: string; right: number; parent: number }[]>(OVERFLOWING);
        expect(over, `${url} at ${width}px`).toEqual([]);
        expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(width);
        await page.close();
      }
    }
  }, 60_000);
});

describe("the view server", () => {
  it("serves GET only and nothing outside the runs it was given", async () => {
    expect((await fetch(`${view.url}run/0`, { method: "POST" })).status).toBe(405);
    expect((await fetch(`${view.url}run/9`)).status).toBe(404);
    expect((await fetch(`${view.url}run/0/q/..%2F..%2Frun.json`)).status).toBe(404);
    expect((await fetch(`${view.url}..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
    expect(view.host).toBe("127.0.0.1");
  });

  it("sqlmend view --export through the launcher: the file, and what it left out", async () => {
    const file = path.join(dir, "cli-export.html");
    const run = await runCli(["view", runA, "--export", file, "--max-questions", "1"], dir, { SQLMEND_HOME: path.join(dir, "home") });
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^sqlmend view: wrote .*cli-export\.html \(\d+ KiB\)\n$/);
    expect(run.err).toBe("sqlmend view: left out: run-a: the pages of 4 question(s) (in the table only)\n");
    expect(fs.readFileSync(file, "utf8")).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    expect((await runCli(["view"], dir)).code).toBe(2);
    expect((await runCli(["view", runA, "--export", file, "--port", "1"], dir)).code).toBe(2);
  });

  it("shows an experiment folder's table, each row linking to its run page", async () => {
    const exp = path.join(dir, "exp");
    fs.cpSync(runA, path.join(exp, "baseline"), { recursive: true });
    const row = { run: "baseline", graph: "baseline", questions: 5, correct: 4, ex: 80, exInterval: { low: 37.6, high: 96.4, over: "questions", n: 5 }, failed: 0, paper: { source: "Paper Table 1", model: "GPT-4", row: "baseline", figures: { EX: 61.4 } }, versus: { reference: "initial SQL (base)", tests: [{ seed: null, compared: 5, onlyRow: 1, onlyReference: 0, p: 1, holmP: 1, family: 1 }], notTested: null } };
    fs.writeFileSync(path.join(exp, "table.json"), JSON.stringify({ recipe: { name: "my-recipe" }, rows: [row, { run: "magic", graph: "magic", notRun: "a method sqlmend lacks", paper: null }] }));
    const other = await startView({ runs: [exp] });
    try {
      const html = await (await fetch(`${other.url}experiment/0`)).text();
      expect(html).toContain(`<a href="/run/0">baseline</a>`);
      expect(html).toMatch(/80\.0 %<\/td><td>\[37\.6, 96\.4\]<\/td>/);
      expect(html).toContain("EX 61.4");
      expect(html).toContain("vs initial SQL (base): +1/−0, p 1.00, Holm 1.00 (of 1)");
      expect(html).toContain("not run: a method sqlmend lacks");
      expect((await fetch(`${other.url}run/0`)).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it("refuses in one line to compare runs whose question hashes differ", async () => {
    const changed = path.join(dir, "run-c");
    fs.cpSync(runA, changed, { recursive: true });
    const runJson = JSON.parse(fs.readFileSync(path.join(changed, "run.json"), "utf8"));
    runJson.questionHashes[dev[0]!.id] = "0000000000000000";
    fs.writeFileSync(path.join(changed, "run.json"), JSON.stringify(runJson));
    const other = await startView({ runs: [runA, changed] });
    try {
      const html = await (await fetch(`${other.url}compare?runs=0,1`)).text();
      expect(html).toContain(`<p class="refused">run-a and run-c are not runs of the same questions: question ${dev[0]!.id} differs (its question hash)`);
    } finally {
      await other.close();
    }
  });
});
