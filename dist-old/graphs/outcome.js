/** What every graph's state says (`state/sql-state.ts`): execution-error fixes, whether the answer executes, calls that got no reply. */
export function sharedOutcome(state) {
    const execution = state.execution;
    const usage = state.usage;
    return {
        fixRounds: typeof state.fixRounds === "number" ? state.fixRounds : 0,
        finalSqlExecutes: execution ? execution.ok === true : null,
        failedCalls: usage?.failed ?? 0,
        // Only when it happened (--embedding-fallback lexical): ranked lexically after the embedding endpoint failed.
        ...(usage?.fallbacks ? { embeddingFallbacks: usage.fallbacks } : {}),
    };
}
/** A finished thread's outcome: the shared fields, then what its graph declares (`GraphSpec.outcome`). */
export function outcomeOf(spec, state) {
    return { ...sharedOutcome(state), ...spec.outcome?.of(state) };
}
const pct = (n, d) => `${d ? ((n / d) * 100).toFixed(1) : "-"} %`;
/**
 * One line per key, over the outcomes that have it: booleans as the share true ("consensus: 81.0 % (81/100)"), numbers
 * as mean and max, strings as their distribution, most frequent first ("stopReason: consensus 81.0 %, round limit 19.0 %").
 */
export function summarizeOutcomes(outcomes) {
    const present = outcomes.filter((o) => !!o);
    const keys = [...new Set(present.flatMap((o) => Object.keys(o)))];
    const lines = [];
    for (const key of keys) {
        const values = present.map((o) => o[key]).filter((v) => v !== undefined && v !== null);
        if (!values.length)
            continue;
        if (values.every((v) => typeof v === "boolean")) {
            const yes = values.filter((v) => v).length;
            lines.push(`${key}: ${pct(yes, values.length)} (${yes}/${values.length})`);
        }
        else if (values.every((v) => typeof v === "number")) {
            const numbers = values;
            const mean = numbers.reduce((a, b) => a + b, 0) / numbers.length;
            lines.push(`${key}: mean ${mean.toFixed(2)}, max ${Math.max(...numbers)} (${numbers.length} questions)`);
        }
        else {
            const counts = new Map();
            for (const v of values)
                counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
            const shown = [...counts].sort((a, b) => b[1] - a[1]).map(([v, n]) => `${v} ${pct(n, values.length)}`);
            lines.push(`${key}: ${shown.join(", ")} (${values.length} questions)`);
        }
    }
    return lines;
}
