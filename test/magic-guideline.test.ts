/**
 * `sqlmend magic guideline` end to end through the real ChatOpenAI client and a local OpenAI-compatible server:
 * failures found from a predictions file, the cycle on each, batches merged in benchmark order with snapshots,
 * interactions and stats; the gold never reaching the correction agent; killed mid-run and resumed.
 */
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import { learnGuideline } from "../runner/methods/magic/learn-guideline.ts";
import { computeStats } from "../runner/methods/magic/guideline-stats.ts";
import { EXIT } from "../core/exit.ts";
import type { CliIO } from "../cli/shared/command.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { writeBirdPredictions } from "../tools/benchmarks/score.ts";
import { containsSql } from "../nodes/magic/leaks.ts";
import type { Question } from "../state/question.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { startOpenAIServer, TEST_MODEL_ID, type OpenAIServer } from "./support/openai-server.ts";
import { agentOf, magicResponder, questionTextOf } from "./support/magic-agents.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
let dir: string;
let benchDir: string;
let train: Question[];
let predictions: string;

/** Every third training question is wrong in the initial predictions: ids 0, 3, ..., 27. */
const isFailure = (q: Question) => Number(q.id) % 3 === 0;
/** Failure k (0-based) is corrected at iteration 1 + k % 3, except the last one, never. */
const correctAt = (q: Question) => (Number(q.id) === 27 ? Infinity : 1 + ((Number(q.id) / 3) % 3));

function captureIO(env: NodeJS.ProcessEnv): { io: CliIO; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env, cwd: dir, isTTY: false }, out: () => out.join(""), err: () => err.join("") };
}
/** The model calls stats.json counts. */
const requestsCounted = (stats: { tokensByRole: Record<string, { calls: number }> }) => Object.values(stats.tokensByRole).reduce((n, t) => n + t.calls, 0);
const lines = (file: string) => fs.readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));

beforeAll(async () => {
  dir = makeTempDir();
  benchDir = path.join(dir, "minibench");
  await buildMinibench(benchDir);
  train = (await loadBenchmark(benchDir, { split: "train" })).questions;
  predictions = path.join(dir, "initial_train.json");
  await writeBirdPredictions(predictions, train.map((q) => ({ id: q.id, dbId: q.dbId, sql: isFailure(q) ? "SELECT 'wrong answer'" : q.goldSql! })));
});
afterAll(() => removeTempDir(dir));

describe("sqlmend magic guideline", () => {
  let server: OpenAIServer;
  let out: string;
  let stdout: string;
  beforeAll(async () => {
    server = await startOpenAIServer({ respond: magicResponder(train, { correctAt, leakyFeedback: true }) });
    out = path.join(dir, "guideline-run");
    const run = captureIO({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") });
    const code = await main(["magic", "guideline", "--bench", benchDir, "--initial", predictions, "--out", out, "--batch", "4", "--max-iter", "3", "--concurrency", "3"], run.io);
    stdout = run.out();
    expect(run.err()).not.toMatch(/error/i);
    expect(code).toBe(0);
  }, 60_000);
  afterAll(() => server.close());

  it("puts each failure through the cycle and counts corrections by iteration (Figure 3, Table 4)", () => {
    const stats = JSON.parse(fs.readFileSync(path.join(out, "stats.json"), "utf8"));
    expect(stats).toMatchObject({ questions: 30, initiallyCorrect: 20, failures: 10, corrected: 9, correctedWithin: [3, 6, 9], maxIter: 3, noManager: false, batchesMerged: 3 });
    // AVG_i: 3 failures stop at 1, 3 at 2, 3 at 3, the uncorrectable one at 3 (max-iter).
    expect(stats.avgIterations).toBeCloseTo((3 * 1 + 3 * 2 + 3 * 3 + 3) / 10);
    expect(stats.exAfter).toBeCloseTo(((20 + 9) / 30) * 100);
    expect(Object.keys(stats.tokensByRole).sort()).toEqual(["corrector", "feedback", "manager"]);
    expect(stdout).toMatch(/Corrected: 9 \(90\.0%\); AVG_i 2\.10/);
    expect(stdout).toMatch(/Corrected with --max-iter 1\.\.3: 3, 6, 9/);
    const results = lines(path.join(out, "results.jsonl"));
    expect(results).toHaveLength(30);
    expect(results.find((r) => r.id === "27")).toMatchObject({ corrected: false, iterations: 3 });
    // What each question went through: every feedback leaked the gold (3 tries, then redacted); revisions from iteration 2.
    expect(results.find((r) => r.id === "3").outcome).toEqual({
      cycled: true,
      fixRounds: 0,
      finalSqlExecutes: null,
      failedCalls: 0,
      iterations: 2,
      success: true,
      leakRefusals: 6,
      redactions: 2,
      feedbackRevisions: 1,
      correctionRevisions: 1,
      unusableManagerReplies: 0,
      failedRevisions: 0,
    });
    expect(results.find((r) => r.id === "1").outcome).toEqual({ cycled: false, iterations: 0, success: null });
    // stats.json sums them: 21 iterations (= feedbacks), 11 revisions of each prompt.
    expect(stats).toMatchObject({ leakRefusals: 63, redactions: 21, promptRevisions: { feedback: 11, correction: 11 }, failedRevisions: 0, unusableManagerReplies: 0, failedMerges: 0, unusableMergeReplies: 0 });
    expect(stdout).toMatch(/Outcomes: 63 leak refusals \(21 redacted\); prompt revisions 11 feedback, 11 correction; 0 failed revisions/);
    expect(results.find((r) => r.id === "3")).toMatchObject({ corrected: true, iterations: 2 });
    // The answers after the cycle, for scoring (Table 4's EX and VES).
    const after = JSON.parse(fs.readFileSync(path.join(out, "predict_train.json"), "utf8"));
    expect(after["3"]).toBe(`${train.find((q) => q.id === "3")!.goldSql}\t----- bird -----\t${train.find((q) => q.id === "3")!.dbId}`);
    expect(after["27"]).toMatch(/^SELECT 'wrong answer'/);
  });

  it("merges successful feedbacks in benchmark order, B at a time and once more for the remainder, with a snapshot each", () => {
    const order = train.filter((q) => isFailure(q) && Number.isFinite(correctAt(q))).map((q) => q.question);
    const reminders = (file: string) => [...fs.readFileSync(path.join(out, file), "utf8").matchAll(/^\d+\. reminder: (.*)$/gm)].map((m) => m[1]);
    expect(reminders("guideline-batch-001.md")).toEqual(order.slice(0, 4));
    expect(reminders("guideline-batch-002.md")).toEqual(order.slice(0, 8));
    expect(reminders("guideline-batch-003.md")).toEqual(order);
    expect(fs.existsSync(path.join(out, "guideline-batch-004.md"))).toBe(false);
    expect(fs.readFileSync(path.join(out, "guideline.md"), "utf8")).toBe(fs.readFileSync(path.join(out, "guideline-batch-003.md"), "utf8"));
    // The reminders only: the merge replies' chat, fences and training query are dropped (8 lines each), and counted.
    for (const file of ["guideline-batch-001.md", "guideline.md"]) expect(fs.readFileSync(path.join(out, file), "utf8")).toMatch(/^1\. reminder: [^]*Did I check this\?\n$/);
    expect(fs.readFileSync(path.join(out, "guideline.md"), "utf8")).not.toMatch(/Sure!|```|Let me know|a training query|# Self-correction/);
    expect(JSON.parse(fs.readFileSync(path.join(out, "stats.json"), "utf8"))).toMatchObject({ strippedMergeReplies: 3, strippedMergeLines: 24 });
    expect(stdout).toMatch(/24 lines outside the numbered reminders dropped from 3 merge replies/);
    // The merge prompt follows Figure 9: the guideline so far, then the batch with incorrect and corrected SQL.
    const merges = server.requests.filter((r) => agentOf(r) === "merge");
    expect(merges).toHaveLength(3);
    expect(merges[1]!.messages.at(-1)!.content).toContain(`1. reminder: ${order[0]}`);
    expect(merges[0]!.messages.at(-1)!.content).toContain("Incorrect SQL generated by me");
    // The next merge is given the guideline so far as it was kept, not the reply.
    expect(merges[1]!.messages.at(-1)!.content).not.toMatch(/Sure!|a training query/);
  });

  it("never shows the correction agent the gold SQL, though the feedback agent wrote it out", () => {
    const correctorRequests = server.requests.filter((r) => agentOf(r) === "corrector");
    expect(correctorRequests.length).toBeGreaterThan(10);
    for (const req of correctorRequests) {
      const q = train.find((x) => x.question === questionTextOf(req))!;
      // A copy of the gold counts only outside what the agent reads anyway (s', question, evidence).
      expect(containsSql(req.messages.map((m) => m.content).join("\n"), q.goldSql!, ["SELECT 'wrong answer'", q.question, q.evidence])).toBe(false);
      expect(req.messages.at(-1)!.content).toContain("[correct SQL withheld]");
    }
  });

  it("writes one interactions line per agent call, with question, agent, iteration, prompt, reply and success", () => {
    const interactions = lines(path.join(out, "interactions.jsonl"));
    const agentCalls = server.requests.filter((r) => agentOf(r) !== "generator").length;
    expect(interactions).toHaveLength(agentCalls);
    const q3 = interactions.filter((i) => i.questionId === "3");
    expect(q3.filter((i) => i.agent === "corrector").map((i) => [i.iteration, i.success])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(q3.filter((i) => i.agent === "manager").map((i) => i.iteration)).toEqual([2, 2]);
    expect(q3[0]).toMatchObject({ agent: "feedback", iteration: 1 });
    expect(q3[0].prompt[1].content).toContain("Correct SQL:");
    expect(interactions.filter((i) => i.questionId === null).map((i) => [i.agent, i.batch])).toEqual([
      ["manager", 1],
      ["manager", 2],
      ["manager", 3],
    ]);
  });

  it("shows every agent turn of a cycle with inspect, the parallel revisions in one step", async () => {
    const runId = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8")).runId;
    const view = captureIO({ SQLMEND_HOME: path.join(dir, "home") });
    expect(await main(["inspect", `magic:${runId}:3`], view.io)).toBe(0);
    const steps = view.out().split("Steps")[1]!;
    expect(steps).toMatch(/\n\s+2\s+feedback /);
    expect(steps).toMatch(/reviseFeedback, reviseCorrection .*\[2 model calls: manager/);
    expect(steps.match(/^\s+\d+\s+manager\s/gm)).toHaveLength(2); // the manager judged two iterations
  });

  it("refuses to reuse --out without --resume, and resumes a finished run without a model call", async () => {
    const again = captureIO({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") });
    const args = ["magic", "guideline", "--bench", benchDir, "--initial", predictions, "--out", out, "--batch", "4", "--max-iter", "3"];
    expect(await main(args, again.io)).toBe(1);
    expect(again.err()).toMatch(/already holds a run: pass --resume/);
    const before = server.requests.length;
    expect(await main([...args, "--resume"], again.io)).toBe(0);
    expect(server.requests.length).toBe(before);
    const changed = captureIO({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") });
    expect(await main([...args.slice(0, -1), "5", "--resume"], changed.io)).toBe(1);
    expect(changed.err()).toMatch(/--resume: .*: option --\S+ was "?3"?, now "?5"?/);
  });
});

describe("sqlmend magic guideline --initial GRAPH", () => {
  it("runs the generator now to find its failures, on threads of their own", async () => {
    const server = await startOpenAIServer({ respond: magicResponder(train, { correctAt: () => 1, generatorWrong: (q) => q.id === "1" || q.id === "4" }) });
    try {
      const out = path.join(dir, "from-baseline");
      const run = captureIO({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") });
      expect(await main(["magic", "guideline", "--bench", benchDir, "--initial", "baseline", "--max-fix-rounds", "0", "--out", out, "--limit", "6", "--batch", "1"], run.io)).toBe(0);
      const stats = JSON.parse(fs.readFileSync(path.join(out, "stats.json"), "utf8"));
      expect(stats).toMatchObject({ questions: 6, initiallyCorrect: 4, failures: 2, corrected: 2, batchesMerged: 2, initial: "baseline" });
      expect(Object.keys(stats.tokensByRole).sort()).toEqual(["corrector", "feedback", "generator", "manager"]);
      expect(lines(path.join(out, "results.jsonl")).find((r) => r.id === "1")).toMatchObject({ initialSql: "SELECT 'generated wrong'", corrected: true, iterations: 1 });
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe("sqlmend magic guideline --no-manager", () => {
  it("runs the ablation: no manager calls, the feedback agent judges", async () => {
    const server = await startOpenAIServer({ respond: magicResponder(train, { correctAt: () => 2 }) });
    try {
      const out = path.join(dir, "no-manager");
      // A home of its own: the response cache keys by model, not by server, and other tests' servers answer otherwise.
      const run = captureIO({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-no-manager") });
      expect(await main(["magic", "guideline", "--bench", benchDir, "--initial", predictions, "--out", out, "--limit", "7", "--no-manager", "--max-iter", "2", "--batch", "10"], run.io)).toBe(0);
      const stats = JSON.parse(fs.readFileSync(path.join(out, "stats.json"), "utf8"));
      // The scripted judge never accepts: every failure runs to max-iter; the scorer still sees the corrections.
      expect(stats).toMatchObject({ failures: 3, corrected: 3, avgIterations: 2, noManager: true, correctedWithin: [0, 3] });
      expect(server.requests.filter((r) => agentOf(r) === "reviseFeedback" || agentOf(r) === "reviseCorrection")).toHaveLength(0);
      expect(server.requests.filter((r) => agentOf(r) === "judge")).toHaveLength(3);
      // inspect (which builds the graph with its defaults) still shows the ablation's check and judge turns.
      const runId = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8")).runId;
      const view = captureIO({ SQLMEND_HOME: path.join(dir, "home-no-manager") });
      expect(await main(["inspect", `magic:${runId}:3`], view.io)).toBe(0);
      const steps = view.out().split("Steps")[1]!;
      expect(steps).not.toMatch(/no change/);
      expect(steps).toMatch(/^\s+4\s+check\s+rounds=1; corrected=false/m);
      expect(steps).toMatch(/^\s+5\s+judge\s+judgedCorrect=false.*\[1 model call: feedback/m);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe("sqlmend magic guideline, killed and resumed", () => {
  it("finishes with --resume, redoing no finished failure and no merge", async () => {
    const server = await startOpenAIServer({ respond: magicResponder(train, { correctAt }), latencyMs: 60 });
    const out = path.join(dir, "killed");
    const home = path.join(dir, "home-kill");
    const args = ["bin/sqlmend.js", "magic", "guideline", "--bench", benchDir, "--initial", predictions, "--out", out, "--batch", "2", "--max-iter", "3", "--concurrency", "2"];
    const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: home };
    try {
      const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && !fs.existsSync(path.join(out, "guideline-batch-002.md"))) await new Promise((r) => setTimeout(r, 10));
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      const finished = new Set(lines(path.join(out, "results.jsonl")).map((r) => r.id as string));
      const snapshotsBefore = fs.readdirSync(out).filter((f) => f.startsWith("guideline-batch-")).length;
      expect(snapshotsBefore).toBeGreaterThanOrEqual(2);
      expect(finished.size).toBeLessThan(train.length);
      const requestsBefore = server.requests.length;

      const resumed = captureIO({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: home });
      expect(await main([...args.slice(1), "--resume"], resumed.io)).toBe(0);
      const after = server.requests.slice(requestsBefore);
      // No finished failure asked again, no finished merge redone.
      for (const req of after.filter((r) => agentOf(r) !== "merge")) expect(finished.has(train.find((q) => q.question === questionTextOf(req))!.id)).toBe(false);
      expect(after.filter((r) => agentOf(r) === "merge")).toHaveLength(5 - snapshotsBefore);
      const results = lines(path.join(out, "results.jsonl"));
      expect(new Set(results.map((r) => r.id)).size).toBe(30);
      expect(results).toHaveLength(30);
      const stats = JSON.parse(fs.readFileSync(path.join(out, "stats.json"), "utf8"));
      // correctedWithin is not pinned here: the scripted corrector counts HTTP requests, and a request answered just
      // before the kill is asked again on resume (its reply never reached a checkpoint), so one failure may succeed early.
      expect(stats).toMatchObject({ failures: 10, corrected: 9, batchesMerged: 5 });
      expect(stats.correctedWithin.at(-1)).toBe(9);
      // One interactions line per call, across the kill: corrector lines per failure = its iterations.
      const interactions = lines(path.join(out, "interactions.jsonl"));
      for (const r of results.filter((x) => x.iterations)) expect(interactions.filter((i) => i.questionId === r.id && i.agent === "corrector")).toHaveLength(r.iterations);
      expect(interactions.filter((i) => i.questionId === null)).toHaveLength(5);
      const reminders = [...fs.readFileSync(path.join(out, "guideline.md"), "utf8").matchAll(/^\d+\. reminder: /gm)];
      expect(reminders).toHaveLength(9);
    } finally {
      await server.close();
    }
  }, 90_000);
});

describe("magic guideline statistics", () => {
  const record = (id: string, verdicts: boolean[]) => ({
    id,
    dbId: "db",
    question: `q${id}`,
    evidence: "",
    initialSql: "SELECT 0",
    initialCorrect: false,
    corrected: verdicts.at(-1)!,
    iterations: verdicts.length,
    verdicts,
    usageByRole: {},
  });
  const ctx = { maxIter: 3, batches: 0, mergeUsage: { calls: 0, inputTokens: 0, outputTokens: 0, latencyMs: 0, byRole: {} }, skipped: 0 };

  it("counts Figure 3's corrections per --max-iter from each iteration's verdict, also when the feedback agent went past a right revision", () => {
    // With the manager: stops at the first right revision.
    expect(computeStats([record("a", [false, true]), record("b", [true]), record("c", [false, false, false])], { ...ctx, noManager: false }).correctedWithin).toEqual([1, 2, 2]);
    // Without it: the feedback agent judged a right revision wrong and the next one was wrong; capped at 1 it was corrected.
    const stats = computeStats([record("a", [true, false, false]), record("b", [false, true])], { ...ctx, noManager: true });
    expect(stats.correctedWithin).toEqual([1, 1, 1]);
    expect([stats.corrected, stats.avgIterations]).toEqual([1, 2.5]);
  });
});

describe("sqlmend magic guideline, model endpoint failing", () => {
  it("counts a cycle whose agents could not reach the model as a run error, not as an uncorrectable failure", async () => {
    const scripted = magicResponder(train, { correctAt: () => 1 });
    const unreachable = train.find((q) => q.id === "3")!;
    const noFeedback = train.find((q) => q.id === "6")!;
    const down = { status: 500, body: { error: { message: "upstream down" } } };
    let recovered = false;
    const server = await startOpenAIServer({
      respond: (req) =>
        !recovered && ((agentOf(req) === "corrector" && questionTextOf(req) === unreachable.question) || (agentOf(req) === "feedback" && questionTextOf(req) === noFeedback.question))
          ? down
          : scripted(req),
    });
    try {
      const out = path.join(dir, "endpoint-down");
      const run = captureIO({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-endpoint-down") });
      // Exit 3: finished, but some work failed; --resume retries it.
      expect(await main(["magic", "guideline", "--bench", benchDir, "--initial", predictions, "--out", out, "--limit", "7", "--max-iter", "2", "--max-retries", "0", "--cache", "off"], run.io)).toBe(3);
      const stats = JSON.parse(fs.readFileSync(path.join(out, "stats.json"), "utf8"));
      // Failures 0, 3, 6: question 3's corrector never answered, nor question 6's feedback agent.
      expect(stats).toMatchObject({ failures: 1, corrected: 1, errors: 2, avgIterations: 1, correctedWithin: [1, 1] });
      // EX over the 5 answered questions (4 initially correct, 1 corrected), the 2 run errors left out.
      expect([stats.exAfter, stats.answered]).toEqual([100, 5]);
      expect(run.out()).toMatch(/EX on the split after correction: 100\.00% \(4 \+ 1 of 5 answered; 2 run errors left out\)/);
      expect(lines(path.join(out, "results.jsonl")).find((r) => r.id === "3")).toMatchObject({ error: expect.stringMatching(/^stopped at iteration 1: corrector: model call failed/), failedAt: "cycle" });
      // The cycle stopped at the first call that got no reply, instead of waiting on the model max-iter times.
      const askedFor3 = server.requests.filter((r) => questionTextOf(r) === unreachable.question).map(agentOf);
      expect(askedFor3).toEqual(["feedback", "corrector"]);
      expect(lines(path.join(out, "results.jsonl")).find((r) => r.id === "6")).toMatchObject({ error: expect.stringMatching(/^stopped at iteration 1: feedback: model call failed/) });
      expect(server.requests.filter((r) => questionTextOf(r) === noFeedback.question).map(agentOf)).toEqual(["feedback"]);
      expect(run.err()).toMatch(/2 questions not run to the end, e\.g\. 3: /);
      expect(run.out()).toMatch(/2 run errors/);
      // Batch 1 would hold question 3's or 6's success: nothing is merged while they may still succeed.
      expect(fs.existsSync(path.join(out, "guideline.md"))).toBe(false);
      expect(run.out()).toMatch(/Guideline: none written \(batches after the first failed question wait for it: --resume runs the 2 failed again\)/);

      // The endpoint is back: --resume runs the two failed questions again (and only them), then merges.
      recovered = true;
      const before = server.requests.length;
      const resumed = captureIO({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-endpoint-down") });
      expect(await main(["magic", "guideline", "--bench", benchDir, "--initial", predictions, "--out", out, "--limit", "7", "--max-iter", "2", "--max-retries", "0", "--cache", "off", "--resume"], resumed.io)).toBe(0);
      expect(resumed.err()).toMatch(/7 questions \(5 already done, 2 failed before and run again/);
      const rerun = new Set(server.requests.slice(before).filter((r) => agentOf(r) !== "merge").map(questionTextOf));
      expect([...rerun].sort()).toEqual([noFeedback.question, unreachable.question].sort());
      const resumedStats = JSON.parse(fs.readFileSync(path.join(out, "stats.json"), "utf8"));
      expect(resumedStats).toMatchObject({ failures: 3, corrected: 3, errors: 0, batchesMerged: 1 });
      // The cycle ran again on the next thread after the record's (as eval's reruns), and every request of both runs,
      // the failed attempts' included, is counted once (the response cache off: it would answer the rerun's first call).
      const runId = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8")).runId;
      expect(lines(path.join(out, "results.jsonl")).find((r) => r.id === "3").thread).toBe(`magic:${runId}:3#2`);
      expect(requestsCounted(resumedStats)).toBe(server.requests.length);
      expect(fs.existsSync(path.join(out, "guideline.md"))).toBe(true);
      // Each agent call has one line in interactions.jsonl: the failed attempts' lines were dropped before the rerun.
      const calls = lines(path.join(out, "interactions.jsonl")).filter((i) => i.questionId === "3");
      expect(calls.map((i) => i.agent)).toEqual(["feedback", "corrector"]);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe("sqlmend magic guideline, the initial generator's model failing", () => {
  it("records a question whose initial SQL could not be generated as failed, exits 3, and --resume generates it again", async () => {
    const scripted = magicResponder(train, { correctAt: () => 1, generatorWrong: (q) => q.id === "1" || q.id === "4" });
    const down = train.find((q) => q.id === "4")!;
    let recovered = false;
    const server = await startOpenAIServer({
      respond: (req) => (!recovered && agentOf(req) === "generator" && questionTextOf(req) === down.question ? { status: 500, body: { error: { message: "upstream down" } } } : scripted(req)),
    });
    try {
      const out = path.join(dir, "initial-down");
      const home = path.join(dir, "home-initial");
      const args = ["magic", "guideline", "--bench", benchDir, "--initial", "baseline", "--max-fix-rounds", "0", "--out", out, "--limit", "6", "--batch", "1", "--max-retries", "0"];
      const first = captureIO({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: home });
      expect(await main(args, first.io)).toBe(3);
      const record = lines(path.join(out, "results.jsonl")).find((r) => r.id === "4");
      expect(record).toMatchObject({ error: expect.stringMatching(/^initial SQL not generated: model call failed/), initialSql: "" });
      expect(record.skipped).toBeUndefined();
      expect(JSON.parse(fs.readFileSync(path.join(out, "stats.json"), "utf8"))).toMatchObject({ errors: 1, notCycled: {} });

      recovered = true;
      const before = server.requests.length;
      const resumed = captureIO({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: home });
      expect(await main([...args, "--resume"], resumed.io)).toBe(0);
      // Only question 4 ran again: generated on a new thread, found wrong, corrected by the cycle.
      expect(new Set(server.requests.slice(before).filter((r) => agentOf(r) !== "merge").map(questionTextOf))).toEqual(new Set([down.question]));
      const runId = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8")).runId;
      // The generator ran again on the next thread after the record's; the cycle on the question's first.
      expect(lines(path.join(out, "results.jsonl")).filter((r) => r.id === "4").at(-1)).toMatchObject({
        initialSql: "SELECT 'generated wrong'",
        corrected: true,
        initialThread: `magic:${runId}:4/initial#2`,
        thread: `magic:${runId}:4`,
      });
      const stats = JSON.parse(fs.readFileSync(path.join(out, "stats.json"), "utf8"));
      expect(stats).toMatchObject({ errors: 0, failures: 2, corrected: 2 });
      // The failed generation's call is counted beside the one that answered, once.
      expect(stats.tokensByRole.generator.calls).toBe(server.requests.filter((r) => agentOf(r) === "generator").length);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe("sqlmend magic guideline, a merge that fails", () => {
  it("writes no snapshot for the failed batch, merges nothing after it, and --resume retries it once", async () => {
    const scripted = magicResponder(train, { correctAt: () => 1 });
    let merges = 0;
    const server = await startOpenAIServer({ respond: (req) => (agentOf(req) === "merge" && ++merges === 2 ? { status: 500, body: { error: { message: "overloaded" } } } : scripted(req)) });
    try {
      const out = path.join(dir, "merge-fails");
      const home = path.join(dir, "home-merge");
      // Failures 0, 3, 6, 9 (all corrected at iteration 1): batches of 2 and 1.
      const args = ["magic", "guideline", "--bench", benchDir, "--initial", predictions, "--out", out, "--limit", "13", "--batch", "2", "--max-iter", "2", "--max-retries", "0"];
      const first = captureIO({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: home });
      expect(await main(args, first.io)).toBe(3);
      expect(fs.readdirSync(out).filter((f) => f.startsWith("guideline-batch-"))).toEqual(["guideline-batch-001.md"]);
      expect(first.err()).toMatch(/the merge of batch 2 failed \(model call failed.*\); later batches wait: --resume retries the merge/);
      expect(JSON.parse(fs.readFileSync(path.join(out, "stats.json"), "utf8"))).toMatchObject({ corrected: 5, batchesMerged: 1, failedMerges: 1, mergeFailure: expect.stringMatching(/batch 2/) });

      const before = server.requests.length;
      const resumed = captureIO({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: home });
      expect(await main([...args, "--resume"], resumed.io)).toBe(0);
      const after = server.requests.slice(before);
      // Batch 2 retried, batch 3 (the remainder) merged; no cycle redone.
      expect(after.map(agentOf)).toEqual(["merge", "merge"]);
      expect(fs.readdirSync(out).filter((f) => f.startsWith("guideline-batch-"))).toEqual(["guideline-batch-001.md", "guideline-batch-002.md", "guideline-batch-003.md"]);
      expect([...fs.readFileSync(path.join(out, "guideline-batch-002.md"), "utf8").matchAll(/^\d+\. reminder: /gm)]).toHaveLength(4);
      expect([...fs.readFileSync(path.join(out, "guideline.md"), "utf8").matchAll(/^\d+\. reminder: /gm)]).toHaveLength(5);
      expect(lines(path.join(out, "interactions.jsonl")).filter((i) => i.questionId === null).map((i) => [i.batch, i.success])).toEqual([[1, true], [2, true], [3, true]]);
      const stats = JSON.parse(fs.readFileSync(path.join(out, "stats.json"), "utf8"));
      expect(stats.batchesMerged).toBe(3);
      expect(stats.mergeFailure).toBeUndefined();
      // The failed merge's call, made by the first run, still counts in the resumed run's figures: every call once.
      expect(requestsCounted(stats)).toBe(server.requests.length);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe("learnGuideline, the run API of sqlmend magic guideline", () => {
  it("writes the folder the command writes and returns the figures stats.json holds", async () => {
    // A server each: the scripted corrector counts its requests per question, so a shared one would answer the second run otherwise.
    const servers = [await startOpenAIServer({ respond: magicResponder(train, { correctAt }) }), await startOpenAIServer({ respond: magicResponder(train, { correctAt }) })];
    try {
      const env = (server: OpenAIServer, home: string) => ({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, home) });
      const viaCommand = path.join(dir, "api-command");
      const args = ["--bench", benchDir, "--initial", predictions, "--out", viaCommand, "--limit", "10", "--batch", "2", "--max-iter", "3"];
      const command = captureIO(env(servers[0]!, "home-api-command"));
      expect(await main(["magic", "guideline", ...args], command.io)).toBe(0);

      const out = path.join(dir, "api");
      const api = captureIO(env(servers[1]!, "home-api"));
      const result = await learnGuideline({ bench: benchDir, initial: predictions, out, limit: 10, batch: 2, maxIter: 3 }, api.io);
      const stats = JSON.parse(fs.readFileSync(path.join(out, "stats.json"), "utf8"));
      expect(result.stats).toEqual(stats);
      // Questions 0..9: failures 0, 3, 6, 9, each corrected; batches of 2.
      expect(result.stats).toMatchObject({ questions: 10, initiallyCorrect: 6, failures: 4, corrected: 4, batchesMerged: 2, errors: 0 });
      expect(result).toMatchObject({ exitCode: EXIT.ok, outDir: out, guideline: path.join(out, "guideline.md") });
      expect(result.files.snapshots.map((f) => path.basename(f))).toEqual(["guideline-batch-001.md", "guideline-batch-002.md"]);
      for (const file of [result.files.results, result.files.interactions, result.files.stats, result.files.run, result.files.predictions, ...result.files.snapshots]) expect(fs.existsSync(file)).toBe(true);

      // The command's folder, file for file: the same figures, guideline and records (threads name each run's id).
      expect(fs.readdirSync(out).sort()).toEqual(fs.readdirSync(viaCommand).sort());
      const { command: apiLine, ...figures } = stats;
      const { command: commandLine, ...commandFigures } = JSON.parse(fs.readFileSync(path.join(viaCommand, "stats.json"), "utf8"));
      expect(figures).toEqual(commandFigures);
      // One config, parsed once whichever way it came: the same command line, written from it (the options in their declared order).
      expect(commandLine).toBe(`sqlmend magic guideline --bench ${benchDir} --limit 10 --out ${viaCommand} --initial ${predictions} --batch 2 --max-iter 3`);
      expect(apiLine).toBe(commandLine.replace(viaCommand, out));
      expect(fs.readFileSync(result.guideline!, "utf8")).toBe(fs.readFileSync(path.join(viaCommand, "guideline.md"), "utf8"));
      // Latency is the clock's, not the run's: left out.
      const records = (folder: string) =>
        lines(path.join(folder, "results.jsonl"))
          .map(({ thread, ...r }) => JSON.parse(JSON.stringify({ ...r, thread: thread?.replace(/^magic:\w+:/, "") }), (key, value) => (key === "latencyMs" ? undefined : value)))
          .sort((a, b) => Number(a.id) - Number(b.id));
      expect(records(out)).toEqual(records(viaCommand));
      expect(fs.readFileSync(result.files.predictions, "utf8")).toBe(fs.readFileSync(path.join(viaCommand, "predict_train.json"), "utf8"));
    } finally {
      for (const server of servers) await server.close();
    }
  }, 90_000);

  it("names an option the command does not take", async () => {
    const api = captureIO({ SQLMEND_HOME: path.join(dir, "home-api") });
    // @ts-expect-error maxIters is no option of magic guideline (it does not compile; from JavaScript it is refused)
    await expect(learnGuideline({ bench: benchDir, out: path.join(dir, "api-typo"), maxIters: 3 }, api.io)).rejects.toThrow("learnGuideline: unknown option 'maxIters'");
    expect(fs.existsSync(path.join(dir, "api-typo"))).toBe(false);
  });
});
