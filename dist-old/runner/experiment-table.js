import { isFailed, methodCalls, methodTokens } from "./report.js";
import { exByDatabase, exByDifficulty } from "../tools/benchmarks/score.js";
import { summarizeOutcomes } from "../graphs/outcome.js";
/** A row for a run that did not run, or a guideline run (its figures from stats.json): no eval records. */
export function otherRowOf(run, spec, what) {
    return {
        ...rowOf(run, spec, []),
        graph: spec.graph ?? spec.kind,
        questions: what.guideline?.questions ?? 0,
        notRun: what.notRun ?? null,
        guideline: what.guideline ?? null,
    };
}
export const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const sampleSd = (xs) => (xs.length < 2 ? 0 : Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1)));
export function rowOf(run, spec, records, prices) {
    const answered = records.filter((r) => !isFailed(r));
    const n = records.length;
    const correct = answered.filter((r) => r.correct).length;
    // The initial SQL's verdicts on the questions the corrector answered: the EX beside it is over the same ones.
    const known = answered.filter((r) => r.initialCorrect !== undefined);
    const corrector = spec.initial !== undefined;
    const sum = (f) => records.reduce((a, r) => a + f(r), 0);
    const inTok = n ? sum((r) => methodTokens(r).input) / n : 0;
    const outTok = n ? sum((r) => methodTokens(r).output) / n : 0;
    return {
        run,
        graph: spec.graph ?? spec.kind,
        initial: spec.initial ?? null,
        scenario: spec.correct ?? (corrector ? "all" : null),
        questions: n,
        correct,
        ex: answered.length ? (correct / answered.length) * 100 : 0,
        byDifficulty: exByDifficulty(answered).map(({ difficulty, count, ex }) => ({ difficulty, count, ex })),
        byDatabase: exByDatabase(answered).map(({ db, count, ex }) => ({ db, count, ex })),
        initialEx: corrector && known.length ? (known.filter((r) => r.initialCorrect).length / known.length) * 100 : null,
        wrongToRight: corrector ? known.filter((r) => !r.initialCorrect && r.correct).length : null,
        rightToWrong: corrector ? known.filter((r) => r.initialCorrect && !r.correct).length : null,
        correctionsApplied: corrector ? records.filter((r) => r.correction === "applied").length : null,
        tokensPerQuestion: inTok + outTok,
        inputTokensPerQuestion: inTok,
        outputTokensPerQuestion: outTok,
        spentTokens: sum((r) => r.inputTokens + r.outputTokens),
        costPerQuestion: prices ? (inTok * prices.input + outTok * prices.output) / 1e6 : null,
        callsPerQuestion: n ? sum(methodCalls) / n : 0,
        cachedCalls: sum((r) => r.cachedCalls ?? 0),
        // Chat-model calls (the response cache's to serve); embedding requests are the vector cache's.
        calls: sum(methodCalls),
        failed: records.filter(isFailed).length,
        outcomes: summarizeOutcomes(records.map((r) => r.outcome)),
        paper: spec.paper ?? null,
        notRun: null,
        guideline: null,
        repeats: null,
        held: null,
    };
}
/**
 * One row over a run's repeats (records per repeat, seed order): EX and costs are means; EX's sample sd and the
 * questions whose verdict changes between repeats (among those every repeat answered) say how stable the figure is.
 */
export function repeatedRowOf(run, spec, perRepeat, seeds, prices) {
    const all = perRepeat.map((records) => rowOf(run, spec, records, prices));
    if (all.length < 2)
        return all[0];
    // A repeat with no answered question has no EX (its failures are counted); the means are over the others.
    const answered = (r) => r.questions - r.failed > 0;
    const rows = all.some(answered) ? all.filter(answered) : all;
    const first = rows[0];
    const avg = (f) => mean(rows.map(f));
    const avgOrNull = (f) => (rows.every((r) => f(r) !== null) ? avg((r) => f(r)) : null);
    // Flips among the repeats that answered: a question answered by each of them, right in some and wrong in others.
    const verdicts = perRepeat.filter((_, i) => rows.includes(all[i])).map((records) => new Map(records.filter((r) => !isFailed(r)).map((r) => [r.id, r.correct])));
    const ids = [...verdicts[0].keys()].filter((id) => verdicts.every((v) => v.has(id)));
    const flips = ids.filter((id) => new Set(verdicts.map((v) => v.get(id))).size > 1).length;
    const difficulties = [...new Set(rows.flatMap((r) => r.byDifficulty.map((d) => d.difficulty)))];
    return {
        ...first,
        correct: avg((r) => r.correct),
        ex: avg((r) => r.ex),
        byDifficulty: difficulties.map((difficulty) => {
            const at = rows.map((r) => r.byDifficulty.find((d) => d.difficulty === difficulty)).filter((d) => d !== undefined);
            return { difficulty, count: at[0].count, ex: mean(at.map((d) => d.ex)) };
        }),
        byDatabase: [...new Set(rows.flatMap((r) => r.byDatabase.map((d) => d.db)))].sort().map((db) => {
            const at = rows.map((r) => r.byDatabase.find((d) => d.db === db)).filter((d) => d !== undefined);
            return { db, count: at[0].count, ex: mean(at.map((d) => d.ex)) };
        }),
        initialEx: avgOrNull((r) => r.initialEx),
        wrongToRight: avgOrNull((r) => r.wrongToRight),
        rightToWrong: avgOrNull((r) => r.rightToWrong),
        correctionsApplied: avgOrNull((r) => r.correctionsApplied),
        tokensPerQuestion: avg((r) => r.tokensPerQuestion),
        inputTokensPerQuestion: avg((r) => r.inputTokensPerQuestion),
        outputTokensPerQuestion: avg((r) => r.outputTokensPerQuestion),
        spentTokens: all.reduce((a, r) => a + r.spentTokens, 0),
        costPerQuestion: avgOrNull((r) => r.costPerQuestion),
        callsPerQuestion: avg((r) => r.callsPerQuestion),
        cachedCalls: all.reduce((a, r) => a + r.cachedCalls, 0),
        calls: all.reduce((a, r) => a + r.calls, 0),
        failed: all.reduce((a, r) => a + r.failed, 0),
        outcomes: summarizeOutcomes(perRepeat.flat().map((r) => r.outcome)),
        repeats: { seeds, ex: all.map((r) => (answered(r) ? r.ex : null)), mean: avg((r) => r.ex), sd: sampleSd(rows.map((r) => r.ex)), compared: ids.length, flips },
    };
}
const figuresText = (p) => Object.entries(p.figures).map(([k, v]) => `${k} ${v}`).join("; ");
const f2 = (n) => (n === null ? "-" : n.toFixed(2));
/** EX as printed: "58.33", or "58.33 ± 2.41" over repeats. */
const exText = (r) => (r.repeats ? `${f2(r.ex)} ± ${f2(r.repeats.sd)}` : r.held ? `${f2(r.ex)} (held)` : f2(r.ex));
const countText = (n) => (n === null ? "" : Number.isInteger(n) ? String(n) : n.toFixed(1));
const usd = (n) => (n === null ? "-" : `$${n < 0.01 ? n.toFixed(5) : n.toFixed(4)}`);
/** Ours beside the paper's: a line per row that has paper figures, ours first (or why it did not run). */
function besidePaper(rows) {
    const withPaper = rows.filter((r) => r.paper);
    if (!withPaper.length)
        return [];
    const lines = ["## Ours beside the paper's", "", "| run | paper's row | ours | paper's figures | paper's table, model |", "|---|---|---|---|---|"];
    for (const r of withPaper) {
        const difficulties = r.byDifficulty.length > 1 ? `; ${r.byDifficulty.map((d) => `${d.difficulty} ${f2(d.ex)}`).join(", ")}` : "";
        const ours = r.notRun
            ? `not run: ${r.notRun}`
            : r.guideline
                ? `EX ${f2(r.guideline.exAfter)} after the cycle; AVG_i ${r.guideline.avgIterations.toFixed(2)}; corrected within k=1..${r.guideline.maxIter}: ${r.guideline.correctedWithin.join(", ")} of ${r.guideline.failures}`
                : r.repeats
                    ? `EX ${exText(r)} over ${r.repeats.ex.filter((x) => x !== null).length} repeats${difficulties}${r.failed ? `, ${r.failed} failed` : ""}`
                    : `EX ${f2(r.ex)} (${r.correct}/${r.questions - r.failed})${difficulties}${r.failed ? `, ${r.failed} failed` : ""}${r.held ? ", held: one run every repeat read" : ""}`;
        lines.push(`| ${r.run} | ${r.paper.row} | ${ours} | ${figuresText(r.paper)} | ${r.paper.source}; ${r.paper.model}${r.paper.note ? ` (${r.paper.note})` : ""} |`);
    }
    lines.push("", "The paper's figures are on its benchmark, model and initial SQL; ours on what this experiment ran (--bench, --model, --limit).", "");
    return lines;
}
const COLUMN_TITLES = {
    ex: "EX %",
    "initial-ex": "initial EX %",
    "wrong-to-right": "wrong→right",
    "right-to-wrong": "right→wrong",
    tokens: "tokens/q",
    calls: "calls/q",
    cost: "cost/q",
    failed: "failed",
};
function cell(r, column) {
    if (r.notRun)
        return column === "ex" ? `not run: ${r.notRun}` : "";
    if (column.startsWith("difficulty:")) {
        const d = r.byDifficulty.find((x) => x.difficulty === column.slice("difficulty:".length));
        return d ? f2(d.ex) : "";
    }
    if (column.startsWith("paper:"))
        return String(r.paper?.figures[column.slice("paper:".length)] ?? "");
    switch (column) {
        case "ex":
            return r.guideline ? `${f2(r.guideline.exAfter)} (after the cycle)` : exText(r);
        case "initial-ex":
            return f2(r.initialEx);
        case "wrong-to-right":
            return countText(r.wrongToRight);
        case "right-to-wrong":
            return countText(r.rightToWrong);
        case "tokens":
            return String(Math.round(r.tokensPerQuestion));
        case "calls":
            return r.callsPerQuestion.toFixed(2);
        case "cost":
            return usd(r.costPerQuestion);
        default:
            return String(r.failed);
    }
}
/** The recipe's own table (`table`: rows and columns), first in table.md. */
function recipeTable(spec, rows) {
    const chosen = spec.rows ? spec.rows.map((name) => rows.find((r) => r.run === name)).filter((r) => r !== undefined) : rows.filter((r) => !r.guideline);
    const columns = spec.columns ?? ["ex", "tokens", "calls", "failed"];
    const title = (c) => COLUMN_TITLES[c] ?? (c.startsWith("difficulty:") ? `${c.slice(11)} EX %` : `paper ${c.slice(6)}`);
    return [
        `## ${spec.title ?? "Table"}`,
        "",
        `| run | ${columns.map(title).join(" | ")} |`,
        `|---|${columns.map(() => "---:").join("|")}|`,
        ...chosen.map((r) => `| ${r.run} | ${columns.map((c) => cell(r, c)).join(" | ")} |`),
        "",
    ];
}
/**
 * table.md: the recipe's table when it has one, ours beside the paper's, rows not run, guideline runs, the
 * correctors × scenarios grid, every eval run (with cost at --price-in/--price-out), EX by difficulty, the spread
 * over repeats, and each run's outcome summary.
 */
export function renderTable(recipe, rows, opts = {}) {
    const lines = [`# sqlmend experiment: ${recipe.name}`, ""];
    if (recipe.description)
        lines.push(recipe.description, "");
    if (opts.repeats && opts.repeats > 1) {
        const held = rows.filter((r) => r.held);
        const heldText = held.length ? ` Held runs were made once (repeat 1, seed ${held[0].held.seed}) and every repeat read them, so their figures are that one run's: ${held.map((r) => r.run).join(", ")}.` : "";
        lines.push(`Every figure of ours is the mean over ${opts.repeats} repeats (each a replication with its own seed); ± is the sample standard deviation.${heldText}`, "");
    }
    if (recipe.table)
        lines.push(...recipeTable(recipe.table, rows));
    lines.push(...besidePaper(rows));
    const notRun = rows.filter((r) => r.notRun);
    const guidelines = rows.filter((r) => r.guideline);
    rows = rows.filter((r) => !r.notRun && !r.guideline);
    if (notRun.length) {
        lines.push("## Not run", "", ...notRun.map((r) => `- ${r.run}: ${r.notRun}`), "");
    }
    if (guidelines.length) {
        lines.push("## Guideline runs (train split)", "", "| run | max_i | manager | questions | failures cycled | corrected | EX after % | AVG_i | corrected within k = 1.. |", "|---|---:|---|---:|---:|---:|---:|---:|---|");
        for (const r of guidelines) {
            const g = r.guideline;
            lines.push(`| ${r.run} | ${g.maxIter} | ${g.noManager ? "no" : "yes"} | ${g.questions} | ${g.failures} | ${g.corrected} | ${f2(g.exAfter)} | ${g.avgIterations.toFixed(2)} | ${g.correctedWithin.join(", ")} |`);
        }
        lines.push("");
    }
    const correctors = rows.filter((r) => r.initial !== null);
    if (correctors.length) {
        // A grid row per method: the run's name without its scenario suffix (magic.errors → magic, human-wang.all → human-wang).
        const methodOf = (r) => (r.run.endsWith(`.${r.scenario}`) ? r.run.slice(0, -r.scenario.length - 1) : r.run);
        const graphs = [...new Set(correctors.map(methodOf))];
        const scenarios = [...new Set(correctors.map((r) => r.scenario))];
        lines.push("## Correctors × scenarios: EX % (wrong → right / right → wrong)", "");
        lines.push(`| corrector | ${scenarios.join(" | ")} |`, `|---|${scenarios.map(() => "---:").join("|")}|`);
        for (const g of graphs) {
            const cells = scenarios.map((s) => {
                const r = correctors.find((x) => methodOf(x) === g && x.scenario === s);
                return r ? `${exText(r)} (+${countText(r.wrongToRight ?? 0)} / −${countText(r.rightToWrong ?? 0)})` : "";
            });
            lines.push(`| ${g} | ${cells.join(" | ")} |`);
        }
        const initials = [...new Set(correctors.map((r) => `${r.initial}: ${f2(r.initialEx)}`))];
        lines.push("", `Initial EX on the same questions: ${initials.join(", ")}`, "");
    }
    const priced = opts.prices !== undefined;
    lines.push("## Runs", "", `| run | graph | initial | scenario | questions | EX % | initial EX % | wrong→right | right→wrong | corrected | tokens/q | calls/q |${priced ? " cost/q |" : ""} cached calls | failed |`, `|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|${priced ? "---:|" : ""}---:|---:|`);
    for (const r of rows) {
        lines.push(`| ${r.run} | ${r.graph} | ${r.initial ?? ""} | ${r.scenario ?? ""} | ${r.questions} | ${exText(r)} | ${f2(r.initialEx)} | ${countText(r.wrongToRight)} | ${countText(r.rightToWrong)} | ${countText(r.correctionsApplied)} | ${Math.round(r.tokensPerQuestion)} | ${r.callsPerQuestion.toFixed(2)} |${priced ? ` ${usd(r.costPerQuestion)} |` : ""} ${r.cachedCalls} of ${r.calls} | ${r.failed} |`);
    }
    lines.push("", "tokens/q and calls/q are the method's chat-model tokens and calls per question, those the response cache served included (a cached rerun costs the method the same); embedding requests are left out (the vector cache shares them across questions and runs).");
    if (opts.prices) {
        const total = rows.reduce((a, r) => a + (r.costPerQuestion ?? 0) * r.questions * (r.repeats?.ex.length ?? 1), 0);
        const spent = rows.reduce((a, r) => a + r.spentTokens, 0);
        lines.push(`Cost at $${opts.prices.input} / $${opts.prices.output} per million input / output tokens: ${usd(total)} for the methods' tokens; ${spent} tokens were spent by this experiment (the rest came from the response cache).`);
    }
    const calls = rows.reduce((n, r) => n + r.calls, 0);
    const cached = rows.reduce((n, r) => n + r.cachedCalls, 0);
    lines.push("", `Response cache over the eval runs: ${cached} of ${calls} model calls served (${calls ? ((cached / calls) * 100).toFixed(2) : "-"}%)`, "");
    const difficulties = [...new Set(rows.flatMap((r) => r.byDifficulty.map((d) => d.difficulty)))];
    if (difficulties.length > 1 || (difficulties.length === 1 && difficulties[0] !== "unknown")) {
        lines.push("## EX by difficulty (%)", "", `| run | ${difficulties.map((d) => `${d} (n)`).join(" | ")} | all |`, `|---|${difficulties.map(() => "---:").join("|")}|---:|`);
        for (const r of rows) {
            const at = (d) => r.byDifficulty.find((x) => x.difficulty === d);
            lines.push(`| ${r.run} | ${difficulties.map((d) => (at(d) ? `${f2(at(d).ex)} (${at(d).count})` : "")).join(" | ")} | ${exText(r)} |`);
        }
        lines.push("");
    }
    const databases = [...new Set(rows.flatMap((r) => r.byDatabase.map((d) => d.db)))].sort();
    if (databases.length > 1) {
        lines.push("## EX per database (%)", "", `| database | ${rows.map((r) => r.run).join(" | ")} |`, `|---|${rows.map(() => "---:").join("|")}|`);
        for (const db of databases)
            lines.push(`| ${db} | ${rows.map((r) => { const d = r.byDatabase.find((x) => x.db === db); return d ? `${f2(d.ex)} (${d.count})` : ""; }).join(" | ")} |`);
        lines.push("");
    }
    const repeated = rows.filter((r) => r.repeats);
    if (repeated.length) {
        lines.push("## Repeats", "", "| run | seeds | EX % per repeat | mean ± sd | questions that flip |", "|---|---|---|---:|---:|");
        for (const r of repeated) {
            const x = r.repeats;
            lines.push(`| ${r.run} | ${x.seeds.join(", ")} | ${x.ex.map(f2).join(", ")} | ${f2(x.mean)} ± ${f2(x.sd)} | ${x.flips} of ${x.compared} |`);
        }
        lines.push("", "A question flips when some repeats got it right and others wrong (among the questions every repeat answered).");
        const held = rows.filter((r) => r.held);
        if (held.length)
            lines.push(`Not repeated (--hold): ${held.map((r) => `${r.run} (EX ${f2(r.ex)}, seed ${r.held.seed})`).join(", ")}.`);
        lines.push("");
    }
    const withOutcomes = rows.filter((r) => r.outcomes.length);
    if (withOutcomes.length) {
        lines.push("## What the questions went through (each graph's outcome summary)", "");
        for (const r of withOutcomes)
            lines.push(`- **${r.run}** (${r.graph}): ${r.outcomes.join("; ")}`);
        lines.push("");
    }
    return lines.join("\n");
}
