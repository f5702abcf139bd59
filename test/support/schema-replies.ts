/**
 * A schema-only stand-in for a model under constrained decoding (OpenAI structured outputs, vLLM, llama.cpp): a
 * structured request is answered with a value its JSON schema allows — `response_format.json_schema.schema`, or the
 * forced tool's `parameters` — and nothing the validator might want beyond it. Every choice the schema leaves open
 * (which enum member, which branch of anyOf, how many items between minItems and maxItems, an optional property, a
 * repeated item, null) is drawn from a seeded generator, so a run is reproducible and many runs cover many shapes.
 *
 * Free strings and numbers are where a real model writes content: `vocabulary: "prompt"` draws them mostly from the
 * request's own quoted values, example values and numbers (as a model copies its prompt), with odd ones mixed in;
 * `"odd"` draws only odd ones (empty, blank, long, quotes, unicode, negative, fractions), for property tests.
 */
import type { ChatRequestRecord, ScriptedReply } from "./openai-server.ts";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown>;

import { seededRandom } from "../../tools/hash.ts";

export { seededRandom };

export interface SampleOptions {
  rng: () => number;
  /** Strings to draw from besides the odd ones (a prompt's values). */
  words?: string[];
  /** Numbers to draw from besides small and odd ones. */
  numbers?: number[];
  /** Items an array gets at most beyond its minItems when it has no maxItems. */
  extraItems?: number;
  /** Values the nearest description offers (`e.g. …`), drawn first for a string or number. */
  offered?: (string | number)[];
}

/** The JSON values after "e.g." in a description. */
function offeredValues(description: string): (string | number)[] {
  const list = /e\.g\. (.*)$/s.exec(description)?.[1] ?? "";
  const out: (string | number)[] = [];
  for (const m of list.matchAll(/"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?)/g)) out.push(m[1] !== undefined ? (JSON.parse(`"${m[1]}"`) as string) : Number(m[2]));
  return out;
}

const ODD_STRINGS = ["", " ", "x", "NULL", "null", "O'Brien", 'say "hi"', "ünïcödé 名前", "line\nbreak", "```", "a".repeat(320), "  padded  "];
const ODD_NUMBERS = [0, -1, 1.5, 1e9, -273.15];

/** How often a value that may be null is, besides picking the null branch among the others. */
const NULL_SHARE = 0.15;

const pick = <T>(rng: () => number, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;

/** A value `schema` allows (the keywords of draft-7 that structured-output modes use; others are ignored). */
export function sampleFromSchema(schema: unknown, options: SampleOptions, root: unknown = schema): Json {
  const { rng } = options;
  if (schema === true || schema === undefined) return sampleScalar(options);
  if (!schema || typeof schema !== "object") return null;
  const s = schema as Schema;
  // Values the schema's own description offers ("e.g. 'France', 3"): what a model reading it would mostly write.
  const offered = typeof s.description === "string" ? offeredValues(s.description) : [];
  if (offered.length) options = { ...options, offered };
  if (typeof s.$ref === "string") return sampleFromSchema(resolveRef(root, s.$ref), options, root);
  if ("const" in s) return s.const as Json;
  if (Array.isArray(s.enum)) return pick(rng, s.enum) as Json;
  for (const key of ["anyOf", "oneOf"] as const) {
    if (!Array.isArray(s[key])) continue;
    // null is one branch among others, taken now and then (as a model writes null where it may, but seldom).
    const branches = s[key] as Schema[];
    const others = branches.filter((b) => b?.type !== "null");
    return sampleFromSchema(others.length && others.length < branches.length && rng() >= NULL_SHARE ? pick(rng, others) : pick(rng, branches), options, root);
  }
  if (Array.isArray(s.allOf)) return sampleFromSchema(Object.assign({}, ...(s.allOf as Schema[])), options, root);
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : inferTypes(s);
  const nonNull = types.filter((t) => t !== "null");
  const type = nonNull.length && nonNull.length < types.length && rng() >= NULL_SHARE ? pick(rng, nonNull) : pick(rng, types);
  switch (type) {
    case "null":
      return null;
    case "boolean":
      return rng() < 0.5;
    case "integer":
      return Math.round(sampleNumber(s, options, true));
    case "number":
      return sampleNumber(s, options, false);
    case "string":
      return sampleString(s, options);
    case "array":
      return sampleArray(s, options, root);
    case "object":
      return sampleObject(s, options, root);
    default:
      return sampleScalar(options);
  }
}

function inferTypes(s: Schema): string[] {
  if (s.properties || s.required || "additionalProperties" in s) return ["object"];
  if (s.items || s.prefixItems || "minItems" in s || "maxItems" in s) return ["array"];
  return ["null", "boolean", "number", "string"];
}

function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return true;
  return ref
    .slice(1)
    .split("/")
    .filter(Boolean)
    .reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Schema)[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined), root);
}

function sampleScalar(options: SampleOptions): Json {
  const r = options.rng();
  return r < 0.2 ? null : r < 0.3 ? options.rng() < 0.5 : r < 0.6 ? sampleNumber({}, options, false) : sampleString({}, options);
}

function sampleNumber(s: Schema, options: SampleOptions, integer: boolean): number {
  const { rng } = options;
  const r = rng();
  const offered = (options.offered ?? []).filter((v): v is number => typeof v === "number" && (!integer || Number.isInteger(v)));
  let n =
    offered.length && r < 0.75 ? pick(rng, offered) :
    options.numbers?.length && r < 0.6 ? pick(rng, options.numbers) : r < 0.85 ? 1 + Math.floor(rng() * 5) : pick(rng, ODD_NUMBERS);
  if (integer) n = Math.round(n);
  const min = typeof s.minimum === "number" ? s.minimum : typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum + (integer ? 1 : 1e-6) : undefined;
  const max = typeof s.maximum === "number" ? s.maximum : typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum - (integer ? 1 : 1e-6) : undefined;
  if (min !== undefined && n < min) n = min;
  if (max !== undefined && n > max) n = max;
  return n;
}

function sampleString(s: Schema, options: SampleOptions): string {
  const { rng } = options;
  const r = rng();
  const words = options.words?.length ? options.words : undefined;
  const offered = (options.offered ?? []).filter((v): v is string => typeof v === "string");
  let text = offered.length && r < 0.75 ? pick(rng, offered) : words && r < 0.8 ? pick(rng, words) : r < (words ? 0.8 : 0.3) ? `w${Math.floor(rng() * 1000)}` : pick(rng, ODD_STRINGS);
  const minLength = typeof s.minLength === "number" ? s.minLength : 0;
  const maxLength = typeof s.maxLength === "number" ? s.maxLength : Number.POSITIVE_INFINITY;
  if (text.length < minLength) text = text.padEnd(minLength, "y");
  if (text.length > maxLength) text = text.slice(0, maxLength);
  return text;
}

function sampleArray(s: Schema, options: SampleOptions, root: unknown): Json[] {
  const { rng } = options;
  const tuple = Array.isArray(s.prefixItems) ? (s.prefixItems as unknown[]) : Array.isArray(s.items) ? (s.items as unknown[]) : undefined;
  if (tuple) return tuple.map((item) => sampleFromSchema(item, options, root));
  const min = typeof s.minItems === "number" ? s.minItems : 0;
  const max = typeof s.maxItems === "number" ? s.maxItems : min + (options.extraItems ?? 4);
  // The bounds themselves often: a constrained decoder stops as soon as, or as late as, it may.
  const r = rng();
  const length = r < 0.2 ? min : r < 0.35 ? max : min + Math.floor(rng() * (max - min + 1));
  const out: Json[] = [];
  for (let i = 0; i < length; i++) {
    // A repeat of an earlier item now and then: nothing but `uniqueItems` forbids it.
    out.push(out.length && rng() < 0.15 ? structuredClone(pick(rng, out)) : sampleFromSchema(s.items, options, root));
  }
  return out;
}

function sampleObject(s: Schema, options: SampleOptions, root: unknown): { [key: string]: Json } {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const out: { [key: string]: Json } = {};
  for (const [name, sub] of Object.entries(properties)) {
    if (required.has(name) || options.rng() < 0.5) out[name] = sampleFromSchema(sub, { ...options, offered: undefined }, root);
  }
  return out;
}

/** Quoted values, the question's words and the numbers of a request's messages: what a model filling the schema would copy. */
export function promptVocabulary(req: ChatRequestRecord): { words: string[]; numbers: number[] } {
  const text = req.messages.map((m) => m.content).join("\n");
  const words = new Set<string>();
  for (const m of text.matchAll(/'((?:[^'\n]|'')+)'|"([^"\n]{1,60})"/g)) {
    const w = (m[1] ?? m[2] ?? "").replace(/''/g, "'").trim();
    if (w && w.length <= 60) words.add(w);
  }
  // The question's own words, as a model picking keywords or values out of it would copy them.
  const question = [...text.matchAll(/^Question: (.*)$/gm)].at(-1)?.[1] ?? "";
  for (const w of question.split(/[^\p{L}\p{N}_'-]+/u)) if (w.length >= 3) words.add(w);
  const numbers = new Set<number>();
  for (const m of text.matchAll(/(?<![\w.])(-?\d+(?:\.\d+)?)(?![\w.])/g)) {
    const n = Number(m[1]);
    if (Number.isFinite(n) && Math.abs(n) < 1e7) numbers.add(n);
  }
  return { words: [...words], numbers: [...numbers] };
}

/** The JSON schema a structured request asks its reply to match, and how to send the reply back; undefined for a plain request. */
export function requestedSchema(req: ChatRequestRecord): { schema: unknown; name: string; as: "content" | "tool" } | undefined {
  const format = req.body?.response_format;
  if (format?.type === "json_schema" && format.json_schema) return { schema: format.json_schema.schema ?? true, name: format.json_schema.name, as: "content" };
  const tools = Array.isArray(req.body?.tools) ? (req.body.tools as { function?: { name: string; parameters?: unknown } }[]) : [];
  const forced = req.body?.tool_choice?.function?.name as string | undefined;
  const tool = tools.find((t) => t.function && (!forced || t.function.name === forced))?.function;
  if (tool) return { schema: tool.parameters ?? true, name: tool.name, as: "tool" };
  return undefined;
}

/**
 * A value `schema` allows that keeps as much of `intent` (what a model would write unconstrained) as the schema
 * allows, as constrained decoding over that model would: a property, item or scalar the schema takes is kept; one it
 * does not take is left out (a property), cut (items past maxItems) or made anew (`sampleFromSchema`), and what
 * the schema requires and the intent lacks (a property, items up to minItems) is made anew.
 */
export function fitToSchema(schema: unknown, intent: unknown, options: SampleOptions, root: unknown = schema): Json {
  if (intent === undefined || schema === true || schema === undefined) return intent === undefined ? sampleFromSchema(schema, options, root) : (intent as Json);
  if (!schema || typeof schema !== "object") return sampleFromSchema(schema, options, root);
  const s = schema as Schema;
  if (typeof s.$ref === "string") return fitToSchema(resolveRef(root, s.$ref), intent, options, root);
  if ("const" in s) return s.const as Json;
  if (Array.isArray(s.enum)) return s.enum.some((v) => JSON.stringify(v) === JSON.stringify(intent)) ? (intent as Json) : sampleFromSchema(s, options, root);
  for (const key of ["anyOf", "oneOf"] as const) {
    if (!Array.isArray(s[key])) continue;
    const branch = (s[key] as unknown[]).find((b) => takesType(b, intent));
    return branch ? fitToSchema(branch, intent, options, root) : sampleFromSchema(s, options, root);
  }
  if (!takesType(s, intent)) return sampleFromSchema(s, options, root);
  if (Array.isArray(intent)) {
    const min = typeof s.minItems === "number" ? s.minItems : 0;
    const max = typeof s.maxItems === "number" ? s.maxItems : Number.POSITIVE_INFINITY;
    const kept = intent.slice(0, max).map((item) => fitToSchema(s.items, item, options, root));
    while (kept.length < min) kept.push(sampleFromSchema(s.items, options, root));
    return kept;
  }
  if (intent && typeof intent === "object") {
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const given = intent as Record<string, unknown>;
    const out: { [key: string]: Json } = {};
    for (const [name, sub] of Object.entries(properties)) {
      if (name in given) out[name] = fitToSchema(sub, given[name], options, root);
      else if (required.has(name)) out[name] = sampleFromSchema(sub, { ...options, offered: undefined }, root);
    }
    return out;
  }
  if (typeof intent === "string") {
    const ok = (typeof s.minLength !== "number" || intent.length >= s.minLength) && (typeof s.maxLength !== "number" || intent.length <= s.maxLength);
    return ok ? intent : sampleFromSchema(s, options, root);
  }
  if (typeof intent === "number") {
    const ok = (typeof s.minimum !== "number" || intent >= s.minimum) && (typeof s.maximum !== "number" || intent <= s.maximum);
    return ok ? intent : sampleFromSchema(s, options, root);
  }
  return intent as Json;
}

/** Whether `schema`'s type (draft-7 `type`, or none) admits `value`'s JSON type. */
function takesType(schema: unknown, value: unknown): boolean {
  if (schema === true || schema === undefined) return true;
  if (!schema || typeof schema !== "object") return false;
  const s = schema as Schema;
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) return ((s.anyOf ?? s.oneOf) as unknown[]).some((b) => takesType(b, value));
  if (Array.isArray(s.enum)) return s.enum.some((v) => JSON.stringify(v) === JSON.stringify(value));
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : undefined;
  if (!types) return true;
  const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : typeof value;
  return types.includes(kind) || (kind === "integer" && types.includes("number"));
}

export interface SchemaOnlyOptions {
  seed: number;
  /**
   * "random" (default): every value drawn from the schema. "fit": what `respond` would answer (its JSON), kept where
   * the schema takes it and made anew where not (`fitToSchema`): a model's content under constrained decoding.
   */
  content?: "random" | "fit";
  /** Where free strings and numbers come from (default "prompt"). */
  vocabulary?: "prompt" | "odd";
  /** Told of every reply made from a schema (the scripted agents keep the data agent's rows for its coder). */
  onReply?: (req: ChatRequestRecord, value: Json) => void;
}

/**
 * A responder for structured requests alone: a reply from the request's schema, or undefined for a plain request.
 * `intent` is what the scripted model would have answered (used under `content: "fit"`).
 */
export function schemaOnlyResponder(options: SchemaOnlyOptions): (req: ChatRequestRecord, intent?: ScriptedReply) => ScriptedReply | undefined {
  return (req, intent) => {
    const asked = requestedSchema(req);
    if (!asked) return undefined;
    // Seeded by the request too: the same request gets the same reply whatever order concurrent questions arrive in.
    const rng = seededRandom(options.seed ^ hashText(JSON.stringify(req.messages)));
    const vocabulary = options.vocabulary === "odd" ? {} : promptVocabulary(req);
    const wish = options.content === "fit" && intent ? jsonOf(intent) : undefined;
    const value = wish === undefined ? sampleFromSchema(asked.schema, { rng, ...vocabulary }) : fitToSchema(asked.schema, wish, { rng, ...vocabulary });
    options.onReply?.(req, value);
    const text = JSON.stringify(value);
    return asked.as === "tool" ? { toolCall: { name: asked.name, arguments: text } } : { content: text };
  };
}

/** FNV-1a of a text, 32 bits. */
function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The JSON of a scripted reply (its content, a ```json block in it, or a tool call's arguments); undefined when none parses. */
function jsonOf(reply: ScriptedReply): unknown {
  const text = "content" in reply ? reply.content : "toolCall" in reply ? reply.toolCall.arguments : "";
  for (const candidate of [/```(?:json)?\s*\n([\s\S]*?)```/.exec(text)?.[1], text, /\{[\s\S]*\}/.exec(text)?.[0]]) {
    if (!candidate) continue;
    try {
      return JSON.parse(candidate);
    } catch {
      // next
    }
  }
  return undefined;
}
