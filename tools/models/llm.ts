import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type AIMessageChunk, type BaseMessage, getBufferString, HumanMessage, isBaseMessage, SystemMessage } from "@langchain/core/messages";
import type { BaseCache } from "@langchain/core/caches";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import type { ChatGeneration, Generation } from "@langchain/core/outputs";
import { z } from "zod";
import { firstLineOf, UserError } from "../../core/errors.ts";
import type { ModelCallRecord } from "../../state/usage.ts";
import { type ModelOverrides, type ModelProvider, replyNotJson, type ResolvedModelSettings, type StructuredMethod } from "./models.ts";
import { extractJson, stripThinking } from "../reply.ts";
import type { CacheHitNote } from "./response-cache.ts";
import { STRUCTURED_MAX_ATTEMPTS } from "./structured-methods.ts";
import { lazyCrypto } from "../hash.ts";

export type ChatInput = BaseMessage | { role: "system" | "user" | "assistant"; content: string };

export const toMessages = (input: ChatInput[]): BaseMessage[] =>
  input.map((m) => {
    if (isBaseMessage(m)) return m;
    if (m.role === "system") return new SystemMessage(m.content);
    if (m.role === "assistant") return new AIMessage(m.content);
    return new HumanMessage(m.content);
  });

export function messageText(message: BaseMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  return content
    .map((part) => (typeof part === "string" ? part : "text" in part && typeof part.text === "string" ? part.text : ""))
    .join("");
}

const roleOf = (message: BaseMessage): string => {
  const type = message.getType();
  return type === "human" ? "user" : type === "ai" ? "assistant" : type;
};

export interface CallResult {
  ok: boolean;
  /** The reply's text with reasoning preambles kept (parsers strip them). Empty on failure. */
  text: string;
  message?: AIMessage;
  record: ModelCallRecord;
  /** The reply of an identical request answered earlier in this question at temperature 0: nothing was sent. */
  reused?: boolean;
}

/** What a question keeps of a request it had answered at temperature 0, to give an identical one the same reply. */
interface Answered {
  text: string;
  message: AIMessage;
  model: string;
}

/** Threads (questions) whose answered requests are kept: more than any run has in flight; the oldest go first. */
const ANSWERED_THREADS = 256;
/**
 * A request in flight is its promise; once answered, the reply itself: a promise made inside a graph run keeps that
 * run's context (LangChain's config, LangGraph's loop) alive for as long as it is kept.
 */
type AnsweredEntry = Promise<Answered | undefined> | Answered;
const answeredByProvider = new WeakMap<ModelProvider, Map<string, Map<string, AnsweredEntry>>>();

/** The graph thread of the current call (one question's run), from LangChain's run config; undefined outside a graph. */
function currentThread(): string | undefined {
  const config = AsyncLocalStorageProviderSingleton.getRunnableConfig() as { configurable?: Record<string, unknown> } | undefined;
  const thread = config?.configurable?.thread_id;
  return typeof thread === "string" || typeof thread === "number" ? String(thread) : undefined;
}

/** This thread's answered requests (most recently used thread last, so the oldest are dropped first). */
function answeredOf(models: ModelProvider, thread: string): Map<string, AnsweredEntry> {
  let threads = answeredByProvider.get(models);
  if (!threads) answeredByProvider.set(models, (threads = new Map()));
  let answered = threads.get(thread);
  if (answered) threads.delete(thread);
  else answered = new Map();
  threads.set(thread, answered);
  for (const oldest of threads.keys()) {
    if (threads.size <= ANSWERED_THREADS) break;
    threads.delete(oldest);
  }
  return answered;
}

/** The exact request: every setting of the model, the call's options and tools, every message with its tool calls. */
function requestKey(settings: ResolvedModelSettings, messages: BaseMessage[], options: { callOptions?: Record<string, unknown>; bindTools?: unknown[]; toolChoice?: unknown }): string {
  const shown = messages.map((m) => [m.getType(), m.content, (m as AIMessage).tool_calls ?? null, m.name ?? null, (m as { tool_call_id?: string }).tool_call_id ?? null]);
  const request = JSON.stringify([settings, options.callOptions ?? null, options.bindTools ?? null, options.toolChoice ?? null, shown]);
  return lazyCrypto().createHash("sha256").update(request).digest("hex");
}

type CallOptions = { callOptions?: Record<string, unknown>; method?: string; bindTools?: unknown[]; toolChoice?: unknown; overrides?: ModelOverrides };

/**
 * One model call for a role, under the provider's global request cap, with its record (prompt, reply, tokens, latency).
 * Transport failures (after the client's own retries) come back as ok: false; a missing model configuration throws.
 *
 * Within a question (its graph thread), a request identical to one already answered at temperature 0 (one sample) is
 * not sent again: it gets that reply, recorded as `reused` (no tokens spent), also with the response cache off. An
 * identical request still in flight is waited for. Sampling (temperature > 0, or n > 1) always sends.
 */
export async function callModel(models: ModelProvider, role: string, input: ChatInput[], options: CallOptions = {}): Promise<CallResult> {
  const { model, settings } = options.overrides && models.variant ? models.variant(role, options.overrides) : models.forRole(role);
  const messages = toMessages(input);
  const thread = currentThread();
  // What the call asks for, also from a provider that cannot make variants (it then answers at its own settings).
  const asked: ResolvedModelSettings = { ...settings, ...Object.fromEntries(Object.entries(options.overrides ?? {}).filter(([, v]) => v !== undefined)) };
  const samples = options.callOptions?.n;
  if (thread === undefined || asked.temperature !== 0 || (typeof samples === "number" && samples > 1)) return sendCall(models, role, model, settings, messages, options);
  const answered = answeredOf(models, thread);
  const key = requestKey(asked, messages, options);
  const earlier = answered.get(key);
  if (earlier) {
    const started = performance.now();
    const reply = earlier instanceof Promise ? await earlier : earlier;
    if (reply) {
      const record: ModelCallRecord = {
        role,
        model: reply.model,
        messages: messages.map((m) => ({ role: roleOf(m), content: messageText(m) })),
        reply: reply.text,
        inputTokens: 0,
        outputTokens: 0,
        latencyMs: performance.now() - started,
        method: options.method,
        reused: true,
      };
      return { ok: true, text: reply.text, message: reply.message, record, reused: true };
    }
  }
  let settle!: (reply: Answered | undefined) => void;
  answered.set(key, new Promise((resolve) => (settle = resolve)));
  try {
    const call = await sendCall(models, role, model, settings, messages, options);
    // A call that got no reply is not an answer: an identical request later sends again.
    const reply = call.ok && call.message ? { text: call.text, message: call.message, model: call.record.model } : undefined;
    if (reply) answered.set(key, reply);
    else answered.delete(key);
    settle(reply);
    return call;
  } catch (error) {
    answered.delete(key);
    settle(undefined);
    throw error;
  }
}

async function sendCall(models: ModelProvider, role: string, model: BaseChatModel, settings: ResolvedModelSettings, messages: BaseMessage[], options: CallOptions): Promise<CallResult> {
  const shown = messages.map((m) => ({ role: roleOf(m), content: messageText(m) }));
  const started = performance.now();
  try {
    let runnable: Pick<BaseChatModel, "invoke" | "stream"> = model;
    if (options.bindTools) {
      if (typeof model.bindTools !== "function") throw new Error("this model does not support tools");
      runnable = model.bindTools(options.bindTools as never, { tool_choice: options.toolChoice } as never);
    }
    const reply = await withRateLimitRetries(settings.maxRetries, () =>
      models.limiter.run(() => (settings.streaming ? streamCached(model, runnable, messages, options.callOptions) : runnable.invoke(messages, options.callOptions))),
    );
    const latencyMs = performance.now() - started;
    // A reply the response cache served: no tokens spent now (LangChain zeroes its usage); what it saved, apart.
    const hit = (reply.response_metadata as { sqlmendCache?: CacheHitNote } | undefined)?.sqlmendCache;
    const usage = hit ? undefined : reply.usage_metadata;
    const toolArgs = reply.tool_calls?.[0]?.args;
    const text = toolArgs !== undefined ? JSON.stringify(toolArgs) : messageText(reply);
    const served = servedOf(reply.response_metadata);
    return {
      ok: true,
      text,
      message: reply,
      record: {
        role,
        model: settings.model,
        messages: shown,
        reply: text,
        inputTokens: usage?.input_tokens ?? 0,
        outputTokens: usage?.output_tokens ?? 0,
        latencyMs,
        method: options.method,
        ...(served ? { served } : {}),
        ...(hit ? { cached: true, savedInputTokens: hit.inputTokens, savedOutputTokens: hit.outputTokens } : {}),
      },
    };
  } catch (error) {
    if (error instanceof UserError) throw error;
    return {
      ok: false,
      text: "",
      record: {
        role,
        model: settings.model,
        messages: shown,
        reply: "",
        inputTokens: 0,
        outputTokens: 0,
        latencyMs: performance.now() - started,
        method: options.method,
        error: replyNotJson(error)
          ? `the server ignored response_format json_schema: its reply is not JSON (${firstLineOf(error)})`
          : noChoices(error)
            ? `model call failed: ${settings.baseURL ?? "the OpenAI API"} answered model ${settings.model} with no choices (an empty reply)`
            : `model call failed: ${firstLineOf(error)}`,
      },
    };
  }
}

/** What `callModelChoices` gives: one reply per choice asked, the records of every request sent, and why not one request. */
export interface ChoicesResult {
  /** In the order asked; a choice that got no reply has ok false and empty text. */
  choices: { ok: boolean; text: string }[];
  records: ModelCallRecord[];
  /** Why the choices did not all come from one request (the caller records it for the question); null when they did. */
  fallback: string | null;
}

/** Requests in flight at once for the separate requests of a fallback (as many as a step's tasks, `votingGraph`). */
const SEPARATE_AT_ONCE = 8;
/** Roles whose server refused `n` in this run, per provider: later questions send separate requests at once. */
const refusedN = new WeakMap<ModelProvider, Map<string, string>>();

/**
 * `count` samples of one prompt (temperature > 0): one request asking `n: count` choices, billed for the prompt once.
 * Where that cannot be done, separate requests, and `fallback` says why: the provider cannot change a role's settings
 * per call (`variant`), the server refused `n` (remembered for the role, for the rest of the run; the refused request
 * is recorded, not as a failure), or it returned fewer choices (the rest asked separately). At temperature 0 the
 * requests are identical: sent one by one, the question's earlier reply answers the rest (`callModel`), no fallback.
 * `seedOf(i)`: choice i's seed when each separate request needs its own (`sampleSeed`); the request with `n` takes choice 0's.
 */
export async function callModelChoices(
  models: ModelProvider,
  role: string,
  input: ChatInput[],
  count: number,
  options: CallOptions & { seedOf?: (index: number) => number | undefined } = {},
): Promise<ChoicesResult> {
  const { seedOf, ...callOptions } = options;
  const separately = async (from: number, fallback: string | null, first: ChoicesResult["choices"] = []): Promise<ChoicesResult> => {
    const choices = [...first];
    const records: ModelCallRecord[] = [];
    let next = from;
    const worker = async () => {
      while (next < count) {
        const i = next++;
        const seed = seedOf?.(i);
        const call = await callModel(models, role, input, { ...callOptions, overrides: { ...callOptions.overrides, ...(seed !== undefined ? { seed } : {}) } });
        choices[i] = { ok: call.ok, text: call.text };
        records[i - from] = call.record;
      }
    };
    await Promise.all(Array.from({ length: Math.min(SEPARATE_AT_ONCE, count - from) }, worker));
    return { choices, records, fallback };
  };
  const { settings } = models.forRole(role);
  const temperature = callOptions.overrides?.temperature ?? settings.temperature;
  if (count <= 1 || temperature === 0) return separately(0, null);
  if (!models.variant) return separately(0, `the model provider cannot ask for ${count} choices in one request: ${count} separate requests`);
  const refused = refusedN.get(models)?.get(role);
  if (refused) return separately(0, `the server refused n earlier in this run (${refused}): ${count} separate requests`);
  const seed = seedOf?.(0);
  const { model, settings: asked } = models.variant(role, { ...callOptions.overrides, ...(seed !== undefined ? { seed } : {}), n: count });
  const messages = toMessages(input);
  const shown = messages.map((m) => ({ role: roleOf(m), content: messageText(m) }));
  const started = performance.now();
  let generations: ChatGeneration[];
  try {
    // generate, not invoke: invoke keeps the first choice only. Never streamed (a stream interleaves the choices).
    const result = await withRateLimitRetries(asked.maxRetries, () => models.limiter.run(() => model.generate([messages], callOptions.callOptions as never)));
    generations = (result.generations[0] ?? []) as ChatGeneration[];
  } catch (error) {
    if (error instanceof UserError) throw error;
    const why = firstLineOf(error);
    const record: ModelCallRecord = { role, model: asked.model, messages: shown, reply: "", inputTokens: 0, outputTokens: 0, latencyMs: performance.now() - started, method: callOptions.method, error: "" };
    // A refusal that names n (or the choices): another 400 (a prompt too long, a bad key) fails as any call does.
    if (isFormatRejection(why) && /\bn\b|choices/i.test(why)) {
      let roles = refusedN.get(models);
      if (!roles) refusedN.set(models, (roles = new Map()));
      roles.set(role, why.slice(0, 120));
      // A refused parameter is not a call without a reply: the separate requests answer.
      record.error = `the server refused n=${count} (fell back to ${count} separate requests): ${why}`;
      const rest = await separately(0, `the server refused n=${count}: ${count} separate requests`);
      return { ...rest, records: [record, ...rest.records] };
    }
    record.error = noChoices(error) ? `model call failed: ${asked.baseURL ?? "the OpenAI API"} answered model ${asked.model} with no choices (an empty reply)` : `model call failed: ${why}`;
    return { choices: Array.from({ length: count }, () => ({ ok: false, text: "" })), records: [record], fallback: null };
  }
  const latencyMs = performance.now() - started;
  const replies = generations.slice(0, count).map((g) => (g.message ? messageText(g.message) : g.text));
  const reply = generations[0]?.message as AIMessage | undefined;
  // Each choice carries the whole request's usage: counted once. A cache hit spent nothing now (LangChain zeroes it).
  const hit = (reply?.response_metadata as { sqlmendCache?: CacheHitNote } | undefined)?.sqlmendCache;
  const usage = hit ? undefined : reply?.usage_metadata;
  const record: ModelCallRecord = {
    role,
    model: asked.model,
    messages: shown,
    reply: replies[0] ?? "",
    ...(replies.length > 1 ? { replies } : {}),
    inputTokens: usage?.input_tokens ?? 0,
    outputTokens: usage?.output_tokens ?? 0,
    latencyMs,
    method: callOptions.method,
    ...(hit ? { cached: true, savedInputTokens: hit.inputTokens, savedOutputTokens: hit.outputTokens } : {}),
  };
  const choices = replies.map((text) => ({ ok: true, text }));
  if (choices.length >= count) return { choices, records: [record], fallback: null };
  if (!choices.length) {
    // No choice at all is an endpoint that did not answer (as in callModel), not a server without `n`.
    record.error = `model call failed: ${asked.baseURL ?? "the OpenAI API"} answered model ${asked.model} with no choices (an empty reply)`;
    return { choices: Array.from({ length: count }, () => ({ ok: false, text: "" })), records: [record], fallback: null };
  }
  const missing = count - choices.length;
  const rest = await separately(choices.length, `the server returned ${choices.length} of ${count} choices: ${missing} separate request${missing === 1 ? "" : "s"}`, choices);
  return { ...rest, records: [record, ...rest.records] };
}

/**
 * The served model as the reply names it: ChatOpenAI's `response_metadata.model_name` (the response's `model`) and
 * `system_fingerprint` — "gpt-4o-2024-08-06 fp_50cad350e4"; undefined when the server names neither. A cached reply
 * keeps the metadata it was stored with: the version that made it.
 */
export function servedOf(metadata: Record<string, unknown> | undefined): string | undefined {
  const model = typeof metadata?.model_name === "string" && metadata.model_name ? metadata.model_name : undefined;
  const fingerprint = typeof metadata?.system_fingerprint === "string" && metadata.system_fingerprint ? metadata.system_fingerprint : undefined;
  return model || fingerprint ? [model ?? "?", fingerprint].filter(Boolean).join(" ") : undefined;
}

/**
 * A 200 reply whose `choices` list is empty or missing: LangChain then fails reading `choices[0].message` (a TypeError
 * that names neither endpoint nor model), a stream ends without a chunk (`collectStream`).
 */
const noChoices = (error: unknown): boolean =>
  (error instanceof TypeError && /reading '(message|delta|0|choices)'|choices/.test(error.message)) || (error instanceof Error && error.message === STREAM_WITHOUT_REPLY);

const STREAM_WITHOUT_REPLY = "the stream ended without a reply";

/** First wait after a bare 429; doubles each time. */
const RATE_LIMIT_BASE_DELAY_MS = 2_000;

const statusOf = (error: unknown): number | undefined => {
  const e = error as { status?: unknown; response?: { status?: unknown } } | null;
  const status = e?.status ?? e?.response?.status;
  return typeof status === "number" ? status : undefined;
};

/**
 * LangChain retries 429s only when the server sends a short Retry-After; a bare 429 (common from self-hosted servers
 * under load) fails at once. Retry those here with exponential backoff, never an exhausted quota.
 */
export async function withRateLimitRetries<T>(maxRetries: number, task: () => Promise<T>, baseDelayMs = RATE_LIMIT_BASE_DELAY_MS): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      const quota = /insufficient_quota|quota|billing/i.test(firstLineOf(error));
      if (statusOf(error) !== 429 || quota || attempt >= maxRetries) throw error;
      const delay = Math.min(60_000, baseDelayMs * 2 ** attempt) * (1 + Math.random() / 2);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/**
 * LangChain consults a model's cache only in invoke/generate, never in stream: a streamed call does the same lookup
 * and update itself, under the key LangChain would use (the messages as text; the call's parameters, bound tools too).
 */
async function streamCached(model: BaseChatModel, runnable: Pick<BaseChatModel, "stream">, messages: BaseMessage[], callOptions?: Record<string, unknown>): Promise<AIMessage> {
  const cache = model.cache as BaseCache<Generation[]> | undefined;
  if (!cache || typeof cache !== "object") return collectStream(runnable, messages, callOptions);
  const bound = (runnable as { kwargs?: Record<string, unknown> }).kwargs ?? {};
  const llmKey = (model as unknown as { _getSerializedCacheKeyParametersForCall(o: Record<string, unknown>): string })._getSerializedCacheKeyParametersForCall({ ...bound, ...callOptions });
  const prompt = getBufferString(messages);
  const hit = await cache.lookup(prompt, llmKey);
  const message = (hit?.[0] as ChatGeneration | undefined)?.message;
  if (message) return message as AIMessage;
  const reply = await collectStream(runnable, messages, callOptions);
  await cache.update(prompt, llmKey, [{ text: messageText(reply), message: reply } as ChatGeneration]);
  return reply;
}

/**
 * Streams a reply and joins the chunks. ChatOpenAI's own `streaming: true` invoke estimates token counts with
 * tiktoken, which downloads its tables at run time (hangs offline) and discards the server's usage report;
 * the joined chunks keep the usage the server sent in its last chunk.
 */
async function collectStream(runnable: Pick<BaseChatModel, "stream">, messages: BaseMessage[], callOptions?: Record<string, unknown>): Promise<AIMessage> {
  let joined: AIMessageChunk | undefined;
  for await (const chunk of await runnable.stream(messages, callOptions as never)) joined = joined ? joined.concat(chunk) : chunk;
  if (!joined) throw new Error(STREAM_WITHOUT_REPLY);
  return new AIMessage({ content: joined.content, tool_calls: joined.tool_calls, usage_metadata: joined.usage_metadata, response_metadata: joined.response_metadata });
}

export type StructuredResult<T> =
  | { ok: true; value: T; records: ModelCallRecord[] }
  | { ok: false; error: string; records: ModelCallRecord[] };

const METHOD_ORDER: StructuredMethod[] = ["jsonSchema", "functionCalling", "jsonMode", "text"];

/** A request the server refused because of how structured output was asked for (not a transient failure). */
const isFormatRejection = (error: string) =>
  /\b(400|404|422)\b|response_format|json_schema|tool|function|not supported|unsupported|invalid/i.test(error) &&
  !/\b(429|5\d\d)\b|timeout|timed out|ECONNREFUSED|ECONNRESET/i.test(error);

/**
 * Asks a role for a JSON reply validated by a zod schema. Tries the configured method; with "auto", falls back from
 * strict JSON schema to function calling, JSON mode and plain text as servers refuse each. Invalid replies are sent
 * back with the validation error, at most `maxAttempts` times in all. Never throws for a bad reply.
 */
export async function callStructured<T>(
  models: ModelProvider,
  role: string,
  input: ChatInput[],
  schema: z.ZodType<T>,
  options: { name: string; description?: string; maxAttempts?: number } = { name: "reply" },
): Promise<StructuredResult<T>> {
  const { settings } = models.forRole(role);
  const jsonSchema = sentJsonSchema(schema);
  const cacheKey = `${role}:${settings.model}`;
  const configured = settings.structuredMethod;
  // Under "auto", the first call of a role finds out which method the server takes; calls made meanwhile (the other
  // questions of a concurrent run) wait for it rather than each sending the refused format again.
  let probeDone: (() => void) | undefined;
  if (configured === "auto" && !models.structuredMethodCache.has(cacheKey)) {
    const inFlight = probesOf(models.structuredMethodCache);
    const running = inFlight.get(cacheKey);
    if (running) await running;
    else inFlight.set(cacheKey, new Promise<void>((resolve) => (probeDone = () => {
      inFlight.delete(cacheKey);
      resolve();
    })));
  }
  try {
    return await structuredAttempts(models, role, input, schema, options, { jsonSchema, cacheKey, configured });
  } finally {
    probeDone?.();
  }
}

/**
 * The JSON schema a structured ask sends for a zod schema: draft-7, every object's properties required and no others
 * (zod's output form), without `default` annotations (strict structured-output modes refuse them; the zod schema
 * still fills a field a looser reply leaves out) nor zod's safe-integer bounds.
 */
export function sentJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return withoutDefaults(z.toJSONSchema(schema, { target: "draft-7" })) as Record<string, unknown>;
}

function withoutDefaults(node: unknown, names = false): unknown {
  if (Array.isArray(node)) return node.map((n) => withoutDefaults(n));
  if (!node || typeof node !== "object") return node;
  // Under `properties` (and definitions) the keys are names, not keywords: a property may be called "default".
  // zod's integer bounds (±2^53 - 1) say nothing a JSON integer does not: left out too.
  const safeBounds = !names && (node as { minimum?: unknown }).minimum === Number.MIN_SAFE_INTEGER && (node as { maximum?: unknown }).maximum === Number.MAX_SAFE_INTEGER;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k]) => names || (k !== "default" && !(safeBounds && (k === "minimum" || k === "maximum"))))
      .map(([k, v]) => [k, withoutDefaults(v, !names && (k === "properties" || k === "definitions" || k === "$defs"))]),
  );
}

const probes = new WeakMap<Map<string, StructuredMethod>, Map<string, Promise<void>>>();
const probesOf = (learnt: Map<string, StructuredMethod>) => {
  let inFlight = probes.get(learnt);
  if (!inFlight) probes.set(learnt, (inFlight = new Map()));
  return inFlight;
};

async function structuredAttempts<T>(
  models: ModelProvider,
  role: string,
  input: ChatInput[],
  schema: z.ZodType<T>,
  options: { name: string; description?: string; maxAttempts?: number },
  how: { jsonSchema: Record<string, unknown>; cacheKey: string; configured: StructuredMethod | "auto" },
): Promise<StructuredResult<T>> {
  const { jsonSchema, cacheKey, configured } = how;
  let methods: StructuredMethod[] =
    configured === "auto" ? METHOD_ORDER.slice(METHOD_ORDER.indexOf(models.structuredMethodCache.get(cacheKey) ?? "jsonSchema")) : [configured];
  const records: ModelCallRecord[] = [];
  const maxAttempts = options.maxAttempts ?? STRUCTURED_MAX_ATTEMPTS;
  let conversation = toMessages(input);
  let lastError = "no attempt made";

  for (let attempt = 0; attempt < maxAttempts && methods.length; ) {
    const method = methods[0]!;
    const prompt = method === "jsonMode" || method === "text" ? withJsonInstruction(conversation, jsonSchema) : conversation;
    const call = await callModel(models, role, prompt, requestFor(method, options.name, options.description, jsonSchema));
    records.push(call.record);
    if (!call.ok) {
      lastError = call.record.error ?? "model call failed";
      if (configured === "auto" && methods.length > 1 && isFormatRejection(lastError)) {
        // A refused format is not the model's fault (no attempt spent) nor a call without a reply: the fallback
        // answers, so the record says what was refused, not "model call failed" (which would fail the question).
        if (lastError.startsWith("model call failed: ")) call.record.error = `the server refused ${method} (fell back to ${methods[1]}): ${lastError.slice("model call failed: ".length)}`;
        methods = methods.slice(1);
        continue;
      }
      attempt++;
      continue;
    }
    if (configured === "auto") models.structuredMethodCache.set(cacheKey, method);
    const parsed = extractJson(call.text);
    const validated = parsed.ok ? schema.safeParse(parsed.value) : undefined;
    if (validated?.success) return { ok: true, value: validated.data, records };
    lastError = !parsed.ok
      ? parsed.error
      : `reply does not match the schema: ${validated?.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).slice(0, 3).join("; ")}`;
    call.record.error = lastError;
    attempt++;
    conversation = [
      ...conversation,
      new AIMessage(stripThinking(call.text).slice(0, 4000)),
      new HumanMessage(`That reply was not usable (${lastError}). Reply again with only a JSON object that matches the schema.`),
    ];
  }
  return { ok: false, error: lastError, records };
}

function withJsonInstruction(messages: BaseMessage[], jsonSchema: Record<string, unknown>): BaseMessage[] {
  const instruction = `Reply with a single JSON object (no prose) that matches this JSON schema:\n${JSON.stringify(jsonSchema)}`;
  return [...messages, new HumanMessage(instruction)];
}

function requestFor(method: StructuredMethod, name: string, description: string | undefined, jsonSchema: Record<string, unknown>) {
  const fnName = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "reply";
  switch (method) {
    case "jsonSchema":
      return {
        method,
        callOptions: { response_format: { type: "json_schema", json_schema: { name: fnName, description, schema: jsonSchema, strict: true } } },
      };
    case "functionCalling":
      return {
        method,
        bindTools: [{ type: "function", function: { name: fnName, description: description ?? `Return the ${name}.`, parameters: jsonSchema } }],
        toolChoice: { type: "function", function: { name: fnName } },
      };
    case "jsonMode":
      return { method, callOptions: { response_format: { type: "json_object" } } };
    default:
      return { method };
  }
}
