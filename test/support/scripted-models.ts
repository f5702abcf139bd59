import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { DEFAULT_SETTINGS, type ModelProvider, type ResolvedModelSettings, Semaphore } from "../../tools/models/models.ts";
import { messageText } from "../../tools/models/llm.ts";

export interface Shown {
  role: string;
  messages: { role: string; content: string }[];
}

export type Responder =
  | string
  | string[]
  | ((request: { role: string; messages: { role: string; content: string }[]; index: number }) => string | Promise<string>);

/** A chat model that answers from a script and records every prompt it was shown. */
export class ScriptedChatModel extends BaseChatModel {
  private index = 0;
  constructor(
    readonly role: string,
    private readonly responder: Responder,
    private readonly log: Shown[],
    private readonly delayMs = 0,
  ) {
    super({});
  }
  _llmType() {
    return "scripted";
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const shown = messages.map((m) => ({ role: m.getType() === "human" ? "user" : m.getType() === "ai" ? "assistant" : m.getType(), content: messageText(m) }));
    this.log.push({ role: this.role, messages: shown });
    const index = this.index++;
    const r = this.responder;
    const text = typeof r === "string" ? r : Array.isArray(r) ? (r[Math.min(index, r.length - 1)] ?? "") : await r({ role: this.role, messages: shown, index });
    if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const inputTokens = Math.ceil(shown.reduce((n, m) => n + m.content.length, 0) / 4);
    const outputTokens = Math.ceil(text.length / 4);
    const message = new AIMessage({
      content: text,
      usage_metadata: { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
    });
    return { generations: [{ text, message }] };
  }
}

export interface ScriptedProvider extends ModelProvider {
  /** Every prompt, in call order, with the role that was shown it. */
  shown: Shown[];
  /** The prompts one role was shown. */
  shownTo(role: string): Shown[];
}

/** A ModelProvider whose roles answer from scripts. A role without a script fails loudly. */
export function scriptedProvider(script: Record<string, Responder>, options: { delayMs?: number; maxConcurrency?: number; temperature?: number } = {}): ScriptedProvider {
  const shown: Shown[] = [];
  const models = new Map<string, ScriptedChatModel>();
  const settings = (role: string): ResolvedModelSettings => ({ ...DEFAULT_SETTINGS, model: `scripted-${role}`, structuredMethod: "text", ...(options.temperature !== undefined ? { temperature: options.temperature } : {}) });
  return {
    shown,
    shownTo: (role) => shown.filter((s) => s.role === role),
    limiter: new Semaphore(options.maxConcurrency ?? 64),
    structuredMethodCache: new Map(),
    forRole(role) {
      const responder = script[role] ?? script["*"];
      if (responder === undefined) throw new Error(`scripted provider has no script for role '${role}'`);
      let model = models.get(role);
      if (!model) models.set(role, (model = new ScriptedChatModel(role, responder, shown, options.delayMs)));
      return { model, settings: settings(role) };
    },
    describe: () => ({ model: "scripted", roles: Object.keys(script) }),
  };
}
