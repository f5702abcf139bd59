import { z } from "zod";
import { readOptions } from "../../core/options.ts";
import { callStructured } from "../../tools/models/llm.ts";
import type { Persona } from "../../state/r3.ts";
import { withCalls } from "../common.ts";
import { R3_LOOP_OPTIONS } from "./options.ts";
import { personasPrompt } from "./prompts.ts";
import type { R3NodeFactory } from "./types.ts";

// Length rules as refinements: they validate (and re-ask) without putting keywords into the JSON schema that strict
// structured-output modes refuse.
const PersonasReply = z.object({
  reviewers: z
    .array(
      z.object({
        profession: z.string().refine((s) => s.trim().length >= 3 && s.length <= 300, "a profession of 3 to 300 characters"),
        focus: z.string().refine((s) => s.length <= 500, "at most 500 characters"),
      }),
    )
    .min(1)
    // The panel's point is different viewpoints: the same profession twice is sent back.
    .refine((list) => new Set(list.map((r) => r.profession.trim().toLowerCase())).size === list.length, "each reviewer a different profession"),
});

/** Used when the model proposes fewer professions than reviewers, or none: a review panel still sits. */
const STANDBY: Persona[] = [
  { profession: "Senior database engineer", focus: "tables, joins, filters and aggregation" },
  { profession: "Data analyst in this database's domain", focus: "whether the result answers the question as asked" },
  { profession: "SQL reviewer", focus: "the columns returned, ordering, DISTINCT, NULLs and ties" },
];

/** Fills a panel of n from the model's proposals, then standby reviewers (numbered when they repeat). */
export function panelOf(proposed: Persona[], n: number): Persona[] {
  const panel = proposed.slice(0, n);
  for (let i = 0; panel.length < n; i++) {
    const base = STANDBY[i % STANDBY.length]!;
    const lap = Math.floor(i / STANDBY.length);
    panel.push(lap ? { ...base, profession: `${base.profession} (${lap + 1})` } : base);
  }
  return panel;
}

/**
 * Slot `persona` (role "persona"): n reviewer professions suited to the schema and the SQL, as validated JSON, once
 * per question. Out: personas (always n: standby reviewers fill in for a short or unusable reply, and attempts say so),
 * personasStandby (how many did).
 */
export const personasNode: R3NodeFactory = (deps, options) => async (state) => {
  const { reviewers: n } = readOptions(R3_LOOP_OPTIONS, options);
  const prompt = personasPrompt({ schemaText: state.schemaText, question: state.question, evidence: state.evidence, sql: state.sql, n });
  const reply = await callStructured(deps.models, "persona", prompt, PersonasReply, { name: "reviewer_personas", description: "The review panel's professions." });
  const proposed = reply.ok ? reply.value.reviewers.map((r) => ({ profession: r.profession.trim(), focus: r.focus.trim() })) : [];
  const personas = panelOf(proposed, n);
  const filled = n - Math.min(n, proposed.length);
  const note = !reply.ok ? `no usable personas (${reply.error}); standby reviewers sit` : filled ? `${filled} standby reviewer${filled > 1 ? "s" : ""} filled the panel` : undefined;
  return withCalls({ personas, personasStandby: filled, attempts: [{ node: "persona", sql: state.sql, ok: reply.ok, ...(note ? { note } : {}) }] }, reply.records);
};
