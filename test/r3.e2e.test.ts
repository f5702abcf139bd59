/**
 * R³ through the launcher and the real ChatOpenAI client against the local server: eval with k-shot examples from the
 * train split, r3-review under --initial/--correct, inspect showing every reviewer of a round, kill and --resume.
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

type Agent = "writer" | "persona" | "reviewer";
const agentOf = (req: ChatRequestRecord): Agent => {
  const system = req.messages[0]?.content ?? "";
  return system.startsWith("You are the SQL writer") ? "writer" : system.startsWith("You assemble review panels") ? "persona" : "reviewer";
};
/** The review round a writer request answers (0: the first SQL or a debug turn before any review). */
const roundOf = (req: ChatRequestRecord) => req.messages.filter((m) => m.role === "user" && m.content.includes("Their reviews:")).length;
const questionOf = (req: ChatRequestRecord) => /Question: (.*)/.exec(req.messages.find((m) => m.content.includes("Question: "))?.content.split("\n").filter((l) => l.startsWith("Question: ")).at(-1) ?? "")?.[1]?.trim() ?? "";
const sqlReply = (sql: string): ScriptedReply => ({ content: `Plan first.\n\`\`\`sql\n${sql}\n\`\`\`` });
const PERSONAS: ScriptedReply = {
  content: JSON.stringify({ reviewers: [{ profession: "Veterinary records clerk", focus: "kinds of pets" }, { profession: "SQL engineer", focus: "filters" }, { profession: "Data auditor", focus: "ordering" }] }),
};

let dir: string;
let benchDir: string;
let dev: Question[];
let train: Question[];

beforeAll(async () => {
  dir = makeTempDir();
  benchDir = path.join(dir, "minibench");
  await buildMinibench(benchDir);
  dev = (await loadBenchmark(benchDir, { split: "dev" })).questions;
  train = (await loadBenchmark(benchDir, { split: "train" })).questions;
});
afterAll(() => removeTempDir(dir));

/** Writer answers each dev question with its gold SQL and keeps it: consensus in round 1. */
function goldResponder(req: ChatRequestRecord): ScriptedReply {
  const agent = agentOf(req);
  if (agent === "persona") return PERSONAS;
  if (agent === "reviewer") return { content: "The query answers the question." };
  const q = dev.find((x) => x.question === questionOf(req));
  return sqlReply(q?.goldSql ?? "SELECT 1");
}

describe("eval r3", () => {
  it("loads the train split for its default 5 shots, reports iterations = fixRounds + rounds, and settings", async () => {
    const server = await startOpenAIServer({ respond: goldResponder });
    try {
      const out = path.join(dir, "eval-r3");
      const run = captureIO(dir, { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID });
      const code = await main(["eval", "r3", "--bench", benchDir, "--out", out, "--limit", "2", "--checkpoints", "memory"], run.io);
      expect(run.err()).toContain("2 questions");
      expect(code).toBe(0);
      expect(run.out()).toMatch(/^EX 100\.00% \(2\/2/);
      const openings = server.requests.filter((r) => agentOf(r) === "writer" && roundOf(r) === 0);
      expect(openings).toHaveLength(2);
      for (const r of openings) {
        const shots = [...r.messages[1]!.content.matchAll(/^SQL: (.*)$/gm)].map((m) => m[1]);
        expect(shots).toHaveLength(5);
        for (const s of shots) expect(train.map((t) => t.goldSql)).toContain(s);
      }
      const lines = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
      // One review round each (consensus), no debug turn: 1 iteration; 1 writer + 1 persona + 3 reviewers + 1 writer.
      for (const l of lines) expect(l).toMatchObject({ iterations: 1, calls: 6, usageByRole: { writer: { calls: 2 }, persona: { calls: 1 }, reviewer: { calls: 3 } } });
      const runFile = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8"));
      expect(runFile.settings).toMatchObject({ reviewers: 3, reasoning: "pot", "k-shot": 5, "max-debug-turns": 3, "max-review-turns": 5 });
    } finally {
      await server.close();
    }
  }, 60_000);

  it("ranks the shots by embeddings when a model is configured: the train split embedded once for the run, counted in usage", async () => {
    const server = await startOpenAIServer({ respond: goldResponder });
    try {
      const out = path.join(dir, "eval-r3-dense");
      const env = { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-dense") };
      const run = captureIO(dir, env);
      const args = ["eval", "r3", "--bench", benchDir, "--out", out, "--limit", "4", "--concurrency", "4", "--reviewers", "1", "--embedding-model", "emb", "--checkpoints", "memory"];
      expect(await main(args, run.io)).toBe(0);
      const trainTexts = server.embeddingRequests.filter((r) => r.input.length > 1);
      expect(trainTexts).toHaveLength(1); // not once per question in flight
      expect(trainTexts[0]!.input).toHaveLength(train.length);
      expect(server.embeddingRequests.filter((r) => r.input.length === 1)).toHaveLength(4); // one query each
      const lines = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
      // The train split's request is paid by one question; every question pays its own query.
      expect(lines.reduce((n, l) => n + (l.usageByRole.embedder?.calls ?? 0), 0)).toBe(5);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("needs no train split at --k-shot 0, and says how to do without one otherwise", async () => {
    const noTrain = path.join(dir, "minibench-no-train");
    fs.cpSync(benchDir, noTrain, { recursive: true });
    fs.rmSync(path.join(noTrain, "train.json"));
    const server = await startOpenAIServer({ respond: goldResponder });
    try {
      const env = { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID };
      const refused = captureIO(dir, env);
      expect(await main(["eval", "r3", "--bench", noTrain, "--out", path.join(dir, "no-train-1"), "--limit", "1", "--checkpoints", "memory"], refused.io)).toBe(1);
      expect(refused.err().trim().split("\n")).toHaveLength(1);
      expect(refused.err()).toMatch(/r3 --k-shot 5 \(the default; --k-shot 0 for zero-shot\) needs the train split/);
      const zero = captureIO(dir, env);
      expect(await main(["eval", "r3", "--bench", noTrain, "--out", path.join(dir, "no-train-2"), "--limit", "1", "--k-shot", "0", "--reviewers", "1", "--checkpoints", "memory"], zero.io)).toBe(0);
      // An option of r3 is refused for another graph, naming its owner.
      const other = captureIO(dir, env);
      expect(await main(["eval", "baseline", "--bench", noTrain, "--out", path.join(dir, "no-train-3"), "--k-shot", "2"], other.io)).toBe(2);
      expect(other.err()).toMatch(/--k-shot is an option of r3, not of baseline/);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe("eval r3: nothing shrinks silently", () => {
  it("records per question and counts in report.md the example pool left without databases, and standby reviewers", async () => {
    // A copy of minibench whose train split lacks one database: k-shot draws from the rest, and says so.
    const bench = path.join(dir, "minibench-short-train");
    fs.cpSync(benchDir, bench, { recursive: true });
    const trainDbs = fs.readdirSync(path.join(bench, "train_databases"));
    const removed = trainDbs[0]!;
    fs.rmSync(path.join(bench, "train_databases", removed), { recursive: true });
    const leftOut = train.filter((t) => t.dbId === removed).length;
    expect(leftOut).toBeGreaterThan(0);
    const server = await startOpenAIServer({
      // The second question's persona reply is unusable even when asked again: standby reviewers sit.
      respond: (req) => (agentOf(req) === "persona" && questionOf(req) === dev[1]!.question ? { content: "No idea." } : goldResponder(req)),
    });
    try {
      const out = path.join(dir, "eval-r3-pool");
      const run = captureIO(dir, { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-r3-pool") });
      expect(await main(["eval", "r3", "--bench", bench, "--out", out, "--limit", "2", "--checkpoints", "memory"], run.io)).toBe(0);
      const lines = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
      const pool = `${train.length - leftOut} of ${train.length} training questions (${leftOut} left out: database not found locally)`;
      for (const l of lines) expect(l.outcome).toMatchObject({ shots: 5, shotsRanking: "bm25", shotsPool: pool, rounds: 1, stopReason: "consensus" });
      // results.jsonl is in the order questions finished: compare by question.
      const byQuestion = new Map(lines.map((l) => [l.id, l]));
      expect([dev[0]!, dev[1]!].map((q) => [byQuestion.get(q.id)?.outcome.personasGenerated, byQuestion.get(q.id)?.outcome.personasStandby])).toEqual([[3, 0], [0, 3]]);
      const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
      expect(report).toContain("- stopReason: consensus 100.0 % (2 questions)");
      expect(report).toContain(`- shotsPool: ${pool} 100.0 % (2 questions)`);
      expect(report).toContain("- personas: generated 3, standby 3 (standby in 1 of 2 questions)");
    } finally {
      await server.close();
    }
  }, 60_000);

  it("refuses an empty example pool instead of running zero-shot", async () => {
    const bench = path.join(dir, "minibench-no-train-dbs");
    fs.cpSync(benchDir, bench, { recursive: true });
    for (const db of fs.readdirSync(path.join(bench, "train_databases"))) fs.rmSync(path.join(bench, "train_databases", db), { recursive: true });
    const run = captureIO(dir, { OPENAI_BASE_URL: "http://127.0.0.1:9", SQLMEND_MODEL: TEST_MODEL_ID });
    expect(await main(["eval", "r3", "--bench", bench, "--out", path.join(dir, "eval-r3-empty-pool"), "--limit", "1", "--checkpoints", "memory"], run.io)).toBe(1);
    expect(run.err()).toMatch(/needs training examples, but the train split of .* has none with gold SQL: all \d+ of its questions lack their database/);
  }, 60_000);
});

describe("ask r3", () => {
  it("takes its k shots from --examples BENCH, and says so on stderr when it has none", async () => {
    const server = await startOpenAIServer({ respond: goldResponder });
    try {
      const env = { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID };
      const q = dev[0]!;
      const base = ["ask", "r3", "--db", q.dbPath, "--reviewers", "0", "--checkpoints", "memory"];
      const bare = captureIO(dir, env);
      expect(await main([...base, q.question], bare.io)).toBe(0);
      expect(bare.err().trim().split("\n")).toEqual([expect.stringMatching(/r3 --k-shot 5 .*wants training examples; none given \(--examples BENCH\), so it writes zero-shot/)]);
      expect(server.requests.at(-1)!.messages[1]!.content).not.toContain("Examples of questions");

      const withShots = captureIO(dir, env);
      expect(await main([...base, "--examples", benchDir, "--k-shot", "3", q.question], withShots.io)).toBe(0);
      expect(withShots.err()).toBe("");
      expect([...server.requests.at(-1)!.messages[1]!.content.matchAll(/^SQL: /gm)]).toHaveLength(3);
      const zero = captureIO(dir, env);
      expect(await main([...base, "--k-shot", "0", q.question], zero.io)).toBe(0);
      expect(zero.err()).toBe("");
    } finally {
      await server.close();
    }
  }, 60_000);

  it("says in one line why there is no SQL when the writer's endpoint is down", async () => {
    const server = await startOpenAIServer({ respond: () => ({ status: 500, body: { error: { message: "upstream down" } } }) });
    try {
      const run = captureIO(dir, { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-writer-down") });
      expect(await main(["ask", "r3", "--db", dev[0]!.dbPath, "--k-shot", "0", "--max-retries", "0", "--max-debug-turns", "1", "--checkpoints", "memory", dev[0]!.question], run.io)).toBe(1);
      expect(run.err().trim().split("\n")).toEqual([expect.stringMatching(/^sqlmend ask: no SQL: writer: .*upstream down \(thread ask-/)]);
      expect(server.requests).toHaveLength(2); // the first SQL and one debug turn, no panel
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe("r3-review under --initial and --correct", () => {
  it("reviews only the initial SQL that fails (--correct errors), from a predictions file and from a generator", async () => {
    const server = await startOpenAIServer({
      respond: (req) => {
        if (req.messages[0]!.content.startsWith("You are an expert data analyst")) return sqlReply("SELECT nope FROM nothing"); // baseline's generator
        const agent = agentOf(req);
        if (agent === "persona") return PERSONAS;
        if (agent === "reviewer") return { content: "Use the right table." };
        const q = dev.find((x) => x.question === questionOf(req));
        return sqlReply(q?.goldSql ?? "SELECT 1");
      },
    });
    try {
      const env = { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID };
      const [q0, q1] = [dev[0]!, dev[1]!];
      const preds = path.join(dir, "r3-initial.json");
      fs.writeFileSync(preds, JSON.stringify({ [q0.id]: `${q0.goldSql}\t----- bird -----\t${q0.dbId}`, [q1.id]: `SELECT nope FROM nothing\t----- bird -----\t${q1.dbId}` }));
      const out = path.join(dir, "r3-review-errors");
      const run = captureIO(dir, env);
      expect(await main(["eval", "r3-review", "--bench", benchDir, "--out", out, "--ids", `${q0.id},${q1.id}`, "--initial", preds, "--correct", "errors", "--checkpoints", "memory"], run.io)).toBe(0);
      const r = new Map(fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).map((x) => [x.id, x]));
      expect(r.get(q0.id)).toMatchObject({ correction: "skipped: initial SQL executes", correct: true });
      // The failing SQL went through the writer's debug turn (1) and one review round (1).
      expect(r.get(q1.id)).toMatchObject({ correction: "applied", correct: true, initialSql: "SELECT nope FROM nothing", iterations: 2 });
      const debugTurn = server.requests.find((x) => agentOf(x) === "writer" && x.messages.at(-1)!.content.includes("Running your query failed"))!;
      expect(debugTurn.messages[2]).toMatchObject({ role: "assistant", content: expect.stringContaining("SELECT nope FROM nothing") });

      const fromBaseline = path.join(dir, "r3-review-baseline");
      const again = captureIO(dir, env);
      expect(await main(["eval", "r3-review", "--bench", benchDir, "--out", fromBaseline, "--ids", q1.id, "--initial", "baseline", "--max-fix-rounds", "0", "--reviewers", "1", "--checkpoints", "memory"], again.io)).toBe(0);
      const line = JSON.parse(fs.readFileSync(path.join(fromBaseline, "results.jsonl"), "utf8").trim());
      expect(line).toMatchObject({ initialSql: "SELECT nope FROM nothing", correction: "applied", correct: true });
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe("kill and --resume mid-loop; inspect", () => {
  it("a killed r3 thread resumes where it stopped: no first SQL, personas or finished round asked again", async () => {
    const db = makeDb(dir, "pets.sqlite", "CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT, kind TEXT); INSERT INTO pets VALUES (1,'Rex','dog'),(2,'Tom','cat'),(3,'Fido','dog');");
    const server = await startOpenAIServer({
      latencyMs: 150,
      respond: (req) => {
        const agent = agentOf(req);
        if (agent === "persona") return PERSONAS;
        if (agent === "reviewer") return { content: roundOf(req) === 0 ? "Order the names by id." : "Fine now." };
        // Round 0: first SQL; round 1: a revision; round 2: the same SQL spelled differently (consensus).
        const round = roundOf(req);
        return sqlReply(round === 0 ? "SELECT name FROM pets WHERE kind = 'dog'" : round === 1 ? "SELECT name FROM pets WHERE kind = 'dog' ORDER BY id" : "select name from pets where kind = 'dog' order by ID;");
      },
    });
    const checkpoints = path.join(dir, "r3-kill.sqlite");
    const args = ["ask", "r3", "--db", db, "--thread", "r3-kill", "--checkpoints", checkpoints, "--k-shot", "0", "Which pets are dogs?"];
    const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID };
    try {
      const child = spawn(process.execPath, ["bin/sqlmend.js", ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
      const reviewersOfRound2 = () => server.requests.filter((r) => agentOf(r) === "reviewer").length > 3;
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && !reviewersOfRound2()) await new Promise((r) => setTimeout(r, 10));
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      expect(reviewersOfRound2()).toBe(true);
      const before = server.requests.length;

      const resumed = captureIO(dir, env);
      expect(await main(args, resumed.io)).toBe(0);
      expect(resumed.out()).toContain("SELECT name FROM pets WHERE kind = 'dog' ORDER BY id");
      const after = server.requests.slice(before);
      // Only round 2 was left: its reviewers and the writer's answer to them.
      expect(after.filter((r) => agentOf(r) === "persona")).toHaveLength(0);
      expect(after.filter((r) => agentOf(r) === "writer").map(roundOf)).toEqual([2]);
      expect(after.filter((r) => agentOf(r) === "reviewer").length).toBeLessThanOrEqual(3);
      expect(server.requests.filter((r) => agentOf(r) === "persona")).toHaveLength(1);

      // inspect: each round's personas, all reviewers of the parallel step, the revision and why the loop stopped.
      const overview = captureIO(dir, env);
      expect(await main(["inspect", "r3-kill", "--checkpoints", checkpoints], overview.io)).toBe(0);
      const text = overview.out();
      expect(text).toContain("finished");
      expect(text).toMatch(/persona\s.*personas=.*Veterinary records clerk/);
      expect(text).toMatch(/review ×3 .*\[3 model calls: reviewer/);
      expect(text).toMatch(/finish\s.*stopReason="consensus in round 2/);
      const reviewStep = /\s+(\d+)\s+review ×3/.exec(text)![1]!;
      const step = captureIO(dir, env);
      expect(await main(["inspect", "r3-kill", "--step", reviewStep, "--checkpoints", checkpoints], step.io)).toBe(0);
      for (const who of ["Veterinary records clerk", "SQL engineer", "Data auditor"]) expect(step.out()).toContain(`Your profession: ${who}.`);
      expect(step.out().match(/Model call \d: role reviewer/g)).toHaveLength(3);
    } finally {
      await server.close();
    }
  }, 60_000);
});
