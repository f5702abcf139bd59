/**
 * `sqlmend view` in a real headless Chromium (Debian's /usr/bin/chromium driven by playwright-core): a run page
 * filtered to its wrong questions, a question page (gold/final diff, steps, a thrown node's error with its slot and
 * stack), a comparison's fixed and broken questions, an export opened from file:// with no server, hostile model and
 * database strings shown as text that runs nothing, and no table wider than its column at 400 and 1,400 px.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, chromium, type Page } from "playwright-core";
import type { Question } from "../state/question.ts";
import type { RunQuestion, RunView, ThreadView, Verdict } from "../runner/trace-types.ts";
import { exportView, startView, type TraceApi, type ViewServer } from "../runner/view/server.ts";
import { questionHash } from "../runner/run-file.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { minibenchFixture } from "./support/cli.ts";

const CHROMIUM = "/usr/bin/chromium";
const skip = fs.existsSync(CHROMIUM) ? undefined : `no ${CHROMIUM}: apt-get install chromium (.ci/run does)`;
if (skip) console.warn(`view: skipped: ${skip}`);

const HOSTILE_REPLY = `<img src=x onerror=alert(1)></script><script>alert(2)</script><!--`;
const HOSTILE_COLUMN = `<img src=y onerror=alert(3)>`;

let dir: string;
let benchDir: string;
let dev: Question[];
let browser: Browser;
let server: ViewServer;
let runA: string, runB: string;
const runs = new Map<string, RunView>();
const threads = new Map<string, ThreadView>();

const trace: TraceApi = {
  readRun: (d) => runs.get(d)!,
  readThread: (id) => {
    const t = threads.get(id);
    if (!t) throw new Error(`no thread ${id}`);
    return t;
  },
};

const cost = { calls: 2, inputTokens: 100, outputTokens: 20, latencyMs: 1500 };

function question(q: Question, verdict: Verdict, sql: string, run: string): RunQuestion {
  return { id: q.id, dbId: q.dbId, difficulty: q.difficulty!, question: q.question, evidence: q.evidence, verdict, sql, cost, iterations: 1, threadId: `${run}:${q.id}`, outcome: { fixRounds: verdict === "wrong" ? 2 : 0 } };
}

function runView(name: string, qs: RunQuestion[]): RunView {
  const d = path.join(dir, name);
  fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(d, "run.json"), JSON.stringify({ runId: name, graph: "baseline", bench: benchDir, split: "dev", semantics: "bird", questionHashes: Object.fromEntries(dev.map((q) => [q.id, questionHash(q)])) }));
  fs.writeFileSync(path.join(d, "results.jsonl"), "");
  const byVerdict = { right: 0, wrong: 0, failed: 0, skipped: 0, unscored: 0 } as Record<Verdict, number>;
  for (const q of qs) byVerdict[q.verdict]++;
  const scored = byVerdict.right + byVerdict.wrong;
  const run: RunView = {
    dir: d, runId: name, graph: "baseline", bench: benchDir, split: "dev", semantics: "bird", models: { generator: "scripted" }, settings: {}, questions: qs, droppedLines: 0,
    summary: { selected: qs.length, byVerdict, ex: { correct: byVerdict.right, scored, pct: (byVerdict.right / scored) * 100, low: 10, high: 90 }, failedCost: { ...cost, calls: 0 }, totalCost: cost },
  };
  runs.set(d, run);
  return run;
}

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev } = await minibenchFixture(dir));
  const wrongSql = `SELECT 1 AS "${HOSTILE_COLUMN}"`;
  // Run a: 0 right, 1 wrong (hostile column), 2 failed (a node threw), 3 right, the rest right.
  const a = runView("run-a", dev.slice(0, 8).map((q, i) => question(q, i === 1 ? "wrong" : i === 2 ? "failed" : i === 4 ? "wrong" : "right", i === 1 || i === 4 ? wrongSql : q.goldSql!, "a")));
  a.questions[2]!.error = { slot: "generate", errorClass: "TypeError", message: "Cannot read properties of undefined (reading 'sql')", stack: "TypeError: Cannot read properties of undefined (reading 'sql')\n    at generate (file:///tmp/my-node.mjs:3:14)", at: "file:///tmp/my-node.mjs:3:14" };
  a.questions[2]!.failure = "the graph could not finish: Cannot read properties of undefined (reading 'sql')";
  // Run b: 1 fixed, 3 broken.
  runView("run-b", dev.slice(0, 8).map((q, i) => question(q, i === 3 || i === 4 ? "wrong" : i === 2 ? "failed" : "right", i === 3 || i === 4 ? "SELECT 2" : q.goldSql!, "b")));
  runA = runs.get(path.join(dir, "run-a"))!.dir;
  runB = runs.get(path.join(dir, "run-b"))!.dir;
  for (const q of a.questions) {
    threads.set(q.threadId, {
      threadId: q.threadId, graph: "baseline", readAs: "graph", finished: q.verdict !== "failed", next: q.verdict === "failed" ? ["generate"] : [], state: {},
      steps: [
        { step: 1, checkpointId: "c1", slots: ["schema"], roles: [], writes: {}, diff: [{ field: "schemaText", change: "added", after: "CREATE TABLE students(...)" }], calls: [], next: ["generate"] },
        ...(q.verdict === "failed"
          ? [{ step: 2, checkpointId: "c2", slots: ["generate"], roles: [], writes: {}, diff: [], calls: [], next: ["generate"], error: q.error! }]
          : [{ step: 2, checkpointId: "c2", slots: ["generate"], roles: ["generator"], writes: {}, sql: q.sql, diff: [{ field: "sql", change: "added" as const, after: q.sql }], calls: [{ role: "generator", model: "scripted", messages: [{ role: "user", content: q.question }], reply: HOSTILE_REPLY, inputTokens: 50, outputTokens: 10, latencyMs: 700 }], next: ["execute"], gold: { sql: q.sql, correct: q.verdict === "right", marks: ["last" as const] } }]),
      ],
      ...(q.error ? { error: q.error } : {}),
    });
  }
  server = await startView({ runs: [runA, runB], trace });
  if (skip) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  removeTempDir(dir);
});

/** A page that fails the test on a dialog (a script that ran), a page error, or a request off this server or file. */
async function open(url: string, width = 1400): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on("dialog", (d) => { dialogs.push(d.message()); void d.dismiss(); });
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("request", (r) => { if (!r.url().startsWith(server.url) && !r.url().startsWith("file:")) errors.push(`request ${r.url()}`); });
  await page.goto(url);
  return { page, dialogs, errors };
}

describe.skipIf(skip)("sqlmend view in Chromium", () => {
  it("filters a run's questions to its wrong ones", async () => {
    const { page, errors } = await open(`${server.url}run/0`);
    await page.waitForSelector("#table-0[data-ready]");
    expect(await page.locator("#table-0 tbody tr").count()).toBe(8);
    await page.selectOption("#table-0 select[name=v]", "wrong");
    const verdicts = await page.locator("#table-0 tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-verdict")));
    expect(verdicts).toEqual(["wrong", "wrong"]);
    expect(await page.locator("#table-0 tbody tr").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-id")))).toEqual([dev[1]!.id, dev[4]!.id]);
    expect(page.url()).toContain("v=wrong");
    await page.close();
    expect(errors).toEqual([]);
  }, 60_000);

  it("shows a question's gold/final diff, its steps and a thrown node's error with its slot and stack", async () => {
    const wrong = await open(`${server.url}run/0/q/${dev[1]!.id}`);
    expect(await wrong.page.locator(".gold-diff del").count()).toBeGreaterThan(0);
    expect(await wrong.page.locator(".gold-diff ins").first().textContent()).toContain("1");
    expect(await wrong.page.locator(".step").count()).toBe(2);
    expect(await wrong.page.locator(".results .result").count()).toBe(2);
    // The hostile reply and column name are text: visible, not markup, and nothing ran.
    await wrong.page.locator("details.call summary").first().click();
    expect(await wrong.page.locator("pre.reply").first().textContent()).toBe(HOSTILE_REPLY);
    expect(await wrong.page.locator(".result-table th").allTextContents()).toContain(HOSTILE_COLUMN);
    expect(await wrong.page.locator("img").count()).toBe(0);
    expect(wrong.dialogs).toEqual([]);
    await wrong.page.close();
    const failed = await open(`${server.url}run/0/q/${dev[2]!.id}`);
    const error = failed.page.locator(".step.err .error");
    expect(await error.locator(".slot").textContent()).toBe("generate");
    expect(await error.locator("pre.stack").textContent()).toContain("my-node.mjs:3:14");
    expect(await failed.page.locator("code.cmd").first().textContent()).toContain(`--from schema --ids ${dev[2]!.id}`);
    await failed.page.close();
    expect([...wrong.errors, ...failed.errors]).toEqual([]);
  }, 60_000);

  it("compares two runs: the fixed and broken questions", async () => {
    const { page } = await open(`${server.url}compare?runs=0,1`);
    expect(await page.locator(".fixed li").allTextContents()).toEqual([dev[1]!.id]);
    expect(await page.locator(".broken li").allTextContents()).toEqual([dev[3]!.id]);
    await page.close();
  }, 60_000);

  it("opens an export from file:// with no server", async () => {
    const file = path.join(dir, "export.html");
    const result = await exportView({ runs: [runA], out: file, trace, maxQuestions: 3 });
    expect(result.leftOut[0]).toContain("5 question(s)");
    const { page, dialogs, errors } = await open(pathToFileURL(file).href);
    await page.waitForSelector("#table-0[data-ready]");
    expect(await page.locator("section.page:visible").count()).toBe(1);
    await page.selectOption("#table-0 select[name=v]", "failed");
    await page.locator("#table-0 tbody tr a").first().click();
    expect(await page.locator("section.page:visible h1").textContent()).toContain(`Question ${dev[2]!.id}`);
    expect(await page.locator("section.page:visible .step.err .slot").textContent()).toBe("generate");
    await page.close();
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);

  it("keeps every table within its column at 400 and 1,400 px", async () => {
    for (const width of [400, 1400]) {
      for (const url of [`${server.url}run/0`, `${server.url}run/0/q/${dev[1]!.id}`, `${server.url}compare?runs=0,1`]) {
        const { page } = await open(url, width);
        const over = await page.evaluate(() => {
          const main = document.querySelector("main")!.getBoundingClientRect();
          return [...document.querySelectorAll("table, .chart-table, pre, .grid > div")]
            .filter((e) => (e as HTMLElement).offsetParent !== null)
            .map((e) => ({ tag: e.tagName + "." + e.className, right: e.getBoundingClientRect().right, parent: e.parentElement!.getBoundingClientRect().right }))
            .filter((e) => e.right > Math.min(e.parent, main.right) + 1);
        });
        expect(over, `${url} at ${width}px`).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.close();
      }
    }
  }, 60_000);
});

describe("the view server", () => {
  it("serves GET only and nothing outside the runs it was given", async () => {
    expect((await fetch(`${server.url}run/0`, { method: "POST" })).status).toBe(405);
    expect((await fetch(`${server.url}run/7`)).status).toBe(404);
    expect((await fetch(`${server.url}run/0/q/..%2F..%2Frun.json`)).status).toBe(404);
    expect((await fetch(`${server.url}..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
    expect(server.host).toBe("127.0.0.1");
  });

  it("refuses in one line to compare runs whose question hashes differ", async () => {
    const changed = runView("run-c", runs.get(runA)!.questions);
    const runJson = path.join(changed.dir, "run.json");
    const rec = JSON.parse(fs.readFileSync(runJson, "utf8"));
    rec.questionHashes[dev[0]!.id] = "0000000000000000";
    fs.writeFileSync(runJson, JSON.stringify(rec));
    const other = await startView({ runs: [runA, changed.dir], trace });
    try {
      const html = await (await fetch(`${other.url}compare?runs=0,1`)).text();
      expect(html).toMatch(/<p class="refused">run-a and run-c are not runs of the same questions: question 0 differs/);
    } finally {
      await other.close();
    }
  });
});
