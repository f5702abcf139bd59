/**
 * Every billed token counted (issue 42): a structured-output call's record carries the prompt tokens the server bills,
 * the JSON schema (`response_format`) or the tool definition included — as OpenAI and vLLM bill them and as the local
 * OpenAI-compatible server now counts them — through the real ChatOpenAI client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { callStructured } from "../tools/models/llm.ts";
import { createOpenAIProvider, ModelConfigSchema } from "../tools/models/models.ts";
import { usageOfCalls } from "../state/usage.ts";
import { type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";

const Verdict = z.object({ verdict: z.enum(["correct", "wrong"]), reasons: z.array(z.string()).describe("why, one line each") });
const PROMPT = [{ role: "user" as const, content: "Is SELECT name FROM customers right for 'Who lives in London?'" }];
const REPLY = JSON.stringify({ verdict: "wrong", reasons: ["no filter on city"] });

let server: OpenAIServer;
beforeAll(async () => {
  server = await startOpenAIServer({ respond: (req) => (req.body.tools ? { toolCall: { name: req.body.tools[0].function.name, arguments: REPLY } } : { content: REPLY }) });
});
afterAll(async () => {
  await server?.close();
});

const provider = (structuredMethod: "jsonSchema" | "functionCalling") =>
  createOpenAIProvider(ModelConfigSchema.parse({ model: "m", baseURL: server.url, structuredMethod }), { OPENAI_API_KEY: "k" });
const messageChars = PROMPT[0]!.content.length;

describe("a structured call's input tokens", () => {
  it("include the JSON schema sent as response_format", async () => {
    const from = server.requests.length;
    const result = await callStructured(provider("jsonSchema"), "reviewer", PROMPT, Verdict, { name: "verdict" });
    expect(result.ok).toBe(true);
    const sent = server.requests.slice(from);
    expect(sent).toHaveLength(1);
    const schemaChars = JSON.stringify(sent[0]!.body.response_format.json_schema).length;
    expect(schemaChars).toBeGreaterThan(100);
    const usage = usageOfCalls(result.records);
    expect(usage.inputTokens).toBe(Math.ceil((messageChars + schemaChars) / 4));
    expect(usage.inputTokens).toBeGreaterThan(Math.ceil(messageChars / 4) + 20);
  });

  it("include the tool definition under function calling", async () => {
    const from = server.requests.length;
    const result = await callStructured(provider("functionCalling"), "reviewer", PROMPT, Verdict, { name: "verdict" });
    expect(result.ok).toBe(true);
    const sent = server.requests.slice(from);
    const toolChars = JSON.stringify(sent[0]!.body.tools).length;
    expect(usageOfCalls(result.records).inputTokens).toBe(Math.ceil((messageChars + toolChars) / 4));
  });
});
