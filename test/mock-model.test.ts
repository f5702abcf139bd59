/**
 * The built-in mock model (`--model mock`): every graph end to end in process with no server, its runs labelled
 * "mock model — not a measurement" everywhere, kept out of the response cache, and never compared with real runs.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minibenchFixture, runCli, goldResponder } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { startOpenAIServer } from "./support/openai-server.ts";
import { MOCK_LABEL } from "../tools/models/mock-label.ts";
import { createMockProvider } from "../tools/models/mock.ts";
import { callModel } from "../tools/models/llm.ts";
import type { Question } from "../state/question.ts";

let dir: string;
let benchDir: string;
let dev: Question[];
beforeAll(async () => {
  dir = makeTempDir("sqlmend-mock-");
  ({ benchDir, dev } = await minibenchFixture(dir));
}, 120_000);
afterAll(() => removeTempDir(dir));

const json = (file: string) => JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
const results = (out: string) => fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

/** `eval GRAPH --model mock` on 2 questions: exit 0, every question answered and scored, and the labels. */
async function mockEval(graph: string, out: string, extra: string[] = []) {
  const run = await runCli(["eval", graph, "--bench", benchDir, "--model", "mock", "--limit", "2", "--out", out, ...extra], dir);
  expect(run.code, `${graph}: ${run.err}`).toBe(0);
  const abs = path.join(dir, out);
  const records = results(abs);
  expect(records).toHaveLength(2);
  for (const r of records) expect(r.failure, `${graph} ${r.id}`).toBeUndefined();
  const runFile = json(path.join(abs, "run.json"));
  expect(runFile.mock).toBe(true);
  expect(runFile.cache).toBe("off (mock model)");
  expect(fs.readFileSync(path.join(abs, "report.md"), "utf8")).toContain(MOCK_LABEL);
  expect(fs.readFileSync(path.join(abs, "report.html"), "utf8")).toContain(MOCK_LABEL);
  expect(run.out).toContain(MOCK_LABEL);
  return records;
}

describe("--model mock", () => {
  it("runs every graph end to end in process, labelled, the response cache untouched", async () => {
    for (const graph of ["baseline", "repair", "as-given", "r3", "r3-review", "memo-refine", "ts-sql", "ts-sql-refine", "self-debugging", "self-consistency", "multiple-prompt"]) {
      await mockEval(graph, `runs/${graph}`);
    }
    // Memo-SQL over a memory the mock built (embeddings: the mock's local embedder), in a folder memo build makes.
    const memo = await runCli(["memo", "build", "--bench", benchDir, "--model", "mock", "--limit", "3", "--out", "runs/memo/memory.sqlite"], dir);
    expect(memo.code, memo.err).toBe(0);
    expect(memo.out).toContain("Ranking: embeddings (mock");
    await mockEval("memo-sql", "runs/memo-sql", ["--memory", "runs/memo/memory.sqlite"]);
    // MAGIC: the guideline cycle on train (every first answer wrong, so there are failures to learn from), then magic.
    const guide = await runCli(["magic", "guideline", "--bench", benchDir, "--model", "mock", "--mock-error-rate", "1", "--limit", "4", "--batch", "2", "--out", "runs/guide"], dir);
    expect(guide.code, guide.err).toBe(0);
    expect(fs.existsSync(path.join(dir, "runs/guide/guideline.md"))).toBe(true);
    await mockEval("magic", "runs/magic", ["--guideline", "runs/guide/guideline.md"]);
    // The mock's replies never reach the response cache real models read.
    const cacheFile = path.join(dir, ".sqlmend", "responses.sqlite");
    expect(fs.existsSync(cacheFile)).toBe(false);
  }, 240_000);

  it("gets the set share of first answers wrong, so correction has work (deterministic per question)", async () => {
    const records = await mockEval("baseline", "runs/errors", ["--mock-error-rate", "1"]);
    // Half fail to execute (the fixer then answers), half return a wrong result: at least one is wrong or was fixed.
    expect(records.some((r) => r.correct === false || Number((r.outcome as Record<string, unknown>).fixRounds) > 0)).toBe(true);
    const none = await runCli(["eval", "baseline", "--bench", benchDir, "--model", "mock", "--mock-error-rate", "0", "--limit", "2", "--out", "runs/no-errors"], dir);
    expect(none.code).toBe(0);
    expect(results(path.join(dir, "runs/no-errors")).every((r) => r.correct === true && (r.outcome as Record<string, unknown>).fixRounds === 0)).toBe(true);
    const bad = await runCli(["eval", "baseline", "--bench", benchDir, "--model", "mock", "--mock-error-rate", "2", "--out", "runs/bad"], dir);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--mock-error-rate takes a number from 0 to 1");
  }, 120_000);

  it("answers from the gold only of the questions it is given, plainly otherwise", async () => {
    const q = dev[0]!;
    const knowing = createMockProvider({ questions: [[q]], errorRate: 0 });
    const blind = createMockProvider({ questions: [] });
    const ask = [{ role: "user" as const, content: `Question: ${q.question}\nWrite the SQLite query.` }];
    expect((await callModel(knowing, "generator", ask)).text).toContain(q.goldSql!);
    const plain = (await callModel(blind, "generator", ask)).text;
    expect(plain).not.toContain(q.goldSql!);
    expect(plain).toContain("SELECT 1");
  });

  it("compare and experiments refuse to mix mock runs with real runs", async () => {
    const server = await startOpenAIServer({ respond: goldResponder(dev) });
    try {
      const real = await runCli(["eval", "baseline", "--bench", benchDir, "--model", "gpt-test", "--base-url", server.url, "--limit", "2", "--out", "runs/real"], dir, { OPENAI_API_KEY: "k" });
      expect(real.code, real.err).toBe(0);
      const mock = await runCli(["eval", "baseline", "--bench", benchDir, "--model", "mock", "--limit", "2", "--out", "runs/mock-a"], dir);
      expect(mock.code).toBe(0);
      const mixed = await runCli(["compare", "runs/real", "runs/mock-a"], dir);
      expect(mixed.code).toBe(1);
      expect(mixed.err.trim().split("\n")).toHaveLength(1);
      expect(mixed.err).toContain("runs/mock-a was answered by the mock model (not a measurement)");
      // Two mock runs compare, and say what they are.
      const both = await runCli(["compare", "runs/mock-a", "runs/baseline"], dir);
      expect(both.code, both.err).toBe(0);
      expect(both.out).toContain(MOCK_LABEL);

      fs.writeFileSync(path.join(dir, "mix.yaml"), "name: mix\nruns:\n  real: {graph: baseline}\n  fake: {graph: baseline, options: {model: mock}}\n");
      const exp = await runCli(["experiment", "mix.yaml", "--bench", benchDir, "--limit", "2", "--out", "runs/exp", "--model", "gpt-test", "--base-url", server.url], dir, { OPENAI_API_KEY: "k" });
      expect(exp.code).not.toBe(0);
      expect(exp.err).toMatch(/experiment mix: fake was answered by the mock model \(not a measurement\)/);
      expect(fs.existsSync(path.join(dir, "runs/exp/table.md"))).toBe(false);
    } finally {
      await server.close();
    }
  }, 120_000);
});
