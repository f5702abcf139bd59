import { z } from "zod";
import { readOptions } from "../../core/options.ts";
import { callStructured } from "../../tools/models/llm.ts";
import type { Persona } from "../../state/r3.ts";
import { withCalls } from "../common.ts";
import { R3_LOOP_OPTIONS } from "./options.ts";
import { morePersonasPrompt, personasPrompt } from "./prompts.ts";
import type { R3NodeFactory } from "./types.ts";

// The shape only: each entry is judged on its own (`sortProposals`), so one repeated or over-long profession costs that
// entry, not the whole panel. No length keywords in the JSON schema either: strict structured-output modes refuse them.
export const PersonasReply = z.object({
  reviewers: z.array(z.object({ profession: z.string(), focus: z.string() })).min(1),
});

/** The proposals that can sit (a profession of 3 to 300 characters, not one already on the panel), and why others cannot. */
function sortProposals(proposals: { profession: string; focus: string }[], taken: Persona[]): { kept: Persona[]; problems: string[] } {
  const seen = new Set(taken.map((p) => p.profession.toLowerCase()));
  const kept: Persona[] = [];
  const problems: string[] = [];
  for (const { profession: raw, focus } of proposals) {
    const profession = raw.trim();
    if (profession.length < 3 || profession.length > 300) problems.push(`a profession of ${profession.length} characters`);
    else if (seen.has(profession.toLowerCase())) problems.push(`"${profession}" twice`);
    else {
      seen.add(profession.toLowerCase());
      kept.push({ profession, focus: focus.trim().slice(0, 500) });
    }
  }
  return { kept, problems };
}

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
 * per question. Each proposal is judged on its own: the distinct, well-formed ones are kept, and when fewer than n
 * remain the model is asked once more for the missing ones only (told which professions are taken). Out: personas
 * (always n: standby reviewers fill what is still missing, and attempts say so), personasStandby (how many did),
 * personasDropped (proposals left out).
 */
export const personasNode: R3NodeFactory = (deps, options) => async (state) => {
  const { reviewers: n } = readOptions(R3_LOOP_OPTIONS, options);
  const prompt = personasPrompt({ schemaText: state.schemaText, question: state.question, evidence: state.evidence, sql: state.sql, n });
  const ask = (input: typeof prompt) => callStructured(deps.models, "persona", input, PersonasReply, { name: "reviewer_personas", description: "The review panel's professions." });
  const first = await ask(prompt);
  const records = [...first.records];
  const sorted = first.ok ? sortProposals(first.value.reviewers, []) : { kept: [], problems: [] };
  const proposed = sorted.kept.slice(0, n);
  const problems = [...sorted.problems];
  let again = "";
  if (first.ok && proposed.length < n) {
    const missing = n - proposed.length;
    const reply = first.records.at(-1)?.reply ?? "";
    const more = await ask(morePersonasPrompt({ asked: prompt, reply, problems: sorted.problems.length ? sorted.problems : [`${proposed.length} of ${n} proposed`], kept: proposed.map((p) => p.profession), missing }));
    records.push(...more.records);
    const added = more.ok ? sortProposals(more.value.reviewers, proposed) : { kept: [], problems: [] };
    problems.push(...added.problems);
    proposed.push(...added.kept.slice(0, missing));
    again = more.ok ? `; asked for ${missing} more, got ${Math.min(missing, added.kept.length)}` : `; asked for ${missing} more: ${more.error}`;
  }
  const personas = panelOf(proposed, n);
  const filled = n - proposed.length;
  const dropped = problems.length;
  const left = dropped ? `${dropped} proposal${dropped > 1 ? "s" : ""} left out (${problems.join("; ")})` : "";
  const standby = filled ? `${filled} standby reviewer${filled > 1 ? "s" : ""} filled the panel` : "";
  const note = !first.ok ? `no usable personas (${first.error}); standby reviewers sit` : [left + again, standby].filter(Boolean).join("; ") || undefined;
  return withCalls(
    { personas, personasStandby: filled, personasDropped: dropped, attempts: [{ node: "persona", sql: state.sql, ok: first.ok, ...(note ? { note } : {}) }] },
    records,
  );
};
