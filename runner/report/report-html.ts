import { maskSecrets } from "../../core/secrets.ts";
import type { Comparison } from "./comparison.ts";
import type { Interval } from "./eval-report.ts";
import { compareRuns } from "./comparison.ts";
import { exByDatabase } from "../../tools/benchmarks/score.ts";
import type { EvalRecord } from "../run/results-record.ts";
import { escapeHtml, groupedBarChart, scatterChart } from "../../tools/charts.ts";
import { MOCK_LABEL } from "../../tools/models/mock-label.ts";

/**
 * report.html: a self-contained page (inline SVG and CSS, no script, nothing fetched) beside report.md (eval,
 * experiments) or from `sqlmend compare --html`. Charts (drawn by `tools/charts.ts`, Vega-Lite rendered to SVG):
 * EX by difficulty per run; EX against tokens per question (several runs); right→wrong and wrong→right flips of
 * correctors; EX per database (MAGIC Figure 4, with several databases); an experiment's guideline runs' failures
 * corrected within k iterations (MAGIC Figure 3); with --repeats, EX per repeat. Every mark carries its number in
 * `data-value` (and `data-x`/`data-y`) and a tooltip, and the page embeds the numbers it drew as JSON (`<script
 * type="application/json" id="sqlmend-data">`), so a test can check the drawing against the data.
 */

const esc = escapeHtml;
const num = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

// Charts style themselves (tools/charts.ts) and scale to the column; a wide table scrolls inside its own box on
// screen and wraps its cells in print.
const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:960px}
@media (max-width:600px){body{margin:12px}}
h1,h2,p{overflow-wrap:anywhere}
.table-box{overflow-x:auto;max-width:100%}
@media print{body{margin:0;max-width:none}.table-box{overflow:visible}table{font-size:10px}td,th{padding:2px 3px;overflow-wrap:anywhere}}
table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th:first-child,td:first-child{text-align:left}
code{background:#f4f4f4;padding:1px 4px;overflow-wrap:anywhere}`;

export interface ExperimentHtmlRow {
  run: string;
  graph: string;
  questions: number;
  ex: number;
  /** Sample sd over repeats, or null for one. */
  sd: number | null;
  /** `--repeats N`: EX per repeat (null: the repeat answered nothing) and its seed; null for one run or a held run. */
  repeats: { seeds: number[]; ex: (number | null)[] } | null;
  tokensPerQuestion: number;
  callsPerQuestion: number;
  costPerQuestion: number | null;
  failed: number;
  /** EX's 95 % interval (over questions, or over repeats) and the planned comparison, as table.json has them. */
  interval: (Interval & { over: string; n: number }) | null;
  versus: { reference: string; tests: PlannedHtmlTest[]; pooled?: PlannedHtmlTest | null; notTested: string | null } | null;
  /** The model the run asked for and the served versions that answered (`runModel`). */
  model?: string | null;
}

type PlannedHtmlTest = { seed: number | null; compared: number; onlyRow: number; onlyReference: number; p: number; holmP: number; family: number; difference?: number; differenceInterval?: Interval };

/** The data a page drew, per run: what the test checks the marks against. */
export interface HtmlData {
  kind: "eval" | "compare";
  title: string;
  runs: {
    key: string;
    label: string;
    questions: number;
    correct: number;
    ex: number;
    /** EX's 95 % interval (Wilson over the questions compared), null without gold. */
    interval: Interval | null;
    /** The model asked for and the served versions that answered; null when unknown. */
    model: string | null;
    tokensPerQuestion: number;
    callsPerQuestion: number;
    latencyMsPerQuestion: number;
    /** USD per question (`--price`), null without prices. */
    costPerQuestion: number | null;
    byDifficulty: { difficulty: string; count: number; correct: number; ex: number }[];
    /** Correctors with gold: wrong→right and right→wrong among the questions with a known initial verdict. */
    flips: { wrongToRight: number; rightToWrong: number } | null;
    byDatabase: { db: string; count: number; correct: number; ex: number }[];
    /** What the questions went through: the run's outcome lines, as its report.md has them. */
    outcomes: string[];
  }[];
  /** An experiment's rows as its table.json has them (every answered question of each run, means over repeats). */
  experiment?: ExperimentHtmlRow[];
  /** An experiment's MAGIC guideline runs: failures corrected within k = 1.. iterations (Figure 3). */
  guidelines?: { run: string; maxIter: number; failures: number; correctedWithin: number[] }[];
  pairs: { a: string; b: string; onlyA: number; onlyB: number; mcnemarP: number; holmP: number }[];
}

function dataOf(c: Comparison, kind: HtmlData["kind"], title: string): HtmlData {
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
        interval: r.exInterval ?? null,
        model: r.model ?? null,
        tokensPerQuestion: r.tokensPerQuestion,
        callsPerQuestion: r.callsPerQuestion,
        latencyMsPerQuestion: r.latencyMsPerQuestion,
        costPerQuestion: r.costPerQuestion,
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

/** The page's own additions: which repeat the comparison charts are of (--repeats), the cost summary (--price). */
interface PageExtras {
  /** The comparison's charts draw this repeat (its seed) of `of`. */
  repeat?: { k: number; seed: number; of: number };
  /** The cost summary line, shown first. */
  cost?: string;
}

async function page(data: HtmlData, header: string, extras: PageExtras = {}): Promise<string> {
  const levels = [...new Set(data.runs.flatMap((r) => r.byDifficulty.map((d) => d.difficulty)))];
  const name = (r: HtmlData["runs"][number]) => (data.runs.length > 1 ? `${r.key} ${r.label}` : r.label);
  const priced = data.runs.some((r) => r.costPerQuestion !== null);
  const rows = data.runs
    .map(
      (r) =>
        `<tr data-run="${esc(r.key)}"><td>${esc(name(r))}</td><td data-field="ex">${num(r.ex)}</td><td data-field="interval">${r.interval ? `${num(r.interval.low)}–${num(r.interval.high)}` : ""}</td><td data-field="correct">${r.correct}</td><td data-field="questions">${r.questions}</td>${levels
          .map((l) => `<td data-field="ex:${esc(l)}">${num(r.byDifficulty.find((d) => d.difficulty === l)?.ex ?? NaN)}</td>`)
          .join("")}<td data-field="tokensPerQuestion">${num(r.tokensPerQuestion, 0)}</td><td data-field="callsPerQuestion">${num(r.callsPerQuestion)}</td><td data-field="latency">${num(r.latencyMsPerQuestion / 1000)}</td>${priced ? `<td data-field="costPerQuestion">${r.costPerQuestion === null ? "" : num(r.costPerQuestion, 5)}</td>` : ""}</tr>`,
    )
    .join("");
  const models = data.runs.some((r) => r.model) ? `<p id="models">Model: ${data.runs.map((r) => `${data.runs.length > 1 ? `${esc(r.key)} ` : ""}${esc(r.model ?? "unknown")}`).join("; ")}</p>` : "";
  const table = `${models}<div class="table-box"><table id="summary"><tr><th>run</th><th>EX %</th><th>95 % interval (Wilson)</th><th>correct</th><th>questions</th>${levels.map((l) => `<th>EX ${esc(l)}</th>`).join("")}<th>tokens/q</th><th>calls/q</th><th>s/q</th>${priced ? "<th>USD/q</th>" : ""}</tr>${rows}</table></div>`;
  // With --repeats the comparison's charts are of one repeat: each says which.
  const of = extras.repeat ? ` — repeat ${extras.repeat.k} of ${extras.repeat.of} (seed ${extras.repeat.seed})` : "";
  // A level or database a run has no question of draws no bar (a dash), not EX 0.
  // With several runs each bar is labelled with its run's key (as the summary table and the points are).
  const key = (r: HtmlData["runs"][number]) => (data.runs.length > 1 ? { label: r.key } : {});
  const exAt = (r: HtmlData["runs"][number], level: string) => r.byDifficulty.find((d) => d.difficulty === level)?.ex ?? null;
  const charts: Promise<string>[] = [
    groupedBarChart({ id: "ex-by-difficulty", title: `EX by difficulty (%)${of}`, groups: [...levels, "all"], series: data.runs.map((r) => ({ name: name(r), ...key(r), values: [...levels.map((l) => exAt(r, l)), r.ex] })), max: 100, unit: "%", axisTitle: "EX %" }),
  ];
  if (data.runs.length > 1) {
    // Points are labelled with run keys (short, so labels rarely collide); the legend and tooltips give full names.
    const points = data.runs.map((r) => ({ name: name(r), label: r.key, x: r.tokensPerQuestion, y: r.ex }));
    charts.push(scatterChart({ id: "ex-vs-tokens", title: `EX against tokens per question${of}`, points, x: { title: "tokens per question", unit: " tokens" }, y: { title: "EX %", unit: "%", max: 100 } }));
  }
  const correctors = data.runs.filter((r) => r.flips);
  if (correctors.length) {
    const series = [
      { name: "wrong → right", values: correctors.map((r) => r.flips!.wrongToRight) },
      { name: "right → wrong", values: correctors.map((r) => r.flips!.rightToWrong) },
    ];
    charts.push(groupedBarChart({ id: "flips", title: `Corrections: wrong → right and right → wrong (questions)${of}`, groups: correctors.map(name), series, unit: " questions", digits: 0, integer: true, axisTitle: "questions" }));
  }
  const databases = [...new Set(data.runs.flatMap((r) => r.byDatabase.map((d) => d.db)))].sort();
  if (databases.length > 1) {
    const series = data.runs.map((r) => ({ name: name(r), ...key(r), values: databases.map((db) => r.byDatabase.find((d) => d.db === db)?.ex ?? null) }));
    charts.push(groupedBarChart({ id: "ex-by-database", title: `EX per database (%)${of}`, groups: databases, series, max: 100, unit: "%", axisTitle: "EX %" }));
  }
  if (data.guidelines?.length) {
    const ks = Array.from({ length: Math.max(...data.guidelines.map((g) => g.maxIter)) }, (_, i) => `k=${i + 1}`);
    // A run's bars stop at its own max_i: k past it is no figure of that run's.
    const series = data.guidelines.map((g) => ({ name: g.run, values: ks.map((_, i) => (i < g.maxIter ? g.correctedWithin[i] : undefined)) }));
    charts.push(groupedBarChart({ id: "corrected-within", title: "Guideline runs: failures corrected within k iterations", groups: ks, series, unit: " failures", digits: 0, integer: true, axisTitle: "failures corrected" }));
  }
  const repeated = data.experiment?.filter((r) => r.repeats) ?? [];
  if (repeated.length) {
    const seeds = repeated[0]!.repeats!.seeds;
    const series = seeds.map((seed, k) => ({ name: `repeat ${k + 1} (seed ${seed})`, values: repeated.map((r) => r.repeats!.ex[k] ?? null) }));
    charts.push(groupedBarChart({ id: "ex-per-repeat", title: "EX per repeat (%): the spread behind each mean", groups: repeated.map((r) => r.run), series, max: 100, unit: "%", axisTitle: "EX %" }));
  }
  const ci = (r: ExperimentHtmlRow) => (r.interval ? `${num(r.interval.low)}–${num(r.interval.high)}` : "");
  const versus = (r: ExperimentHtmlRow) =>
    !r.versus
      ? ""
      : r.versus.notTested
        ? `${esc(r.versus.reference)}: not tested (${esc(r.versus.notTested)})`
        : `${esc(r.versus.reference)}: ${[...(r.versus.pooled ? [{ ...r.versus.pooled, label: "pooled over repeats: " }] : []), ...r.versus.tests.map((t) => ({ ...t, label: t.seed === null ? "" : `seed ${t.seed}: ` }))].map((t) => `${t.label}+${t.onlyRow} / −${t.onlyReference}${t.difference === undefined ? "" : `, EX ${t.difference >= 0 ? "+" : ""}${num(t.difference)} [${num(t.differenceInterval!.low)}, ${num(t.differenceInterval!.high)}]`}, p ${t.p.toPrecision(3)}, Holm p ${t.holmP.toPrecision(3)} (of ${t.family})`).join("; ")}`;
  const overRepeats = data.experiment?.some((r) => r.interval?.over === "repeats");
  const experiment = data.experiment?.length
    ? `<h2>Experiment</h2><div class="table-box"><table id="experiment"><tr><th>run</th><th>graph</th><th>questions</th><th>EX %</th><th>95 % interval</th><th>± sd</th><th>tokens/q</th><th>calls/q</th><th>cost/q</th><th>failed</th><th>model (served)</th><th>against its reference (exact McNemar)</th></tr>${data.experiment
        .map((r) => `<tr data-run="${esc(r.run)}"><td>${esc(r.run)}</td><td>${esc(r.graph)}</td><td data-field="questions">${r.questions}</td><td data-field="ex">${num(r.ex)}</td><td data-field="interval">${ci(r)}</td><td data-field="sd">${r.sd === null ? "" : num(r.sd)}</td><td data-field="tokensPerQuestion">${num(r.tokensPerQuestion, 0)}</td><td data-field="callsPerQuestion">${num(r.callsPerQuestion)}</td><td data-field="costPerQuestion">${r.costPerQuestion === null ? "" : num(r.costPerQuestion, 5)}</td><td data-field="failed">${r.failed}</td><td data-field="model">${esc(r.model ?? "")}</td><td data-field="versus">${versus(r)}</td></tr>`)
        .join("")}</table></div><p class="legend-note">95 % interval: ${overRepeats ? "a seeded bootstrap over questions × repeats, never narrower than Wilson's (a held run: Wilson over its questions)" : "Wilson score interval over every selected question (a failed one is wrong)"}. Against its reference — the planned comparisons, the one family that counts: questions only this run got right (+) and only the reference got right (−), the EX difference in points with its paired 95 % interval, exact McNemar p, Holm-adjusted over the experiment's planned comparisons (of N; with repeats, the pooled tests), not over every pair.</p>`
    : "";
  // An experiment's family is its planned comparisons; every pair, if shown, is exploratory and says so.
  const pairsTitle = data.experiment ? `<h2>Exploratory: every pair (not the planned family)</h2><p class="legend-note">Holm here is over all ${data.pairs.length} pairs, for exploring; the significance that counts is the Experiment table's planned comparisons.</p>` : "<h2>Pairs</h2>";
  const pairs = data.pairs.length
    ? `${pairsTitle}<div class="table-box"><table id="pairs"><tr><th>pair</th><th>only first right</th><th>only second right</th><th>McNemar p</th><th>Holm p</th></tr>${data.pairs
        .map((p) => `<tr data-pair="${esc(p.a)}-${esc(p.b)}"><td>${esc(p.a)} vs ${esc(p.b)}</td><td data-field="onlyA">${p.onlyA}</td><td data-field="onlyB">${p.onlyB}</td><td data-field="mcnemarP">${p.mcnemarP.toPrecision(3)}</td><td data-field="holmP">${p.holmP.toPrecision(3)}</td></tr>`)
        .join("")}</table></div>`
    : "";
  const outcomes = data.runs.some((r) => r.outcomes.length)
    ? `<h2>What the questions went through</h2>${data.runs
        .map((r) => `<div class="outcomes" data-run="${esc(r.key)}"><h3>${esc(name(r))}</h3>${r.outcomes.length ? `<ul>${r.outcomes.map((line) => `<li>${esc(line)}</li>`).join("")}</ul>` : "<p>no outcome recorded</p>"}</div>`)
        .join("")}`
    : "";
  const json = JSON.stringify(data).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(data.title)}</title><style>${STYLE}</style></head>
<body><h1>${esc(data.title)}</h1>${header}${extras.cost ? `<p id="cost">${esc(extras.cost)}</p>` : ""}${experiment}${table}${outcomes}${(await Promise.all(charts)).join("\n")}${pairs}
<script type="application/json" id="sqlmend-data">${json}</script>
</body></html>
`;
}

/** report.html of one eval run (beside its report.md). */
export async function renderEvalHtml(records: EvalRecord[], ctx: { graph: string; dataset: string; split: string; command: string; models?: Record<string, unknown>; mock?: boolean }): Promise<string> {
  const comparison = compareRuns([{ key: "A", label: ctx.graph, dir: "", records: new Map(records.map((r) => [r.id, r])), run: ctx.models ? { models: ctx.models } : {} }]);
  const title = `sqlmend eval: ${ctx.graph} on ${ctx.dataset} (${ctx.split})${ctx.mock ? ` — ${MOCK_LABEL}` : ""}`;
  return page(dataOf(comparison, "eval", title), `${ctx.mock ? mockBanner : ""}<p>Command: <code>${esc(maskSecrets(ctx.command))}</code></p>`);
}

/** The line every page of a mock run shows first. */
const mockBanner = `<p id="mock" class="mock"><strong>${esc(MOCK_LABEL)}</strong>: the built-in mock model answered from the gold SQL (<code>--model mock</code>).</p>`;

/** The page of a comparison (`sqlmend compare --html`, an experiment's table). */
export async function renderCompareHtml(comparison: Comparison, ctx: { command: string; title?: string; experiment?: ExperimentHtmlRow[]; guidelines?: HtmlData["guidelines"]; note?: string; mock?: boolean } & PageExtras): Promise<string> {
  const mock = ctx.mock ? ` — ${MOCK_LABEL}` : "";
  const title = `${ctx.title ?? `sqlmend compare: ${comparison.runs.length} runs on ${comparison.common} common questions`}${mock}`;
  const data = { ...dataOf(comparison, "compare", title), ...(ctx.experiment ? { experiment: ctx.experiment } : {}), ...(ctx.guidelines?.length ? { guidelines: ctx.guidelines } : {}) };
  return page(data, `${ctx.mock ? mockBanner : ""}<p>Command: <code>${esc(maskSecrets(ctx.command))}</code></p>${ctx.note ? `<p>${esc(ctx.note)}</p>` : ""}${comparison.warnings.map((w) => `<p>warning: ${esc(w)}</p>`).join("")}`, ctx);
}
