/**
 * No request paid twice (issue 32): within a question (its graph thread), a request identical to one answered at
 * temperature 0 is not sent again — counted at the local OpenAI-compatible server, through the real ChatOpenAI
 * client — while sampling (temperature > 0, n > 1) still sends, and another question sends its own. An unchanged
 * retry stops, and the question's outcome says so.
 */
import fs from "node:fs";
import path from "node:path";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callModel, type CallResult } from "../tools/models/llm.ts";
import { createOpenAIProvider, ModelConfigSchema, type ModelOverrides } from "../tools/models/models.ts";
import { usageOfCalls } from "../state/usage.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { minibenchFixture, resultsOf, runCli } from "./support/cli.ts";
import { type OpenAIServer, type ScriptedReply, startOpenAIServer } from "./support/openai-server.ts";

let server: OpenAIServer;
let replies = 0;
beforeAll(async () => {
  // Every reply differs, so a reused one is told apart from one sent for.
  server = await startOpenAIServer({ latencyMs: 20, respond: (): ScriptedReply => ({ content: `reply ${++replies}` }) });
});
afterAll(async () => {
  await server?.close();
});

const provider = (temperature = 0) => createOpenAIProvider(ModelConfigSchema.parse({ model: "m", baseURL: server.url, temperature }), { OPENAI_API_KEY: "k" });
const PROMPT = [{ role: "user" as const, content: "Which tables hold the students?" }];

/**
 * A graph of two parallel nodes, then a third, each asking `PROMPT` once (`options` per call): what each call got, on
 * thread `thread`.
 */
async function askThrice(models: ReturnType<typeof provider>, thread: string, options: { overrides?: ModelOverrides; callOptions?: Record<string, unknown> } = {}): Promise<CallResult[]> {
  const results: CallResult[] = [];
  const State = Annotation.Root({ n: Annotation<number>() });
  const ask = async () => {
    results.push(await callModel(models, "generator", PROMPT, options));
    return {};
  };
  const graph = new StateGraph(State).addNode("a", ask).addNode("b", ask).addNode("c", ask).addEdge(START, "a").addEdge(START, "b").addEdge("a", "c").addEdge("b", "c").addEdge("c", END).compile();
  await graph.invoke({ n: 0 }, { configurable: { thread_id: thread } });
  return results;
}

describe("a request identical to one answered at temperature 0 within a question", () => {
  it("is not sent again, also while the first is in flight: the question gets that reply, recorded as reused with no tokens", async () => {
    const from = server.requests.length;
    const results = await askThrice(provider(), "q1");
    expect(server.requests.length - from).toBe(1);
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(results.filter((r) => r.reused).length).toBe(2);
    const usage = usageOfCalls(results.map((r) => r.record));
    // Model calls are requests sent; the reused replies are counted apart.
    expect(usage).toMatchObject({ calls: 1, reused: 2 });
    expect(results.filter((r) => r.record.reused).every((r) => r.record.inputTokens === 0 && r.record.outputTokens === 0)).toBe(true);
  });

  it("is sent again when it samples: temperature > 0 (the role's, or the call's own), or n > 1", async () => {
    let from = server.requests.length;
    await askThrice(provider(0.7), "q-sampled");
    expect(server.requests.length - from).toBe(3);
    from = server.requests.length;
    const overridden = await askThrice(provider(), "q-override", { overrides: { temperature: 0.8 } });
    expect(server.requests.length - from).toBe(3);
    expect(overridden.some((r) => r.reused)).toBe(false);
    from = server.requests.length;
    await askThrice(provider(), "q-n", { callOptions: { n: 2 } });
    expect(server.requests.length - from).toBe(3);
  });

  it("is another question's own: two questions with identical prompts each send theirs once (their thread and cost stay their own)", async () => {
    const models = provider();
    const from = server.requests.length;
    const first = await askThrice(models, "question-a");
    const second = await askThrice(models, "question-b");
    expect(server.requests.length - from).toBe(2);
    for (const results of [first, second]) expect(usageOfCalls(results.map((r) => r.record))).toMatchObject({ calls: 1, reused: 2, inputTokens: expect.any(Number) });
    expect(usageOfCalls(second.map((r) => r.record)).inputTokens).toBeGreaterThan(0);
    expect(first[0]!.text).not.toBe(second[0]!.text);
  });
});

describe("an unchanged retry", () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTempDir();
  });
  afterAll(() => removeTempDir(dir));

  it("stops the fix loop: a fixer asked again what it answered (same SQL, same error) is not asked, and the outcome says so", async () => {
    const { benchDir, dev } = await minibenchFixture(dir);
    const q = dev[0]!;
    // The generator's SQL fails; the fixer answers prose without SQL, so the SQL and its error stay as they were.
    const fixer = await startOpenAIServer({
      respond: (req) => (req.model === "fixer-model" ? { content: "The table name looks wrong, but I cannot tell which one is meant." } : { content: "```sql\nSELECT * FROM no_such_table\n```" }),
    });
    try {
      fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify({ model: "generator-model", baseURL: fixer.url, roles: { fixer: { model: "fixer-model" } } }));
      const out = path.join(dir, "run");
      const run = await runCli(["eval", "baseline", "--bench", benchDir, "--ids", q.id, "--out", out, "--checkpoints", "memory", "--cache", "off", "--max-fix-rounds", "3"], dir, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") });
      expect(run.code).toBe(0);
      expect(fixer.requests.filter((r) => r.model === "fixer-model").length).toBe(1);
      const record = (await resultsOf(out)).get(q.id)!;
      expect(record.outcome).toMatchObject({ fixRounds: 2, reusedReplies: 1, unchangedRetryStops: 1, finalSqlExecutes: false });
      // "model calls" is what the server received; the reused reply apart.
      expect(record.calls).toBe(fixer.requests.length);
      const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
      const calls = record.calls as number;
      expect(report).toContain(`| model calls | ${calls.toFixed(2)} | | | ${calls} |`);
      expect(report).toContain("| replies reused (not sent, not in model calls) | 1.00 | | | 1 |");
      expect(report).toMatch(/unchangedRetryStops: mean 1\.00, max 1/);
      expect(report).toMatch(/reusedReplies: mean 1\.00, max 1/);
    } finally {
      await fixer.close();
    }
  });
});
