import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import { mcnemarP } from "../cli/commands/compare.ts";
import type { EvalRecord } from "../runner/report.ts";
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

  it("says so when a folder is not an eval output", async () => {
    const err: string[] = [];
    const io = { stdout: () => {}, stderr: (t: string) => void err.push(t), env: {}, cwd: dir };
    expect(await main(["compare", dir, dir], io)).toBe(1);
    expect(err.join("")).toMatch(/no results\.jsonl/);
  });
});
