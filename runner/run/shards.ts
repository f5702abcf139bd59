import { opt, optionUsageError } from "../../core/config.ts";
import type { Benchmark, Question } from "../../state/question.ts";
import { fileOrder } from "./question-sample.ts";

/**
 * A benchmark split across machines: `eval --shard I/N` runs the questions at positions I-1, I-1+N, I-1+2N, … of the
 * selection in file order (skipped ones counted, so every shard of one selection agrees on the positions), and
 * `sqlmend merge` (runner/eval/merge-shards.ts) joins the N shard folders into the outputs one process would have written.
 */

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) throw optionUsageError`${opt("shard")} takes I/N with 1 <= I <= N (e.g. 2/4), not '${text}'`;
  return { index, count };
}

export const shardName = (shard: Shard) => `${shard.index}/${shard.count}`;

/** The shard's share of a selection: by position in file order over questions and skipped questions together. */
export function shardOf(selection: { questions: Question[]; skipped: Benchmark["skipped"] }, shard: Shard | undefined) {
  if (!shard) return selection;
  const position = new Map(fileOrder([...selection.questions, ...selection.skipped]).map((q, i) => [q.id, i]));
  const mine = (id: string) => position.get(id)! % shard.count === shard.index - 1;
  return { questions: selection.questions.filter((q) => mine(q.id)), skipped: selection.skipped.filter((q) => mine(q.id)) };
}

