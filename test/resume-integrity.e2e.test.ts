/**
 * `--resume` never misstates what ran (issue 30, points 2, 3, 4 and 12): it may add questions but never drops or
 * rewrites a finished run's (eval and magic guideline); it knows its questions by content; results.jsonl keeps one
 * line per question however many resumes ran; and a run folder copied elsewhere resumes.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Question } from "../state/question.ts";
import { writeBirdPredictions } from "../tools/benchmarks/score.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { goldResponder, minibenchFixture, questionOf, runCli } from "./support/cli.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";
import { magicResponder } from "./support/magic-agents.ts";

let dir: string;
let benchDir: string;
let dev: Question[];
let server: OpenAIServer;
/** Questions whose requests the server answers with a 500 while set (a failed question). */
const failing = new Set<string>();

beforeAll(async () => {
  dir = makeTempDir("sqlmend-resume-");
  ({ benchDir, dev } = await minibenchFixture(dir));
  const gold = goldResponder(dev);
  server = await startOpenAIServer({ respond: (req) => (failing.has(questionOf(req)) ? { status: 500 } : gold(req)) });
});
afterAll(async () => {
  await server.close();
  removeTempDir(dir);
});

const env = () => ({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") });
const evalArgs = (out: string, ...more: string[]) => ["eval", "baseline", "--bench", benchDir, "--out", out, "--checkpoints", "memory", "--max-fix-rounds", "0", "--max-retries", "0", ...more];

/** Every file of a folder and its bytes: what a refused resume must leave as it was. */
function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  const visit = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(folder, rel), { withFileTypes: true })) {
      const sub = path.join(rel, entry.name);
      if (entry.isDirectory()) visit(sub);
      else files[sub] = fs.readFileSync(path.join(folder, sub), "base64");
    }
  };
  visit("");
  return files;
}

const lineCount = (file: string) => fs.readFileSync(file, "utf8").split("\n").filter(Boolean).length;
/** The one error line of a refused command (its stderr, trimmed). */
const oneLine = (err: string) => {
  const lines = err.trim().split("\n");
  expect(lines).toHaveLength(1);
  return lines[0]!;
};

describe("eval --resume never shrinks or rewrites a finished run (issue 30, point 2)", () => {
  it("refuses a smaller or different selection in one line, files untouched; a larger one adds questions", async () => {
    const out = path.join(dir, "grow");
    expect((await runCli(evalArgs(out, "--limit", "4"), dir, env())).code).toBe(0);
    const before = snapshot(out);

    const smaller = await runCli(evalArgs(out, "--limit", "2", "--resume"), dir, env());
    expect(smaller.code).toBe(1);
    expect(oneLine(smaller.err)).toMatch(/--resume: .*grow holds 4 questions and this selection leaves out 2 of them \(.+\): a resume may add questions, never drop them/);
    expect(snapshot(out)).toEqual(before);

    const other = await runCli(evalArgs(out, "--ids", `${dev[0]!.id},${dev[5]!.id}`, "--resume"), dir, env());
    expect(other.code).toBe(1);
    expect(oneLine(other.err)).toMatch(/leaves out 3 of them/);
    expect(snapshot(out)).toEqual(before);

    const asked = server.requests.length;
    const larger = await runCli(evalArgs(out, "--limit", "6", "--resume"), dir, env());
    expect(larger.code).toBe(0);
    expect(larger.err).toMatch(/6 questions \(4 already done/);
    expect(server.requests.length - asked).toBe(2);
    expect(lineCount(path.join(out, "results.jsonl"))).toBe(6);
    const runFile = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8"));
    expect(Object.keys(runFile.questionHashes)).toHaveLength(6);
    expect(runFile.selection).toEqual({ ids: null, limit: 6 });
    // The grown run now holds 6: 4 is a smaller selection.
    expect((await runCli(evalArgs(out, "--limit", "4", "--resume"), dir, env())).code).toBe(1);
  }, 60_000);
});

describe("magic guideline --resume never shrinks a finished run (issue 30, point 2)", () => {
  it("refuses --limit smaller than the run's in one line and leaves guideline.md as learnt", async () => {
    const train = (await loadBenchmark(benchDir, { split: "train" })).questions;
    const predictions = path.join(dir, "initial_train.json");
    await writeBirdPredictions(predictions, train.map((q) => ({ id: q.id, dbId: q.dbId, sql: Number(q.id) % 3 === 0 ? "SELECT 'wrong answer'" : q.goldSql! })));
    const magic = await startOpenAIServer({ respond: magicResponder(train, { correctAt: () => 1 }) });
    try {
      const out = path.join(dir, "guideline");
      const args = ["magic", "guideline", "--bench", benchDir, "--initial", predictions, "--out", out, "--batch", "2", "--max-iter", "1", "--checkpoints", "memory"];
      const menv = { OPENAI_BASE_URL: magic.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") };
      expect((await runCli([...args, "--limit", "8"], dir, menv)).code).toBe(0);
      expect(fs.existsSync(path.join(out, "guideline.md"))).toBe(true);
      const before = snapshot(out);
      const asked = magic.requests.length;
      const smaller = await runCli([...args, "--limit", "4", "--resume"], dir, menv);
      expect(smaller.code).toBe(1);
      expect(oneLine(smaller.err)).toMatch(/holds 8 questions and this selection leaves out 4 of them/);
      expect(snapshot(out)).toEqual(before);
      expect(magic.requests.length).toBe(asked);
    } finally {
      await magic.close();
    }
  }, 60_000);
});

describe("--resume knows its questions by content (issue 30, point 3)", () => {
  it("refuses a resume after a question was inserted or its gold edited, naming the questions", async () => {
    makeDb(dir, "dbs/shop.sqlite", "CREATE TABLE items (id INTEGER, name TEXT, price REAL); INSERT INTO items VALUES (1, 'pen', 1.5), (2, 'book', 12);");
    const file = path.join(dir, "own.jsonl");
    const item = (question: string, gold: string) => `${JSON.stringify({ question, db_id: "shop", gold })}\n`;
    const a = item("Which items are cheap?", "SELECT name FROM items WHERE price < 5");
    const b = item("Which items are dear?", "SELECT name FROM items WHERE price > 5");
    const c = item("How many items?", "SELECT count(*) FROM items");
    fs.writeFileSync(file, a + b + c);
    const out = path.join(dir, "own");
    const args = ["eval", "baseline", "--questions", file, "--db-dir", path.join(dir, "dbs"), "--out", out, "--checkpoints", "memory", "--max-fix-rounds", "0"];
    expect((await runCli(args, dir, env())).code).toBe(0);
    const runFile = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8"));
    expect(Object.keys(runFile.questionHashes)).toEqual(["0", "1", "2"]);
    const before = snapshot(out);

    // One question inserted at the top: the ids (line positions) now name other questions.
    fs.writeFileSync(file, item("Name every item", "SELECT name FROM items") + a + b + c);
    const shifted = await runCli([...args, "--resume"], dir, env());
    expect(shifted.code).toBe(1);
    expect(oneLine(shifted.err)).toMatch(/--resume: .*own: questions 0, 1, 2 changed since the run started \(text, database, evidence or gold SQL\): start a new run with another --out/);
    expect(snapshot(out)).toEqual(before);

    // Only the gold of question 1 edited: named alone.
    fs.writeFileSync(file, a + item("Which items are dear?", "SELECT name FROM items WHERE price >= 10") + c);
    const edited = await runCli([...args, "--resume"], dir, env());
    expect(edited.code).toBe(1);
    expect(oneLine(edited.err)).toMatch(/question 1 changed since the run started/);
    expect(snapshot(out)).toEqual(before);

    // As it was: the resume is accepted and redoes nothing.
    fs.writeFileSync(file, a + b + c);
    const same = await runCli([...args, "--resume"], dir, env());
    expect(same.code).toBe(0);
    expect(same.err).toMatch(/3 questions \(3 already done/);
  }, 60_000);
});

describe("a skipped question is not content a resume protects", () => {
  it("once its database exists, a resume runs it", async () => {
    makeDb(dir, "dbs2/shop.sqlite", "CREATE TABLE items (id INTEGER, name TEXT, price REAL); INSERT INTO items VALUES (1, 'pen', 1.5);");
    const file = path.join(dir, "skips.jsonl");
    fs.writeFileSync(file, `${JSON.stringify({ question: "Which items are cheap?", db_id: "shop" })}\n${JSON.stringify({ question: "How many animals?", db_id: "zoo" })}\n`);
    const out = path.join(dir, "skips");
    const args = ["eval", "baseline", "--questions", file, "--db-dir", path.join(dir, "dbs2"), "--out", out, "--checkpoints", "memory", "--max-fix-rounds", "0"];
    const first = await runCli(args, dir, env());
    expect(first.code).toBe(0);
    expect(first.out).toContain("1 skipped");
    makeDb(dir, "dbs2/zoo.sqlite", "CREATE TABLE animals (name TEXT);");
    const resumed = await runCli([...args, "--resume"], dir, env());
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).toMatch(/2 questions \(1 already done/);
  }, 60_000);
});

describe("results.jsonl holds one line per question after any number of resumes (issue 30, point 4)", () => {
  it("a question failed and run again replaces its old line: counting lines gives the report's figures", async () => {
    const out = path.join(dir, "rerun");
    const victims = dev.slice(0, 2);
    // The response cache off: the questions answered by earlier tests are asked again.
    const rerunArgs = (...more: string[]) => evalArgs(out, "--limit", "5", "--cache", "off", ...more);
    for (const q of victims) failing.add(q.question);
    try {
      expect((await runCli(rerunArgs(), dir, env())).code).toBe(3);
      // Still failing: the first resume reruns them and fails again; the second answers them.
      expect((await runCli(rerunArgs("--resume"), dir, env())).code).toBe(3);
    } finally {
      failing.clear();
    }
    const resumed = await runCli(rerunArgs("--resume"), dir, env());
    expect(resumed.code).toBe(0);
    const lines = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; correct: boolean; thread: string });
    expect(lines).toHaveLength(5);
    expect(new Set(lines.map((l) => l.id)).size).toBe(5);
    expect(lines.filter((l) => l.correct)).toHaveLength(5);
    // The victims' lines are their third attempts.
    for (const q of victims) expect(lines.find((l) => l.id === q.id)!.thread).toMatch(/#3$/);
    expect(fs.readFileSync(path.join(out, "report.md"), "utf8")).toContain("(5/5)");
  }, 60_000);
});

describe("runs move (issue 30, point 12)", () => {
  it("a corrector run copied with its neighbours resumes: paths inside the run are relative, files known by hash", async () => {
    const exp = path.join(dir, "exp");
    expect((await runCli(evalArgs(path.join(exp, "base"), "--limit", "2"), dir, env())).code).toBe(0);
    const fix = path.join(exp, "fix");
    fs.mkdirSync(fix, { recursive: true });
    fs.writeFileSync(path.join(fix, "guideline.md"), "# Guideline\n1. Check the filters.\n");
    const correct = (root: string, ...more: string[]) => [
      "eval", "magic", "--guideline", path.join(root, "fix", "guideline.md"), "--initial", path.join(root, "base", "predict_dev.json"), "--correct", "all",
      "--bench", benchDir, "--out", path.join(root, "fix"), "--limit", "2", "--checkpoints", "memory", ...more,
    ];
    expect((await runCli(correct(exp), dir, env())).code).toBe(0);
    const recorded = fs.readFileSync(path.join(fix, "run.json"), "utf8");
    // Nothing in run.json names the folder where the run was made, but the initial predictions' absolute path.
    expect(JSON.parse(recorded).settings).toMatchObject({ guideline: { path: "guideline.md" }, initial: { fromRun: "../base/predict_dev.json" } });
    expect(recorded.split(exp).length - 1).toBe(1);

    const moved = path.join(dir, "elsewhere", "exp");
    fs.mkdirSync(path.dirname(moved));
    fs.cpSync(exp, moved, { recursive: true });
    fs.rmSync(exp, { recursive: true });
    const resumed = await runCli(correct(moved, "--resume"), dir, env());
    expect(resumed.err).not.toMatch(/--resume: .* was /);
    expect(resumed.code).toBe(0);
    expect(resumed.err).toMatch(/2 questions \(2 already done/);

    // The guideline's content is its identity: an edit is refused, naming the file.
    fs.appendFileSync(path.join(moved, "fix", "guideline.md"), "2. Check the joins.\n");
    const edited = await runCli(correct(moved, "--resume"), dir, env());
    expect(edited.code).toBe(1);
    expect(oneLine(edited.err)).toMatch(/the --guideline file guideline\.md changed since the run started/);
  }, 60_000);
});
