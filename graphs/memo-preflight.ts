import path from "node:path";
import { graphOpt, optionUserError } from "../core/config.ts";
import { readOptions } from "../core/options.ts";
import { MEMO_CORRECTION_OPTIONS } from "../nodes/memo/options.ts";
import { MemoryStore } from "../tools/retrieval/memory-store.ts";
import type { RunPreflight } from "./spec.ts";

/**
 * memo-sql's and memo-refine's check before an eval: the memory must not hold the evaluated benchmark's answers — no
 * entry built from the evaluated benchmark and split (any of its questions: Spider's dev is largely paraphrase pairs
 * sharing their gold SQL, so dev 1's entry is dev 0's answer), none made from an evaluated question's text, none whose
 * gold SQL (canonical spelling, same database) is an evaluated question's gold, none from an evaluated question's
 * database (a paraphrase with its gold rewritten passes the text and gold guards) (`MemoryStore.entriesFrom`). The
 * per-question self-exclusion hides only the question's own entry. Refused unless `--allow-memory-overlap`; either way
 * the report records the memory's identity and size, and what overlaps.
 */
export function memoPreflight(run: RunPreflight): Record<string, unknown> {
  const o = readOptions(MEMO_CORRECTION_OPTIONS, run.options);
  // (With --allow-memory-overlap, each question's outcome counts the entries of its own database shown to its critics.)
  if (!o.memory || o.retrieval === "none") return { memory: o.memory ? `${o.memory} (not read: --retrieval none)` : "none" };
  const store = MemoryStore.open(path.resolve(run.cwd, o.memory), { readonly: true });
  try {
    const identity = store.identity();
    const overlap = store.entriesFrom(run.questions, { bench: run.bench, split: run.split, questions: run.questionsFile });
    // Evaluated questions the memory could answer: named by an entry, or whose database entries come from.
    const fromDb = new Set(overlap.filter((x) => x.how === "database").map((x) => x.entry.dbId));
    const questions = [...new Set([...overlap.flatMap((x) => (x.question === null ? [] : [x.question])), ...run.questions.filter((q) => fromDb.has(q.dbId)).map((q) => q.id)])];
    const count = (how: string) => overlap.filter((x) => x.how === how).length;
    const kinds = [
      count("split") ? `${count("split")} built from the evaluated split (${run.split})` : "",
      count("question") ? `${count("question")} made from an evaluated question's text` : "",
      count("gold") ? `${count("gold")} whose gold SQL is an evaluated question's` : "",
      count("database") ? `${count("database")} from an evaluated question's database (${[...fromDb].join(", ")})` : "",
    ].filter(Boolean);
    const what = `${overlap.length} entr${overlap.length === 1 ? "y" : "ies"} that could give evaluated questions their answer: ${kinds.join("; ")}${questions.length ? ` (evaluated questions hit: ${questions.length}, first: ${questions.slice(0, 5).join(", ")})` : ""}`;
    if (overlap.length && !o.allowMemoryOverlap) {
      throw optionUserError`the memory ${o.memory} holds ${what}; build it from another split, or pass ${graphOpt("allowMemoryOverlap")} (the report will say so)`;
    }
    return {
      memory: {
        ...identity,
        evaluatedQuestionsInMemory: questions.length,
        overlappingEntries: { split: count("split"), question: count("question"), gold: count("gold"), database: count("database") },
        ...(overlap.length ? { overlapAllowed: `--allow-memory-overlap: ${what}` } : {}),
      },
    };
  } finally {
    store.close();
  }
}
