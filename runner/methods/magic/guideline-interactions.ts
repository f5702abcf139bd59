// interactions.jsonl of a guideline run: a line per agent call (the shape of the authors' released interactions),
// read back from a finished cycle's checkpoint history, and the stale lines a resumed run drops.
import { readJsonLines } from "../../run/atomic-files.ts";
import type { ModelCallRecord } from "../../../state/usage.ts";
import type { MagicRecord } from "../../../state/magic-record.ts";
import type { MagicFeedbackValue } from "../../../state/magic.ts";

export const INTERACTIONS = "interactions.jsonl";

/** One line of interactions.jsonl: one agent call (the shape of the authors' released interactions). */
export interface Interaction {
  questionId: string | null;
  agent: string;
  node?: string;
  iteration?: number;
  batch?: number;
  prompt: { role: string; content: string }[];
  reply: string;
  success: boolean;
  error?: string;
  inputTokens: number;
  outputTokens: number;
}

/** A checkpoint of a feedback cycle's thread, as `getStateHistory` gives it. */
export interface HistorySnapshot {
  values: MagicFeedbackValue;
  tasks: { name: string; result?: unknown }[];
}

/** Which iteration a node's call belongs to, from the iterations done when it ran. */
const iterationOfCall = (node: string | undefined, rounds: number) => (node === "judge" ? rounds : rounds + 1);

/** Every agent call of a finished cycle, oldest first, from the thread's checkpoint history. */
export async function interactionsOf(
  graph: { getStateHistory: (config: unknown) => AsyncIterable<HistorySnapshot> },
  thread: string,
  questionId: string,
  final: MagicFeedbackValue,
): Promise<Interaction[]> {
  const snapshots: HistorySnapshot[] = [];
  for await (const snapshot of graph.getStateHistory({ configurable: { thread_id: thread } })) snapshots.push(snapshot);
  const out: Interaction[] = [];
  for (const snapshot of snapshots.reverse()) {
    for (const task of snapshot.tasks) {
      const calls = (task.result as { calls?: ModelCallRecord[] } | undefined)?.calls;
      if (!Array.isArray(calls)) continue;
      const iteration = iterationOfCall(task.name, snapshot.values.rounds ?? 0);
      for (const call of calls) {
        out.push({
          questionId,
          agent: call.role,
          node: task.name,
          iteration,
          prompt: call.messages,
          reply: call.reply,
          success: final.iterations[iteration - 1]?.correct ?? false,
          ...(call.error ? { error: call.error } : {}),
          inputTokens: call.inputTokens,
          outputTokens: call.outputTokens,
        });
      }
    }
  }
  return out;
}

/**
 * Interactions of a question whose result line a kill prevented, of a question that failed (a resumed run runs it
 * again), or of a merge whose snapshot a kill prevented, are written again when that work finishes: dropped at the
 * start of a run so each call has one line.
 */
export function dropUnfinishedInteractions(file: string, done: Map<string, MagicRecord>, merged: (batch: number) => boolean): void {
  readJsonLines(file, (text) =>
    text
      .split("\n")
      .filter((line) => line.trim())
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as Interaction];
        } catch {
          return [];
        }
      })
      .filter((i) =>
        i.questionId !== null
          ? done.has(i.questionId) && done.get(i.questionId)!.error === undefined
          : i.batch !== undefined && merged(i.batch),
      ),
  );
}
