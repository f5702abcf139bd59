/**
 * Samples of one prompt in one request (issue 42): self-consistency asks its N samples with `n: N` — one request, the
 * prompt billed once — through the real ChatOpenAI client on the local OpenAI-compatible server; where the server
 * refuses `n` or returns fewer choices it falls back to separate requests, and the question's outcome says so. The
 * response cache keeps every choice of such a request, so a rerun gets all N samples back without a request.
 */
import path from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { selfConsistencySpec } from "../graphs/correction-baselines.ts";
import { outcomeOf } from "../graphs/outcome.ts";
import { createOpenAIProvider, ModelConfigSchema } from "../tools/models/models.ts";
import { closeResponseStores, openResponseStore, ResponseCache } from "../tools/models/response-cache.ts";
import type { Candidate } from "../state/sql-state.ts";
import { makeTempDir, removeTempDir, testDatabase } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";

const { dbPath, executor } = testDatabase(`
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
INSERT INTO customers VALUES (1, 'Ada', 'London'), (2, 'Linus', 'Helsinki');
`);
const LONDON = "SELECT name FROM customers WHERE city = 'London'";
const HELSINKI = "SELECT name FROM customers WHERE city = 'Helsinki'";

let server: OpenAIServer;
let drawn = 0;
let dir: string;
beforeAll(async () => {
  dir = makeTempDir("sqlmend-samples-");
  // A sampling model: every draw its own reply (two in three say London).
  server = await startOpenAIServer({ respond: () => ({ content: `\`\`\`sql\n${++drawn % 3 === 0 ? HELSINKI : LONDON} -- draw ${drawn}\n\`\`\`` }) });
});
afterAll(async () => {
  closeResponseStores();
  await server?.close();
  removeTempDir(dir);
});

const provider = (cache?: ResponseCache) =>
  createOpenAIProvider(ModelConfigSchema.parse({ model: "m", baseURL: server.url }), { OPENAI_API_KEY: "k" }, cache ? { cache } : {});
const input = { question: "Who lives in London?", dbPath, dbId: "shop", questionId: "1", sql: "SELECT name FROM customers" };

async function run(models: ReturnType<typeof provider>, thread: string, samples = 5) {
  const graph = selfConsistencySpec.build({ models, executor }, { checkpointer: new MemorySaver(), samples });
  const from = server.requests.length;
  const state = await graph.invoke(input, { configurable: { thread_id: thread } });
  return { state, sent: server.requests.slice(from), outcome: outcomeOf(selfConsistencySpec, state) };
}

describe("self-consistency's samples", () => {
  it("are asked in one request with n: the prompt is billed once, every choice is a sample", async () => {
    server.n = "honour";
    const { state, sent, outcome } = await run(provider(), "one");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ n: 5, temperature: 0.8 });
    expect(state.candidates.map((c: Candidate) => c.id)).toEqual(["sample:01", "sample:02", "sample:03", "sample:04", "sample:05"]);
    // Five different draws, all from that one request.
    expect(new Set(state.candidates.map((c: Candidate) => c.sql)).size).toBe(5);
    expect(state.sql).toContain("London");
    expect(state.usage.byRole.sampler.calls).toBe(1);
    // The server's usage: the prompt once (≤ 1.2× one prompt's tokens per question), five completions.
    const promptChars = sent[0]!.messages.reduce((n, m) => n + m.content.length, 0);
    expect(state.usage.byRole.sampler.inputTokens).toBe(Math.ceil(promptChars / 4));
    expect(state.calls[0].replies).toHaveLength(5);
    expect(outcome).toMatchObject({ samples: 5, samplesSeparately: null });
  });

  it("a rerun through the response cache gets all n choices back and sends nothing", async () => {
    server.n = "honour";
    const file = path.join(dir, "responses.sqlite");
    const first = await run(provider(new ResponseCache(openResponseStore(file, () => {}), "on")), "cached");
    expect(first.sent).toHaveLength(1);
    // A rerun: a new run's thread, numbered from 0 again.
    const again = await run(provider(new ResponseCache(openResponseStore(file, () => {}), "on")), "cached-rerun");
    expect(again.sent).toHaveLength(0);
    expect(again.state.candidates.map((c: Candidate) => c.sql)).toEqual(first.state.candidates.map((c: Candidate) => c.sql));
    expect(again.state.usage.byRole.sampler).toMatchObject({ calls: 1, cached: 1, inputTokens: 0 });
    expect(again.state.usage.byRole.sampler.savedInputTokens).toBe(first.state.usage.byRole.sampler.inputTokens);
  });

  it("fall back to separate requests where the server refuses n: recorded in the outcome, remembered for the run, not a failure", async () => {
    server.n = "refuse";
    try {
      const models = provider();
      const { state, sent, outcome } = await run(models, "refused");
      expect(sent.map((r) => r.body.n ?? 1)).toEqual([5, 1, 1, 1, 1, 1]);
      expect(state.candidates).toHaveLength(5);
      expect(state.usage.byRole.sampler.calls).toBe(6);
      expect(state.usage.failed).toBeUndefined();
      expect(outcome.samplesSeparately).toMatch(/the server refused n=5: 5 separate requests/);
      expect(state.calls[0].error).toMatch(/^the server refused n=5 \(fell back to 5 separate requests\): .*400/);
      // The next question of the run does not ask again.
      const next = await run(models, "refused-2");
      expect(next.sent.map((r) => r.body.n ?? 1)).toEqual([1, 1, 1, 1, 1]);
      expect(next.outcome.samplesSeparately).toMatch(/refused n earlier in this run/);
    } finally {
      server.n = "honour";
    }
  });

  it("ask the missing samples separately where the server returns fewer choices", async () => {
    server.n = "one";
    try {
      const { state, sent, outcome } = await run(provider(), "fewer", 4);
      expect(sent.map((r) => r.body.n ?? 1)).toEqual([4, 1, 1, 1]);
      expect(state.candidates.map((c: Candidate) => c.id)).toEqual(["sample:01", "sample:02", "sample:03", "sample:04"]);
      expect(state.usage.byRole.sampler.calls).toBe(4);
      expect(outcome.samplesSeparately).toBe("the server returned 1 of 4 choices: 3 separate requests");
    } finally {
      server.n = "honour";
    }
  });
});
