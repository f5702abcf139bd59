import { R3_LOOP_OPTIONS, R3_OPTIONS } from "../../nodes/r3/options.ts";
import { readOptions } from "../../core/options.ts";
import { defineManifest } from "./manifest.ts";
import { SHARED_SLOT_INFO as S } from "./shared.ts";

/** R³'s agents as slots (after `schema`); `write` only in the generator. */
const LOOP_SLOTS = {
  execute: S.execute,
  debug: { summary: "the writer rewrites SQL that failed to execute, error appended to its history (role: writer)", requires: ["fixRounds", "roundDebugTurns"] },
  persona: { summary: "n reviewer professions suited to the schema and SQL, once per question (role: persona)", requires: ["personas"] },
  review: { summary: "one reviewer, in its persona, reviews the SQL and its result table; n run in parallel (role: reviewer)", requires: ["reviews"] },
  revise: { summary: "the writer reads the reviews and revises, or rebuts and keeps its SQL (role: writer)", requires: ["rounds", "roundLog"] },
  finish: { summary: "records why the loop stopped", requires: ["stopReason"] },
} as const;

export const r3Manifest = defineManifest({
  name: "r3",
  summary: "R³: a SQL writer with memory and n generated reviewer personas review, rebut and revise until consensus",
  kind: "generator",
  slots: {
    schema: S.schema,
    write: { summary: "the writer's first SQL, with k similar training examples (role: writer)" },
    ...LOOP_SLOTS,
  },
  options: R3_OPTIONS,
  needsExamples: (options: Record<string, unknown>) => {
    const k = readOptions(R3_OPTIONS, options).kShot;
    return k > 0 ? `r3 --k-shot ${k}${options.kShot === undefined ? " (the default; --k-shot 0 for zero-shot)" : ""}` : undefined;
  },
});

export const r3ReviewManifest = defineManifest({
  name: "r3-review",
  summary: "corrector: R³'s review loop (debug, personas, n reviewers, rebuttal or revision) on the given SQL",
  kind: "corrector",
  slots: { schema: S.schema, ...LOOP_SLOTS },
  options: R3_LOOP_OPTIONS,
});
