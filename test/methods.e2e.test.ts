/**
 * Every graph once, side by side, through the launcher and the real ChatOpenAI client against the local
 * OpenAI-compatible server, each agent role answered by test/support/method-agents.ts (bench/methods.ts runs the same
 * at scale). Two minibench questions: the first writers get question 0's result wrong and question 1's SQL failing.
 * Each run must finish with its result line and no error, and `inspect` must show the graph's agent turns as steps.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { writeBirdPredictions } from "../tools/benchmarks/score.ts";
import type { Question } from "../state/question.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";
import { agentsConfig, failing, type MethodAgents, methodAgents, wrongResult } from "./support/method-agents.ts";
import { runCli } from "./support/cli.ts";

let dir: string;
let benchDir: string;
let dev: Question[];
let server: OpenAIServer;
let agents: MethodAgents;

const sqlmend = (...args: string[]) => runCli(args, dir, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") });

beforeAll(async () => {
  dir = makeTempDir();
  benchDir = path.join(dir, "minibench");
  await buildMinibench(benchDir);
  dev = (await loadBenchmark(benchDir, { split: "dev" })).questions;
  const train = (await loadBenchmark(benchDir, { split: "train" })).questions;
  agents = methodAgents({ questions: [dev, train] });
  server = await startOpenAIServer({ respond: agents.respond });
  // The config in the working directory gives each role its own model name: the server knows who asks.
  fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
  // The correctors' shared initial SQL: question 0 returns a wrong result, question 1 fails to execute.
  await writeBirdPredictions(path.join(dir, "initial.json"), [
    { id: dev[0]!.id, dbId: dev[0]!.dbId, sql: wrongResult(dev[0]!.goldSql!) },
    { id: dev[1]!.id, dbId: dev[1]!.dbId, sql: failing(dev[1]!.goldSql!) },
  ]);
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

const initial = () => ["--initial", path.join(dir, "initial.json"), "--correct", "all"];

/** Runs `eval GRAPH` on two questions; returns the inspect output of each question's thread. */
async function evalAndInspect(graph: string, extra: string[], correct: number): Promise<Record<string, string>> {
  const out = path.join(dir, "runs", graph);
  const checkpoints = path.join(dir, `${graph}.sqlite`);
  const run = await sqlmend("eval", graph, "--bench", benchDir, "--out", out, "--limit", "2", "--checkpoints", checkpoints, ...extra);
  expect(run.err, run.err).not.toMatch(/error/i);
  expect(run.code, run.out + run.err).toBe(0);
  // The agents' answers are used: the count of right answers follows from what they said.
  expect(run.out).toMatch(new RegExp(`^EX \\d+\\.\\d+% \\(${correct}/2, bird semantics\\); 0 skipped$`, "m"));
  expect(run.out).not.toMatch(/questions? failed|Model calls that got no reply/);
  const records = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; thread: string; error?: string; correct: boolean });
  expect(records.map((r) => r.id).sort()).toEqual(["0", "1"]);
  for (const r of records) expect(r.error, `${graph} question ${r.id}`).toBeUndefined();
  const inspected: Record<string, string> = {};
  for (const r of records) {
    const shown = await sqlmend("inspect", r.thread, "--checkpoints", checkpoints);
    expect(shown.code, shown.err).toBe(0);
    inspected[r.id] = shown.out;
  }
  return inspected;
}

/** The step lines of an inspect output whose node made a call of `role`. */
const stepsOf = (inspected: string, role: string) => inspected.split("\n").filter((l) => /^\s+\d+\s+\S/.test(l) && new RegExp(`model calls?: .*\\b${role} \\d`).test(l));

/** Graph, extra flags, right answers of 2, and per question the agent roles its inspect must show as steps. */
const GRAPHS: [string, () => string[], number, Record<string, string[]>][] = [
  ["baseline", () => [], 1, { "0": ["generator"], "1": ["generator", "fixer"] }],
  ["r3", () => [], 2, { "0": ["writer", "persona", "reviewer"], "1": ["writer", "persona", "reviewer"] }],
  ["memo-sql", () => [], 2, { "0": ["linker", "decomposer", "solver", "reflector", "writer", "critic", "refiner"] }],
  ["ts-sql", () => [], 2, { "0": ["linker", "generator", "data", "coder", "reviser"], "1": ["generator", "reviser"] }],
  ["repair", initial, 1, { "1": ["fixer"] }],
  ["magic", () => [...initial(), "--guideline", path.join(dir, "runs", "magic-train", "guideline.md")], 2, { "0": ["corrector"], "1": ["corrector"] }],
  ["r3-review", initial, 2, { "0": ["persona", "reviewer", "writer"], "1": ["writer", "persona", "reviewer"] }],
  ["memo-refine", () => [...initial(), "--memory", path.join(dir, "memory")], 2, { "0": ["critic", "refiner"], "1": ["critic", "refiner"] }],
  ["ts-sql-refine", initial, 2, { "0": ["data", "coder", "reviser"] }],
  ["self-debugging", initial, 2, { "0": ["explainer", "debugger"], "1": ["explainer", "debugger"] }],
  ["self-consistency", () => [...initial(), "--samples", "3"], 2, { "0": ["sampler"], "1": ["sampler"] }],
  ["multiple-prompt", () => [...initial(), "--samples", "3"], 2, { "0": ["sampler"] }],
];

describe("every graph through the launcher, against role-aware agents on the local server", () => {
  it("builds a MAGIC guideline and a Memo-SQL memory from the training split", async () => {
    const init = await sqlmend("eval", "baseline", "--bench", benchDir, "--split", "train", "--limit", "2", "--out", path.join(dir, "runs", "init-train"), "--checkpoints", "memory");
    expect(init.code, init.err).toBe(0);
    const magic = await sqlmend("magic", "guideline", "--bench", benchDir, "--split", "train", "--limit", "2", "--initial", path.join(dir, "runs", "init-train", "predict_train.json"), "--out", path.join(dir, "runs", "magic-train"));
    expect(magic.code, magic.err).toBe(0);
    expect(fs.readFileSync(path.join(dir, "runs", "magic-train", "guideline.md"), "utf8")).toMatch(/^1\. Reminder/m);
    const memo = await sqlmend("memo", "build", "--bench", benchDir, "--limit", "2", "--samples", "3", "--out", path.join(dir, "memory"));
    expect(memo.code, memo.err).toBe(0);
    const shown = await sqlmend("memo", "show", path.join(dir, "memory"));
    expect(shown.out).toMatch(/select_output_error/);
  });

  for (const [graph, flags, correct, expected] of GRAPHS) {
    it(`${graph}: a result line, no error, and its agents' turns as steps`, async () => {
      const inspected = await evalAndInspect(graph, flags(), correct);
      for (const [id, roles] of Object.entries(expected)) {
        for (const role of roles) expect(stepsOf(inspected[id]!, role), `${graph} question ${id}: a step with a ${role} call\n${inspected[id]}`).not.toEqual([]);
      }
    });
  }

  it("memo-sql's report sums its outcome; memo candidates exports its nine candidates, which memo-refine --candidates corrects", async () => {
    const report = fs.readFileSync(path.join(dir, "runs", "memo-sql", "report.md"), "utf8");
    expect(report).toMatch(/^- candidates: mean 9\.00, max 9 \(2 questions\)$/m);
    expect(report).toMatch(/^- criticReused: mean \d/m);
    expect(report).toMatch(/^- oracleGoldInCandidates: .* — oracle: scored against the gold/m);
    const file = path.join(dir, "nine.json");
    const exported = await sqlmend("memo", "candidates", "--run", path.join(dir, "runs", "memo-sql"), "--checkpoints", path.join(dir, "memo-sql.sqlite"), "--out", file);
    expect(exported.code, exported.err).toBe(0);
    expect(exported.out).toMatch(/^Candidates: 18 for 2 questions/m);
    const out = path.join(dir, "runs", "memo-refine-nine");
    const args = ["--bench", benchDir, "--limit", "2", "--checkpoints", "memory", "--memory", path.join(dir, "memory"), "--initial", path.join(dir, "runs", "memo-sql", "predict_dev.json"), "--candidates", file];
    const run = await sqlmend("eval", "memo-refine", ...args, "--out", out);
    expect(run.code, run.out + run.err).toBe(0);
    const refined = fs.readFileSync(path.join(out, "report.md"), "utf8");
    expect(refined).toMatch(/^- candidatesFrom: candidates file 100\.0 % \(2 questions\)$/m);
    expect(refined).toMatch(/"evaluatedQuestionsInMemory": 0/);
  });

  it("says when model calls got no reply, instead of a silent EX 0%", async () => {
    const down = await startOpenAIServer({ respond: () => ({ status: 500 }) });
    try {
      const out = path.join(dir, "runs", "down");
      // No cache: the earlier runs' replies (keyed by model, not server) would answer for the down server.
      const run = await sqlmend("eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "2", "--checkpoints", "memory", "--base-url", down.url, "--max-retries", "0", "--max-fix-rounds", "1", "--cache", "off");
      // Failed, not answered: exit status 3, no EX of 0 over questions that got no answer.
      expect(run.code).toBe(3);
      expect(run.out).toMatch(/^EX -% \(0\/0 answered, bird semantics\); 2 failed — --resume retries them; 0 skipped$/m);
      const line = /^Model calls that got no reply: 4 of 4, in 2 questions \(first: model call failed: 500 .*\)$/m;
      expect(run.out).toMatch(line);
      expect(fs.readFileSync(path.join(out, "report.md"), "utf8")).toMatch(/^- Model calls that got no reply: 4 of 4/m);
    } finally {
      await down.close();
    }
  });

  it("refuses the graphs only 'sqlmend magic guideline' can run, before any model call; explains '--flag -1'; names a run's failed questions", async () => {
    const before = server.requests.length;
    for (const graph of ["magic-feedback", "magic-guideline"]) {
      const run = await sqlmend("eval", graph, "--bench", benchDir, "--out", path.join(dir, "runs", graph), "--limit", "1", "--checkpoints", "memory");
      expect(run.code).not.toBe(0);
      expect(run.err.trim()).toBe(`sqlmend eval: graph '${graph}' is run by 'sqlmend magic guideline', not by ask or eval`);
      const ask = await sqlmend("ask", graph, "--db", dev[0]!.dbPath, dev[0]!.question);
      expect(ask.err.trim()).toBe(`sqlmend ask: graph '${graph}' is run by 'sqlmend magic guideline', not by ask or eval`);
    }
    expect(server.requests.length).toBe(before);
    const negative = await sqlmend("eval", "r3", "--bench", benchDir, "--out", path.join(dir, "runs", "negative"), "--reviewers", "-1");
    expect(negative.err.split("\n")[0]).toBe("sqlmend eval: --reviewers needs a value; one that starts with '-' is written --reviewers=VALUE (e.g. --reviewers=-1)");
    // A question whose graph throws (here a swapped-in slot that throws) is named under the EX line, not only in report.md.
    const thrower = path.join(dir, "thrower.mjs");
    fs.writeFileSync(thrower, "export default () => async () => { throw new Error('the slot broke'); };\n");
    const run = await sqlmend("eval", "baseline", "--bench", benchDir, "--out", path.join(dir, "runs", "thrower"), "--limit", "2", "--checkpoints", "memory", "--node", `generate=${thrower}`);
    expect(run.code).toBe(3);
    expect(run.out).toMatch(/^2 questions failed \(e\.g\. [01]: the graph could not finish: .*the slot broke\); --resume runs them again$/m);
  });

  it("every request named a role the agents know", () => {
    expect(agents.unrouted.map((r) => r.model)).toEqual([]);
    expect(server.embeddingRequests.length).toBeGreaterThan(0);
  });
});
