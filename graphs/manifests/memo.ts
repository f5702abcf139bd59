import { MEMO_REFINE_OPTIONS, MEMO_SQL_OPTIONS } from "../../nodes/memo/options.ts";
import { readOptions } from "../../core/options.ts";
import { defineManifest } from "./manifest.ts";
import { SHARED_SLOT_INFO as S } from "./shared.ts";

/** Memo-SQL's own slots (their nodes take a branch payload and return a Command: see ARCHITECTURE.md). */
const CORRECTION_SLOTS = {
  critic: { summary: "memory-guided verdict on a candidate: wrong?, error types, suggestions (role: critic)", returns: "Command", routesTo: ["refine", "vote"] },
  refine: { summary: "rewrite a candidate per the critic (role: refiner)", returns: "Command", routesTo: ["critic", "vote"] },
} as const;

/** memo-sql's and memo-refine's vote: a gate, so it routes even while it waits. */
const VOTE_CONTRACT = { returns: "Command", routesTo: ["__end__", "nowhere (goto: []) while candidates are pending"] } as const;

export const memoSqlManifest = defineManifest({
  name: "memo-sql",
  summary: "Memo-SQL: 3 decompositions × ReAct+Reflect × 3 SQL styles, memory-guided critic↔refiner, majority vote",
  kind: "generator",
  options: MEMO_SQL_OPTIONS,
  needsExamples: (values: Record<string, unknown>) => {
    const o = readOptions(MEMO_SQL_OPTIONS, values);
    return !o.noIcl && o.exemplars > 0 ? `memo-sql: ${o.exemplars} exemplars per style (--no-icl to go without)` : undefined;
  },
  slots: {
    link: S.link,
    schema: S.schema,
    decompose: { summary: "one decomposition per paradigm, or the fallback (role: decomposer)", returns: "Command", routesTo: ["act", "write"] },
    act: { summary: "reason → sub-SQL → execute for one sub-question (role: solver)", returns: "Command", routesTo: ["act", "reflect", "write"] },
    reflect: { summary: "check the current sub-SQL against the earlier steps (role: reflector)", returns: "Command", routesTo: ["act", "revise", "write"] },
    revise: { summary: "rewrite a sub-SQL once after a reflection found a problem (role: solver)", returns: "Command", routesTo: ["act", "write"] },
    write: { summary: "final SQL of a path in one style, with retrieved exemplars (role: writer)", returns: "Command", routesTo: ["collect"] },
    collect: { summary: "gate: wait for every candidate, then one critic each", returns: "Command", routesTo: ["critic", "vote", "nowhere (goto: []) while candidates are pending"] },
    ...CORRECTION_SLOTS,
    vote: { summary: "gate: wait for every candidate to be final, then majority vote over results", ...VOTE_CONTRACT },
  },
});

export const memoRefineManifest = defineManifest({
  name: "memo-refine",
  summary: "corrector: Memo-SQL's memory-guided critic↔refiner loop on the given SQL",
  kind: "corrector",
  options: MEMO_REFINE_OPTIONS,
  slots: {
    schema: S.schema,
    seed: { summary: "execute the given SQL as the one candidate, or the question's candidates from --candidates", returns: "Command", routesTo: ["critic", "vote"] },
    ...CORRECTION_SLOTS,
    vote: { summary: "the final candidate (the vote over one)", ...VOTE_CONTRACT },
  },
});
