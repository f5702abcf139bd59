import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { z } from "zod";
import type { ModelCallRecord } from "../../state/usage.ts";
import { type ModelOverrides, type ModelProvider } from "./models.ts";
export type ChatInput = BaseMessage | {
    role: "system" | "user" | "assistant";
    content: string;
};
export declare const toMessages: (input: ChatInput[]) => BaseMessage[];
export declare function messageText(message: BaseMessage): string;
export interface CallResult {
    ok: boolean;
    /** The reply's text with reasoning preambles kept (parsers strip them). Empty on failure. */
    text: string;
    message?: AIMessage;
    record: ModelCallRecord;
}
/**
 * One model call for a role, under the provider's global request cap, with its record (prompt, reply, tokens, latency).
 * Transport failures (after the client's own retries) come back as ok: false; a missing model configuration throws.
 */
export declare function callModel(models: ModelProvider, role: string, input: ChatInput[], options?: {
    callOptions?: Record<string, unknown>;
    method?: string;
    bindTools?: unknown[];
    toolChoice?: unknown;
    overrides?: ModelOverrides;
}): Promise<CallResult>;
/**
 * LangChain retries 429s only when the server sends a short Retry-After; a bare 429 (common from self-hosted servers
 * under load) fails at once. Retry those here with exponential backoff, never an exhausted quota.
 */
export declare function withRateLimitRetries<T>(maxRetries: number, task: () => Promise<T>, baseDelayMs?: number): Promise<T>;
export type StructuredResult<T> = {
    ok: true;
    value: T;
    records: ModelCallRecord[];
} | {
    ok: false;
    error: string;
    records: ModelCallRecord[];
};
/**
 * Asks a role for a JSON reply validated by a zod schema. Tries the configured method; with "auto", falls back from
 * strict JSON schema to function calling, JSON mode and plain text as servers refuse each. Invalid replies are sent
 * back with the validation error, at most `maxAttempts` times in all. Never throws for a bad reply.
 */
export declare function callStructured<T>(models: ModelProvider, role: string, input: ChatInput[], schema: z.ZodType<T>, options?: {
    name: string;
    description?: string;
    maxAttempts?: number;
}): Promise<StructuredResult<T>>;
