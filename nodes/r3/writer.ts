import type { NodeDeps } from "../types.ts";
import { callModel } from "../../tools/models/llm.ts";
import { extractSql, stripThinking } from "../../tools/reply.ts";
import type { ModelCallRecord } from "../../state/usage.ts";
import type { HistoryTurn, R3StateValue } from "../../state/r3.ts";
import { openingTurn, type Reasoning, writerMessages, writerSystem } from "./prompts.ts";

/** Rough token count (4 characters a token): no tokenizer tables are needed offline, and the budget is a soft limit. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/**
 * The later turns of H that fit the budget with the system prompt and the opening turn (question and schema, never
 * cut): oldest first out; the newest turn always stays.
 */
export function fitHistory(fixed: string[], turns: HistoryTurn[], budget: number): { turns: HistoryTurn[]; dropped: number } {
  let total = fixed.reduce((n, text) => n + estimateTokens(text), 0) + turns.reduce((n, t) => n + estimateTokens(t.content), 0);
  let start = 0;
  while (total > budget && start < turns.length - 1) total -= estimateTokens(turns[start++]!.content);
  return { turns: turns.slice(start), dropped: start };
}

/** As a writer turn in H: the SQL a corrector was given stands as the writer's first answer. */
export const sqlTurn = (sql: string, round: number): HistoryTurn => ({ role: "assistant", kind: "sql", round, content: `\`\`\`sql\n${sql}\n\`\`\`` });

export interface WriterTurn {
  /** The SQL of the reply, or null when it held none (or the call failed). */
  sql: string | null;
  /** New turns for H: the seed (corrector's given SQL), the new user turn, the writer's reply. */
  turns: HistoryTurn[];
  record: ModelCallRecord;
  /** Later turns of H left out of this prompt for the budget. */
  dropped: number;
}

/** One writer call on H (+ a new user turn): the writer's memory across the debug and review loops. */
export async function askWriter(
  deps: NodeDeps,
  state: R3StateValue,
  opts: { reasoning: Reasoning; historyTokens: number },
  next?: HistoryTurn,
): Promise<WriterTurn> {
  const seed = state.history.length === 0 && state.sql ? [sqlTurn(state.sql, 0)] : [];
  const opening = openingTurn({ schemaText: state.schemaText, question: state.question, evidence: state.evidence, shots: state.shots });
  const all = [...state.history, ...seed, ...(next ? [next] : [])];
  const { turns, dropped } = fitHistory([writerSystem(opts.reasoning), opening], all, opts.historyTokens);
  const call = await callModel(deps.models, "writer", writerMessages(opts.reasoning, opening, turns));
  const sql = call.ok ? extractSql(call.text) : null;
  if (!sql) call.record.error = call.record.error ?? "reply holds no SQL";
  const round = next?.round ?? state.rounds;
  const reply: HistoryTurn[] = call.ok && call.text.trim() ? [{ role: "assistant", kind: "sql", round, content: stripThinking(call.text) }] : [];
  return { sql, turns: [...seed, ...(next ? [next] : []), ...reply], record: call.record, dropped };
}

export const droppedNote = (dropped: number): string | undefined => (dropped ? `history cut to the budget: ${dropped} oldest turn${dropped > 1 ? "s" : ""} left out` : undefined);
