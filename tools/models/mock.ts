/**
 * The built-in mock model (`--model mock`): every role answered in process by the mock agents (mock-agents.ts), no
 * server, no key, so a newcomer sees a whole run and its report in seconds. It knows the gold SQL of the questions the
 * runner hands it (never a real model: only this provider receives them) and gets a set share of first answers wrong
 * (`--mock-error-rate`, chosen per question by a hash of its id and the seed), so correction loops have work. Its runs
 * are labelled "mock model — not a measurement", bypass the response cache, and are never compared with real runs.
 */
import { createHash } from "node:crypto";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { Question } from "../../state/question.ts";
import type { Embedder } from "./embeddings.ts";
import { DEFAULT_SETTINGS, type ModelProvider, type ResolvedModelSettings, Semaphore } from "./models.ts";
import { mockAgents, type InitialPlan } from "./mock-agents.ts";

import { MOCK_LABEL, MOCK_MODEL } from "./mock-label.ts";
export { MOCK_LABEL, MOCK_MODEL };
/** The share of questions whose first SQL the mock gets wrong, unless `--mock-error-rate` says otherwise. */
export const DEFAULT_MOCK_ERROR_RATE = 0.3;

export const isMock = (model: string | null | undefined): boolean => model === MOCK_MODEL;

/**
 * A deterministic embedding: character 3-grams of the lower-cased text hashed into `dimensions` buckets,
 * L2-normalised. Texts sharing many 3-grams get a high cosine, like a real model on misspellings.
 */
export function hashedEmbedding(text: string, dimensions = 1024): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const t = ` ${text.toLowerCase()} `;
  for (let i = 0; i + 3 <= t.length; i++) {
    let h = 0x811c9dc5;
    for (let j = i; j < i + 3; j++) h = Math.imul(h ^ t.charCodeAt(j), 0x01000193);
    vector[(h >>> 0) % dimensions]! += 1;
  }
  const norm = Math.sqrt(vector.reduce((n, v) => n + v * v, 0)) || 1;
  return vector.map((v) => v / norm);
}

/** The mock's embedder: hashed 3-grams, local, no cache file needed. */
export function createMockEmbedder(): Embedder {
  return { model: MOCK_MODEL, embed: async (texts) => texts.map((t) => hashedEmbedding(t)) };
}

/** A number in [0, 1) fixed by the seed and the question's id. */
const unit = (seed: number, id: string): number => createHash("sha256").update(`${seed}\u0000${id}`).digest().readUInt32BE(0) / 2 ** 32;

/** Which first answers are wrong: `rate` of the questions, half a wrong result, half SQL that fails. */
export function mockPlan(rate: number, seed: number): (q: Question) => InitialPlan {
  return (q) => {
    const u = unit(seed, q.id);
    return u >= rate ? "right" : u < rate / 2 ? "wrong-result" : "fails";
  };
}

type Answer = (role: string, messages: { role: string; content: string }[]) => string;

const roleOf = (m: BaseMessage) => (m.getType() === "human" ? "user" : m.getType() === "ai" ? "assistant" : m.getType());
const textOf = (m: BaseMessage) => (typeof m.content === "string" ? m.content : m.content.map((p) => ("text" in p ? String(p.text) : "")).join(""));

/** One role of the mock: answers from the agents, counting tokens by characters (4 a token) as a server would. */
class MockChatModel extends BaseChatModel {
  constructor(
    readonly role: string,
    private readonly answer: Answer,
  ) {
    super({});
  }
  _llmType() {
    return "sqlmend-mock";
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const shown = messages.map((m) => ({ role: roleOf(m), content: textOf(m) }));
    const text = this.answer(this.role, shown);
    const inputTokens = Math.ceil(shown.reduce((n, m) => n + m.content.length, 0) / 4);
    const outputTokens = Math.ceil(text.length / 4);
    const message = new AIMessage({ content: text, usage_metadata: { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens } });
    return { generations: [{ text, message }] };
  }
}

export interface MockOptions {
  /** The questions whose gold the mock may answer from, looked up by text (earlier lists win). */
  questions: Question[][];
  /** Share of first answers that are wrong (default `DEFAULT_MOCK_ERROR_RATE`). */
  errorRate?: number;
  /** Picks which questions those are (`--seed`; default 0). */
  seed?: number;
  maxConcurrency?: number;
}

/** The mock as a ModelProvider: every role answered in process; no response cache. */
export function createMockProvider(options: MockOptions): ModelProvider {
  const errorRate = options.errorRate ?? DEFAULT_MOCK_ERROR_RATE;
  const seed = options.seed ?? 0;
  const agents = mockAgents({ questions: options.questions, initial: mockPlan(errorRate, seed) });
  const answer: Answer = (role, messages) => agents.respond({ role, messages }).content;
  const models = new Map<string, MockChatModel>();
  // jsonSchema: the structured prompt goes as it is (the agents read its last user message), the reply is JSON.
  const settings: ResolvedModelSettings = { ...DEFAULT_SETTINGS, model: MOCK_MODEL, structuredMethod: "jsonSchema", maxRetries: 0 };
  return {
    limiter: new Semaphore(options.maxConcurrency ?? 8),
    structuredMethodCache: new Map(),
    forRole(role) {
      let model = models.get(role);
      if (!model) models.set(role, (model = new MockChatModel(role, answer)));
      return { model, settings };
    },
    describe: () => ({ model: MOCK_MODEL, mock: true, mockErrorRate: errorRate, ...(options.seed !== undefined ? { seed } : {}), temperature: 0, roles: {} }),
    endpoints: () => ({ baseURL: "(in process: the mock model)" }),
  };
}
