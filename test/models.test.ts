import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createOpenAIProvider, resolveModelConfig, resolveRoleSettings } from "../tools/models/models.ts";
import { callModel, callStructured } from "../tools/models/llm.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";
import { scriptedProvider } from "./support/scripted-models.ts";
import { usageOfCalls } from "../state/usage.ts";

let dir: string;
beforeAll(() => {
  dir = makeTempDir();
});
afterAll(() => removeTempDir(dir));

describe("model configuration", () => {
  it("merges config file < environment < flags, with per-role overrides", () => {
    const file = path.join(dir, "sqlmend.config.json");
    fs.writeFileSync(file, JSON.stringify({ model: "file-model", baseURL: "http://127.0.0.1:1/v1", temperature: 0.5, roles: { reviewer: { model: "reviewer-model", temperature: 0.9 } } }));
    const fromFile = resolveModelConfig({}, {}, dir);
    expect(resolveRoleSettings(fromFile, "generator")).toMatchObject({ model: "file-model", temperature: 0.5, baseURL: "http://127.0.0.1:1/v1" });
    expect(resolveRoleSettings(fromFile, "reviewer")).toMatchObject({ model: "reviewer-model", temperature: 0.9 });
    const fromEnv = resolveModelConfig({}, { SQLMEND_MODEL: "env-model" }, dir);
    expect(resolveRoleSettings(fromEnv, "generator")?.model).toBe("env-model");
    const fromFlags = resolveModelConfig({ model: "flag-model", roleModels: { fixer: "fix-model" } }, { SQLMEND_MODEL: "env-model" }, dir);
    expect(resolveRoleSettings(fromFlags, "generator")?.model).toBe("flag-model");
    expect(resolveRoleSettings(fromFlags, "fixer")?.model).toBe("fix-model");
    fs.rmSync(file);
  });

  it("fails with one line when no model is configured, and names a bad config file", () => {
    const provider = createOpenAIProvider(resolveModelConfig({}, {}, dir), {});
    expect(() => provider.forRole("generator")).toThrow(/^no model configured: pass --model NAME or set SQLMEND_MODEL/);
    const bad = path.join(dir, "bad.json");
    fs.writeFileSync(bad, JSON.stringify({ model: 3 }));
    expect(() => resolveModelConfig({ configFile: bad }, {}, dir)).toThrow(/bad\.json: model: /);
    fs.writeFileSync(bad, "{not json");
    expect(() => resolveModelConfig({ configFile: bad }, {}, dir)).toThrow(/bad\.json: cannot read model config/);
  });
});

describe("callModel", () => {
  it("records prompt, reply, tokens and latency from the server's usage report", async () => {
    const server = await startOpenAIServer({ respond: () => ({ content: "SELECT 1", usage: { prompt_tokens: 42, completion_tokens: 7 } }) });
    try {
      const models = createOpenAIProvider({ model: TEST_MODEL_ID, baseURL: server.url, roles: {} }, {});
      const call = await callModel(models, "generator", [{ role: "system", content: "sys" }, { role: "user", content: "hi" }]);
      expect(call.ok).toBe(true);
      expect(call.record).toMatchObject({ role: "generator", model: TEST_MODEL_ID, reply: "SELECT 1", inputTokens: 42, outputTokens: 7 });
      expect(call.record.messages).toEqual([{ role: "system", content: "sys" }, { role: "user", content: "hi" }]);
      expect(call.record.latencyMs).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it("turns a failing server into a recorded error instead of a crash", async () => {
    const server = await startOpenAIServer({ respond: () => ({ malformed: "no-choices" }) });
    try {
      const models = createOpenAIProvider({ model: TEST_MODEL_ID, baseURL: server.url, maxRetries: 0, roles: {} }, {});
      const call = await callModel(models, "generator", [{ role: "user", content: "hi" }]);
      expect(call.ok).toBe(false);
      expect(call.record.error).toMatch(/^model call failed: /);
      expect(call.record.error).not.toContain("\n");
    } finally {
      await server.close();
    }
  });
});

describe("callModel: a reply without choices", () => {
  it.each([
    ["no-choices", false],
    ["no-choices", true],
    ["no-choices-field", false],
    ["no-choices-field", true],
  ] as const)("%s (streaming %s) is a one-line failed call naming the endpoint and the model", async (kind, streaming) => {
    const server = await startOpenAIServer({ respond: () => ({ malformed: kind }) });
    try {
      const models = createOpenAIProvider({ model: TEST_MODEL_ID, baseURL: server.url, maxRetries: 0, streaming, roles: {} }, {});
      const call = await callModel(models, "generator", [{ role: "user", content: "hi" }]);
      expect(call.ok).toBe(false);
      expect(call.record.error).toBe(`model call failed: ${server.url} answered model ${TEST_MODEL_ID} with no choices (an empty reply)`);
    } finally {
      await server.close();
    }
  });
});

const Persona = z.object({ name: z.string(), focus: z.string() });

describe("callStructured", () => {
  it("falls back from strict JSON schema to function calling when the server refuses it, and remembers", async () => {
    const server = await startOpenAIServer({
      rejectJsonSchema: true,
      respond: () => ({ toolCall: { name: "persona", arguments: JSON.stringify({ name: "DBA", focus: "joins" }) }, usage: { prompt_tokens: 5, completion_tokens: 5 } }),
    });
    try {
      const models = createOpenAIProvider({ model: TEST_MODEL_ID, baseURL: server.url, maxRetries: 0, roles: {} }, {});
      const first = await callStructured(models, "reviewer", [{ role: "user", content: "Invent a reviewer" }], Persona, { name: "persona" });
      expect(first).toMatchObject({ ok: true, value: { name: "DBA", focus: "joins" } });
      expect(server.requests[0]!.body.response_format.type).toBe("json_schema");
      expect(server.requests[1]!.body.tools[0].function.name).toBe("persona");
      expect(first.records.map((r) => r.method)).toEqual(["jsonSchema", "functionCalling"]);
      // The refused try is recorded, but it is no failed call: the question it belongs to is answered (issue 30).
      expect(first.records[0]!.error).toMatch(/^the server refused jsonSchema \(fell back to functionCalling\): 400 /);
      expect(usageOfCalls(first.records)).toMatchObject({ calls: 2 });
      expect(usageOfCalls(first.records).failed).toBeUndefined();
      const second = await callStructured(models, "reviewer", [{ role: "user", content: "Another" }], Persona, { name: "persona" });
      expect(second.ok).toBe(true);
      expect(server.requests).toHaveLength(3); // straight to function calling this time
      expect(server.requests[2]!.body.tools).toBeDefined();
    } finally {
      await server.close();
    }
  });

  it("concurrent calls of a role wait for the first to learn the method: one refused request, not one per question", async () => {
    const server = await startOpenAIServer({
      rejectJsonSchema: true,
      latencyMs: 30,
      respond: () => ({ toolCall: { name: "persona", arguments: JSON.stringify({ name: "DBA", focus: "joins" }) } }),
    });
    try {
      const models = createOpenAIProvider({ model: TEST_MODEL_ID, baseURL: server.url, maxRetries: 0, roles: {} }, {});
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => callStructured(models, "reviewer", [{ role: "user", content: `Reviewer ${i}` }], Persona, { name: "persona" })));
      expect(results.every((r) => r.ok)).toBe(true);
      expect(server.requests.filter((r) => r.body.response_format?.type === "json_schema")).toHaveLength(1);
      expect(server.requests).toHaveLength(7);
      // Another role still finds out for itself.
      await callStructured(models, "writer", [{ role: "user", content: "Invent one" }], Persona, { name: "persona" });
      expect(server.requests.filter((r) => r.body.response_format?.type === "json_schema")).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it("falls back when the server ignores response_format json_schema and answers in prose, without calling it a failed call", async () => {
    const server = await startOpenAIServer({
      respond: (req) =>
        req.body.tools
          ? { toolCall: { name: "persona", arguments: JSON.stringify({ name: "DBA", focus: "joins" }) } }
          : { content: "Sure! A database administrator would review this." },
    });
    try {
      // Retries allowed: a prose reply is not retried (it would come back the same, after seconds of backoff).
      const models = createOpenAIProvider({ model: TEST_MODEL_ID, baseURL: server.url, maxRetries: 3, roles: {} }, {});
      const result = await callStructured(models, "reviewer", [{ role: "user", content: "Invent a reviewer" }], Persona, { name: "persona" });
      expect(result).toMatchObject({ ok: true, value: { name: "DBA", focus: "joins" } });
      expect(server.requests).toHaveLength(2);
      expect(result.records.map((r) => r.method)).toEqual(["jsonSchema", "functionCalling"]);
      expect(result.records[0]!.error).toMatch(/^the server ignored response_format json_schema: its reply is not JSON/);
      expect(usageOfCalls(result.records)).toMatchObject({ calls: 2 });
      expect(usageOfCalls(result.records).failed).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it("re-asks with the validation error, a bounded number of times", async () => {
    const models = scriptedProvider({ reviewer: ["<think>hmm</think>{\"name\": \"DBA\"}", '```json\n{"name": "DBA", "focus": "NULLs"}\n```'] });
    const result = await callStructured(models, "reviewer", [{ role: "user", content: "Invent a reviewer" }], Persona, { name: "persona" });
    expect(result).toMatchObject({ ok: true, value: { focus: "NULLs" } });
    expect(result.records[0]!.error).toMatch(/does not match the schema: focus/);
    const retryPrompt = models.shownTo("reviewer")[1]!.messages.at(-2)!.content;
    expect(retryPrompt).toMatch(/not usable \(reply does not match the schema: focus/);

    const hopeless = scriptedProvider({ reviewer: "no idea" });
    const failed = await callStructured(hopeless, "reviewer", [{ role: "user", content: "x" }], Persona, { name: "persona", maxAttempts: 2 });
    expect(failed).toMatchObject({ ok: false, error: "reply holds no JSON object" });
    expect(hopeless.shown).toHaveLength(2);
  });
});

describe("rate limits", () => {
  it("retries a bare 429 (which LangChain gives up on) with backoff, but never an exhausted quota", async () => {
    const { withRateLimitRetries } = await import("../tools/models/llm.ts");
    let tries = 0;
    const rateLimited = Object.assign(new Error("429 Too Many Requests"), { status: 429 });
    const value = await withRateLimitRetries(3, async () => {
      if (++tries < 3) throw rateLimited;
      return "ok";
    }, 5);
    expect(value).toBe("ok");
    expect(tries).toBe(3);

    let quotaTries = 0;
    const quota = Object.assign(new Error("429 You exceeded your current quota (insufficient_quota)"), { status: 429 });
    await expect(withRateLimitRetries(3, async () => {
      quotaTries++;
      throw quota;
    }, 5)).rejects.toThrow(/quota/);
    expect(quotaTries).toBe(1);
  });

  it("survives a bare 429 from a real server through ChatOpenAI", async () => {
    let n = 0;
    const server = await startOpenAIServer({ respond: () => (++n === 1 ? { status: 429 } : { content: "SELECT 1" }) });
    try {
      const models = createOpenAIProvider({ model: TEST_MODEL_ID, baseURL: server.url, maxRetries: 1, roles: {} }, {});
      const call = await callModel(models, "generator", [{ role: "user", content: "hi" }]);
      expect(call.ok).toBe(true);
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  }, 15_000);
});
