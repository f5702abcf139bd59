import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import { holm, mcnemarP } from "../runner/report/statistics.ts";
import type { EvalRecord } from "../runner/run/results-record.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";

let dir: string;
beforeAll(() => {
  dir = makeTempDir();
});
afterAll(() => removeTempDir(dir));

const record = (id: string, correct: boolean, difficulty: string, tokens = 100): EvalRecord => ({
  id,
  dbId: "db",
  difficulty,
  question: `q${id}`,
  sql: "SELECT 1",
  correct,
  inputTokens: tokens,
  outputTokens: 0,
  calls: 1,
  latencyMs: 1000,
  iterations: 0,
  usageByRole: {},
  thread: `t${id}`,
});

function writeRun(name: string, graph: string, records: EvalRecord[], extraLine = "") {
  const out = path.join(dir, name);
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, "run.json"), JSON.stringify({ graph, bench: "/b", split: "dev", semantics: "bird" }));
  fs.writeFileSync(path.join(out, "results.jsonl"), records.map((r) => JSON.stringify(r)).join("\n") + "\n" + extraLine);
  return out;
}

describe("mcnemarP", () => {
  it("is the exact two-sided binomial test on discordant pairs", () => {
    expect(mcnemarP(0, 0)).toBe(1);
    expect(mcnemarP(5, 0)).toBeCloseTo(0.0625, 10);
    expect(mcnemarP(0, 10)).toBeCloseTo(2 / 1024, 10);
    expect(mcnemarP(3, 3)).toBe(1);
    expect(mcnemarP(2, 8)).toBeCloseTo((2 * (1 + 10 + 45)) / 1024, 10);
  });
});

describe("holm", () => {
  it("multiplies the i-th smallest of m p-values by m - i + 1, keeps them monotone, caps at 1, in the given order", () => {
    const adjusted = holm([0.04, 0.01, 0.03, 0.5]);
    expect(adjusted[1]).toBeCloseTo(0.04, 12);
    expect(adjusted[2]).toBeCloseTo(0.09, 12);
    expect(adjusted[0]).toBeCloseTo(0.09, 12); // 2 × 0.04 = 0.08, raised to the previous 0.09
    expect(adjusted[3]).toBe(0.5);
    expect(holm([0.6, 0.7])).toEqual([1, 1]);
    expect(holm([])).toEqual([]);
  });
});

describe("sqlmend compare", () => {
  it("reports EX on the common questions, the flips, and cost, without touching the runs", async () => {
    const a = writeRun("base", "baseline", [record("1", true, "simple"), record("2", false, "simple"), record("3", true, "moderate"), record("4", false, "moderate"), record("9", true, "simple")]);
    const b = writeRun("fix", "repair", [record("1", true, "simple", 300), record("2", true, "simple", 300), record("3", false, "moderate", 300), record("4", true, "moderate", 300)], "{half a line");
    const before = fs.readFileSync(path.join(b, "results.jsonl"), "utf8");
    const out: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: () => {}, env: {}, cwd: dir };
    expect(await main(["compare", a, b, "--json"], io)).toBe(0);
    const r = JSON.parse(out.join(""));
    expect(r).toMatchObject({ common: 4, onlyInA: 1, onlyInB: 0, bothCorrect: 1, neitherCorrect: 0, onlyACorrect: ["3"], onlyBCorrect: ["2", "4"] });
    expect(r.a.ex).toBe(50);
    expect(r.b.ex).toBe(75);
    expect(r.b.tokensPerQuestion).toBe(300);
    expect(r.b.byDifficulty).toEqual([
      { difficulty: "simple", count: 2, correct: 2, ex: 100 },
      { difficulty: "moderate", count: 2, correct: 1, ex: 50 },
    ]);
    expect(fs.readFileSync(path.join(b, "results.jsonl"), "utf8")).toBe(before);

    out.length = 0;
    expect(await main(["compare", a, b], io)).toBe(0);
    expect(out.join("")).toMatch(/only B right 2: 2, 4/);
    expect(out.join("")).toMatch(/McNemar exact p = 1\.00/);
  });

  it("takes N runs: one table over the questions all ran, every pair with McNemar and Holm, and --json of it", async () => {
    const rec = (id: string, ok: boolean, d: string, tokens: number) => record(id, ok, d, tokens);
    const ids = Array.from({ length: 12 }, (_, i) => String(i));
    const a = writeRun("n-a", "baseline", ids.map((id) => rec(id, Number(id) < 3, Number(id) % 2 ? "simple" : "moderate", 100)));
    const b = writeRun("n-b", "repair", ids.map((id) => rec(id, Number(id) < 11, Number(id) % 2 ? "simple" : "moderate", 200)));
    const c = writeRun("n-c", "magic", [...ids.map((id) => rec(id, Number(id) < 4, Number(id) % 2 ? "simple" : "moderate", 400)), rec("99", true, "simple", 1)]);
    const out: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: () => {}, env: {}, cwd: dir };
    expect(await main(["compare", a, b, c, "--json", "--price", "1,2"], io)).toBe(0);
    const r = JSON.parse(out.join(""));
    expect(r.common).toBe(12);
    expect(r.runs.map((x: { key: string; ex: number; notCommon: number }) => [x.key, x.ex, x.notCommon])).toEqual([["A", 25, 0], ["B", (11 / 12) * 100, 0], ["C", (4 / 12) * 100, 1]]);
    expect(r.runs[2].costPerQuestion).toBeCloseTo(400 / 1e6, 12);
    expect(r.pairs.map((p: { a: string; b: string }) => `${p.a}${p.b}`)).toEqual(["AB", "AC", "BC"]);
    const ab = r.pairs[0];
    expect(ab.onlyBCorrect).toEqual(["3", "4", "5", "6", "7", "8", "9", "10"]);
    expect(ab.mcnemarP).toBeCloseTo(mcnemarP(0, 8), 12);
    const raw = r.pairs.map((p: { mcnemarP: number }) => p.mcnemarP);
    expect(r.pairs.map((p: { holmP: number }) => p.holmP)).toEqual(holm(raw));
    expect(r.a).toBeUndefined(); // the two-run keys only for two runs

    out.length = 0;
    expect(await main(["compare", a, b, c], io)).toBe(0);
    const text = out.join("");
    expect(text).toMatch(/^12 questions in common, answered by all \(0 only in A, 0 only in B, 1 only in C\)/);
    expect(text).toMatch(/^A n-a \(baseline\)\s+25\.00/m);
    expect(text).toMatch(/^C n-c \(magic\)\s+33\.33/m);
    expect(text).toMatch(/^B vs C\nboth right 4, both wrong 1\nonly B right 7: 4, 5, 6, 7, 8, 9, 10\nonly C right 0\nMcNemar exact p = 0\.0156, Holm-adjusted over 3 pairs p = 0\.0313 \(the EX difference is significant at 0\.05\)$/m);
  });

  it("leaves out questions any of N runs failed, and says how many per run", async () => {
    const x = writeRun("f-x", "baseline", [record("1", true, "simple"), record("2", false, "simple"), record("3", true, "simple")]);
    const y = writeRun("f-y", "repair", [record("1", true, "simple"), record("2", true, "simple"), record("3", true, "simple")]);
    const z = writeRun("f-z", "magic", [record("1", false, "simple"), { ...record("2", false, "simple"), failure: "model call failed: down" }, record("3", true, "simple")]);
    const out: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: () => {}, env: {}, cwd: dir };
    expect(await main(["compare", x, y, z, "--json"], io)).toBe(0);
    const r = JSON.parse(out.join(""));
    expect([r.common, r.inAll, r.runs.map((s: { failed: string[] }) => s.failed)]).toEqual([2, 3, [[], [], ["2"]]]);
    expect(r.runs.map((s: { ex: number }) => s.ex)).toEqual([100, 100, 50]);
    out.length = 0;
    expect(await main(["compare", x, y, z], io)).toBe(0);
    expect(out.join("")).toMatch(/^2 questions in common, answered by all \(0 only in A, 0 only in B, 0 only in C; left out, failed: 0 in A, 0 in B, 1 in C — --resume retries them\)/);
  });

  it("carries each run's outcomes — what the questions went through — in the text, --json and --html", async () => {
    const r3 = (id: string, stopReason: string, standby: number) => ({
      ...record(id, true, "simple"),
      outcome: { fixRounds: 0, finalSqlExecutes: true, failedCalls: 0, rounds: 2, stopReason, personasGenerated: 3 - standby, personasStandby: standby, personasDropped: 0 },
    });
    const base = (id: string, fixRounds: number) => ({ ...record(id, id !== "3", "simple"), outcome: { fixRounds, finalSqlExecutes: true, failedCalls: 0 } });
    const a = writeRun("o-base", "baseline", [base("1", 0), base("2", 2), base("3", 1), record("4", true, "simple")]);
    const b = writeRun("o-r3", "r3", [r3("1", "consensus", 0), r3("2", "consensus", 1), r3("3", "round limit", 0), r3("4", "consensus", 0)]);
    const out: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: () => {}, env: {}, cwd: dir };
    expect(await main(["compare", a, b], io)).toBe(0);
    const text = out.join("");
    expect(text).toContain(
      "What the questions went through (of the 4 in common):\n" +
        "A o-base (baseline) (3 questions with an outcome):\n  fixRounds: mean 1.00, max 2 (3 questions)\n  finalSqlExecutes: 100.0 % (3/3)\n  failedCalls: mean 0.00, max 0 (3 questions)\n" +
        "B o-r3 (r3):\n",
    );
    // R³'s own summary, as its report.md has it: the panel as totals.
    expect(text).toMatch(/^ {2}stopReason: consensus 75\.0 %, round limit 25\.0 % \(4 questions\)$/m);
    expect(text).toMatch(/^ {2}personas: generated 11, standby 1 \(standby in 1 of 4 questions\)$/m);

    out.length = 0;
    expect(await main(["compare", a, b, "--json"], io)).toBe(0);
    const json = JSON.parse(out.join(""));
    expect(json.runs.map((r: { outcomesOf: number }) => r.outcomesOf)).toEqual([3, 4]);
    expect(json.runs[1].outcomes).toContain("personas: generated 11, standby 1 (standby in 1 of 4 questions)");
    expect(json.b.outcomes).toEqual(json.runs[1].outcomes);

    const page = path.join(dir, "outcomes.html");
    expect(await main(["compare", a, b, "--html", page], io)).toBe(0);
    const html = fs.readFileSync(page, "utf8");
    expect(html).toContain("<h2>What the questions went through</h2>");
    expect(html).toMatch(/<div class="outcomes" data-run="B"><h3>B o-r3 \(r3\)<\/h3><ul>.*<li>stopReason: consensus 75\.0 %, round limit 25\.0 % \(4 questions\)<\/li>/);
    const data = JSON.parse(/<script type="application\/json" id="sqlmend-data">([\s\S]*?)<\/script>/.exec(html)![1]!);
    expect(data.runs[0].outcomes).toEqual(json.runs[0].outcomes);
  });

  it("checks what it pairs: other questions under the same ids refused in one line before any result, a folder given twice refused, a run without gold keeps the others' EX", async () => {
    const ids = ["1", "2", "3", "4"];
    const mini = writeRun("q-mini", "baseline", ids.map((id) => record(id, id !== "4", "simple")));
    // Another benchmark's dev split: the same ids, other questions on another database.
    const spider = writeRun("q-spider", "baseline", ids.map((id) => ({ ...record(id, true, "simple"), question: `other ${id}`, dbId: "concert_singer" })));
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), env: {}, cwd: dir };
    expect(await main(["compare", mini, spider], io)).not.toBe(0);
    expect(out.join("")).toBe("");
    expect(err.join("").trim().split("\n")).toHaveLength(1);
    expect(err.join("")).toMatch(/hold different questions under the same ids \(4 of 4 shared ids, first: 1, on db vs concert_singer\)/);
    // The same question with other gold SQL (run.json's hashes differ): refused too.
    const regold = writeRun("q-regold", "baseline", ids.map((id) => record(id, true, "simple")));
    fs.writeFileSync(path.join(mini, "run.json"), JSON.stringify({ graph: "baseline", questionHashes: Object.fromEntries(ids.map((id) => [id, `h${id}`])) }));
    fs.writeFileSync(path.join(regold, "run.json"), JSON.stringify({ graph: "baseline", questionHashes: Object.fromEntries(ids.map((id) => [id, id === "3" ? "changed" : `h${id}`])) }));
    err.length = 0;
    expect(await main(["compare", mini, regold], io)).not.toBe(0);
    expect(err.join("")).toMatch(/1 of 4 shared ids, first: 3/);
    err.length = 0;
    expect(await main(["compare", mini, path.join(mini, ".")], io)).not.toBe(0);
    expect(err.join("")).toMatch(/is given twice/);
    // A run on the same questions without gold SQL: no EX of its own; the others keep theirs and their test.
    const fix = writeRun("q-fix", "repair", ids.map((id) => record(id, true, "simple")));
    const noGold = writeRun("q-nogold", "baseline", ids.map((id) => ({ ...record(id, false, "simple"), goldError: "no gold SQL" })));
    out.length = 0;
    expect(await main(["compare", mini, fix, noGold, "--json"], io)).toBe(0);
    const r = JSON.parse(out.join(""));
    expect(r.runs.map((x: { ex: number; scored: boolean }) => [x.ex, x.scored])).toEqual([[75, true], [100, true], [0, false]]);
    expect(r.pairs.map((p: { notTested?: string }) => p.notTested ?? "tested")).toEqual(["tested", "C holds no gold SQL", "C holds no gold SQL"]);
    out.length = 0;
    expect(await main(["compare", mini, fix, noGold], io)).toBe(0);
    // EX with its 95 % interval (Wilson, 3 of 4), in the text and on the --html page.
    expect(out.join("")).toMatch(/^A q-mini \(baseline\)\s+75\.00\s+\[30\.06, 95\.44\]/m);
    expect(await main(["compare", mini, fix, noGold, "--html", path.join(dir, "q.html")], io)).toBe(0);
    expect(fs.readFileSync(path.join(dir, "q.html"), "utf8")).toContain('<td data-field="interval">30.06–95.44</td>');
    expect(out.join("")).toMatch(/^C q-nogold \(baseline\)\s+-/m);
    expect(out.join("")).toMatch(/^McNemar exact p = 1\.00$/m);
  });

  it("says so when a folder is not an eval output", async () => {
    const err: string[] = [];
    const io = { stdout: () => {}, stderr: (t: string) => void err.push(t), env: {}, cwd: dir };
    const other = path.join(dir, "not-a-run");
    fs.mkdirSync(other, { recursive: true });
    expect(await main(["compare", dir, other], io)).toBe(1);
    expect(err.join("")).toMatch(/no results\.jsonl/);
  });
});
