/**
 * A run depends on the model's replies and nothing else: the same experiment, run twice with the response cache off
 * at two concurrencies against deterministic scripted agents, sends the same requests (as a multiset of bodies) and
 * gets the same SQL and verdicts. A random sample, or an order that follows which question finished first (a memory
 * written concurrently, a tie broken by write order), shows up here as a request sent in one run and not the other:
 * such a run cannot be reproduced, and its rerun misses the cache.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";
import { agentsConfig, methodAgents } from "./support/method-agents.ts";
import { runCli } from "./support/cli.ts";

const RECIPE = `name: determinism
runs:
  initial: {graph: baseline}
  guideline: {kind: magic-guideline}
  memory: {kind: memo-build}
  magic: {graph: magic, initial: initial, options: {guideline: "{run:guideline}/guideline.md"}}
  r3: {graph: r3-review, initial: initial}
  memo: {graph: memo-refine, initial: initial, options: {memory: "{run:memory}/memory.sqlite", retrieval: filtered}}
  memo-random: {graph: memo-refine, initial: initial, options: {memory: "{run:memory}/memory.sqlite", retrieval: random}}
  ts-sql: {graph: ts-sql-refine, initial: initial}
  sampled: {graph: ts-sql-refine, initial: initial, options: {no-data-agent: sample}}
  vote: {graph: self-consistency, initial: initial}
`;

let dir: string;
let benchDir: string;
let server: OpenAIServer;

beforeAll(async () => {
  dir = makeTempDir();
  benchDir = path.join(dir, "minibench");
  await buildMinibench(benchDir);
  const questions = [(await loadBenchmark(benchDir, { split: "dev" })).questions, (await loadBenchmark(benchDir, { split: "train" })).questions];
  server = await startOpenAIServer({ respond: methodAgents({ questions }).respond });
  // One structured-output method, so no role's first call probes the format (which question pays a probe is timing).
  fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify({ ...agentsConfig({ baseURL: server.url }), embeddingModel: undefined, structuredMethod: "text" }));
  fs.writeFileSync(path.join(dir, "determinism.yaml"), RECIPE);
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

/** Per run folder and question: the final SQL and its verdict. */
function outcomes(out: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const run of fs.readdirSync(out)) {
    const file = path.join(out, run, "results.jsonl");
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, "utf8").split("\n").filter(Boolean)) {
      const r = JSON.parse(line) as { id: string; sql?: string; initialSql?: string; correct?: boolean; initialCorrect?: boolean };
      found.set(`${run}#${r.id}`, JSON.stringify([r.sql ?? r.initialSql, r.correct ?? r.initialCorrect]));
    }
  }
  return found;
}

describe("determinism", () => {
  it("the same experiment at concurrency 6 and 1 sends the same requests and gets the same SQL and verdicts", async () => {
    const sent: Map<string, number>[] = [];
    for (const [out, concurrency] of [["c6", "6"], ["c1", "1"]] as const) {
      const from = server.requests.length;
      const run = await runCli(["experiment", "determinism.yaml", "--bench", benchDir, "--out", out, "--limit", "8", "--cache", "off", "--concurrency", concurrency, "--checkpoints", "memory"], dir, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") });
      expect(run.code, run.err.slice(-3000)).toBe(0);
      const bodies = new Map<string, number>();
      for (const r of server.requests.slice(from)) bodies.set(JSON.stringify(r.body), (bodies.get(JSON.stringify(r.body)) ?? 0) + 1);
      sent.push(bodies);
    }
    const [a, b] = sent as [Map<string, number>, Map<string, number>];
    const onlyOne = [...new Set([...a.keys(), ...b.keys()])].filter((body) => a.get(body) !== b.get(body));
    expect(onlyOne.map((body) => body.slice(0, 300))).toEqual([]);
    expect([...a.values()].reduce((x, y) => x + y, 0)).toBeGreaterThan(100);
    const [first, second] = [outcomes(path.join(dir, "c6")), outcomes(path.join(dir, "c1"))];
    expect(first.size).toBe(9 * 8);
    expect(second).toEqual(first);
  }, 240_000);
});
