// Local OpenAI-compatible chat-completions server for tests: drives the real
// ChatOpenAI client over HTTP on 127.0.0.1 with scripted replies.
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { type SchemaOnlyOptions, schemaOnlyResponder } from "./schema-replies.ts";
import { hashedEmbedding } from "../../tools/models/mock.ts";

export interface ChatRequestRecord {
  /** Parsed JSON request body, as sent by the client. */
  body: any;
  /** Messages with content flattened to text (array parts joined). */
  messages: { role: string; content: string }[];
  model: string;
  stream: boolean;
  headers: Record<string, string | string[] | undefined>;
  receivedAt: number;
  /** Answered from its JSON schema alone (`schemaOnly`), not by `respond`. */
  fromSchema?: boolean;
}

export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export type ScriptedReply =
  | { content: string; usage?: ScriptedUsage; delayMs?: number }
  | { toolCall: { name: string; arguments: string }; usage?: ScriptedUsage; delayMs?: number }
  | { status: number; body?: unknown; retryAfterSeconds?: number }
  | { malformed: "not-json" | "no-choices" | "no-choices-field" | "truncated-stream" };

export interface OpenAIServerOptions {
  /**
   * Produces the reply for a chat request. `index` is the request's position
   * in `server.requests` (requests rejected by `rejectJsonSchema` are recorded
   * too, but `respond` is not called for them).
   */
  respond: (req: ChatRequestRecord, index: number) => ScriptedReply | Promise<ScriptedReply>;
  /** Added before every chat reply (on top of a reply's own `delayMs`). */
  latencyMs?: number;
  /** reject response_format json_schema with 400 like servers that lack it */
  rejectJsonSchema?: boolean;
  /**
   * A request asking several choices (`n` > 1): "honour" (default) calls `respond` once per choice and bills the prompt
   * once, as OpenAI and vLLM do; "refuse" answers 400 like servers without `n`; "one" ignores it and returns one choice.
   * Also settable later on the server (`server.n`).
   */
  n?: NMode;
  /** `/v1/embeddings`: vectors of hashed character 3-grams (`hashedEmbedding`), or this HTTP status as a failure. */
  embeddingStatus?: number;
  /**
   * The schema-only stand-in (test/support/schema-replies.ts): a structured request (response_format json_schema, or
   * a forced tool) is answered with a seeded value its JSON schema allows, as constrained decoding would; `respond`
   * answers the rest.
   */
  schemaOnly?: SchemaOnlyOptions;
  /**
   * The model a chat reply says served it (`model`, default the requested one) and its `system_fingerprint` (default
   * none), asked per request: a test changes what it returns to move an alias to another version mid-run.
   */
  served?: () => { model?: string; fingerprint?: string };
}

export type NMode = "honour" | "refuse" | "one";

export interface EmbeddingRequestRecord {
  model: string;
  input: string[];
  encodingFormat?: string;
}

/** The mock model's embedding (hashed character 3-grams): the server's `/v1/embeddings` answers with it. */
export { hashedEmbedding };

export interface OpenAIServer {
  /** Base URL including `/v1`, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  requests: ChatRequestRecord[];
  /** Every `/v1/embeddings` request, in order. */
  embeddingRequests: EmbeddingRequestRecord[];
  /** How a request for several choices is answered now (see `OpenAIServerOptions.n`). */
  n: NMode;
  close(): Promise<void>;
}

export const TEST_MODEL_ID = "test-model";

/** A `respond` function that answers with `list` in order, repeating the last. */
export function scriptedReplies(list: ScriptedReply[]): OpenAIServerOptions["respond"] {
  if (list.length === 0) throw new Error("scriptedReplies needs at least one reply");
  // Own counter, so requests that never reach respond() don't skip replies.
  let next = 0;
  return () => {
    const reply = list[Math.min(next, list.length - 1)]!;
    next++;
    return reply;
  };
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Characters of a request's JSON schema (`response_format`) and tool definitions, billed as prompt by real servers. */
export function billedExtrasChars(body: { response_format?: { type?: string; json_schema?: unknown }; tools?: unknown[] }): number {
  const schema = body.response_format?.type === "json_schema" && body.response_format.json_schema ? JSON.stringify(body.response_format.json_schema).length : 0;
  const tools = Array.isArray(body.tools) && body.tools.length ? JSON.stringify(body.tools).length : 0;
  return schema + tools;
}

function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

function flattenContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => {
        if (typeof part === "string") return part;
        if (part && typeof part === "object") {
          const p = part as Record<string, unknown>;
          if (typeof p.text === "string") return p.text;
          if (typeof p.refusal === "string") return p.refusal;
        }
        return "";
      })
      .join("");
  }
  return "";
}

function flattenMessages(raw: unknown): { role: string; content: string }[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((m) => {
    const msg = (m ?? {}) as Record<string, unknown>;
    return { role: typeof msg.role === "string" ? msg.role : "", content: flattenContent(msg.content) };
  });
}

/** Splits into a few pieces (by code point) so streams carry several deltas. */
function splitPieces(text: string): string[] {
  const chars = Array.from(text);
  if (chars.length === 0) return [];
  const size = Math.min(16, Math.max(1, Math.ceil(chars.length / 4)));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

function errorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

function defaultErrorMessage(status: number): string {
  // Avoid "quota"/"billing" wording: LangChain treats those 429s as non-retryable.
  if (status === 429) return "Rate limit reached for requests";
  if (status >= 500) return "The server had an error while processing your request";
  return http.STATUS_CODES[status] ?? `HTTP ${status}`;
}

function errorBody(status: number, message?: string, code?: string | null) {
  return { error: { message: message ?? defaultErrorMessage(status), type: errorType(status), param: null, code: code ?? null } };
}

export async function startOpenAIServer(options: OpenAIServerOptions): Promise<OpenAIServer> {
  const requests: ChatRequestRecord[] = [];
  const state: { n: NMode } = { n: options.n ?? "honour" };
  const embeddingRequests: EmbeddingRequestRecord[] = [];
  const sockets = new Set<Socket>();
  let isClosing = false;
  let idCounter = 0;
  const fromSchemaOf = options.schemaOnly ? schemaOnlyResponder(options.schemaOnly) : undefined;

  // Pending sleeps, woken on close() so pending replies don't hold it open.
  const sleepers = new Map<NodeJS.Timeout, () => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0 || isClosing) return resolve();
      const timer = setTimeout(() => {
        sleepers.delete(timer);
        resolve();
      }, ms);
      sleepers.set(timer, resolve);
    });

  const sendJson = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed || res.writableEnded) return;
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  };

  const readBody = (req: http.IncomingMessage) =>
    new Promise<string | null>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on("data", (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY_BYTES) {
          resolve(null);
          req.destroy();
          return;
        }
        chunks.push(c);
      });
      req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      req.on("error", reject);
    });

  const handleChat = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const raw = await readBody(req);
    if (raw === null) return sendJson(res, 413, errorBody(413, "Request body too large"));
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      return sendJson(res, 400, errorBody(400, "Request body is not valid JSON"));
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) {
      return sendJson(res, 400, errorBody(400, "Request body must be a JSON object"));
    }
    const record: ChatRequestRecord = {
      body,
      messages: flattenMessages(body.messages),
      model: typeof body.model === "string" ? body.model : "",
      stream: body.stream === true,
      headers: { ...req.headers },
      receivedAt: Date.now(),
    };
    const index = requests.push(record) - 1;

    if (options.rejectJsonSchema && body.response_format?.type === "json_schema") {
      await sleep(options.latencyMs ?? 0);
      return sendJson(res, 400, {
        error: { message: "response_format json_schema is not supported", type: "invalid_request_error", param: "response_format", code: null },
      });
    }

    const asked = typeof body.n === "number" && body.n > 1 && !record.stream ? body.n : 1;
    if (asked > 1 && state.n === "refuse") {
      await sleep(options.latencyMs ?? 0);
      return sendJson(res, 400, { error: { message: "n must be 1: this server returns one choice per request", type: "invalid_request_error", param: "n", code: null } });
    }
    const choices = asked > 1 && state.n === "honour" ? asked : 1;
    let reply: ScriptedReply;
    const more: ScriptedReply[] = [];
    try {
      // Under "fit", what the scripted model would say is the content constrained decoding keeps where it can.
      const intent = options.schemaOnly?.content === "fit" && fromSchemaOf?.(record) ? await options.respond(record, index) : undefined;
      const fromSchema = fromSchemaOf?.(record, intent);
      if (fromSchema) record.fromSchema = true;
      reply = fromSchema ?? (await options.respond(record, index));
      // Each further choice is another reply to the same request (a sampling model's next draw).
      for (let k = 1; k < choices; k++) more.push(fromSchemaOf?.(record, intent) ?? (await options.respond(record, index)));
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      return sendJson(res, 500, errorBody(500, `test respond() threw: ${msg}`));
    }
    const delay = "delayMs" in reply && typeof reply.delayMs === "number" ? reply.delayMs : 0;
    await sleep((options.latencyMs ?? 0) + delay);
    if (isClosing || res.destroyed) return;

    if ("status" in reply) {
      const headers: Record<string, string> = {};
      if (reply.retryAfterSeconds !== undefined) {
        headers["retry-after"] = String(reply.retryAfterSeconds);
        // openai-node prefers this one when it does its own retries.
        headers["retry-after-ms"] = String(Math.round(reply.retryAfterSeconds * 1000));
      }
      const payload = reply.body !== undefined ? reply.body : errorBody(reply.status);
      return sendJson(res, reply.status, payload, headers);
    }

    const id = `chatcmpl-test${++idCounter}`;
    const created = Math.floor(Date.now() / 1000);
    const served = options.served?.() ?? {};
    const model = served.model ?? (record.model || TEST_MODEL_ID);
    const fingerprint = served.fingerprint ? { system_fingerprint: served.fingerprint } : {};
    // What a real server bills as the prompt: the messages, and the structured-output schema and tool definitions
    // it is sent with (OpenAI and vLLM count both in prompt_tokens).
    const promptChars = record.messages.reduce((n, m) => n + m.content.length, 0) + billedExtrasChars(body);

    if ("malformed" in reply) return sendMalformed(res, reply.malformed, record, { id, created, model });

    const toolCallOf = (r: ScriptedReply) =>
      "toolCall" in r ? { id: `call_test${idCounter}`, type: "function" as const, function: { name: r.toolCall.name, arguments: r.toolCall.arguments } } : undefined;
    const contentOf = (r: ScriptedReply) => ("content" in r ? r.content : null);
    const completionCharsOf = (r: ScriptedReply) => {
      const call = toolCallOf(r);
      return call ? call.function.name.length + call.function.arguments.length : (contentOf(r) ?? "").length;
    };
    const toolCall = toolCallOf(reply);
    const content = contentOf(reply);
    // The prompt is billed once however many choices; every choice's completion is billed.
    const scripted = (r: ScriptedReply) => ("usage" in r ? r.usage : undefined);
    const u = scripted(reply) ?? { prompt_tokens: estimateTokens(promptChars), completion_tokens: estimateTokens(completionCharsOf(reply)) };
    const completionTokens = u.completion_tokens + more.reduce((n, r) => n + (scripted(r)?.completion_tokens ?? estimateTokens(completionCharsOf(r))), 0);
    const usage = { prompt_tokens: u.prompt_tokens, completion_tokens: completionTokens, total_tokens: u.prompt_tokens + completionTokens };
    const finishReason = toolCall ? "tool_calls" : "stop";

    if (!record.stream) {
      const choiceOf = (r: ScriptedReply, i: number) => {
        const call = toolCallOf(r);
        return {
          index: i,
          message: { role: "assistant", content: contentOf(r), refusal: null, ...(call ? { tool_calls: [call] } : {}) },
          logprobs: null,
          finish_reason: call ? "tool_calls" : "stop",
        };
      };
      return sendJson(res, 200, {
        id,
        object: "chat.completion",
        created,
        model,
        ...fingerprint,
        choices: [reply, ...more.filter((r) => "content" in r || "toolCall" in r)].map(choiceOf),
        usage,
      });
    }

    const includeUsage = body.stream_options?.include_usage === true;
    const events: unknown[] = [];
    const chunk = (delta: object, finish: string | null) => ({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      ...fingerprint,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      // OpenAI sends usage: null on every chunk but the last when usage is requested.
      ...(includeUsage ? { usage: null } : {}),
    });
    if (toolCall) {
      events.push(
        chunk(
          { role: "assistant", content: null, tool_calls: [{ index: 0, id: toolCall.id, type: "function", function: { name: toolCall.function.name, arguments: "" } }] },
          null,
        ),
      );
      for (const piece of splitPieces(toolCall.function.arguments)) {
        events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }, null));
      }
    } else {
      events.push(chunk({ role: "assistant", content: "", refusal: null }, null));
      for (const piece of splitPieces(content ?? "")) events.push(chunk({ content: piece }, null));
    }
    events.push(chunk({}, finishReason));
    if (includeUsage) events.push({ id, object: "chat.completion.chunk", created, model, choices: [], usage });
    writeSse(res, events, true);
  };

  const handleEmbeddings = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const raw = await readBody(req);
    let body: any;
    try {
      body = JSON.parse(raw ?? "");
    } catch {
      return sendJson(res, 400, errorBody(400, "Request body is not valid JSON"));
    }
    const input: string[] = typeof body?.input === "string" ? [body.input] : Array.isArray(body?.input) ? body.input.map(String) : [];
    embeddingRequests.push({ model: String(body?.model ?? ""), input, encodingFormat: body?.encoding_format });
    await sleep(options.latencyMs ?? 0);
    if (options.embeddingStatus) return sendJson(res, options.embeddingStatus, errorBody(options.embeddingStatus));
    // The openai client asks for base64 (little-endian float32) unless told otherwise.
    const encode = (v: number[]) => (body?.encoding_format === "base64" ? Buffer.from(new Float32Array(v).buffer).toString("base64") : v);
    const tokens = input.reduce((n, t) => n + estimateTokens(t.length), 0);
    return sendJson(res, 200, {
      object: "list",
      data: input.map((text, index) => ({ object: "embedding", index, embedding: encode(hashedEmbedding(text)) })),
      model: body?.model ?? TEST_MODEL_ID,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  };

  const writeSse = (res: http.ServerResponse, events: unknown[], done: boolean) => {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
    for (const e of events) res.write(`data: ${JSON.stringify(e)}\n\n`);
    if (done) res.end("data: [DONE]\n\n");
  };

  const sendMalformed = (
    res: http.ServerResponse,
    kind: "not-json" | "no-choices" | "no-choices-field" | "truncated-stream",
    record: ChatRequestRecord,
    meta: { id: string; created: number; model: string },
  ) => {
    if (kind === "not-json") {
      if (record.stream) {
        if (res.destroyed) return;
        res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
        res.end("data: {this is not json\n\ndata: [DONE]\n\n");
        return;
      }
      return sendJson(res, 200, "{this is not json");
    }
    if (kind === "no-choices") {
      const base = { ...meta, object: record.stream ? "chat.completion.chunk" : "chat.completion", choices: [] };
      if (record.stream) return writeSse(res, [base], true);
      return sendJson(res, 200, { ...base, usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } });
    }
    if (kind === "no-choices-field") {
      // A body with no `choices` at all (some proxies answer an error this way, with status 200).
      const base = { ...meta, object: record.stream ? "chat.completion.chunk" : "chat.completion" };
      if (record.stream) return writeSse(res, [base], true);
      return sendJson(res, 200, base);
    }
    // truncated-stream: send part of the reply, then drop the connection.
    if (res.destroyed) return;
    if (record.stream) {
      writeSse(
        res,
        [
          { ...meta, object: "chat.completion.chunk", choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] },
          { ...meta, object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: "SELECT" }, finish_reason: null }] },
        ],
        false,
      );
      res.write('data: {"id":"' + meta.id + '","object":"chat.co');
    } else {
      const full = JSON.stringify({
        ...meta,
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content: "SELECT 1" }, finish_reason: "stop" }],
      });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(full) });
      res.write(full.slice(0, Math.floor(full.length / 2)));
    }
    // Let the partial bytes flush before cutting the socket.
    setImmediate(() => res.socket?.destroy());
  };

  const server = http.createServer((req, res) => {
    res.on("error", () => {});
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname.replace(/\/+$/, "");
    const route = `${req.method} ${path}`;
    const work =
      route === "POST /v1/chat/completions"
        ? handleChat(req, res)
        : route === "POST /v1/embeddings"
          ? handleEmbeddings(req, res)
          : route === "GET /v1/models"
          ? Promise.resolve(
              sendJson(res, 200, {
                object: "list",
                data: [{ id: TEST_MODEL_ID, object: "model", created: 0, owned_by: "sqlmend-tests" }],
              }),
            )
          : Promise.resolve(sendJson(res, 404, errorBody(404, `Unknown route: ${req.method} ${path}`, "unknown_url")));
    work.catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(500, `test server error: ${String(err)}`));
      else res.destroy();
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("clientError", (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddingRequests,
    get n() {
      return state.n;
    },
    set n(mode: NMode) {
      state.n = mode;
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        isClosing = true;
        for (const [timer, wake] of sleepers) {
          clearTimeout(timer);
          wake();
        }
        sleepers.clear();
        server.close(() => resolve());
        // Keep-alive and in-flight connections would otherwise hold close() open.
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      });
      return closed;
    },
  };
}
