/**
 * Metrics beside EX: Soft F1 and R-VES (BIRD mini-dev), test-suite accuracy (Spider, a three-variant folder), the
 * --metrics flag, and scoring own data with and without gold. Fixtures are built here.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIO } from "../cli/shared/command.ts";
import { main } from "../cli/main.ts";
import { softF1, testSuiteVariants } from "../tools/benchmarks/metrics.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { scoreAll } from "../tools/benchmarks/score.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";

let dir: string;

async function run(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const io: CliIO = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: { SQLMEND_HOME: path.join(dir, "home") }, cwd: dir, isTTY: false };
  const status = await main(["score", ...argv], io);
  return { status, stdout, stderr };
}

const PEOPLE = (rows: string) => `CREATE TABLE people (id INTEGER, name TEXT, city TEXT, age INTEGER); INSERT INTO people VALUES ${rows};`;
const ORIGINAL = "(1, 'Ann', 'Oslo', 30), (2, 'Bob', 'Rome', 40), (3, 'Cy', 'Oslo', 50)";

beforeAll(() => {
  dir = makeTempDir("sqlmend-metrics-");
  // A Spider layout with one database, and a test-suite folder holding three variants of it.
  makeDb(dir, "spider/database/people/people.sqlite", PEOPLE(ORIGINAL));
  writeFileSync(
    path.join(dir, "spider/dev.json"),
    JSON.stringify([
      { db_id: "people", question: "Who lives in Oslo?", query: "SELECT name FROM people WHERE city = 'Oslo'" },
      { db_id: "people", question: "How old is Bob?", query: "SELECT age FROM people WHERE name = 'Bob'" },
    ]),
  );
  makeDb(dir, "ts/database/people/people.sqlite", PEOPLE(ORIGINAL));
  makeDb(dir, "ts/database/people/people_1.sqlite", PEOPLE("(1, 'Ann', 'Oslo', 30), (2, 'Bob', 'Rome', 41)"));
  // Here Oslo's people are not those with id 1 and 3: a prediction that hard-codes ids fails on this variant only.
  makeDb(dir, "ts/database/people/people_2.sqlite", PEOPLE("(1, 'Ann', 'Rome', 30), (2, 'Bob', 'Oslo', 40), (3, 'Cy', 'Rome', 50)"));
});
afterAll(() => removeTempDir(dir));

describe("softF1 (BIRD mini-dev)", () => {
  it("is 1 for the same rows, whatever the column order, and for two empty results", () => {
    expect(softF1([[1, "a"], [2, "b"]], [[1, "a"], [2, "b"]])).toBe(1);
    expect(softF1([["a", 1], ["b", 2]], [[1, "a"], [2, "b"]])).toBe(1);
    expect(softF1([], [])).toBe(1);
    // Duplicates are dropped before rows are paired; 1 == 1.0 as in Python.
    expect(softF1([[1], [1], [2]], [[1.0], [2]])).toBe(1);
  });

  it("gives partial credit by cell values, pairing rows by position", () => {
    // One of two values right in the only row: tp 0.5, fp 0.5, fn 0.5 → P = R = F1 = 0.5.
    expect(softF1([[1, "x"]], [[1, "a"]])).toBeCloseTo(0.5, 10);
    // A missing gold row: tp 1, fn 1 → P 1, R 0.5, F1 2/3.
    expect(softF1([[1]], [[1], [2]])).toBeCloseTo(2 / 3, 10);
    // An extra predicted row: tp 1, fp 1 → 2/3.
    expect(softF1([[1], [2]], [[1]])).toBeCloseTo(2 / 3, 10);
    // Right values in the wrong rows score nothing (rows are paired by position); '1' is not 1.
    expect(softF1([[2], [1]], [[1], [2]])).toBe(0);
    expect(softF1([["1"]], [[1]])).toBe(0);
    expect(softF1([], [[1]])).toBe(0);
  });
});

describe("test-suite accuracy", () => {
  it("finds every .sqlite variant of a db_id under DIR/<db_id>/ or DIR/database/<db_id>/", () => {
    const variants = testSuiteVariants(path.join(dir, "ts"), "people");
    expect(variants.map((v) => path.basename(v))).toEqual(["people.sqlite", "people_1.sqlite", "people_2.sqlite"]);
    expect(testSuiteVariants(path.join(dir, "ts", "database"), "people")).toHaveLength(3);
    expect(testSuiteVariants(path.join(dir, "ts"), "other")).toEqual([]);
  });

  it("score --metrics ts: right only when right on every variant, reported beside EX with the folder it used", async () => {
    const pred = path.join(dir, "pred.sql");
    // Question 0 right by accident on the original database (ids 1 and 3 live in Oslo there), question 1 right.
    writeFileSync(pred, "SELECT name FROM people WHERE id IN (1, 3)\nSELECT age FROM people WHERE name = 'Bob'\n");
    const r = await run("--bench", path.join(dir, "spider"), "--pred", pred, "--metrics", "ex,ts", "--ts-dir", path.join(dir, "ts"));
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^difficulty +count +correct +EX % +TS %$/m);
    expect(r.stdout).toMatch(/^all +2 +2 +100\.00 +50\.00$/m);
    expect(r.stdout).toContain(`metrics:     ex, ts on the databases in ${path.join(dir, "spider", "database")}; ts also on the variants in ${path.join(dir, "ts")}`);
    expect(r.stdout).toContain("test-suite: 1/2 right on every variant");
    const json = JSON.parse((await run("--bench", path.join(dir, "spider"), "--pred", pred, "--ts-dir", path.join(dir, "ts"), "--json")).stdout);
    expect(json.metrics).toEqual(["ex", "ts"]);
    expect(json.verdicts.map((v: { testSuite: boolean }) => v.testSuite)).toEqual([false, true]);
    expect(json.verdicts[0].testSuiteNote).toBe("people_2.sqlite (results differ)");
    // Bob's age differs on people_1: the gold is run on each variant, so the right query stays right.
    expect(json.testSuite).toMatchObject({ count: 2, correct: 1, accuracy: 50, noVariants: 0 });
  });

  it("questions whose database has no variant are not counted, and said so", async () => {
    const r = await run("--bench", path.join(dir, "spider"), "--pred", "gold", "--ts-dir", path.join(dir, "spider", "dev.json"));
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("test-suite: 0/0 right on every variant; 2 questions whose database has no variant");
  });
});

describe("score --metrics", () => {
  it("adds Soft F1 and R-VES columns (VES only when asked), and says which metrics ran on which databases", async () => {
    const pred = path.join(dir, "pred-f1.sql");
    writeFileSync(pred, "SELECT name, city FROM people WHERE city = 'Oslo'\nSELECT age FROM people WHERE name = 'Bob'\n");
    const r = await run("--bench", path.join(dir, "spider"), "--pred", pred, "--metrics", "soft-f1,r-ves", "--ves-iterations", "2");
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^difficulty +count +correct +EX % +R-VES +Soft F1$/m);
    // Question 0: per row the name is right (tp 1 over a gold width of 1) and the city extra (fp 1): P 1/2, R 1,
    // F1 2/3; question 1 exact → 1. Mean 83.33.
    expect(r.stdout).toMatch(/^all +2 +1 +50\.00 +\d+\.\d\d +83\.33$/m);
    expect(r.stdout).toContain(`metrics:     ex, r-ves, soft-f1 on the databases in ${path.join(dir, "spider", "database")}`);
  });

  it("rejects unknown metrics and ts without --ts-dir", async () => {
    expect((await run("--bench", path.join(dir, "spider"), "--pred", "gold", "--metrics", "ex,bleu")).status).toBe(2);
    const ts = await run("--bench", path.join(dir, "spider"), "--pred", "gold", "--metrics", "ts");
    expect(ts.status).toBe(2);
    expect(ts.stderr).toContain("--metrics ts needs --ts-dir DIR");
  });

  it("scoreAll: Soft F1 of a missing or failing prediction is 0", async () => {
    const executor = createExecutor({ size: 1 });
    try {
      const bench = await loadBenchmark(path.join(dir, "spider"));
      const report = await scoreAll(bench.questions, new Map([["0", "SELECT nope FROM people"]]), { executor, semantics: "spider", softF1: true });
      expect(report.verdicts.map((v) => v.softF1)).toEqual([0, 0]);
      expect(report.softF1).toBe(0);
      expect(report.metrics).toEqual(["ex", "soft-f1"]);
    } finally {
      await executor.close();
    }
  });
});

describe("score on own data", () => {
  it("scores a JSONL with gold over --db-dir, and says EX is not available without gold", async () => {
    makeDb(dir, "own/people.sqlite", PEOPLE(ORIGINAL));
    const withGold = path.join(dir, "own-gold.jsonl");
    writeFileSync(withGold, `${JSON.stringify({ id: "a", question: "Oslo?", db_id: "people", gold: "SELECT name FROM people WHERE city = 'Oslo'" })}\n`);
    const r = await run("--questions", withGold, "--db-dir", path.join(dir, "own"), "--pred", "gold");
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("benchmark:   own-gold.jsonl (own layout");
    expect(r.stdout).toMatch(/^all +1 +1 +100\.00$/m);
    const noGold = path.join(dir, "own-nogold.jsonl");
    writeFileSync(noGold, `${JSON.stringify({ id: "a", question: "Oslo?", db_id: "people" })}\n`);
    const pred = path.join(dir, "own-pred.json");
    writeFileSync(pred, JSON.stringify({ a: "SELECT name FROM people\t----- bird -----\tpeople" }));
    const n = await run("--questions", noGold, "--db-dir", path.join(dir, "own"), "--pred", pred);
    expect(n.status).toBe(0);
    expect(n.stdout).toContain("EX: not available (no question has gold SQL; 1 predictions not scored)");
  });
});

describe("bench/official-agreement.ts", () => {
  it("needs local copies of the official code: without them it names the flags and exits 2; a copy that cannot run is one clear line", () => {
    const bench = path.resolve("bench/official-agreement.ts");
    const missing = spawnSync(process.execPath, ["--import", "tsx", bench, "--bench", path.join(dir, "spider")], { encoding: "utf8" });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/--ts-official PATH --minidev-official PATH/);
    const broken = spawnSync(process.execPath, ["--import", "tsx", bench, "--bench", path.join(dir, "spider"), "--ts-official", dir, "--minidev-official", dir, "--limit", "1"], { encoding: "utf8" });
    expect(broken.status).toBe(1);
    expect(broken.stderr).toMatch(/^the official code failed to run \(python3\): .*(exec_eval|No module)/m);
  });
});
