/**
 * The launcher end to end through the real ChatOpenAI client against a local OpenAI-compatible server on 127.0.0.1.
 */
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import type { CliIO } from "../cli/shared/command.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import type { Question } from "../state/question.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type ChatRequestRecord, type ScriptedReply, startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

function captureIO(cwd: string, env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env: { ...env }, cwd, isTTY: false };
  return { io, out: () => out.join(""), err: () => err.join("") };
}

const questionOf = (req: ChatRequestRecord) => /Question: (.*)/.exec(req.messages.at(-1)?.content ?? "")?.[1]?.trim() ?? "";
const sqlReply = (sql: string): ScriptedReply => ({ content: `\`\`\`sql\n${sql}\n\`\`\``, usage: { prompt_tokens: 100, completion_tokens: 10 } });

let dir: string;
let benchDir: string;
let dev: Question[];

beforeAll(async () => {
  dir = makeTempDir();
  benchDir = path.join(dir, "minibench");
  await buildMinibench(benchDir);
  dev = (await loadBenchmark(benchDir, { split: "dev" })).questions;
});
afterAll(() => removeTempDir(dir));

describe("sqlmend ask", () => {
  it("answers through the real client, survives a 429 and a 500, and the thread can be inspected", async () => {
    const db = makeDb(dir, "pets.sqlite", "CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT, kind TEXT); INSERT INTO pets VALUES (1,'Rex','dog'),(2,'Tom','cat'),(3,'Fido','dog');");
    let calls = 0;
    const server = await startOpenAIServer({
      respond: () => {
        calls++;
        if (calls === 1) return { status: 429, retryAfterSeconds: 0 };
        if (calls === 2) return { status: 500 };
        return sqlReply("SELECT name FROM pets WHERE kind = 'dog' ORDER BY id");
      },
    });
    try {
      const checkpoints = path.join(dir, "ask-ckpt.sqlite");
      const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "test-key", SQLMEND_MODEL: TEST_MODEL_ID };
      const run = captureIO(dir, env);
      const code = await main(["ask", "baseline", "--db", db, "--thread", "pets-1", "--checkpoints", checkpoints, "--max-retries", "3", "Which pets are dogs?"], run.io);
      expect(run.err()).toBe("");
      expect(code).toBe(0);
      expect(run.out()).toContain("SELECT name FROM pets WHERE kind = 'dog' ORDER BY id");
      expect(run.out()).toMatch(/Rex[\s\S]*Fido/);
      expect(run.out()).toMatch(/Tokens: 100 in, 10 out, 1 calls/);
      expect(run.out()).toContain("Thread: pets-1");
      expect(server.requests).toHaveLength(3);
      expect(server.requests[2]!.messages.at(-1)!.content).toContain("CREATE TABLE");

      const threads = captureIO(dir, env);
      expect(await main(["threads", "--checkpoints", checkpoints], threads.io)).toBe(0);
      expect(threads.out()).toMatch(/pets-1\s+baseline/);

      const overview = captureIO(dir, env);
      expect(await main(["inspect", "pets-1", "--checkpoints", checkpoints], overview.io)).toBe(0);
      expect(overview.out()).toContain("finished");
      expect(overview.out()).toMatch(/generate .*sql=.*\[1 model call: generator 100\/10 tok\]/);

      const generateStep = /\s+(\d+)\s+generate/.exec(overview.out())![1]!;
      const step = captureIO(dir, env);
      expect(await main(["inspect", "pets-1", "--step", generateStep, "--checkpoints", checkpoints], step.io)).toBe(0);
      expect(step.out()).toContain("Model call 1: role generator");
      expect(step.out()).toContain("--- user ---");
      expect(step.out()).toContain("Which pets are dogs?");
      expect(step.out()).toContain("--- reply ---");
    } finally {
      await server.close();
    }
  }, 30_000);

  it("a damaged checkpoint file is set aside with a warning, as eval does, and the question is answered", async () => {
    const db = makeDb(dir, "damaged-ask.sqlite", "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1),(2);");
    const server = await startOpenAIServer({ respond: () => sqlReply("SELECT sum(x) FROM t") });
    try {
      const home = path.join(dir, "damaged-ask-home");
      fs.mkdirSync(home);
      fs.writeFileSync(path.join(home, "checkpoints.sqlite"), "garbage where the checkpoints were");
      const run = captureIO(dir, { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: home });
      expect(await main(["ask", "baseline", "--db", db, "Sum of x?"], run.io), run.err()).toBe(0);
      expect(run.err()).toMatch(/^warning: .*checkpoints\.sqlite: .*not a database.*; set aside as checkpoints\.sqlite\.damaged-.*, its threads start again in a new file$/m);
      expect(run.out()).toContain("SELECT sum(x) FROM t");
      expect(fs.readdirSync(home).some((f) => f.startsWith("checkpoints.sqlite.damaged-"))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("reads streamed replies", async () => {
    const db = makeDb(dir, "stream.sqlite", "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1),(2);");
    const server = await startOpenAIServer({ respond: () => sqlReply("SELECT sum(x) FROM t") });
    try {
      const run = captureIO(dir, { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID });
      expect(await main(["ask", "baseline", "--db", db, "--stream", "--checkpoints", "memory", "--json", "Sum of x?"], run.io)).toBe(0);
      const outcome = JSON.parse(run.out());
      expect(server.requests[0]!.stream).toBe(true);
      expect(outcome.sql).toBe("SELECT sum(x) FROM t");
      expect(outcome.result.rows).toEqual([[3]]);
      expect(outcome.usage).toMatchObject({ inputTokens: 100, outputTokens: 10, calls: 1 });
    } finally {
      await server.close();
    }
  });

  it("says in one line how to configure a model when none is", async () => {
    const db = makeDb(dir, "nomodel.sqlite", "CREATE TABLE t (x INTEGER);");
    const run = captureIO(dir, {});
    expect(await main(["ask", "baseline", "--db", db, "--checkpoints", "memory", "How many?"], run.io)).toBe(1);
    expect(run.err().trim().split("\n")).toHaveLength(1);
    expect(run.err()).toMatch(/no model configured: pass --model NAME or set SQLMEND_MODEL/);
  });

  it("gives one-line errors for a missing database and an unknown graph", async () => {
    const run = captureIO(dir, { SQLMEND_MODEL: "m" });
    expect(await main(["ask", "baseline", "--db", path.join(dir, "nope.sqlite"), "Q?"], run.io)).toBe(1);
    expect(run.err()).toMatch(/^sqlmend ask: database not found: .*nope\.sqlite\n$/);
    const other = captureIO(dir, { SQLMEND_MODEL: "m" });
    expect(await main(["ask", "nosuch", "--db", "x", "Q?"], other.io)).toBe(1);
    expect(other.err()).toMatch(/unknown graph 'nosuch' \(graphs: baseline, repair/);
  });
});

/** Answers each dev question with its gold SQL, except the listed ids, which get a wrong query or a broken reply. */
function benchResponder(wrong: Set<string>, broken: Set<string>) {
  return (req: ChatRequestRecord): ScriptedReply => {
    const q = dev.find((x) => x.question === questionOf(req));
    if (!q) return sqlReply("SELECT 1");
    if (broken.has(q.id)) return { malformed: "not-json" };
    if (wrong.has(q.id)) return sqlReply("SELECT 42");
    return sqlReply(q.goldSql!);
  };
}

describe("sqlmend eval", () => {
  it("scores, writes predictions and a report; a broken reply costs one question, not the run", async () => {
    const wrong = new Set([dev[0]!.id]);
    const broken = new Set([dev[1]!.id]);
    const server = await startOpenAIServer({ respond: benchResponder(wrong, broken) });
    try {
      const out = path.join(dir, "eval-1");
      const run = captureIO(dir, { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID });
      const code = await main(["eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "6", "--concurrency", "3", "--max-retries", "0", "--max-fix-rounds", "0", "--checkpoints", path.join(dir, "eval-ckpt.sqlite")], run.io);
      expect(run.err()).toContain("6 questions");
      expect(code).toBe(0);
      const lines = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(lines).toHaveLength(6);
      const byId = new Map(lines.map((l) => [l.id, l]));
      expect(byId.get(dev[0]!.id).correct).toBe(false);
      expect(byId.get(dev[1]!.id).correct).toBe(false);
      expect(lines.filter((l) => l.correct)).toHaveLength(4);
      for (const l of lines) expect(l).toMatchObject({ thread: expect.stringMatching(/^eval:/), latencyMs: expect.any(Number), iterations: 0 });
      expect(byId.get(dev[2]!.id)).toMatchObject({ inputTokens: 100, outputTokens: 10, calls: 1 });
      expect(run.out()).toMatch(/^EX 66\.67% \(4\/6, bird semantics\)/);

      const birdPreds = JSON.parse(fs.readFileSync(path.join(out, "predict_dev.json"), "utf8"));
      expect(birdPreds[dev[2]!.id]).toBe(`${dev[2]!.goldSql}\t----- bird -----\t${dev[2]!.dbId}`);
      expect(fs.readFileSync(path.join(out, "pred_dev.sql"), "utf8").trim().split("\n")).toHaveLength(6);
      // The official-format predictions score the same as the run itself.
      const rescored = captureIO(dir, {});
      expect(await main(["score", "--bench", benchDir, "--pred", path.join(out, "predict_dev.json"), "--only-predicted", "--json"], rescored.io)).toBe(0);
      expect(JSON.parse(rescored.out())).toMatchObject({ count: 6, correct: 4, semantics: "bird" });
      const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
      expect(report).toContain("Execution accuracy (EX): **66.67%** (4/6), 95 % interval [30.00, 90.32] (Wilson)");
      expect(fs.readFileSync(path.join(out, "report.html"), "utf8")).toContain('<td data-field="interval">30.00–90.32</td>');
      expect(report).toContain("Scoring semantics: `bird`");
      expect(report).toMatch(/\| simple \|/);
      expect(report).toContain(`| ${dev[2]!.id} | ${dev[2]!.dbId} | ${dev[2]!.difficulty} | ✓ | 100 | 10 | 1 |`);
      // Every question records what it went through; the report sums it, and inspect shows the same per question.
      expect(byId.get(dev[2]!.id).outcome).toEqual({ fixRounds: 0, finalSqlExecutes: true, failedCalls: 0 });
      expect(byId.get(dev[0]!.id).outcome).toMatchObject({ finalSqlExecutes: true });
      expect(report).toMatch(/## What the questions went through\n\n- fixRounds: mean 0\.00, max 0 \(6 questions\)\n- finalSqlExecutes: [\d.]+ % \(\d\/6\)/);
      const shown = captureIO(dir, {});
      expect(await main(["inspect", byId.get(dev[2]!.id).thread, "--checkpoints", path.join(dir, "eval-ckpt.sqlite")], shown.io)).toBe(0);
      expect(shown.out()).toContain("Outcome: fixRounds 0, finalSqlExecutes true, failedCalls 0");

      // The same --out without --resume is refused rather than overwritten.
      const again = captureIO(dir, { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID });
      expect(await main(["eval", "baseline", "--bench", benchDir, "--out", out], again.io)).toBe(1);
      expect(again.err()).toMatch(/already holds a run: pass --resume/);
      // Resuming with settings that change answers would mix two runs in one file: refused.
      const other = captureIO(dir, { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: "another-model" });
      expect(await main(["eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "6", "--max-fix-rounds", "0", "--resume", "--checkpoints", path.join(dir, "eval-ckpt.sqlite")], other.io)).toBe(1);
      expect(other.err()).toMatch(/--resume: .*: models\S* was .*test-model.*, now .*another-model/);
      const fixRounds = captureIO(dir, { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID });
      expect(await main(["eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "6", "--max-fix-rounds", "2", "--resume"], fixRounds.io)).toBe(1);
      // One line naming the option and both values, not the two settings objects.
      expect(fixRounds.err()).toMatch(/--resume: .*: option --max-fix-rounds was 0, now 2: resume with the same, or choose another --out\n$/);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("records the served model and fingerprint of every call: a version change mid-run is said, and cached replies made by another version are counted", async () => {
    // The alias moves to another version after the first two replies (one call per question at concurrency 1).
    let replies = 0;
    let later = false;
    const served = () => (later ? { model: "test-model-2025-01-01", fingerprint: "fp_three" } : ++replies <= 2 ? { model: "test-model-2024-01-01", fingerprint: "fp_one" } : { model: "test-model-2024-06-01", fingerprint: "fp_two" });
    const server = await startOpenAIServer({ respond: benchResponder(new Set(), new Set()), served });
    const env = { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-served") };
    try {
      const out = path.join(dir, "eval-served");
      const run = captureIO(dir, env);
      const args = ["eval", "baseline", "--bench", benchDir, "--checkpoints", "memory", "--max-fix-rounds", "0", "--concurrency", "1"];
      expect(await main([...args, "--out", out, "--limit", "4"], run.io)).toBe(0);
      const lines = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(lines.map((l) => Object.keys(l.served ?? {})).flat().sort()).toEqual(["test-model-2024-01-01 fp_one", "test-model-2024-01-01 fp_one", "test-model-2024-06-01 fp_two", "test-model-2024-06-01 fp_two"]);
      const runJson = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8"));
      expect(runJson.served).toMatchObject({ versions: ["test-model-2024-01-01 fp_one", "test-model-2024-06-01 fp_two"], moreThanOne: true });
      const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
      expect(report).toMatch(/^- Model: test-model; served: answered by test-model-2024-01-01 fp_one \(2 calls\), test-model-2024-06-01 fp_two \(2 calls\) — \*\*more than one served version \(2\)\*\* answered this run$/m);
      expect(fs.readFileSync(path.join(out, "report.html"), "utf8")).toMatch(/<p id="models">Model: test-model \(served: test-model-2024-01-01 fp_one, test-model-2024-06-01 fp_two — 2 served versions\)<\/p>/);
      // A rerun on a third version: the 4 cached replies were made by versions no live call gave, and it says so.
      later = true;
      const again = captureIO(dir, env);
      expect(await main([...args, "--out", path.join(dir, "eval-served-2"), "--limit", "5"], again.io)).toBe(0);
      const report2 = fs.readFileSync(path.join(dir, "eval-served-2", "report.md"), "utf8");
      expect(report2).toMatch(/served: answered by test-model-2025-01-01 fp_three \(1 call\); from the response cache: made by test-model-2024-01-01 fp_one \(2 calls\), test-model-2024-06-01 fp_two \(2 calls\) — \*\*more than one served version \(3\)\*\* answered this run; 4 cached replies were made by a served version no live call of this run gave/);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("records a corrupt database as that question's error, leaves the file as it was, and runs the rest", async () => {
    const copy = path.join(dir, "minibench-corrupt");
    fs.cpSync(benchDir, copy, { recursive: true });
    const victim = dev.find((q) => q.dbId === "music")!;
    const dbFile = path.join(copy, "dev_databases", "music", "music.sqlite");
    fs.writeFileSync(dbFile, "this is not a database ".repeat(100));
    const before = fs.readFileSync(dbFile);
    const server = await startOpenAIServer({ respond: benchResponder(new Set(), new Set()) });
    try {
      const out = path.join(dir, "eval-corrupt");
      // A home of its own: the cache is keyed by model, not server, and earlier tests' servers answered otherwise.
      const run = captureIO(dir, { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-corrupt") });
      // The question whose database is corrupt is failed (its graph could not finish): exit status 3.
      expect(await main(["eval", "baseline", "--bench", copy, "--out", out, "--checkpoints", "memory", "--max-fix-rounds", "1"], run.io)).toBe(3);
      const lines = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(lines).toHaveLength(dev.length);
      const broken = lines.find((l) => l.id === victim.id);
      expect(broken.correct).toBe(false);
      expect(broken.error ?? broken.predError).toMatch(/music\.sqlite/);
      expect(lines.filter((l) => l.dbId !== "music").every((l) => l.correct)).toBe(true);
      expect(fs.readFileSync(dbFile).equals(before)).toBe(true);

      // The database repaired, --resume runs the failed questions again (and no other) and scores them.
      const music = dev.filter((q) => q.dbId === "music");
      fs.copyFileSync(path.join(benchDir, "dev_databases", "music", "music.sqlite"), dbFile);
      const asked = server.requests.length;
      const resumed = captureIO(dir, { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-corrupt") });
      expect(await main(["eval", "baseline", "--bench", copy, "--out", out, "--checkpoints", "memory", "--max-fix-rounds", "1", "--resume"], resumed.io)).toBe(0);
      expect(resumed.err()).toMatch(new RegExp(`${dev.length} questions \\(${dev.length - music.length} already done, ${music.length} failed before and run again`));
      expect(new Set(server.requests.slice(asked).map(questionOf))).toEqual(new Set(music.map((q) => q.question)));
      const after = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
      const rerun = after.filter((l) => l.id === victim.id).at(-1);
      expect(rerun.correct).toBe(true);
      expect(rerun.error).toBeUndefined();
      expect(resumed.out()).toMatch(new RegExp(`EX 100\\.00% \\(${dev.length}/${dev.length}`));
    } finally {
      await server.close();
    }
  }, 60_000);

  it("stops cleanly on Ctrl-C: in-flight questions finish, outputs are written, exit status 130", async () => {
    const server = await startOpenAIServer({ respond: benchResponder(new Set(), new Set()), latencyMs: 150 });
    const out = path.join(dir, "eval-sigint");
    const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-sigint") };
    try {
      const child = spawn(process.execPath, ["bin/sqlmend.js", "eval", "baseline", "--bench", benchDir, "--out", out, "--concurrency", "2"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      child.stdout.on("data", (d) => (stdout += d));
      const results = path.join(out, "results.jsonl");
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && !(fs.existsSync(results) && fs.readFileSync(results, "utf8").split("\n").filter(Boolean).length >= 2)) {
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill("SIGINT");
      const code = await new Promise((r) => child.once("exit", r));
      expect(code).toBe(130);
      const lines = fs.readFileSync(results, "utf8").trim().split("\n");
      expect(lines.length).toBeLessThan(dev.length);
      expect(stdout).toMatch(/Stopped early: \d+ questions not run; --resume finishes the run/);
      expect(fs.readFileSync(path.join(out, "report.md"), "utf8")).toContain(`(${lines.length}/${lines.length})`);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("is killed mid-run and finishes with --resume, redoing no finished question and writing no duplicate line", async () => {
    const server = await startOpenAIServer({ respond: benchResponder(new Set(), new Set()), latencyMs: 150 });
    const out = path.join(dir, "eval-kill");
    const home = path.join(dir, "home-kill");
    const args = ["bin/sqlmend.js", "eval", "baseline", "--bench", benchDir, "--out", out, "--concurrency", "2", "--max-fix-rounds", "0"];
    const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: home };
    try {
      const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
      const results = path.join(out, "results.jsonl");
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const n = fs.existsSync(results) ? fs.readFileSync(results, "utf8").split("\n").filter(Boolean).length : 0;
        if (n >= 3) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      const before = fs.readFileSync(results, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l).id as string);
      expect(before.length).toBeGreaterThanOrEqual(3);
      expect(before.length).toBeLessThan(dev.length);
      const requestsBefore = server.requests.length;

      const resumed = captureIO(ROOT, { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: home });
      expect(await main(args.slice(1).concat("--resume"), resumed.io)).toBe(0);
      const ids = fs.readFileSync(results, "utf8").trim().split("\n").map((l) => JSON.parse(l).id as string);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(dev.length);
      // Finished questions were not asked again: new requests only for the rest.
      const askedAgain = server.requests.slice(requestsBefore).map(questionOf);
      for (const id of before) expect(askedAgain).not.toContain(dev.find((q) => q.id === id)!.question);
      const wrong = fs.readFileSync(results, "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((r) => !r.correct);
      expect(wrong).toEqual([]);
      expect(resumed.out()).toMatch(/^EX 100\.00%/);
    } finally {
      await server.close();
    }
  }, 60_000);
});
