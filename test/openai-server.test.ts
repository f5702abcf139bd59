import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatOpenAI } from "@langchain/openai";
import { AIMessageChunk, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { z } from "zod";
import {
  scriptedReplies,
  startOpenAIServer,
  type OpenAIServer,
  type OpenAIServerOptions,
  type ScriptedReply,
} from "./support/openai-server.ts";

const servers: OpenAIServer[] = [];

async function serve(replies: ScriptedReply[], extra: Partial<OpenAIServerOptions> = {}) {
  const server = await startOpenAIServer({ respond: scriptedReplies(replies), ...extra });
  servers.push(server);
  return server;
}

function model(server: OpenAIServer, fields: { maxRetries?: number; streamUsage?: boolean } = {}) {
  return new ChatOpenAI({
    model: "test-model",
    apiKey: "sk-test",
    maxRetries: fields.maxRetries ?? 0,
    streamUsage: fields.streamUsage,
    configuration: { baseURL: server.url },
  });
}

const runSqlTool = {
  type: "function" as const,
  function: {
    name: "run_sql",
    description: "Run a SQL query",
    parameters: { type: "object", properties: { sql: { type: "string" } }, required: ["sql"] },
  },
};

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("openai test server with real ChatOpenAI", () => {
  it("non-streaming invoke returns content and scripted usage", async () => {
    const server = await serve([{ content: "SELECT 1;", usage: { prompt_tokens: 11, completion_tokens: 3 } }]);
    const msg = await model(server).invoke([new SystemMessage("You write SQL."), new HumanMessage("one")]);

    expect(msg.content).toBe("SELECT 1;");
    expect(msg.usage_metadata).toMatchObject({ input_tokens: 11, output_tokens: 3, total_tokens: 14 });
    expect(server.requests).toHaveLength(1);
    const rec = server.requests[0]!;
    expect(rec.model).toBe("test-model");
    expect(rec.stream).toBe(false);
    expect(rec.messages).toEqual([
      { role: "system", content: "You write SQL." },
      { role: "user", content: "one" },
    ]);
    expect(rec.headers.authorization).toBe("Bearer sk-test");
  });

  it("estimates usage from text length when not scripted", async () => {
    const server = await serve([{ content: "abcdefghi" }]); // 9 chars -> 3 tokens
    const msg = await model(server).invoke("12345"); // 5 chars -> 2 tokens
    expect(msg.usage_metadata).toMatchObject({ input_tokens: 2, output_tokens: 3 });
  });

  it("flattens array content parts into text", async () => {
    const server = await serve([{ content: "ok" }]);
    await model(server).invoke([
      new HumanMessage({ content: [{ type: "text", text: "part one, " }, { type: "text", text: "part two" }] }),
    ]);
    expect(server.requests[0]!.messages).toEqual([{ role: "user", content: "part one, part two" }]);
    expect(Array.isArray(server.requests[0]!.body.messages[0].content)).toBe(true);
  });

  it("streams content in several chunks with usage at the end", async () => {
    const content = "SELECT name FROM singer WHERE age > 30";
    const server = await serve([{ content, usage: { prompt_tokens: 20, completion_tokens: 10 } }]);
    const chunks: AIMessageChunk[] = [];
    for await (const c of await model(server, { streamUsage: true }).stream("q")) chunks.push(c);

    const texts = chunks.map((c) => c.content).filter((t) => t !== "");
    expect(texts.length).toBeGreaterThan(2);
    expect(texts.join("")).toBe(content);
    expect(chunks.at(-1)!.usage_metadata).toMatchObject({ input_tokens: 20, output_tokens: 10 });
    expect(chunks.slice(0, -1).every((c) => c.usage_metadata === undefined)).toBe(true);
    const rec = server.requests[0]!;
    expect(rec.stream).toBe(true);
    expect(rec.body.stream_options).toEqual({ include_usage: true });
  });

  it("survives 429 then 500 through ChatOpenAI's own retries", async () => {
    // LangChain's p-retry waits 1s then 2s, times (1 + Math.random()); pin jitter to the minimum.
    vi.spyOn(Math, "random").mockReturnValue(0);
    const server = await serve([{ status: 429, retryAfterSeconds: 0 }, { status: 500 }, { content: "recovered" }]);
    const t0 = Date.now();
    const msg = await model(server, { maxRetries: 2 }).invoke("q");
    expect(msg.content).toBe("recovered");
    expect(server.requests).toHaveLength(3);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(2900);
  });

  it("does not retry a 429 that lacks Retry-After (LangChain treats it as capacity)", async () => {
    const server = await serve([{ status: 429 }, { content: "never" }]);
    await expect(model(server, { maxRetries: 2 }).invoke("q")).rejects.toMatchObject({ status: 429 });
    expect(server.requests).toHaveLength(1);
  });

  it.each(["not-json", "no-choices", "truncated-stream"] as const)(
    "malformed reply %s makes invoke reject with a one-line message",
    async (kind) => {
      const server = await serve([{ malformed: kind }]);
      const err: unknown = await model(server).invoke("q").then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Error);
      const message = (err as Error).message;
      expect(message.length).toBeGreaterThan(0);
      expect(message).not.toContain("\n");
      expect(server.requests).toHaveLength(1);
    },
  );

  it("a truncated stream makes .stream() reject", async () => {
    const server = await serve([{ malformed: "truncated-stream" }]);
    const consume = async () => {
      for await (const _ of await model(server).stream("q")) void _;
    };
    await expect(consume()).rejects.toThrow();
  });

  it("surfaces a toolCall reply as tool_calls, invoked and streamed", async () => {
    const args = JSON.stringify({ sql: "SELECT count(*) FROM concert" });
    const server = await serve([{ toolCall: { name: "run_sql", arguments: args } }]);
    const bound = model(server).bindTools([runSqlTool]);

    const msg = await bound.invoke("how many concerts?");
    expect(msg.tool_calls).toEqual([
      { name: "run_sql", args: { sql: "SELECT count(*) FROM concert" }, id: expect.any(String), type: "tool_call" },
    ]);
    expect(msg.response_metadata.finish_reason).toBe("tool_calls");
    expect(server.requests[0]!.body.tools[0].function.name).toBe("run_sql");

    let acc: AIMessageChunk | undefined;
    for await (const c of await bound.stream("again")) acc = acc ? acc.concat(c) : c;
    expect(acc?.tool_calls?.[0]).toMatchObject({ name: "run_sql", args: { sql: "SELECT count(*) FROM concert" } });
  });

  it("rejectJsonSchema answers 400 to withStructuredOutput jsonSchema; functionCalling still works", async () => {
    const schema = z.object({ sql: z.string() });
    const server = await serve([{ toolCall: { name: "extract", arguments: '{"sql":"SELECT 1"}' } }], {
      rejectJsonSchema: true,
    });
    const m = model(server, { maxRetries: 2 });

    await expect(m.withStructuredOutput(schema, { method: "jsonSchema" }).invoke("q")).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("response_format json_schema is not supported"),
    });
    expect(server.requests).toHaveLength(1); // 400 is never retried
    expect(server.requests[0]!.body.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { name: "extract", strict: true },
    });

    const out = await m.withStructuredOutput(schema, { method: "functionCalling" }).invoke("q");
    expect(out).toEqual({ sql: "SELECT 1" });
    const fc = server.requests[1]!.body;
    expect(fc.response_format).toBeUndefined();
    expect(fc.tool_choice).toEqual({ type: "function", function: { name: "extract" } });
  });

  it("jsonSchema structured output parses content when supported; jsonMode sends json_object", async () => {
    const schema = z.object({ sql: z.string() });
    const server = await serve([{ content: '{"sql":"SELECT 2"}' }]);
    const m = model(server);
    expect(await m.withStructuredOutput(schema).invoke("q")).toEqual({ sql: "SELECT 2" }); // default = jsonSchema
    expect(server.requests[0]!.body.response_format.type).toBe("json_schema");
    expect(await m.withStructuredOutput(schema, { method: "jsonMode" }).invoke("q")).toEqual({ sql: "SELECT 2" });
    expect(server.requests[1]!.body.response_format).toEqual({ type: "json_object" });
  });

  it("serves /v1/models, 404s unknown routes, and sends OpenAI-style errors with Retry-After", async () => {
    const server = await serve([{ status: 429, retryAfterSeconds: 2 }]);
    const models = await fetch(`${server.url}/models`);
    expect(models.status).toBe(200);
    expect(((await models.json()) as { data: unknown[] }).data).toHaveLength(1);

    const missing = await fetch(`${server.url}/audio/speech`, { method: "POST", body: "{}" });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toMatch(/Unknown route/);

    const limited = await fetch(`${server.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }] }),
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(await limited.json()).toMatchObject({ error: { message: expect.any(String), type: "rate_limit_error", code: null } });
  });

  it("scriptedReplies answers in order and repeats the last", async () => {
    const server = await serve([{ content: "a" }, { content: "b" }]);
    const m = model(server);
    const got = [];
    for (let i = 0; i < 4; i++) got.push((await m.invoke("q")).content);
    expect(got).toEqual(["a", "b", "b", "b"]);
  });

  it("handles 200 concurrent requests with 200 ms latency, many in flight at once", async () => {
    let inFlight = 0;
    let most = 0;
    const server = await startOpenAIServer({
      respond: async (req, index) => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 200));
        inFlight--;
        return { content: `answer ${index} to ${req.messages[0]!.content}` };
      },
    });
    servers.push(server);
    const m = model(server);
    const out = await Promise.all(Array.from({ length: 200 }, (_, i) => m.invoke(`q${i}`)));
    expect(out.every((r) => typeof r.content === "string" && r.content.startsWith("answer "))).toBe(true);
    expect(server.requests).toHaveLength(200);
    // Concurrency, not speed: requests overlapped (one at a time would never have two in flight), whatever the load.
    expect(most).toBeGreaterThan(10);
  });

  it("close() ends keep-alive and in-flight connections promptly", async () => {
    const server = await startOpenAIServer({ respond: () => ({ content: "slow", delayMs: 30_000 }) });
    await (await fetch(`${server.url}/models`)).json(); // leaves an idle keep-alive socket
    const inflight = model(server).invoke("q").then(
      () => "resolved",
      () => "rejected",
    );
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    const t0 = Date.now();
    await server.close();
    expect(Date.now() - t0).toBeLessThan(500);
    expect(await inflight).toBe("rejected");
    await server.close(); // idempotent
  });
});
