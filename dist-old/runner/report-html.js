import { maskSecrets } from "../core/secrets.js";
import { compareRuns } from "./compare.js";
import { exByDatabase } from "../tools/benchmarks/score.js";
/**
 * report.html: a self-contained page (inline SVG and CSS, no script, nothing fetched) beside report.md (eval,
 * experiments) or from `sqlmend compare --html`. Charts: EX by difficulty per run; EX against tokens per question
 * (several runs); right→wrong and wrong→right flips of correctors; EX per database (MAGIC Figure 4, with several
 * databases); an experiment's guideline runs' failures corrected within k iterations (MAGIC Figure 3); with --repeats, EX per repeat. Every mark carries its number in `data-value`
 * (and `data-x`/`data-y`), and the page embeds the numbers it drew as JSON (`<script type="application/json"
 * id="sqlmend-data">`), so a test can check the drawing against the data.
 */
const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const num = (n, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "-");
const COLORS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];
/** Grouped vertical bars: one group per category, one bar per series. */
function barChart(id, title, groups, series, opts) {
    const H = 280;
    const left = 48;
    const bottom = 40;
    const top = 24;
    const max = opts.max ?? Math.max(1, ...series.flatMap((s) => s.values.filter((v) => v !== null)));
    // Wide enough for every bar (Spider's 20 databases × several runs), scrolled inside its figure.
    const W = Math.max(640, left + 16 + groups.length * Math.max(1, series.length) * 9 / 0.8);
    const plotH = H - bottom - top;
    const groupW = (W - left - 16) / Math.max(1, groups.length);
    const barW = Math.max(4, (groupW * 0.8) / Math.max(1, series.length));
    const y = (v) => top + plotH - (v / max) * plotH;
    const parts = [];
    parts.push(`<line x1="${left}" y1="${top + plotH}" x2="${W - 8}" y2="${top + plotH}" stroke="#444"/>`);
    for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
        const v = max * tick;
        parts.push(`<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end" class="axis">${num(v, opts.digits ?? 0)}</text>`);
        parts.push(`<line x1="${left}" y1="${y(v)}" x2="${W - 8}" y2="${y(v)}" stroke="#eee"/>`);
    }
    groups.forEach((group, g) => {
        const x0 = left + g * groupW + groupW * 0.1;
        series.forEach((s, i) => {
            const x = x0 + i * barW;
            if (s.values[g] === null) {
                parts.push(`<text class="value" x="${(x + (barW - 2) / 2).toFixed(1)}" y="${(top + plotH - 3).toFixed(1)}" text-anchor="middle">–</text>`);
                return;
            }
            const v = s.values[g] ?? 0;
            parts.push(`<rect class="mark" data-chart="${id}" data-series="${esc(s.name)}" data-group="${esc(group)}" data-value="${v}" x="${x.toFixed(1)}" y="${y(v).toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${(top + plotH - y(v)).toFixed(1)}" fill="${COLORS[i % COLORS.length]}"><title>${esc(s.name)} · ${esc(group)}: ${num(v, opts.digits ?? 2)}${opts.unit}</title></rect>`);
            parts.push(`<text class="value" x="${(x + (barW - 2) / 2).toFixed(1)}" y="${(y(v) - 3).toFixed(1)}" text-anchor="middle">${num(v, opts.digits ?? 2)}</text>`);
        });
        parts.push(`<text x="${(x0 + (series.length * barW) / 2).toFixed(1)}" y="${H - bottom + 16}" text-anchor="middle" class="axis">${esc(group)}</text>`);
    });
    return figure(id, title, W, H, parts.join(""), series.map((s) => s.name));
}
/** One point per run: x = tokens per question, y = EX. */
function scatter(id, title, points) {
    const W = 640;
    const H = 300;
    const left = 56;
    const bottom = 40;
    const top = 20;
    const right = 24;
    const maxX = Math.max(1, ...points.map((p) => p.x)) * 1.1;
    const plotW = W - left - right;
    const plotH = H - bottom - top;
    const sx = (v) => left + (v / maxX) * plotW;
    const sy = (v) => top + plotH - (v / 100) * plotH;
    const parts = [];
    parts.push(`<line x1="${left}" y1="${top + plotH}" x2="${W - right}" y2="${top + plotH}" stroke="#444"/><line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}" stroke="#444"/>`);
    for (const t of [0, 25, 50, 75, 100])
        parts.push(`<text x="${left - 6}" y="${sy(t) + 4}" text-anchor="end" class="axis">${t}</text>`);
    for (const t of [0, 0.25, 0.5, 0.75, 1])
        parts.push(`<text x="${sx(maxX * t)}" y="${H - bottom + 16}" text-anchor="middle" class="axis">${Math.round(maxX * t)}</text>`);
    parts.push(`<text x="${left + plotW / 2}" y="${H - 4}" text-anchor="middle" class="axis">tokens per question</text>`);
    parts.push(`<text x="12" y="${top + plotH / 2}" text-anchor="middle" class="axis" transform="rotate(-90 12 ${top + plotH / 2})">EX %</text>`);
    points.forEach((p, i) => {
        parts.push(`<circle class="mark" data-chart="${id}" data-series="${esc(p.name)}" data-x="${p.x}" data-y="${p.y}" cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="6" fill="${COLORS[i % COLORS.length]}"><title>${esc(p.name)}: ${num(p.y)}% at ${num(p.x, 0)} tokens</title></circle>`);
        parts.push(`<text class="value" x="${(sx(p.x) + 9).toFixed(1)}" y="${(sy(p.y) + 4).toFixed(1)}">${esc(p.name)}</text>`);
    });
    return figure(id, title, W, H, parts.join(""), []);
}
function figure(id, title, W, H, body, legend) {
    const keys = legend.map((name, i) => `<span class="key"><i style="background:${COLORS[i % COLORS.length]}"></i>${esc(name)}</span>`).join("");
    return `<figure id="${id}"><figcaption>${esc(title)}</figcaption><svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${esc(title)}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}">${body}</svg>${keys ? `<div class="legend">${keys}</div>` : ""}</figure>`;
}
const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:960px}
table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th:first-child,td:first-child{text-align:left}
figure{margin:20px 0;overflow-x:auto}figcaption{font-weight:600;margin-bottom:4px}svg text{font-size:11px;fill:#333}.legend{margin-top:4px}.key{margin-right:14px}
.key i{display:inline-block;width:10px;height:10px;margin-right:4px}code{background:#f4f4f4;padding:1px 4px}`;
function dataOf(c, kind, title) {
    return {
        kind,
        title,
        runs: c.runs.map((r) => {
            const known = r.perQuestion.filter((q) => q.initialCorrect !== undefined);
            return {
                key: r.key,
                label: r.label,
                questions: r.perQuestion.length,
                correct: r.correct,
                ex: r.ex,
                tokensPerQuestion: r.tokensPerQuestion,
                callsPerQuestion: r.callsPerQuestion,
                latencyMsPerQuestion: r.latencyMsPerQuestion,
                byDifficulty: r.byDifficulty,
                flips: known.length
                    ? { wrongToRight: known.filter((q) => !q.initialCorrect && q.correct).length, rightToWrong: known.filter((q) => q.initialCorrect && !q.correct).length }
                    : null,
                byDatabase: exByDatabase(r.perQuestion),
                outcomes: r.outcomes,
            };
        }),
        pairs: c.pairs.map((p) => ({ a: p.a, b: p.b, onlyA: p.onlyACorrect.length, onlyB: p.onlyBCorrect.length, mcnemarP: p.mcnemarP, holmP: p.holmP })),
    };
}
function page(data, header) {
    const levels = [...new Set(data.runs.flatMap((r) => r.byDifficulty.map((d) => d.difficulty)))];
    const name = (r) => (data.runs.length > 1 ? `${r.key} ${r.label}` : r.label);
    const rows = data.runs
        .map((r) => `<tr data-run="${esc(r.key)}"><td>${esc(name(r))}</td><td data-field="ex">${num(r.ex)}</td><td data-field="correct">${r.correct}</td><td data-field="questions">${r.questions}</td>${levels
        .map((l) => `<td data-field="ex:${esc(l)}">${num(r.byDifficulty.find((d) => d.difficulty === l)?.ex ?? NaN)}</td>`)
        .join("")}<td data-field="tokensPerQuestion">${num(r.tokensPerQuestion, 0)}</td><td data-field="callsPerQuestion">${num(r.callsPerQuestion)}</td><td data-field="latency">${num(r.latencyMsPerQuestion / 1000)}</td></tr>`)
        .join("");
    const table = `<table id="summary"><tr><th>run</th><th>EX %</th><th>correct</th><th>questions</th>${levels.map((l) => `<th>EX ${esc(l)}</th>`).join("")}<th>tokens/q</th><th>calls/q</th><th>s/q</th></tr>${rows}</table>`;
    const charts = [
        barChart("ex-by-difficulty", "EX by difficulty (%)", [...levels, "all"], data.runs.map((r) => ({ name: name(r), values: [...levels.map((l) => r.byDifficulty.find((d) => d.difficulty === l)?.ex ?? 0), r.ex] })), { max: 100, unit: "%" }),
    ];
    if (data.runs.length > 1)
        charts.push(scatter("ex-vs-tokens", "EX against tokens per question", data.runs.map((r) => ({ name: name(r), x: r.tokensPerQuestion, y: r.ex }))));
    const correctors = data.runs.filter((r) => r.flips);
    if (correctors.length) {
        charts.push(barChart("flips", "Corrections: wrong → right and right → wrong (questions)", correctors.map(name), [
            { name: "wrong → right", values: correctors.map((r) => r.flips.wrongToRight) },
            { name: "right → wrong", values: correctors.map((r) => r.flips.rightToWrong) },
        ], { unit: "", digits: 0 }));
    }
    const databases = [...new Set(data.runs.flatMap((r) => r.byDatabase.map((d) => d.db)))].sort();
    if (databases.length > 1) {
        charts.push(barChart("ex-by-database", "EX per database (%)", databases, data.runs.map((r) => ({ name: name(r), values: databases.map((db) => r.byDatabase.find((d) => d.db === db)?.ex ?? 0) })), { max: 100, unit: "%" }));
    }
    if (data.guidelines?.length) {
        const ks = Array.from({ length: Math.max(...data.guidelines.map((g) => g.maxIter)) }, (_, i) => `k=${i + 1}`);
        charts.push(barChart("corrected-within", "Guideline runs: failures corrected within k iterations", ks, data.guidelines.map((g) => ({ name: g.run, values: ks.map((_, i) => g.correctedWithin[i] ?? g.correctedWithin.at(-1) ?? 0) })), { unit: "", digits: 0 }));
    }
    const repeated = data.experiment?.filter((r) => r.repeats) ?? [];
    if (repeated.length) {
        const seeds = repeated[0].repeats.seeds;
        charts.push(barChart("ex-per-repeat", "EX per repeat (%): the spread behind each mean", repeated.map((r) => r.run), seeds.map((seed, k) => ({ name: `repeat ${k + 1} (seed ${seed})`, values: repeated.map((r) => r.repeats.ex[k] ?? null) })), { max: 100, unit: "%" }));
    }
    const experiment = data.experiment?.length
        ? `<h2>Experiment</h2><table id="experiment"><tr><th>run</th><th>graph</th><th>questions</th><th>EX %</th><th>± sd</th><th>tokens/q</th><th>calls/q</th><th>cost/q</th><th>failed</th></tr>${data.experiment
            .map((r) => `<tr data-run="${esc(r.run)}"><td>${esc(r.run)}</td><td>${esc(r.graph)}</td><td data-field="questions">${r.questions}</td><td data-field="ex">${num(r.ex)}</td><td data-field="sd">${r.sd === null ? "" : num(r.sd)}</td><td data-field="tokensPerQuestion">${num(r.tokensPerQuestion, 0)}</td><td data-field="callsPerQuestion">${num(r.callsPerQuestion)}</td><td data-field="costPerQuestion">${r.costPerQuestion === null ? "" : num(r.costPerQuestion, 5)}</td><td data-field="failed">${r.failed}</td></tr>`)
            .join("")}</table>`
        : "";
    const pairs = data.pairs.length
        ? `<h2>Pairs</h2><table id="pairs"><tr><th>pair</th><th>only first right</th><th>only second right</th><th>McNemar p</th><th>Holm p</th></tr>${data.pairs
            .map((p) => `<tr data-pair="${esc(p.a)}-${esc(p.b)}"><td>${esc(p.a)} vs ${esc(p.b)}</td><td data-field="onlyA">${p.onlyA}</td><td data-field="onlyB">${p.onlyB}</td><td data-field="mcnemarP">${p.mcnemarP.toPrecision(3)}</td><td data-field="holmP">${p.holmP.toPrecision(3)}</td></tr>`)
            .join("")}</table>`
        : "";
    const outcomes = data.runs.some((r) => r.outcomes.length)
        ? `<h2>What the questions went through</h2>${data.runs
            .map((r) => `<div class="outcomes" data-run="${esc(r.key)}"><h3>${esc(name(r))}</h3>${r.outcomes.length ? `<ul>${r.outcomes.map((line) => `<li>${esc(line)}</li>`).join("")}</ul>` : "<p>no outcome recorded</p>"}</div>`)
            .join("")}`
        : "";
    const json = JSON.stringify(data).replace(/</g, "\\u003c");
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(data.title)}</title><style>${STYLE}</style></head>
<body><h1>${esc(data.title)}</h1>${header}${experiment}${table}${outcomes}${charts.join("\n")}${pairs}
<script type="application/json" id="sqlmend-data">${json}</script>
</body></html>
`;
}
/** report.html of one eval run (beside its report.md). */
export function renderEvalHtml(records, ctx) {
    const comparison = compareRuns([{ key: "A", label: ctx.graph, dir: "", records: new Map(records.map((r) => [r.id, r])), run: {} }]);
    const title = `sqlmend eval: ${ctx.graph} on ${ctx.dataset} (${ctx.split})`;
    return page(dataOf(comparison, "eval", title), `<p>Command: <code>${esc(maskSecrets(ctx.command))}</code></p>`);
}
/** The page of a comparison (`sqlmend compare --html`, an experiment's table). */
export function renderCompareHtml(comparison, ctx) {
    const title = ctx.title ?? `sqlmend compare: ${comparison.runs.length} runs on ${comparison.common} common questions`;
    const data = { ...dataOf(comparison, "compare", title), ...(ctx.experiment ? { experiment: ctx.experiment } : {}), ...(ctx.guidelines?.length ? { guidelines: ctx.guidelines } : {}) };
    return page(data, `<p>Command: <code>${esc(maskSecrets(ctx.command))}</code></p>${ctx.note ? `<p>${esc(ctx.note)}</p>` : ""}${comparison.warnings.map((w) => `<p>warning: ${esc(w)}</p>`).join("")}`);
}
