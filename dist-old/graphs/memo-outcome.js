import { summarizeOutcomes } from "./outcome.js";
const metaOf = (c) => (c.meta ?? {});
function candidateOutcome(state) {
    const candidates = state.candidates ?? [];
    const vote = state.memoVote;
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
        voteMargin: sizes.length ? sizes[0] - (sizes[1] ?? 0) : null,
        refinementsPerCandidate: withSql.length ? rounds.reduce((a, b) => a + b, 0) / withSql.length : 0,
        maxRefinements: rounds.length ? Math.max(...rounds) : 0,
        revertedRefinements: candidates.filter((c) => metaOf(c).reverted).length,
        criticCalls: asked.length,
        criticReused: verdicts.length - asked.length,
        // Memory entries shown to the critic, per critic call (0 without memory or under --retrieval none).
        memoryShownPerCall: asked.length ? asked.reduce((a, v) => a + (v.shown ?? 0), 0) / asked.length : null,
    };
}
function decompositionOutcome(state) {
    const plans = state.memoPlans ?? [];
    const out = {
        // A paradigm judged a bad fit (→ free decomposition) or the question judged too simple (→ none), or a failed reply.
        decompositionFallbacks: plans.filter((p) => p.note).length,
        distinctDecompositions: new Set(plans.map((p) => p.subQuestions.join("\n"))).size,
        // Paths whose plan was another path's: solved and written once, that path's candidates counted for them too.
        collapsedPaths: plans.filter((p) => p.solvedBy).length,
    };
    for (const p of plans)
        out[`decomposition.${p.strategy}`] = `${p.applied}${p.seed ? ` (seed ${p.seed})` : ""}${p.solvedBy ? ` (the same plan as ${p.solvedBy}: solved once)` : ""}: ${p.subQuestions.join(" | ")}`;
    return out;
}
/** Whether any candidate (as it reached the vote) returns the gold result: one scorer call per distinct result. */
async function goldInCandidates(state, isGold) {
    const candidates = (state.candidates ?? []).filter((c) => c.sql.trim());
    const tried = new Set();
    for (const c of candidates) {
        const key = c.execution?.ok && c.execution.fingerprint ? c.execution.fingerprint : `sql:${c.sql}`;
        if (!c.execution?.ok || tried.has(key))
            continue;
        tried.add(key);
        if (await isGold(c.sql))
            return { oracleGoldInCandidates: true };
    }
    return { oracleGoldInCandidates: false };
}
/** The generic sums, without the per-path decomposition texts (inspect and results.jsonl keep them), the oracle line marked. */
function summarize(outcomes) {
    const shown = outcomes.map((o) => Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith("decomposition."))));
    return summarizeOutcomes(shown).map((line) => (line.startsWith("oracleGoldInCandidates:") ? `${line} — oracle: scored against the gold, not known to the method` : line));
}
export const memoSqlOutcome = {
    of: (state) => ({ ...decompositionOutcome(state), ...candidateOutcome(state) }),
    summarize,
    oracle: goldInCandidates,
};
export const memoRefineOutcome = {
    of: (state) => ({ ...candidateOutcome(state), candidatesFrom: candidateSource(state) }),
    summarize,
    oracle: goldInCandidates,
};
const candidateSource = (state) => (state.candidates ?? []).some((c) => c.source === "candidates-file") ? "candidates file" : "initial SQL";
