import path from "node:path";
import { UserError } from "../core/errors.ts";
import { readOptions } from "../core/options.ts";
import { MEMO_CORRECTION_OPTIONS } from "../nodes/memo/options.ts";
import { MemoryStore } from "../tools/retrieval/memory-store.ts";
import type { RunPreflight } from "./spec.ts";

/**
 * memo-sql's and memo-refine's check before an eval: the memory must not hold the questions being evaluated (another
 * evaluated question's gold SQL would reach the critic; the per-question self-exclusion hides only the question's own
 * entry). Refused unless `--allow-memory-overlap`; either way the report records the memory's identity and size.
 */
export function memoPreflight(run: RunPreflight): Record<string, unknown> {
  const o = readOptions(MEMO_CORRECTION_OPTIONS, run.options);
  if (!o.memory || o.retrieval === "none") return { memory: o.memory ? `${o.memory} (not read: --retrieval none)` : "none" };
  const store = MemoryStore.open(path.resolve(run.cwd, o.memory), { readonly: true });
  try {
    const identity = store.identity();
    const overlap = store.entriesFrom(run.questions, { bench: run.bench, split: run.split, questions: run.questionsFile });
    const questions = [...new Set(overlap.map((x) => x.question))];
    if (questions.length && !o.allowMemoryOverlap) {
      throw new UserError(
        `the memory ${o.memory} holds ${overlap.length} entr${overlap.length === 1 ? "y" : "ies"} made from ${questions.length} of the evaluated questions ` +
          `(first: ${questions.slice(0, 5).join(", ")}); build it from another split, or pass --allow-memory-overlap (the report will say so)`,
      );
    }
    return {
      memory: {
        ...identity,
        evaluatedQuestionsInMemory: questions.length,
        ...(questions.length ? { overlapAllowed: `--allow-memory-overlap: ${overlap.length} entries from ${questions.length} evaluated questions could reach the critic (another question's gold SQL)` } : {}),
      },
    };
  } finally {
    store.close();
  }
}
