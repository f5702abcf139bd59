/**
 * The run explorer's pure parts: the SQL diff, JSON embedded in a page, and the comparison of runs (fixed, broken,
 * refused when a question's content differs), over hand-made trace values.
 */
import { describe, expect, it } from "vitest";
import { diffSql, MAX_TOKENS } from "../runner/view/diff.ts";
import { esc, jsonForScript } from "../runner/view/html.ts";
import { compareViews } from "../runner/view/model.ts";
import type { RunQuestion, RunView, Verdict } from "../runner/trace/trace-types.ts";

const q = (id: string, verdict: Verdict, question = `q${id}`): RunQuestion => ({ id, dbId: "db", question, verdict, sql: "SELECT 1", cost: { calls: 1, inputTokens: 1, outputTokens: 1, latencyMs: 1 }, iterations: 0, threadId: `t${id}` });
const run = (dir: string, qs: RunQuestion[]): RunView => ({
  dir, runId: dir, graph: "baseline", bench: null, split: "dev", semantics: "bird", models: {}, settings: {}, questions: qs, droppedLines: 0,
  summary: { selected: qs.length, byVerdict: { right: 0, wrong: 0, failed: 0, skipped: 0, unscored: 0 }, failedCost: { calls: 0, inputTokens: 0, outputTokens: 0, latencyMs: 0 }, totalCost: { calls: 0, inputTokens: 0, outputTokens: 0, latencyMs: 0 } },
});

describe("the SQL diff", () => {
  it("marks the tokens only one side has and gives both texts back", () => {
    const { parts, coarse } = diffSql("SELECT name FROM t WHERE a = 1", "SELECT name, age FROM t WHERE a = 2");
    expect(coarse).toBe(false);
    expect(parts.filter((p) => p.op !== "ins").map((p) => p.text).join("")).toBe("SELECT name FROM t WHERE a = 1");
    expect(parts.filter((p) => p.op !== "del").map((p) => p.text).join("")).toBe("SELECT name, age FROM t WHERE a = 2");
    const changed = (op: string) => parts.filter((p) => p.op === op).map((p) => p.text.trim()).filter(Boolean);
    expect(changed("del")).toEqual(["1"]);
    expect(changed("ins")).toEqual([", age", "2"]);
  });

  it("diffs a huge SQL by line, and keeps all of it", () => {
    const big = Array.from({ length: MAX_TOKENS }, (_, i) => `c${i}`).join(", ");
    const { parts, coarse } = diffSql(`SELECT ${big}\nFROM t`, `SELECT ${big}\nFROM u`);
    expect(coarse).toBe(true);
    expect(parts.filter((p) => p.op !== "del").map((p) => p.text).join("")).toBe(`SELECT ${big}\nFROM u`);
  });
});

describe("strings from a run in a page", () => {
  it("embeds JSON that cannot end its script element or open a comment", () => {
    const text = jsonForScript({ reply: "</script><script>alert(1)</script><!-- x" });
    expect(text).not.toMatch(/<\/script|<!--/i);
    expect(JSON.parse(text)).toEqual({ reply: "</script><script>alert(1)</script><!-- x" });
  });
  it("escapes markup and masks a URL's password", () => {
    expect(esc(`<img src=x onerror="alert(1)">`)).toBe("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(esc("postgres://me:hunter2@db/x")).toBe("postgres://me:***@db/x");
  });
});

describe("comparing runs", () => {
  it("lists the fixed, broken, both-wrong and both-right questions against the first run", () => {
    const a = run("/a", [q("1", "wrong"), q("2", "right"), q("3", "wrong"), q("4", "right"), q("5", "failed")]);
    const b = run("/b", [q("1", "right"), q("2", "wrong"), q("3", "wrong"), q("4", "right"), q("5", "right")]);
    const [pair] = compareViews([{ name: "a", run: a }, { name: "b", run: b }]).pairs;
    expect(pair).toMatchObject({ fixed: ["1"], broken: ["2"], bothWrong: ["3"], bothRight: ["4"], notCompared: ["5"] });
  });
  it("refuses in one line runs whose question hashes differ", () => {
    const a = run("/a", [q("1", "wrong")]);
    const b = run("/b", [q("1", "right")]);
    expect(() => compareViews([{ name: "a", run: a, hashes: { 1: "aaaa" } }, { name: "b", run: b, hashes: { 1: "bbbb" } }])).toThrow(/^a and b are not runs of the same questions: question 1 differs \(its question hash\)/);
    expect(() => compareViews([{ name: "a", run: a }, { name: "b", run: run("/b", [q("1", "right", "another question")]) }])).toThrow(/question 1 differs \(its text or database\)/);
  });
  it("sees a replay of the first run", () => {
    const a = run("/runs/a", [q("1", "wrong")]);
    const b = { ...run("/runs/b", [{ ...q("1", "right"), replay: { from: "/runs/a", originalThread: "t1", checkpointId: "c3", prefixSteps: 3 } }]), replayOf: { dir: "/runs/a/", slot: "review" } };
    expect(compareViews([{ name: "a", run: a }, { name: "b", run: b }]).pairs[0]!.replayOfBase).toEqual({ slot: "review" });
  });
});

describe("the question page of a corrector's question", () => {
  it("diffs the initial SQL against the final one, and gives a replay command a shell takes", async () => {
    const { questionPage, replayCommand, serverLinks } = await import("../runner/view/pages.ts");
    const question = { ...q("7", "right"), initialSql: "SELECT nme FROM t", initialCorrect: false, sql: "SELECT name FROM t" };
    const view = { index: 0, name: "my run", run: run("/runs/my run", [question]) };
    const thread = { threadId: "t7", readAs: "graph" as const, finished: true, next: [], state: {}, steps: [{ step: 1, checkpointId: "c1", slots: ["fix"], roles: ["fixer"], writes: {}, diff: [], calls: [], next: [], sql: "SELECT name FROM t" }] };
    const html = questionPage(view, question, { thread, goldSql: "SELECT name FROM t" }, serverLinks);
    expect(html).toContain(`<div class="initial-diff"><h3>initial → final (what the correction changed)</h3><pre class="diff">SELECT <del>nme</del><ins>name</ins> FROM t</pre>`);
    expect(html).toMatch(/<h3>initial <span class="v v-wrong">wrong<\/span><\/h3><pre class="sql initial">SELECT nme FROM t<\/pre>/);
    expect(replayCommand(view.run, "it's 7", "fix")).toBe(`sqlmend replay '/runs/my run' --from fix --ids 'it'\\''s 7' --out '/runs/my run-replay-fix'`);
  });
});

describe("a mock model's run", () => {
  it("says 'mock model — not a measurement' on its run, question and compare pages", async () => {
    const { comparePage, questionPage, runPage, serverLinks } = await import("../runner/view/pages.ts");
    const question = q("1", "right");
    const mock = { index: 0, name: "demo", run: { ...run("/runs/demo", [question]), mock: true } };
    const real = { index: 1, name: "real", run: run("/runs/real", [question]) };
    const thread = { threadId: "t1", readAs: "graph" as const, finished: true, next: [], state: {}, steps: [] };
    const banner = "mock model — not a measurement";
    expect(runPage(mock, serverLinks)).toContain(banner);
    expect(questionPage(mock, question, { thread }, serverLinks)).toContain(banner);
    expect(comparePage([mock, real], serverLinks)).toContain(banner);
    expect(runPage(real, serverLinks)).not.toContain(banner);
  });
});
