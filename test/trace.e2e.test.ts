/**
 * The trace API (issue 37): `readRun` gives every question of a run folder with its verdict, cost and thread id, and
 * a summary; `readThread` gives a thread's steps from its checkpoints — slots, writes, diff, model calls, execution,
 * the state on demand. Real launcher, real ChatOpenAI client against the local server, real SQLite checkpoints.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Question } from "../state/question.ts";
import { readRun, readThread } from "../runner/trace.ts";
import { goldResponder, minibenchFixture, runCli } from "./support/cli.ts";
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
