import { maskSecrets } from "../core/secrets.ts";
import type { Comparison, Interval } from "./compare.ts";
import { compareRuns } from "./compare.ts";
import { exByDatabase } from "../tools/benchmarks/score.ts";
import type { EvalRecord } from "./report.ts";
import { MOCK_LABEL } from "../tools/models/mock-label.ts";

/**
 * report.html: a self-contained page (inline SVG and CSS, no script, nothing fetched) beside report.md (eval,
 * experiments) or from `sqlmend compare --html`. Charts: EX by difficulty per run; EX against tokens per question
 * (several runs); right→wrong and wrong→right flips of correctors; EX per database (MAGIC Figure 4, with several
 * databases); an experiment's guideline runs' failures corrected within k iterations (MAGIC Figure 3); with --repeats, EX per repeat. Every mark carries its number in `data-value`
 * (and `data-x`/`data-y`), and the page embeds the numbers it drew as JSON (`<script type="application/json"
 * id="sqlmend-data">`), so a test can check the drawing against the data.
 */

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const num = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "-");
const PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];

/** sRGB hex of a CIE LCh(ab) colour (D65), clamped into the gamut. */
function lchHex(l: number, c: number, hDeg: number): string {
  const h = (hDeg * Math.PI) / 180;
  const a = c * Math.cos(h);
  const b = c * Math.sin(h);
  const fy = (l + 16) / 116;
  const finv = (t: number) => (t ** 3 > 0.008856 ? t ** 3 : (t - 16 / 116) / 7.787);
  const [x, y, z] = [0.95047 * finv(fy + a / 500), finv(fy), 1.08883 * finv(fy - b / 200)];
  const lin = [3.2406 * x - 1.5372 * y - 0.4986 * z, -0.9689 * x + 1.8758 * y + 0.0415 * z, 0.0557 * x - 0.204 * y + 1.057 * z];
  const gamma = (v: number) => Math.round(255 * Math.min(1, Math.max(0, v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055)));
  return `#${lin.map((v) => gamma(v).toString(16).padStart(2, "0")).join("")}`;
}

/**
 * A distinct colour per series: the Tableau 10 palette up to 10 series, past that hues evenly spaced around the
 * CIE LCh circle, the lightness alternating so that neighbouring hues differ in lightness too (a palette that repeats
 * made two runs the same blue).
 */
export function seriesColors(n: number): string[] {
  if (n <= PALETTE.length) return PALETTE.slice(0, n);
  return Array.from({ length: n }, (_, i) => lchHex(i % 2 ? 72 : 52, 48, 20 + (i * 360) / n));
}

/** Width of a label as drawn (a generous estimate: the page's sans-serif at this size, wide glyphs included). */
const textWidth = (text: string, size = 11) => text.length * size * 0.66 + 2;

/** Evenly spaced axis ticks from 0 to at least max: steps of 1, 2 or 5 × 10^k, whole numbers on a count axis. */
export function niceTicks(max: number, integer: boolean, target = 5): number[] {
  const raw = Math.max(max, integer ? 1 : Number.MIN_VALUE) / (target - 1);
  const mag = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  if (integer) step = Math.max(1, Math.ceil(step));
  const ticks = [0];
  while (ticks.at(-1)! < max - 1e-9) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks.length > 1 ? ticks : [0, step];
}

interface Series {
  name: string;
  /** null: no figure (a repeat that answered nothing): no bar, a dash. undefined: not applicable (k past a run's max_i): nothing drawn. */
  values: (number | null | undefined)[];
}

/**
 * Grouped vertical bars: one group per category, one bar per series. Bars are wide enough for their value above them
 * (turned upright when it is wider than the bar), group names turn upright when wider than their group, and the
 * margins grow to hold both, so no label overlaps another or leaves the drawing.
 */
function barChart(id: string, title: string, groups: string[], series: Series[], opts: { max?: number; unit: string; digits?: number; integer?: boolean }): string {
  const digits = opts.digits ?? 2;
  const drawn = series.flatMap((s) => s.values.filter((v): v is number => typeof v === "number"));
  const ticks = opts.max !== undefined ? niceTicks(opts.max, false) : niceTicks(Math.max(opts.integer ? 1 : 0, ...drawn), !!opts.integer);
  const max = ticks.at(-1)!;
  const valueSize = 10;
  const valueWidth = Math.max(textWidth("–", valueSize), ...drawn.map((v) => textWidth(num(v, digits), valueSize)));
  const barW = Math.max(16, Math.min(valueWidth + 4, 40));
  const uprightValues = valueWidth + 2 > barW;
  const groupW = (Math.max(1, series.length) * barW) / 0.8;
  const groupWidth = Math.max(...groups.map((g) => textWidth(g)));
  const uprightGroups = groupWidth + 4 > groupW;
  const left = Math.max(40, 10 + Math.max(...ticks.map((t) => textWidth(num(t, opts.integer ? 0 : (opts.digits ?? 0))))));
  const top = 10 + (uprightValues ? valueWidth : 14);
  const bottom = 12 + (uprightGroups ? groupWidth : 16);
  const plotH = 216;
  const H = top + plotH + bottom;
  // Wide enough for every bar (Spider's 20 databases × several runs), scrolled inside its figure.
  const W = Math.max(640, left + 16 + groups.length * groupW);
  const colors = seriesColors(series.length);
  const y = (v: number) => top + plotH - (v / max) * plotH;
  const parts: string[] = [];
  parts.push(`<line x1="${left}" y1="${top + plotH}" x2="${W - 8}" y2="${top + plotH}" stroke="#444"/>`);
  for (const v of ticks) {
    parts.push(`<text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" class="axis tick" data-chart="${id}" data-value="${v}">${num(v, opts.integer ? 0 : (opts.digits ?? 0))}</text>`);
    parts.push(`<line x1="${left}" y1="${y(v).toFixed(1)}" x2="${W - 8}" y2="${y(v).toFixed(1)}" stroke="#eee"/>`);
  }
  const valueLabel = (x: number, yBase: number, text: string) =>
    uprightValues
      ? `<text class="value" font-size="${valueSize}" x="${x.toFixed(1)}" y="${yBase.toFixed(1)}" transform="rotate(-90 ${x.toFixed(1)} ${yBase.toFixed(1)})" dy="0.35em">${text}</text>`
      : `<text class="value" font-size="${valueSize}" x="${x.toFixed(1)}" y="${yBase.toFixed(1)}" text-anchor="middle">${text}</text>`;
  groups.forEach((group, g) => {
    const x0 = left + g * groupW + groupW * 0.1;
    series.forEach((s, i) => {
      const x = x0 + i * barW;
      const v = s.values[g];
      if (v === undefined) return;
      const centre = x + (barW - 2) / 2;
      if (v === null) {
        parts.push(valueLabel(centre, top + plotH - 3, "–"));
        return;
      }
      parts.push(
        `<rect class="mark" data-chart="${id}" data-series="${esc(s.name)}" data-group="${esc(group)}" data-value="${v}" x="${x.toFixed(1)}" y="${y(v).toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${(top + plotH - y(v)).toFixed(1)}" fill="${colors[i]}"><title>${esc(s.name)} · ${esc(group)}: ${num(v, digits)}${opts.unit}</title></rect>`,
      );
      parts.push(valueLabel(centre, y(v) - 3, num(v, digits)));
    });
    const cx = x0 + (series.length * barW) / 2;
    const gy = top + plotH + 8;
    parts.push(
      uprightGroups
        ? `<text x="${cx.toFixed(1)}" y="${gy}" text-anchor="end" class="axis group" transform="rotate(-90 ${cx.toFixed(1)} ${gy})" dy="0.35em">${esc(group)}</text>`
        : `<text x="${cx.toFixed(1)}" y="${gy + 8}" text-anchor="middle" class="axis group">${esc(group)}</text>`,
    );
  });
  return figure(id, title, W, H, parts.join(""), series.map((s, i) => ({ name: s.name, color: colors[i]! })));
}

/** One point per run: x = tokens per question, y = EX; each named beside its point where its name fits, all in the legend. */
function scatter(id: string, title: string, points: { name: string; x: number; y: number }[]): string {
  const W = 640;
  const H = 300;
  const left = 56;
  const bottom = 40;
  const top = 20;
  const right = 24;
  const xTicks = niceTicks(Math.max(1, ...points.map((p) => p.x)) * 1.05, true);
  const maxX = xTicks.at(-1)!;
  const plotW = W - left - right;
  const plotH = H - bottom - top;
  const sx = (v: number) => left + (v / maxX) * plotW;
  const sy = (v: number) => top + plotH - (v / 100) * plotH;
  const colors = seriesColors(points.length);
  const parts: string[] = [];
  parts.push(`<line x1="${left}" y1="${top + plotH}" x2="${W - right}" y2="${top + plotH}" stroke="#444"/><line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}" stroke="#444"/>`);
  for (const t of [0, 25, 50, 75, 100]) parts.push(`<text x="${left - 6}" y="${sy(t) + 4}" text-anchor="end" class="axis tick" data-chart="${id}" data-value="${t}">${t}</text>`);
  for (const t of xTicks) parts.push(`<text x="${sx(t).toFixed(1)}" y="${H - bottom + 16}" text-anchor="middle" class="axis tick" data-chart="${id}" data-axis="x" data-value="${t}">${t}</text>`);
  parts.push(`<text x="${left + plotW / 2}" y="${H - 4}" text-anchor="middle" class="axis">tokens per question</text>`);
  parts.push(`<text x="12" y="${top + plotH / 2}" text-anchor="middle" class="axis" transform="rotate(-90 12 ${top + plotH / 2})">EX %</text>`);
  // Labels placed one by one where they cover no point and no label placed before (right of the point, else left,
  // nearest first), inside the plot; a name with no room is left to the legend.
  const placed: { x1: number; y1: number; x2: number; y2: number }[] = points.map((p) => ({ x1: sx(p.x) - 7, x2: sx(p.x) + 7, y1: sy(p.y) - 7, y2: sy(p.y) + 7 }));
  const free = (b: (typeof placed)[number]) => b.x1 >= left && b.x2 <= W - 2 && b.y1 >= 2 && b.y2 <= top + plotH && placed.every((o) => b.x2 < o.x1 || b.x1 > o.x2 || b.y2 < o.y1 || b.y1 > o.y2);
  points.forEach((p, i) => {
    parts.push(
      `<circle class="mark" data-chart="${id}" data-series="${esc(p.name)}" data-x="${p.x}" data-y="${p.y}" cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="6" fill="${colors[i]}"><title>${esc(p.name)}: ${num(p.y)}% at ${num(p.x, 0)} tokens</title></circle>`,
    );
  });
  points.forEach((p) => {
    const w = textWidth(p.name);
    const [px, py] = [sx(p.x), sy(p.y)];
    for (const dy of [0, -15, 15, -30, 30, -45, 45, -60, 60]) {
      const spot = [{ x: px + 9, anchor: "start" }, { x: px - 9, anchor: "end" }].map(({ x, anchor }) => ({ anchor, x, box: { x1: anchor === "start" ? x : x - w, x2: anchor === "start" ? x + w : x, y1: py + dy - 10, y2: py + dy + 6 } })).find((c) => free(c.box));
      if (!spot) continue;
      placed.push(spot.box);
      if (dy) parts.push(`<line x1="${px.toFixed(1)}" y1="${py.toFixed(1)}" x2="${spot.x.toFixed(1)}" y2="${(py + dy - 2).toFixed(1)}" stroke="#999"/>`);
      parts.push(`<text class="value label" x="${spot.x.toFixed(1)}" y="${(py + dy + 2).toFixed(1)}" text-anchor="${spot.anchor}">${esc(p.name)}</text>`);
      break;
    }
  });
  return figure(id, title, W, H, parts.join(""), points.map((p, i) => ({ name: p.name, color: colors[i]! })));
}

function figure(id: string, title: string, W: number, H: number, body: string, legend: { name: string; color: string }[]): string {
  const keys = legend.map((k) => `<span class="key" data-color="${k.color}"><i style="background:${k.color}"></i>${esc(k.name)}</span>`).join("");
  return `<figure id="${id}"><figcaption>${esc(title)}</figcaption><svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${esc(title)}" viewBox="0 0 ${Math.ceil(W)} ${Math.ceil(H)}" width="${Math.ceil(W)}" height="${Math.ceil(H)}">${body}</svg>${keys ? `<div class="legend">${keys}</div>` : ""}</figure>`;
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:960px}
table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th:first-child,td:first-child{text-align:left}
figure{margin:20px 0;overflow-x:auto}figcaption{font-weight:600;margin-bottom:4px}svg text{font-size:11px;fill:#333}.legend{margin-top:4px}.key{margin-right:14px}
.key i{display:inline-block;width:10px;height:10px;margin-right:4px}code{background:#f4f4f4;padding:1px 4px}`;

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
  versus: { reference: string; tests: { seed: number | null; compared: number; onlyRow: number; onlyReference: number; p: number; holmP: number; family: number }[]; notTested: string | null } | null;
}

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

function page(data: HtmlData, header: string, extras: PageExtras = {}): string {
  const levels = [...new Set(data.runs.flatMap((r) => r.byDifficulty.map((d) => d.difficulty)))];
  const name = (r: HtmlData["runs"][number]) => (data.runs.length > 1 ? `${r.key} ${r.label}` : r.label);
  const priced = data.runs.some((r) => r.costPerQuestion !== null);
  const rows = data.runs
    .map(
      (r) =>
        `<tr data-run="${esc(r.key)}"><td>${esc(name(r))}</td><td data-field="ex">${num(r.ex)}</td><td data-field="correct">${r.correct}</td><td data-field="questions">${r.questions}</td>${levels
          .map((l) => `<td data-field="ex:${esc(l)}">${num(r.byDifficulty.find((d) => d.difficulty === l)?.ex ?? NaN)}</td>`)
          .join("")}<td data-field="tokensPerQuestion">${num(r.tokensPerQuestion, 0)}</td><td data-field="callsPerQuestion">${num(r.callsPerQuestion)}</td><td data-field="latency">${num(r.latencyMsPerQuestion / 1000)}</td>${priced ? `<td data-field="costPerQuestion">${r.costPerQuestion === null ? "" : num(r.costPerQuestion, 5)}</td>` : ""}</tr>`,
    )
    .join("");
  const table = `<table id="summary"><tr><th>run</th><th>EX %</th><th>correct</th><th>questions</th>${levels.map((l) => `<th>EX ${esc(l)}</th>`).join("")}<th>tokens/q</th><th>calls/q</th><th>s/q</th>${priced ? "<th>USD/q</th>" : ""}</tr>${rows}</table>`;
  // With --repeats the comparison's charts are of one repeat: each says which.
  const of = extras.repeat ? ` — repeat ${extras.repeat.k} of ${extras.repeat.of} (seed ${extras.repeat.seed})` : "";
  const charts = [
    barChart("ex-by-difficulty", `EX by difficulty (%)${of}`, [...levels, "all"], data.runs.map((r) => ({ name: name(r), values: [...levels.map((l) => r.byDifficulty.find((d) => d.difficulty === l)?.ex ?? 0), r.ex] })), { max: 100, unit: "%" }),
  ];
  if (data.runs.length > 1) charts.push(scatter("ex-vs-tokens", `EX against tokens per question${of}`, data.runs.map((r) => ({ name: name(r), x: r.tokensPerQuestion, y: r.ex }))));
  const correctors = data.runs.filter((r) => r.flips);
  if (correctors.length) {
    charts.push(
      barChart("flips", `Corrections: wrong → right and right → wrong (questions)${of}`, correctors.map(name), [
        { name: "wrong → right", values: correctors.map((r) => r.flips!.wrongToRight) },
        { name: "right → wrong", values: correctors.map((r) => r.flips!.rightToWrong) },
      ], { unit: "", digits: 0, integer: true }),
    );
  }
  const databases = [...new Set(data.runs.flatMap((r) => r.byDatabase.map((d) => d.db)))].sort();
  if (databases.length > 1) {
    charts.push(barChart("ex-by-database", `EX per database (%)${of}`, databases, data.runs.map((r) => ({ name: name(r), values: databases.map((db) => r.byDatabase.find((d) => d.db === db)?.ex ?? 0) })), { max: 100, unit: "%" }));
  }
  if (data.guidelines?.length) {
    const ks = Array.from({ length: Math.max(...data.guidelines.map((g) => g.maxIter)) }, (_, i) => `k=${i + 1}`);
    // A run's bars stop at its own max_i: k past it is no figure of that run's.
    charts.push(barChart("corrected-within", "Guideline runs: failures corrected within k iterations", ks, data.guidelines.map((g) => ({ name: g.run, values: ks.map((_, i) => (i < g.maxIter ? g.correctedWithin[i] : undefined)) })), { unit: "", digits: 0, integer: true }));
  }
  const repeated = data.experiment?.filter((r) => r.repeats) ?? [];
  if (repeated.length) {
    const seeds = repeated[0]!.repeats!.seeds;
    charts.push(barChart("ex-per-repeat", "EX per repeat (%): the spread behind each mean", repeated.map((r) => r.run), seeds.map((seed, k) => ({ name: `repeat ${k + 1} (seed ${seed})`, values: repeated.map((r) => r.repeats!.ex[k] ?? null) })), { max: 100, unit: "%" }));
  }
  const ci = (r: ExperimentHtmlRow) => (r.interval ? `${num(r.interval.low)}–${num(r.interval.high)}` : "");
  const versus = (r: ExperimentHtmlRow) =>
    !r.versus
      ? ""
      : r.versus.notTested
        ? `${esc(r.versus.reference)}: not tested (${esc(r.versus.notTested)})`
        : `${esc(r.versus.reference)}: ${r.versus.tests.map((t) => `${t.seed === null ? "" : `seed ${t.seed}: `}+${t.onlyRow} / −${t.onlyReference}, p ${t.p.toPrecision(3)}, Holm p ${t.holmP.toPrecision(3)} (of ${t.family})`).join("; ")}`;
  const overRepeats = data.experiment?.some((r) => r.interval?.over === "repeats");
  const experiment = data.experiment?.length
    ? `<h2>Experiment</h2><table id="experiment"><tr><th>run</th><th>graph</th><th>questions</th><th>EX %</th><th>95 % interval</th><th>± sd</th><th>tokens/q</th><th>calls/q</th><th>cost/q</th><th>failed</th><th>against its reference (exact McNemar)</th></tr>${data.experiment
        .map((r) => `<tr data-run="${esc(r.run)}"><td>${esc(r.run)}</td><td>${esc(r.graph)}</td><td data-field="questions">${r.questions}</td><td data-field="ex">${num(r.ex)}</td><td data-field="interval">${ci(r)}</td><td data-field="sd">${r.sd === null ? "" : num(r.sd)}</td><td data-field="tokensPerQuestion">${num(r.tokensPerQuestion, 0)}</td><td data-field="callsPerQuestion">${num(r.callsPerQuestion)}</td><td data-field="costPerQuestion">${r.costPerQuestion === null ? "" : num(r.costPerQuestion, 5)}</td><td data-field="failed">${r.failed}</td><td data-field="versus">${versus(r)}</td></tr>`)
        .join("")}</table><p class="legend-note">95 % interval: ${overRepeats ? "Student's t over the repeats' EX (a held run: Wilson over its questions)" : "Wilson score interval over the answered questions"}. Against its reference: questions only this run got right (+) and only the reference got right (−), exact McNemar p, Holm-adjusted over the experiment's planned comparisons (of N), not over every pair.</p>`
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
<body><h1>${esc(data.title)}</h1>${header}${extras.cost ? `<p id="cost">${esc(extras.cost)}</p>` : ""}${experiment}${table}${outcomes}${charts.join("\n")}${pairs}
<script type="application/json" id="sqlmend-data">${json}</script>
</body></html>
`;
}

/** report.html of one eval run (beside its report.md). */
export function renderEvalHtml(records: EvalRecord[], ctx: { graph: string; dataset: string; split: string; command: string; mock?: boolean }): string {
  const comparison = compareRuns([{ key: "A", label: ctx.graph, dir: "", records: new Map(records.map((r) => [r.id, r])), run: {} }]);
  const title = `sqlmend eval: ${ctx.graph} on ${ctx.dataset} (${ctx.split})${ctx.mock ? ` — ${MOCK_LABEL}` : ""}`;
  return page(dataOf(comparison, "eval", title), `${ctx.mock ? mockBanner : ""}<p>Command: <code>${esc(maskSecrets(ctx.command))}</code></p>`);
}

/** The line every page of a mock run shows first. */
const mockBanner = `<p id="mock" class="mock"><strong>${esc(MOCK_LABEL)}</strong>: the built-in mock model answered from the gold SQL (<code>--model mock</code>).</p>`;

/** The page of a comparison (`sqlmend compare --html`, an experiment's table). */
export function renderCompareHtml(comparison: Comparison, ctx: { command: string; title?: string; experiment?: ExperimentHtmlRow[]; guidelines?: HtmlData["guidelines"]; note?: string; mock?: boolean } & PageExtras): string {
  const mock = ctx.mock ? ` — ${MOCK_LABEL}` : "";
  const title = `${ctx.title ?? `sqlmend compare: ${comparison.runs.length} runs on ${comparison.common} common questions`}${mock}`;
  const data = { ...dataOf(comparison, "compare", title), ...(ctx.experiment ? { experiment: ctx.experiment } : {}), ...(ctx.guidelines?.length ? { guidelines: ctx.guidelines } : {}) };
  return page(data, `${ctx.mock ? mockBanner : ""}<p>Command: <code>${esc(maskSecrets(ctx.command))}</code></p>${ctx.note ? `<p>${esc(ctx.note)}</p>` : ""}${comparison.warnings.map((w) => `<p>warning: ${esc(w)}</p>`).join("")}`, ctx);
}
