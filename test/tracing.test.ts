/**
 * Tracing: each question's graph run carries sqlmend's metadata to LangChain's tracer (an in-process callback handler
 * here), and with LANGSMITH_TRACING=true eval sends the verdict as feedback to LangSmith's API — a local server on
 * 127.0.0.1 standing in for it (LANGSMITH_ENDPOINT), so nothing leaves the machine.
 */
import http from "node:http";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baselineSpec } from "../graphs/baseline.ts";
import { answerQuestion, type GraphRunner } from "../runner/run/question-thread.ts";
import { evaluateQuestion } from "../runner/eval/eval-question.ts";
import type { Question } from "../state/question.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { scriptedProvider } from "./support/scripted-models.ts";

class RecordingHandler extends BaseCallbackHandler {
  name = "recording";
  roots: { runId: string; name?: string; tags?: string[]; metadata?: Record<string, unknown> }[] = [];
  override async handleChainStart(_chain: unknown, _inputs: unknown, runId: string, parentRunId?: string, tags?: string[], metadata?: Record<string, unknown>, _type?: string, name?: string) {
    if (!parentRunId) this.roots.push({ runId, name, tags, metadata });
  }
}

let dir: string;
let question: Question;
const executor = createExecutor();
const feedback: Record<string, unknown>[] = [];
let langsmith: http.Server;
let endpoint: string;

beforeAll(async () => {
  dir = makeTempDir();
  const db = makeDb(dir, "pets.sqlite", "CREATE TABLE pets (id INTEGER PRIMARY KEY, kind TEXT); INSERT INTO pets VALUES (1,'dog'),(2,'cat'),(3,'dog');");
  question = { id: "7", dbId: "pets", dbPath: db, question: "How many dogs?", evidence: "", goldSql: "SELECT count(*) FROM pets WHERE kind = 'dog'", difficulty: "simple" } as Question;
  langsmith = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/feedback") feedback.push({ ...JSON.parse(body), apiKey: req.headers["x-api-key"] });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => langsmith.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(langsmith.address() as { port: number }).port}`;
});
afterAll(async () => {
  await executor.close();
  await new Promise((resolve) => langsmith.close(resolve));
  removeTempDir(dir);
});

const runnerWith = (trace: GraphRunner["trace"]): GraphRunner => {
  const deps = { models: scriptedProvider({ generator: "```sql\nSELECT count(*) FROM pets WHERE kind = 'dog'\n```" }), executor };
  return { spec: baselineSpec, graphSpecs: [baselineSpec], graph: baselineSpec.build(deps, { checkpointer: new MemorySaver() }), deps, scenario: "all", semantics: "bird", trace };
};

describe("tracing", () => {
  it("each question's root run carries the sqlmend run, question, database, graph and settings, under its own run id", async () => {
    const handler = new RecordingHandler();
    const run = await answerQuestion(runnerWith({ run: "run42", settings: { "max-fix-rounds": 2 }, callbacks: [handler] }), question, "eval:run42:7");
    expect(run.error).toBeUndefined();
    expect(handler.roots).toHaveLength(1);
    expect(handler.roots[0]).toMatchObject({
      runId: run.traceRunId,
      name: "sqlmend baseline 7",
      tags: expect.arrayContaining(["sqlmend", "baseline"]),
      metadata: expect.objectContaining({ sqlmend_run: "run42", question_id: "7", db_id: "pets", graph: "baseline", "max-fix-rounds": 2 }),
    });
  });

  it("with LANGSMITH_TRACING=true, the verdict reaches the question's run as feedback, and the record says so", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { LANGSMITH_TRACING: "true", LANGSMITH_ENDPOINT: endpoint, LANGSMITH_API_KEY: "test-key" });
    try {
      const record = await evaluateQuestion(runnerWith({ run: "run43" }), question, "eval:run43:7", "bird", false);
      expect(record.correct).toBe(true);
      expect(record.trace).toEqual({ runId: expect.any(String), feedback: "sent" });
      expect(feedback.at(-1)).toMatchObject({ run_id: record.trace!.runId, key: "execution_accuracy", score: 1, apiKey: "test-key" });
      // An endpoint that refuses is recorded on the question, not fatal.
      process.env.LANGSMITH_ENDPOINT = "http://127.0.0.1:9";
      const refused = await evaluateQuestion(runnerWith({ run: "run44" }), question, "eval:run44:7", "bird", false);
      expect(refused.correct).toBe(true);
      expect(refused.trace?.feedback).toMatch(/^failed: /);
    } finally {
      for (const key of ["LANGSMITH_TRACING", "LANGSMITH_ENDPOINT", "LANGSMITH_API_KEY"]) if (saved[key] === undefined) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });
});
