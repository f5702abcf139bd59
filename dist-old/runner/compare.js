import { exByDifficulty, NO_GOLD } from "../tools/benchmarks/score.js";
import { isFailed, methodCalls, methodTokens } from "./report.js";
import { summarizeOutcomes } from "../graphs/outcome.js";
/**
 * N eval runs side by side on the questions all of them answered (a failed question has no answer to compare: it is
 * left out and counted per run): EX overall and per difficulty, cost per question, and
 * per pair the questions only one got right with an exact McNemar test, Holm-corrected over the pairs. `sqlmend
 * compare`, experiments' table and report.html read it.
 */
/** Exact two-sided McNemar test: binomial on the discordant pairs. */
export function mcnemarP(onlyA, onlyB) {
    const n = onlyA + onlyB;
    if (n === 0)
        return 1;
    const k = Math.min(onlyA, onlyB);
    let logC = 0; // log C(n, 0)
    let tail = 0;
    for (let i = 0; i <= k; i++) {
        if (i > 0)
            logC += Math.log(n - i + 1) - Math.log(i);
        tail += Math.exp(logC - n * Math.LN2);
    }
    return Math.min(1, 2 * tail);
}
/** Holm's step-down adjustment of m p-values (same order as given): p_(i) · (m − i + 1), kept monotone, capped at 1. */
export function holm(ps) {
    const m = ps.length;
    const order = ps.map((p, i) => [p, i]).sort((x, y) => x[0] - y[0]);
    const adjusted = new Array(m);
    let running = 0;
    order.forEach(([p, i], rank) => {
        running = Math.max(running, Math.min(1, (m - rank) * p));
        adjusted[i] = running;
    });
    return adjusted;
}
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
export function compareRuns(inputs, prices) {
    const warnings = [];
    for (const key of ["bench", "split", "semantics"]) {
        const seen = [...new Set(inputs.map((r) => r.run[key]).filter((v) => v !== undefined).map(String))];
        if (seen.length > 1)
            warnings.push(`the runs differ in ${key}: ${seen.join(" vs ")}`);
    }
    const [first, ...rest] = inputs;
    const inAll = first ? [...first.records.keys()].filter((id) => rest.every((r) => r.records.has(id))) : [];
    const answered = inAll.filter((id) => inputs.every((r) => !isFailed(r.records.get(id))));
    // A question without gold has no verdict: EX, flips and McNemar are over the others.
    const ids = answered.filter((id) => inputs.every((r) => r.records.get(id).goldError !== NO_GOLD));
    const runs = inputs.map((r) => {
        const records = ids.map((id) => r.records.get(id));
        const all = answered.map((id) => r.records.get(id));
        const correct = records.filter((x) => x.correct).length;
        // The method's tokens (spent + served by the response cache): a rerun from the cache costs the method the same.
        const inTok = mean(all.map((x) => methodTokens(x).input));
        const outTok = mean(all.map((x) => methodTokens(x).output));
        const outcomes = all.flatMap((x) => (x.outcome ? [x.outcome] : []));
        return {
            key: r.key,
            label: r.label,
            dir: r.dir,
            correct,
            ex: records.length ? (correct / records.length) * 100 : 0,
            predErrors: all.filter((x) => x.predError !== undefined).length,
            byDifficulty: exByDifficulty(records),
            tokensPerQuestion: inTok + outTok,
            inputTokensPerQuestion: inTok,
            outputTokensPerQuestion: outTok,
            callsPerQuestion: mean(all.map(methodCalls)),
            latencyMsPerQuestion: mean(all.map((x) => x.latencyMs)),
            costPerQuestion: prices ? (inTok * prices.input + outTok * prices.output) / 1e6 : null,
            cachedCallsPerQuestion: mean(all.map((x) => x.cachedCalls ?? 0)),
            notCommon: r.records.size - inAll.length,
            failed: [...r.records.values()].filter(isFailed).map((x) => x.id),
            outcomes: outcomes.length ? (r.summarizeOutcomes ?? summarizeOutcomes)(outcomes) : [],
            outcomesOf: outcomes.length,
            perQuestion: records.map((x) => ({
                id: x.id,
                dbId: x.dbId,
                ...(x.difficulty !== undefined ? { difficulty: x.difficulty } : {}),
                correct: x.correct,
                tokens: methodTokens(x).input + methodTokens(x).output,
                ...(x.initialCorrect !== undefined ? { initialCorrect: x.initialCorrect } : {}),
            })),
        };
    });
    const raw = [];
    for (let i = 0; i < inputs.length; i++) {
        for (let j = i + 1; j < inputs.length; j++) {
            const a = inputs[i];
            const b = inputs[j];
            const onlyA = ids.filter((id) => a.records.get(id).correct && !b.records.get(id).correct);
            const onlyB = ids.filter((id) => !a.records.get(id).correct && b.records.get(id).correct);
            const both = ids.filter((id) => a.records.get(id).correct && b.records.get(id).correct).length;
            const sameSql = answered.filter((id) => sameQuery(a.records.get(id).sql, b.records.get(id).sql)).length;
            raw.push({ a: a.key, b: b.key, bothCorrect: both, neitherCorrect: ids.length - both - onlyA.length - onlyB.length, onlyACorrect: onlyA, onlyBCorrect: onlyB, sameSql, mcnemarP: mcnemarP(onlyA.length, onlyB.length) });
        }
    }
    const adjusted = holm(raw.map((p) => p.mcnemarP));
    return { common: answered.length, inAll: inAll.length, noGold: answered.length - ids.length, runs, pairs: raw.map((p, i) => ({ ...p, holmP: adjusted[i] })), warnings };
}
const sameQuery = (a, b) => (a ?? "").replace(/\s+/g, " ").trim() === (b ?? "").replace(/\s+/g, " ").trim();
/** The comparison as plain text: one table of the runs, then per pair the flips and the test. */
export function renderComparison(c, show) {
    const width = Math.max(...c.runs.map((r) => r.label.length + 2), 12);
    const notCommon = c.runs.map((r) => `${r.notCommon} only in ${r.key}`).join(", ");
    const anyFailed = c.runs.some((r) => r.failed.length);
    const failedNote = anyFailed ? `; left out, failed: ${c.runs.map((r) => `${r.failed.length} in ${r.key}`).join(", ")} — --resume retries them` : "";
    const answered = c.runs.length === 2 ? "answered by both" : "answered by all";
    const lines = [`${c.common} questions in common, ${answered} (${notCommon}${failedNote})`];
    const scored = c.common - c.noGold;
    if (c.noGold)
        lines.push(scored ? `${c.noGold} of them without gold SQL: not scored (EX and the test are over the other ${scored})` : "no question has gold SQL: no EX; compared on SQL, errors and cost");
    lines.push("");
    const levels = scored ? [...new Set(c.runs.flatMap((r) => r.byDifficulty.map((d) => d.difficulty)))] : [];
    const withCost = c.runs.some((r) => r.costPerQuestion !== null);
    lines.push(`${"".padEnd(width)}  ${scored ? `${"EX %".padStart(7)}  ` : ""}${levels.map((l) => `${l.padStart(11)}  `).join("")}${"errors".padStart(6)}  ${"tokens/q".padStart(9)}  ${"calls/q".padStart(7)}  ${"s/q".padStart(6)}${withCost ? `  ${"$/q".padStart(9)}` : ""}`);
    for (const r of c.runs) {
        const perLevel = levels.map((l) => `${(r.byDifficulty.find((d) => d.difficulty === l)?.ex.toFixed(2) ?? "-").padStart(11)}  `);
        const label = `${r.key} ${r.label}`;
        lines.push(`${label.padEnd(width).slice(0, width)}  ${scored ? `${r.ex.toFixed(2).padStart(7)}  ` : ""}${perLevel.join("")}${String(r.predErrors).padStart(6)}  ${Math.round(r.tokensPerQuestion).toString().padStart(9)}  ${r.callsPerQuestion.toFixed(2).padStart(7)}  ${(r.latencyMsPerQuestion / 1000).toFixed(2).padStart(6)}${withCost ? `  ${(r.costPerQuestion ?? 0).toFixed(5).padStart(9)}` : ""}`);
    }
    if (c.runs.some((r) => r.outcomes.length)) {
        lines.push("", `What the questions went through (of the ${c.common} in common):`);
        for (const r of c.runs) {
            lines.push(`${r.key} ${r.label}${r.outcomes.length && r.outcomesOf < c.common ? ` (${r.outcomesOf} questions with an outcome)` : ""}:`);
            lines.push(...(r.outcomes.length ? r.outcomes.map((line) => `  ${line}`) : ["  no outcome recorded"]));
        }
    }
    const list = (xs) => (xs.length ? `: ${xs.slice(0, show).join(", ")}${xs.length > show ? ", ..." : ""}` : "");
    for (const p of c.pairs) {
        const header = c.pairs.length > 1 ? [`${p.a} vs ${p.b}`] : [];
        const same = `same SQL on ${p.sameSql} of ${c.common}`;
        if (!scored) {
            lines.push("", ...header, same);
            continue;
        }
        lines.push("", ...header, `both right ${p.bothCorrect}, both wrong ${p.neitherCorrect}`, `only ${p.a} right ${p.onlyACorrect.length}${list(p.onlyACorrect)}`, `only ${p.b} right ${p.onlyBCorrect.length}${list(p.onlyBCorrect)}`, `McNemar exact p = ${p.mcnemarP.toPrecision(3)}${c.pairs.length > 1 ? `, Holm-adjusted over ${c.pairs.length} pairs p = ${p.holmP.toPrecision(3)}` : ""}${p.holmP < 0.05 ? " (the EX difference is significant at 0.05)" : ""}`, same);
    }
    for (const w of c.warnings)
        lines.push(`warning: ${w}`);
    return `${lines.join("\n")}\n`;
}
