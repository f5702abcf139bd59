/**
 * Tokens a request is billed for, counted with GPT-4o's tokenizer (js-tiktoken's o200k_base, offline): the messages,
 * and apart the structured-output schema (`response_format` json_schema) and tool definitions a real server bills as
 * prompt too. For the benches that weigh a method's tokens beside the server's usage (ts-sql-tokens, methods).
 */
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import type { ChatRequestRecord, ScriptedReply } from "../test/support/openai-server.ts";

const encoder = new Tiktoken(o200k);

export const o200kTokens = (text: string): number => encoder.encode(text).length;

/** The prompt's tokens: `messages` (their text) and `schema` (the JSON schema and tool definitions, as sent). */
export function promptTokens(req: ChatRequestRecord): { messages: number; schema: number } {
  const body = req.body as { response_format?: { type?: string; json_schema?: unknown }; tools?: unknown[] };
  const schema = body.response_format?.type === "json_schema" && body.response_format.json_schema ? o200kTokens(JSON.stringify(body.response_format.json_schema)) : 0;
  const tools = Array.isArray(body.tools) && body.tools.length ? o200kTokens(JSON.stringify(body.tools)) : 0;
  return { messages: req.messages.reduce((n, m) => n + o200kTokens(m.content), 0), schema: schema + tools };
}

/** A scripted reply's completion tokens. */
export const completionTokens = (reply: ScriptedReply): number =>
  "content" in reply ? o200kTokens(reply.content) : "toolCall" in reply ? o200kTokens(reply.toolCall.name + reply.toolCall.arguments) : 0;
