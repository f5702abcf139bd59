import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIO } from "../cli/shared/command.ts";
import { main } from "../cli/main.ts";
import { resolveBenchmarkDir } from "../tools/benchmarks/resolve.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";

let dir: string;
let minibench: string;

async function run(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env: { SQLMEND_HOME: path.join(dir, "home") },
    cwd: dir,
    isTTY: false,
  };
  const status = await main(["score", ...argv], io);
  return { status, stdout, stderr };
}

beforeAll(async () => {
  dir = makeTempDir("sqlmend-score-cmd-");
  minibench = await resolveBenchmarkDir("minibench", { SQLMEND_HOME: path.join(dir, "home") }, dir);
});
afterAll(() => removeTempDir(dir));

describe("sqlmend score", () => {
  it("is listed by sqlmend help", async () => {
    let out = "";
    await main(["help"], { stdout: (t) => void (out += t), stderr: () => {}, env: {}, cwd: dir });
    expect(out).toMatch(/\n {2}score +score predicted SQL/);
  });

  it("scores minibench's gold against itself at 100% under bird semantics", async () => {
    const r = await run("--bench", "minibench", "--pred", "gold");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("benchmark:   minibench/dev (bird layout");
    expect(r.stdout).toContain("semantics:   bird\n");
    expect(r.stdout).toMatch(/^difficulty +count +correct +EX %$/m);
    expect(r.stdout).toMatch(/^simple +\d+ +\d+ +100\.00$/m);
    expect(r.stdout).toMatch(/^moderate +\d+ +\d+ +100\.00$/m);
    expect(r.stdout).toMatch(/^challenging +\d+ +\d+ +100\.00$/m);
    expect(r.stdout).toMatch(/^all +20 +20 +100\.00$/m);
  });

  it("scores gold at 100% under spider semantics, on both splits", async () => {
    const dev = await run("--bench", "minibench", "--pred", "gold", "--semantics", "spider");
    expect(dev.stdout).toContain("semantics:   spider, DISTINCT removed");
    expect(dev.stdout).toMatch(/^all +20 +20 +100\.00$/m);
    const train = await run("--bench", "minibench", "--pred", "gold", "--semantics", "spider", "--split", "train", "--keep-distinct");
    expect(train.stdout).toContain("semantics:   spider, DISTINCT kept");
    expect(train.stdout).toMatch(/^all +30 +30 +100\.00$/m);
    const birdTrain = await run("--bench", "minibench", "--pred", "gold", "--split", "train");
    expect(birdTrain.stdout).toMatch(/^all +30 +30 +100\.00$/m);
  });

  it("--json prints the whole report with per-question verdicts", async () => {
    const r = await run("--bench", "minibench", "--pred", "gold", "--json");
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({
      benchmark: { layout: "bird", split: "dev", name: "minibench/dev", dir: minibench },
      semantics: "bird",
      keepDistinct: false,
      count: 20,
      correct: 20,
      ex: 100,
      missingPredictions: 0,
      unmatchedPredictions: [],
      skipped: [],
    });
    expect(report.verdicts).toHaveLength(20);
    expect(report.verdicts.every((v: { correct: boolean; goldRows: number }) => v.correct && v.goldRows > 0)).toBe(true);
    expect(report.byDifficulty.map((d: { difficulty: string }) => d.difficulty)).toEqual(["simple", "moderate", "challenging"]);
  });

  it("reports wrong, failing, missing and unmatched predictions from a BIRD prediction file", async () => {
    const dev = JSON.parse(readFileSync(path.join(minibench, "dev.json"), "utf8")) as Array<{ question_id: number; SQL: string; db_id: string }>;
    const preds: Record<string, string> = {};
    for (const q of dev) preds[String(q.question_id)] = `${q.SQL}\t----- bird -----\t${q.db_id}`;
    preds["0"] = "SELECT COUNT(*) + 1 FROM students\t----- bird -----\tschool";
    preds["2"] = "SELECT nonsense FROM students\t----- bird -----\tschool";
    delete preds["3"];
    preds["99"] = "SELECT 1\t----- bird -----\tschool";
    const file = path.join(dir, "predict_dev.json");
    writeFileSync(file, JSON.stringify(preds));

    const r = await run("--bench", "minibench", "--pred", "predict_dev.json");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`predictions: ${file} (bird format, paired by question id)`);
    expect(r.stdout).toMatch(/^all +20 +17 +85\.00$/m);
    expect(r.stdout).toContain("prediction failed to run: 1 (2: sql: no such column: nonsense");
    expect(r.stdout).toContain("no prediction: 1 questions, scored wrong");
    expect(r.stdout).toContain("predictions matching no question: 1 (ids 99)");

    const json = JSON.parse((await run("--bench", "minibench", "--pred", file, "--json")).stdout);
    const byId = new Map(json.verdicts.map((v: { id: string }) => [v.id, v]));
    expect(byId.get("0")).toMatchObject({ correct: false, predRows: 1, goldRows: 1 });
    expect(byId.get("3")).toMatchObject({ correct: false, predError: "no prediction" });
    expect(json.unmatchedPredictions).toEqual(["99"]);
  });

  it("reads Spider layouts and text predictions, listing skipped questions with reasons", async () => {
    const root = path.join(dir, "spider");
    makeDb(root, "database/shop/shop.sqlite", readFileSync(new URL("../tools/benchmarks/minibench/sql/shop.sql", import.meta.url), "utf8"));
    const items = [
      { db_id: "shop", question: "How many orders?", query: "SELECT count(*) FROM orders" },
      { db_id: "wta_1", question: "Players?", query: "SELECT count(*) FROM players" },
      { db_id: "shop", question: "Cities?", query: "SELECT DISTINCT city FROM customers ORDER BY city" },
    ];
    writeFileSync(path.join(root, "dev.json"), JSON.stringify(items));
    writeFileSync(path.join(root, "tables.json"), "[]");
    writeFileSync(path.join(dir, "pred.sql"), "SELECT count(*) FROM orders\tshop\nSELECT 1\twta_1\nSELECT city FROM customers GROUP BY city ORDER BY city DESC\tshop\n");

    const r = await run("--bench", root, "--pred", "pred.sql");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("benchmark:   spider/dev (spider layout");
    expect(r.stdout).toContain("semantics:   spider, DISTINCT removed");
    expect(r.stdout).toMatch(/^easy +2 +1 +50\.00$/m);
    expect(r.stdout).toMatch(/^all +2 +1 +50\.00$/m);
    expect(r.stdout).toContain("skipped: 1 questions not scored\n  1 (wta_1): database file not found: database/wta_1/wta_1.sqlite");
    expect(r.stdout).not.toContain("matching no question");

    const bird = await run("--bench", root, "--pred", "pred.sql", "--semantics", "bird");
    expect(bird.stdout).toMatch(/^all +2 +2 +100\.00$/m);
  });
});

describe("sqlmend score --ves", () => {
  it("adds VES and R-VES columns and says how many timed runs were used", async () => {
    const r = await run("--bench", "minibench", "--pred", "gold", "--ves", "--ves-iterations", "2", "--concurrency", "2");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^difficulty +count +correct +EX % +VES +R-VES$/m);
    expect(r.stdout).toMatch(/^all +20 +20 +100\.00 +\d+\.\d\d +\d+\.\d\d$/m);
    expect(r.stdout).toContain("VES: 2 timed runs per query (BIRD's evaluation_ves.py uses 100)");
  });
});

describe("sqlmend score errors", () => {
  it("usage errors exit 2 with the usage text", async () => {
    const noBench = await run("--pred", "gold");
    expect(noBench.status).toBe(2);
    expect(noBench.stderr).toContain("--bench DIR|minibench is required");
    expect(noBench.stderr).toContain("Usage: sqlmend score");
    expect((await run("--bench", "minibench")).stderr).toContain("--pred FILE|gold is required");
    expect((await run("--bench", "minibench", "--pred", "gold", "--semantics", "sql")).status).toBe(2);
    expect((await run("--bench", "minibench", "--pred", "gold", "--split", "nope")).status).toBe(2);
    expect((await run("--bench", "minibench", "--pred", "gold", "--concurrency", "0")).status).toBe(2);
    expect((await run("--bench", "minibench", "--pred", "gold", "--bogus")).status).toBe(2);
  });

  it("bad files exit 1 with one line naming the file", async () => {
    writeFileSync(path.join(dir, "broken.json"), '{"0": "SELECT 1",\n "1": }');
    const broken = await run("--bench", "minibench", "--pred", "broken.json");
    expect(broken.status).toBe(1);
    expect(broken.stderr).toBe(`sqlmend score: ${path.join(dir, "broken.json")}: not valid JSON at line 2, column 7 (unexpected "}")\n`);

    const missing = await run("--bench", "minibench", "--pred", "nope.json");
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^sqlmend score: .*nope\.json: cannot read: ENOENT\n$/);

    const notBench = await run("--bench", dir, "--pred", "gold");
    expect(notBench.status).toBe(1);
    expect(notBench.stderr).toMatch(/^sqlmend score: .*not a Spider or BIRD benchmark \(looked for .*\)\n$/);
  });
});
