import type { MemoPlan, MemoVote } from "../state/memo.ts";
import type { Candidate } from "../state/sql-state.ts";
import { type Outcome, type OutcomeSpec, summarizeOutcomes } from "./outcome.ts";

/**
 * What a Memo-SQL question went through (results.jsonl's `outcome`, report.md, inspect): decompositions and their
 * fallbacks, the candidates' spread and the vote's margin, refinements, critic calls made and reused, memory shown,
 * and — in eval only, from the gold — whether any candidate was right (an oracle figure).
 */

type Verdict = { reusedFrom?: string; shown?: number; sameDatabase?: number; error?: string };
const metaOf = (c: Candidate) => (c.meta ?? {}) as { rounds?: number; reverted?: unknown; verdicts?: Verdict[] };

function candidateOutcome(state: Record<string, unknown>): Outcome {
  const candidates = (state.candidates as Candidate[] | undefined) ?? [];
  const vote = state.memoVote as MemoVote | null | undefined;
  const withSql = candidates.filter((c) => c.sql.trim());
  const fingerprints = new Set(candidates.flatMap((c) => (c.execution?.ok && c.execution.fingerprint ? [c.execution.fingerprint] : [])));
  const sizes = (vote?.groups ?? []).map((g) => g.ids.length);
  const verdicts = candidates.flatMap((c) => metaOf(c).verdicts ?? []);
  const asked = verdicts.filter((v) => !v.reusedFrom);
  const rounds = candidates.map((c) => metaOf(c).rounds ?? 0);
  return {
    candidates: candidates.length,
    distinctResults: fingerprints.size,
    // Votes of the winning result over the runner-up's (all of them when one result stands alone); null: nothing ran.
    voteMargin: sizes.length ? sizes[0]! - (sizes[1] ?? 0) : null,
    refinementsPerCandidate: withSql.length ? rounds.reduce((a, b) => a + b, 0) / withSql.length : 0,
    maxRefinements: rounds.length ? Math.max(...rounds) : 0,
    revertedRefinements: candidates.filter((c) => metaOf(c).reverted).length,
    criticCalls: asked.length,
    criticReused: verdicts.length - asked.length,
    // Memory entries shown to the critic, per critic call (0 without memory or under --retrieval none).
    memoryShownPerCall: asked.length ? asked.reduce((a, v) => a + (v.shown ?? 0), 0) / asked.length : null,
    // Only when it happened: memory entries of the question's own database shown to its critics (a memory kept under
    // --allow-memory-overlap, or built from another split of a benchmark whose splits share databases).
    ...sameDatabaseShown(asked),
  };
}

function sameDatabaseShown(asked: Verdict[]): Outcome {
  const n = asked.reduce((a, v) => a + (v.sameDatabase ?? 0), 0);
  return n ? { memoryShownSameDatabase: n } : {};
}

function decompositionOutcome(state: Record<string, unknown>): Outcome {
  const plans = (state.memoPlans as MemoPlan[] | undefined) ?? [];
  const out: Outcome = {
    // A paradigm judged a bad fit (→ free decomposition) or the question judged too simple (→ none), or a failed reply.
    decompositionFallbacks: plans.filter((p) => p.note).length,
    distinctDecompositions: new Set(plans.map((p) => p.subQuestions.join("\n"))).size,
    // Paths whose plan was another path's: solved and written once, that path's candidates counted for them too.
    collapsedPaths: plans.filter((p) => p.solvedBy).length,
  };
  for (const p of plans) out[`decomposition.${p.strategy}`] = `${p.applied}${p.seed ? ` (seed ${p.seed})` : ""}${p.solvedBy ? ` (the same plan as ${p.solvedBy}: solved once)` : ""}: ${p.subQuestions.join(" | ")}`;
  return out;
}

/** Whether any candidate (as it reached the vote) returns the gold result: one scorer call per distinct result. */
async function goldInCandidates(state: Record<string, unknown>, isGold: (sql: string) => Promise<boolean>): Promise<Outcome> {
  const candidates = ((state.candidates as Candidate[] | undefined) ?? []).filter((c) => c.sql.trim());
  const tried = new Set<string>();
  for (const c of candidates) {
    const key = c.execution?.ok && c.execution.fingerprint ? c.execution.fingerprint : `sql:${c.sql}`;
    if (!c.execution?.ok || tried.has(key)) continue;
    tried.add(key);
    if (await isGold(c.sql)) return { oracleGoldInCandidates: true };
  }
  return { oracleGoldInCandidates: false };
}

/** The generic sums, without the per-path decomposition texts (inspect and results.jsonl keep them), the oracle line marked. */
function summarize(outcomes: Outcome[]): string[] {
  const shown = outcomes.map((o) => Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith("decomposition."))));
  return summarizeOutcomes(shown).map((line) => (line.startsWith("oracleGoldInCandidates:") ? `${line} — oracle: scored against the gold, not known to the method` : line));
}

/** The memory shown to a critic (a memory hit): else the critics worked without the error-correction memory. */
const MEMORY_HIT = { step: "a memory entry shown to a critic", happened: (o: Outcome) => typeof o.memoryShownPerCall === "number" && o.memoryShownPerCall > 0 };

export const memoSqlOutcome: OutcomeSpec = {
  defining: MEMORY_HIT,
  of: (state) => ({ ...decompositionOutcome(state), ...candidateOutcome(state) }),
  summarize,
  oracle: goldInCandidates,
};

export const memoRefineOutcome: OutcomeSpec = {
  defining: MEMORY_HIT,
  of: (state) => ({ ...candidateOutcome(state), candidatesFrom: candidateSource(state) }),
  summarize,
  oracle: goldInCandidates,
};

const candidateSource = (state: Record<string, unknown>) => ((state.candidates as Candidate[] | undefined) ?? []).some((c) => c.source === "candidates-file") ? "candidates file" : "initial SQL";
