/**
 * The trace API (issue 37): `readRun` gives every question of a run folder with its verdict, cost and thread id, and
 * a summary; `readThread` gives a thread's steps from its checkpoints — slots, writes, diff, model calls, execution,
 * the state on demand. Real launcher, real ChatOpenAI client against the local server, real SQLite checkpoints.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Question } from "../state/question.ts";
import { readRun, readThread } from "../runner/trace/read-trace.ts";
import { goldResponder, minibenchFixture, resultsOf, runCli } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";

let dir: string;
let benchDir: string;
let dev: Question[];
let server: OpenAIServer;
let out: string;

const env = () => ({ OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home"), SQLMEND_CACHE: "off" });

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev } = await minibenchFixture(dir));
  // The second question is answered wrong (SELECT 42).
  server = await startOpenAIServer({ respond: goldResponder(dev, (q) => q.id === dev[1]!.id) });
  out = path.join(dir, "run");
  const run = await runCli(["eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "3", "--model", "m", "--base-url", server.url, "--max-retries", "0"], dir, env());
  expect(run.code).toBe(0);
}, 60_000);
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

describe("readRun", () => {
  it("lists every question with its verdict, cost and thread, and sums the run", async () => {
    const run = await readRun(out);
    expect(run.graph).toBe("baseline");
    expect(run.kind).toBe("generator");
    expect(run.questions.map((q) => q.verdict)).toEqual(["right", "wrong", "right"]);
    expect(run.questions[1]).toMatchObject({ id: dev[1]!.id, sql: "SELECT 42", cost: { calls: 1, inputTokens: 100, outputTokens: 10 }, threadId: `eval:${run.runId}:${dev[1]!.id}` });
    expect(run.summary.byVerdict).toMatchObject({ right: 2, wrong: 1, failed: 0 });
    expect(run.summary.ex).toMatchObject({ correct: 2, scored: 3 });
    expect(run.summary.ex!.low).toBeLessThan(66.7);
    expect(run.summary.ex!.high).toBeGreaterThan(66.7);
    expect(run.summary.totalCost).toMatchObject({ calls: 3, inputTokens: 300 });
  });
});

describe("readThread", () => {
  it("gives a built-in graph's steps: slots, roles, writes, diff, calls, execution; the state when asked", async () => {
    const run = await readRun(out);
    const thread = await readThread(run.questions[1]!.threadId, { run: out, env: env(), cwd: dir, state: true });
    expect(thread).toMatchObject({ graph: "baseline", readAs: "graph", finished: true, finalSql: "SELECT 42", question: dev[1]!.question });
    expect(thread.steps.map((s) => s.slots)).toEqual([["schema"], ["generate"], ["execute"]]);
    const [schema, generate, execute] = thread.steps;
    expect(schema!.diff.map((d) => d.field)).toContain("schemaText");
    expect(generate).toMatchObject({ roles: ["generator"], sql: "SELECT 42", writes: { generate: { sql: "SELECT 42" } } });
    expect(generate!.calls).toHaveLength(1);
    expect(generate!.calls[0]).toMatchObject({ role: "generator", model: "m", inputTokens: 100, outputTokens: 10, reply: expect.stringContaining("SELECT 42") });
    expect(generate!.calls[0]!.messages.at(-1)!.content).toContain(dev[1]!.question);
    expect(generate!.diff).toContainEqual({ field: "sql", change: "changed", before: "", after: "SELECT 42" });
    expect(execute!.execution).toMatchObject({ ok: true, rowCount: 1, rows: [[42]] });
    expect(execute!.state).toMatchObject({ sql: "SELECT 42", execution: { ok: true } });
    expect(thread.outcome).toMatchObject({ finalSqlExecutes: true });
  });
});

describe("replays, gold per step, threads filters", () => {
  it("a replay's thread says which thread and checkpoint it forked from, and how many steps it reused", async () => {
    const replayOut = path.join(dir, "replay");
    const replay = await runCli(["replay", out, "--from", "execute", "--out", replayOut, "--model", "m", "--base-url", server.url], dir, env());
    expect(replay.code, replay.err).toBe(0);
    const original = await readRun(out);
    const replayed = await readRun(replayOut);
    expect(replayed.replayOf).toMatchObject({ dir: out, runId: original.runId, slot: "execute" });
    const q = replayed.questions.find((x) => x.id === dev[1]!.id)!;
    expect(q.replay).toMatchObject({ from: "execute", originalThread: original.questions[1]!.threadId, prefixSteps: 2 });
    const thread = await readThread(q.threadId, { run: replayOut, env: env(), cwd: dir });
    expect(thread.forkedFrom).toEqual({ threadId: original.questions[1]!.threadId, checkpointId: q.replay!.checkpointId, prefixSteps: 2 });
    expect(thread.steps.map((s) => [s.step, s.slots])).toEqual([[3, ["execute"]]]);
    expect(thread.finished).toBe(true);
    const shown = await runCli(["inspect", q.threadId, "--run", replayOut], dir, env());
    expect(shown.out).toContain(`Forked from thread ${original.questions[1]!.threadId} at checkpoint ${q.replay!.checkpointId} (its first 2 steps reused)`);
  }, 60_000);

  it("gold per step on a corrector run: the step whose SQL became right is marked, cached in the data directory", async () => {
    const preds = path.join(dir, "initial.json");
    fs.writeFileSync(preds, JSON.stringify({ [dev[0]!.id]: `SELECT nope FROM nothing\t----- bird -----\t${dev[0]!.dbId}` }));
    const repairOut = path.join(dir, "repair");
    const run = await runCli(["eval", "repair", "--bench", benchDir, "--out", repairOut, "--ids", dev[0]!.id, "--initial", preds, "--model", "m", "--base-url", server.url], dir, env());
    expect(run.code, run.err).toBe(0);
    const record = (await resultsOf(repairOut)).get(dev[0]!.id)!;
    expect(record).toMatchObject({ correct: true, initialCorrect: false });
    const thread = await readThread(record.thread as string, { run: repairOut, env: env(), cwd: dir, gold: true });
    expect(thread.initialSql).toBe("SELECT nope FROM nothing");
    const fix = thread.steps.find((s) => s.slots.includes("fix"))!;
    expect(fix.gold).toMatchObject({ correct: true, marks: ["first-right", "fixed", "last"] });
    expect(thread.goldSummary).toEqual({ firstRight: fix.step, last: fix.step, finalCorrect: true });
    expect(thread.steps.filter((s) => s.gold).length).toBe(thread.steps.filter((s) => s.sql !== undefined).length);
    const cacheDir = path.join(dir, "home", "trace-gold");
    expect(fs.readdirSync(cacheDir)).toHaveLength(1);
    const shown = await runCli(["inspect", record.thread as string, "--run", repairOut, "--gold", "--diff"], dir, env());
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toMatch(new RegExp(`^\\s+${fix.step}\\s+fix\\s.*\\[gold: right, first-right, fixed, last\\]$`, "m"));
    expect(shown.out).toMatch(/^\s+~ sql: "SELECT nope FROM nothing" → "SELECT/m);
    expect(shown.out).toMatch(/^Gold: final SQL right; first right at step \d+; last SQL change at step \d+$/m);
    const noRun = await runCli(["inspect", record.thread as string, "--gold"], dir, env());
    expect(noRun.code).toBe(2);
    expect(noRun.err).toMatch(/--gold needs the thread's run folder: --run DIR/);
  }, 60_000);

  it("threads --run lists a run's questions by verdict and outcome; inspect --step --state shows a step's full state", async () => {
    const wrong = await runCli(["threads", "--run", out, "--verdict", "wrong"], dir, env());
    expect(wrong.code, wrong.err).toBe(0);
    const run = await readRun(out);
    expect(wrong.out.trim().split("\n")).toEqual([expect.stringMatching(new RegExp(`^${run.questions[1]!.threadId}\\s+wrong\\s`))]);
    const right = await runCli(["threads", "--run", out, "--verdict", "right", "--outcome", "finalSqlExecutes=true", "--json"], dir, env());
    expect((JSON.parse(right.out) as { id: string }[]).map((t) => t.id)).toEqual([dev[0]!.id, dev[2]!.id]);
    const none = await runCli(["threads", "--run", out, "--outcome", "fixRounds=1"], dir, env());
    expect(none.out).toMatch(/^no threads in /);
    const loose = await runCli(["threads", "--verdict", "wrong"], dir, env());
    expect(loose.code).toBe(2);
    expect(loose.err).toMatch(/--verdict and --outcome filter a run's questions: add --run DIR/);
    const step = await runCli(["inspect", run.questions[1]!.threadId, "--step", "2", "--state", "--run", out], dir, env());
    expect(step.code, step.err).toBe(0);
    expect(step.out).toMatch(/^Step 2: generate → next: execute/);
    expect(step.out).toMatch(/^Changed:\n\s+~ sql: "" → "SELECT 42"/m);
    expect(step.out).toMatch(/^State after the step:\n\{\n\s+"graph": "baseline"/m);
  }, 60_000);
});
