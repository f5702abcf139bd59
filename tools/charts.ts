/**
 * Charts as static SVG, drawn in Node by Vega-Lite (compiled to Vega, rendered by Vega's headless SVG renderer:
 * no canvas, no browser, nothing fetched). Shared by report.html (eval, experiments, `compare --html`) and
 * `sqlmend view`. Each call returns one `<figure>`: its caption and legend in HTML (they wrap at any width), the
 * drawing an inline `<svg>` with a viewBox that scales down to its column (width 100 %, at most its natural width,
 * height from its aspect) so it fits from a phone to print, and needs no script or stylesheet of the page's.
 *
 * Every mark (a bar, a point) is an element with `class="mark"`, `data-chart`, `data-series` and its numbers
 * (`data-group` + `data-value`, or `data-x` + `data-y`), and a `<title>` (the browser's tooltip) saying what it is.
 * Vega is imported on the first chart only: a command that draws none does not pay for loading it.
 */
import type { TopLevelSpec } from "vega-lite";

type Vega = typeof import("vega");
type VegaLite = typeof import("vega-lite");

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

const fixed = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

const TABLEAU10 = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];

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
 * A distinct colour per series: Tableau 10 (Vega's `tableau10` scheme) up to 10 series, past that hues evenly spaced
 * around the CIE LCh circle with alternating lightness (Vega's larger schemes pair light and dark shades of one hue,
 * which made two runs look alike).
 */
export function seriesColors(n: number): string[] {
  if (n <= TABLEAU10.length) return TABLEAU10.slice(0, n);
  return Array.from({ length: n }, (_, i) => lchHex(i % 2 ? 72 : 52, 48, 20 + (i * 360) / n));
}

interface TextItem {
  fontSize?: number;
  fontWeight?: string | number;
  text?: unknown;
  limit?: number;
}

/**
 * A text's width in px, a little over DejaVu Sans (Debian's sans-serif, the widest common one) and over Arial,
 * Helvetica and Segoe: per character class, in em.
 */
export function textWidth(text: string, fontSize = 11): number {
  let em = 0;
  for (const ch of text) {
    if (/[il.,:;|!'`]/.test(ch)) em += 0.32;
    else if (/[frtj ()[\]{}\-/]/.test(ch)) em += 0.45;
    else if (/[mwMW%@]/.test(ch)) em += 0.98;
    else if (/[A-Z]/.test(ch)) em += 0.75;
    else if (/[0-9a-z_#$&*+<=>?^~"]/.test(ch)) em += 0.65;
    else em += 1;
  }
  return em * fontSize;
}

let libraries: Promise<{ vega: Vega; vl: VegaLite }> | undefined;
function load() {
  libraries ??= Promise.all([import("vega"), import("vega-lite")]).then(([vega, vl]) => {
    // Our own estimate of text widths, so a chart is the same whether or not the optional `canvas` package is
    // installed, and closer than Vega's 0.8 em per character (which left wide margins and cut names short).
    const metrics = (vega as unknown as { textMetrics: { width: (item: TextItem, text?: unknown) => number } }).textMetrics;
    metrics.width = (item, text) => {
      const size = item.fontSize ?? 11;
      const line = String(text ?? item.text ?? "").trim();
      const w = textWidth(line, size) * (item.fontWeight === "bold" || Number(item.fontWeight) >= 600 ? 1.1 : 1);
      // Vega truncates a text to its limit; its drawn width is at most that.
      return item.limit && item.limit > 0 ? Math.min(w, item.limit) : w;
    };
    return { vega, vl };
  });
  return libraries;
}

/** What a mark element gets: its tooltip and data attributes (names without `data-`). */
export interface MarkInfo {
  title: string;
  data: Record<string, string | number>;
}

/** A rendered drawing: the `<svg>` element, its natural size, and what Vega warned about while laying it out. */
export interface RenderedSvg {
  svg: string;
  width: number;
  height: number;
  warnings: string[];
}

/** A datum field whose value names a mark: `markKey(n)` in a spec's data, `description: { field: MARK_FIELD }` on the mark. */
export const MARK_FIELD = "sqlmendMark";
export const markKey = (n: number) => `sqlmend-mark-${n}`;
/** An axis' `description`: its group gets `data-axis="NAME"` ("value", "x", "y", …). */
export const axisKey = (name: string) => `sqlmend-axis-${name.replace(/\W/g, "")}`;

/**
 * Renders a Vega-Lite spec to an `<svg>` element that scales to its container. `marks` maps a mark key (the
 * `MARK_FIELD` of a datum whose mark encodes `description: { field: MARK_FIELD }`) to that mark's tooltip and data
 * attributes. Data must be inline: the loader refuses every URL and file.
 */
export async function renderVegaLite(spec: TopLevelSpec, opts: { id: string; title: string; marks?: Map<string, MarkInfo> }): Promise<RenderedSvg> {
  const { vega, vl } = await load();
  const warnings: string[] = [];
  const logger = {
    level: (() => logger) as never,
    warn: (...args: unknown[]) => void warnings.push(args.map(String).join(" ")),
    info: () => logger,
    debug: () => logger,
    error: (...args: unknown[]) => {
      throw new Error(args.map(String).join(" "));
    },
  };
  const { spec: compiled } = vl.compile(spec, { logger: logger as never });
  const loader = vega.loader();
  // Vega logs a failed load and draws on without the data: the refusal is thrown once the view has run.
  const refused: string[] = [];
  const refuse = async (uri: string) => {
    refused.push(uri);
    throw new Error(`charts load nothing (asked for ${uri})`);
  };
  Object.assign(loader, { load: refuse, sanitize: refuse, file: refuse, http: refuse });
  const view = new vega.View(vega.parse(compiled), { renderer: "none", loader, logLevel: vega.Warn });
  view.logger({ ...logger, level: () => view.logger() } as never);
  let raw: string;
  try {
    raw = await view.toSVG();
  } finally {
    view.finalize();
  }
  if (refused.length) throw new Error(`charts load nothing: the spec asked for ${refused.join(", ")} (give its data inline)`);
  const size = raw.match(/^<svg[^>]*? width="([\d.]+)" height="([\d.]+)"/);
  const [width, height] = [Number(size?.[1] ?? 0), Number(size?.[2] ?? 0)];
  const open = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" aria-label="${escapeHtml(opts.title)}" data-chart="${escapeHtml(opts.id)}"`,
    ` viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" preserveAspectRatio="xMinYMin meet"`,
    ` style="display:block;width:100%;max-width:${width}px;height:auto">`,
  ].join("");
  const id = escapeHtml(opts.id);
  // Ids (clip paths, gradients) are the chart's own: several charts share one page.
  let body = raw
    .replace(/^<svg[^>]*>/, "")
    .replace(/<\/svg>$/, "")
    .replace(/ id="([^"]+)"/g, (_, name: string) => ` id="${id}-${name}"`)
    .replace(/url\(#([^)]+)\)/g, (_, name: string) => `url(#${id}-${name})`);
  // An axis described as `axisKey(name)` is findable by `data-axis`.
  body = body.replace(/aria-label="sqlmend-axis-(\w+)"/g, (_, name: string) => `data-axis="${name}" aria-label="${name} axis"`);
  // A mark's element carries its key as aria-label: it becomes the mark's class, data attributes and <title>.
  body = body.replace(/<(\w+) aria-label="(sqlmend-mark-\d+)"([^>]*?)(\/?)>/g, (whole, tag: string, key: string, rest: string, selfClosing: string) => {
    const info = opts.marks?.get(key);
    if (!info) return whole;
    const data = Object.entries(info.data)
      .map(([k, v]) => ` data-${k}="${escapeHtml(String(v))}"`)
      .join("");
    const title = escapeHtml(info.title);
    const attrs = `<${tag} class="mark" data-chart="${escapeHtml(opts.id)}"${data} aria-label="${title}"${rest}>`;
    return selfClosing ? `${attrs}<title>${title}</title></${tag}>` : `${attrs}<title>${title}</title>`;
  });
  return { svg: `${open}${body}</svg>`, width, height, warnings };
}

/** A caption, the drawing and its legend (series name → colour), wrapped as one figure. */
function figure(id: string, kind: string, title: string, svg: string, legend: { name: string; color: string }[], note = ""): string {
  const keys = legend
    .map((k) => `<span class="key" data-color="${k.color}" style="display:inline-block;margin-right:14px;overflow-wrap:anywhere"><i style="display:inline-block;width:10px;height:10px;margin-right:4px;background:${k.color};print-color-adjust:exact;-webkit-print-color-adjust:exact"></i>${escapeHtml(k.name)}</span>`)
    .join(" ");
  return `<figure id="${escapeHtml(id)}" class="chart" data-chart="${escapeHtml(id)}" data-kind="${kind}" style="margin:20px 0;max-width:100%;break-inside:avoid"><figcaption style="font-weight:600;margin-bottom:4px">${escapeHtml(title)}</figcaption>${svg}${keys ? `<div class="legend" style="margin-top:4px;font-size:12px;line-height:1.6">${keys}</div>` : ""}${note ? `<p class="chart-note" style="margin:4px 0;font-size:12px">${escapeHtml(note)}</p>` : ""}</figure>`;
}

/**
 * Text as Vega may hold it: line breaks (which Vega-Lite's generated expressions cannot hold in a string: a run named
 * with a U+2028 stopped the page) become spaces. Tooltips, data attributes and legends keep the text as given.
 */
const plain = (s: string) => s.replace(/[\r\n\u0085\u2028\u2029]+/g, " ");

/** Names made unique (a repeated name gets " (2)", " (3)" …), so no two categories of a scale merge; made `plain`. */
function distinct(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map(plain).map((n) => {
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return k === 1 ? n : `${n} (${k})`;
  });
}

const FONT = "system-ui, sans-serif";
/** A chart's natural width: legible scaled down to a 400-px phone column, not sprawling in a 960-px one. */
const DEFAULT_WIDTH = 560;
/** How far (px) points at one spot are spread from it at least, and how far apart neighbours on that ring are. */
const RING = 7;
const MIN_APART = 7;
/** A point's radius (px) and its label's font size. */
const POINT_RADIUS = 5;
const LABEL_SIZE = 11;
const BASE_CONFIG = {
  background: null,
  font: FONT,
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 11, labelColor: "#333", titleColor: "#333", gridColor: "#e6e6e6", domainColor: "#444", tickColor: "#444" },
  // ARIA on: a mark's `description` becomes its aria-label, which carries our mark keys (see renderVegaLite).
  aria: true,
} as const;

/** One series of a grouped bar chart: its value in each group. */
export interface BarSeries {
  name: string;
  /** A short name (a run's key) written left of each of its bars; default none (the legend and tooltips name it). */
  label?: string;
  /** Per group, in the order of `groups`: a number (a bar); null, no figure (no bar, a dash); undefined, not applicable (nothing drawn). */
  values: (number | null | undefined)[];
}

export interface GroupedBarChartOptions {
  /** The figure's id (also `data-chart` on its marks). */
  id: string;
  title: string;
  /** Categories, top to bottom; each holds one bar per series. */
  groups: string[];
  series: BarSeries[];
  /** Appended to a value in its tooltip ("%", "" for counts). */
  unit: string;
  /** The value axis' end (100 for percentages); default: the largest value. */
  max?: number;
  /** Decimals of the value labels (default 2). */
  digits?: number;
  /** Counts: whole-number ticks. */
  integer?: boolean;
  /** The value axis' title (default none). */
  axisTitle?: string;
  /** Natural width in px (default 560); the drawing scales down to narrower columns. */
  width?: number;
}

/**
 * Grouped horizontal bars: a row per group headed by its name, a bar per series within it, its value written after
 * it. Horizontal, so its width is fixed whatever the number of groups and series (the chart grows downwards) and no
 * name is turned upright or cut short; the legend below it names the series, each bar's tooltip both names.
 */
export async function groupedBarChart(o: GroupedBarChartOptions): Promise<string> {
  return (await groupedBarChartParts(o)).html;
}

/** As `groupedBarChart`, with the rendered drawing (for tests and pages that place the parts themselves). */
export async function groupedBarChartParts(o: GroupedBarChartOptions): Promise<{ html: string; rendered: RenderedSvg }> {
  const digits = o.digits ?? 2;
  const colors = seriesColors(o.series.length);
  const names = o.series.map((s) => s.name);
  const marks = new Map<string, MarkInfo>();
  const groups = distinct(o.groups);
  const labelled = o.series.some((s) => s.label !== undefined);
  // The value a bar's row is keyed by: its short name when bars are labelled (the axis writes it), else its name.
  const seriesNames = distinct(o.series.map((s) => (labelled ? (s.label ?? s.name) : s.name)));
  const rows: Record<string, unknown>[] = [];
  // Group by group, top to bottom: the document's order is the drawing's.
  groups.forEach((group, g) =>
    o.series.forEach((s, i) => {
      const v = s.values[g];
      if (v === undefined) return;
      if (v === null) {
        rows.push({ group, series: seriesNames[i], value: 0, label: "–", missing: true });
        return;
      }
      const key = markKey(marks.size);
      marks.set(key, { title: `${s.name} · ${o.groups[g]}: ${fixed(v, digits)}${o.unit}`, data: { series: s.name, group: o.groups[g]!, value: v } });
      rows.push({ group, series: seriesNames[i], value: v, label: fixed(v, digits), missing: false, [MARK_FIELD]: key });
    }),
  );
  const drawn = rows.filter((r) => !r.missing).map((r) => r.value as number);
  const max = o.max ?? Math.max(o.integer ? 1 : 0, ...drawn, Number.MIN_VALUE);
  // A bar's step holds its 10-px value label, so labels of neighbouring bars never touch.
  const step = 14;
  const width = o.width ?? DEFAULT_WIDTH;
  const spec = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    autosize: { type: "pad" },
    padding: 4,
    config: { ...BASE_CONFIG, header: { labelFont: FONT, labelColor: "#222" } },
    data: { values: rows },
    // A row per group, its name above its bars across the whole width (long run or database names are not cut).
    facet: {
      row: {
        field: "group",
        type: "nominal",
        sort: groups,
        title: null,
        header: { labelAngle: 0, labelOrient: "top", labelAnchor: "start", labelAlign: "left", labelFontSize: 12, labelFontWeight: 600, labelLimit: width - 8, labelPadding: 3, labelBaseline: "top" },
      },
    },
    spacing: 8,
    spec: {
      // Room on the right for the longest value label ("100.00"), on the left for the series' short names.
      width: width - 8 - Math.ceil(textWidth("100.00", 10)) - 6 - (labelled ? Math.ceil(Math.max(...seriesNames.map((n) => textWidth(n, 10)))) + 6 : 0),
      height: o.series.length * step,
      encoding: {
        y: {
          field: "series",
          type: "nominal",
          sort: seriesNames,
          title: null,
          axis: labelled ? { description: axisKey("series"), ticks: false, domain: false, labelFontSize: 10, labelPadding: 4, labelLimit: 0 } : null,
          scale: { paddingInner: 0.15, paddingOuter: 0.05 },
        },
        x: {
          field: "value",
          type: "quantitative",
          scale: { domain: [0, max], nice: o.max === undefined, zero: true },
          title: o.axisTitle === undefined ? null : plain(o.axisTitle),
          axis: { description: axisKey("value"), ...(o.integer ? { tickMinStep: 1, format: "d" } : {}), grid: true, labelFlush: true },
        },
      },
      layer: [
        {
          mark: { type: "bar" },
          transform: [{ filter: "!datum.missing" }],
          encoding: {
            color: { field: "series", type: "nominal", sort: seriesNames, scale: { domain: seriesNames, range: colors }, legend: null },
            description: { field: MARK_FIELD },
          },
        },
        {
          mark: { type: "text", align: "left", baseline: "middle", dx: 3, fontSize: 10, color: "#333", aria: false },
          encoding: { text: { field: "label" } },
        },
      ],
    },
    resolve: { scale: { x: "shared", y: "shared" } },
  } as unknown as TopLevelSpec;
  const rendered = await renderVegaLite(spec, { id: o.id, title: o.title, marks });
  return { html: figure(o.id, "bar", o.title, rendered.svg, names.map((name, i) => ({ name, color: colors[i]! }))), rendered };
}

/** One point of a scatter chart. */
export interface ScatterPoint {
  /** Its full name: in its tooltip and the legend. */
  name: string;
  /** A short name written beside the point (default: the name). */
  label?: string;
  x: number;
  y: number;
}

export interface ScatterChartOptions {
  id: string;
  title: string;
  points: ScatterPoint[];
  x: { title: string; unit?: string; digits?: number };
  y: { title: string; unit?: string; digits?: number; max?: number };
  /** Natural width in px (default 560). */
  width?: number;
}

/**
 * One coloured point per entry, each with a tooltip. Points at the same spot (within a few pixels) are spread on a
 * small ring around it, each keeping its colour, and every one's tooltip lists all of them; the spot is labelled
 * once with all their short names. A label goes where it covers no point and no other label (else it is left out,
 * and the note under the chart says so: the legend and tooltips still name the point).
 */
export async function scatterChart(o: ScatterChartOptions): Promise<string> {
  return (await scatterChartParts(o)).html;
}

export async function scatterChartParts(o: ScatterChartOptions): Promise<{ html: string; rendered: RenderedSvg }> {
  const { vega } = await load();
  const width = o.width ?? DEFAULT_WIDTH;
  // The plot's own size: fixed, so pixel positions of points and labels are known before rendering.
  const plotW = width - 70;
  const plotH = 260;
  const xDigits = o.x.digits ?? 0;
  const yDigits = o.y.digits ?? 2;
  const niceEnd = (max: number) => (vega.scale("linear") as () => { domain(d?: number[]): number[] & { nice(): { domain(): number[] } } } & { nice(): { domain(): number[] } })().domain([0, max]).nice().domain()[1]!;
  const xMax = niceEnd(Math.max(1, ...o.points.map((p) => p.x)) * 1.05);
  const yMax = o.y.max ?? niceEnd(Math.max(1, ...o.points.map((p) => p.y)) * 1.05);
  const px = (x: number) => (x / xMax) * plotW;
  const py = (y: number) => plotH - (y / yMax) * plotH;
  const colors = seriesColors(o.points.length);

  // Spots: points within 6 px of a spot's first point. Points sharing a spot are spread on a ring around it, its
  // neighbours at least MIN_APART px apart, so each point's centre shows (and hovers) as its own.
  const spots: { x: number; y: number; members: number[] }[] = [];
  o.points.forEach((p, i) => {
    const near = spots.find((s) => Math.hypot(px(s.x) - px(p.x), py(s.y) - py(p.y)) < 6);
    if (near) near.members.push(i);
    else spots.push({ x: p.x, y: p.y, members: [i] });
  });
  const ringOf = (n: number) => (n > 1 ? Math.max(RING, MIN_APART / (2 * Math.sin(Math.PI / n))) : 0);
  const marks = new Map<string, MarkInfo>();
  // In the order given (the legend's).
  const points = o.points.map((p, i) => {
    const spot = spots.find((s) => s.members.includes(i))!;
    const n = spot.members.length;
    const angle = (2 * Math.PI * spot.members.indexOf(i)) / n - Math.PI / 2;
    const [dx, dy] = [ringOf(n) * Math.cos(angle), ringOf(n) * Math.sin(angle)];
    const key = markKey(marks.size);
    const where = `${fixed(p.y, yDigits)}${o.y.unit ?? ""} at ${fixed(p.x, xDigits)}${o.x.unit ?? ""}`;
    const together = spot.members.map((m) => o.points[m]!.name).join(", ");
    marks.set(key, { title: n > 1 ? `${together}: each ${where}` : `${p.name}: ${where}`, data: { series: p.name, x: p.x, y: p.y } });
    return { px: ((px(p.x) + dx) / plotW) * xMax, py: ((plotH - (py(p.y) + dy)) / plotH) * yMax, series: `s${i}`, [MARK_FIELD]: key };
  });

  // Labels: right of the spot, else left, nearest first, inside the plot, over no point and no earlier label.
  type Box = { x1: number; x2: number; y1: number; y2: number };
  const reach = (spot: (typeof spots)[number]) => ringOf(spot.members.length) + POINT_RADIUS + 2;
  const boxes: Box[] = spots.map((s) => ({ x1: px(s.x) - reach(s), x2: px(s.x) + reach(s), y1: py(s.y) - reach(s), y2: py(s.y) + reach(s) }));
  const free = (b: Box) => b.x1 >= 0 && b.x2 <= plotW && b.y1 >= 0 && b.y2 <= plotH && boxes.every((o2) => b.x2 < o2.x1 || b.x1 > o2.x2 || b.y2 < o2.y1 || b.y1 > o2.y2);
  const toX = (v: number) => (v / plotW) * xMax;
  const toY = (v: number) => ((plotH - v) / plotH) * yMax;
  const labels: { lx: number; ly: number; text: string; align: "left" | "right" }[] = [];
  const leaders: Record<string, number>[] = [];
  const unlabelled: string[] = [];
  for (const spot of spots) {
    const text = plain(spot.members.map((i) => o.points[i]!.label ?? o.points[i]!.name).join(", "));
    const w = textWidth(text, LABEL_SIZE) + 2;
    const [sx, sy, r] = [px(spot.x), py(spot.y), reach(spot)];
    const place = [0, -15, 15, -30, 30, -45, 45, -60, 60]
      .flatMap((dy) => (["left", "right"] as const).map((align) => ({ dy, align, x: align === "left" ? sx + r + 1 : sx - r - 1 })))
      .map((c) => ({ ...c, box: { x1: c.align === "left" ? c.x : c.x - w, x2: c.align === "left" ? c.x + w : c.x, y1: sy + c.dy - 8, y2: sy + c.dy + 8 } }))
      .find((c) => free(c.box));
    if (!place) {
      unlabelled.push(text);
      continue;
    }
    boxes.push(place.box);
    labels.push({ lx: toX(place.x), ly: toY(sy + place.dy), text, align: place.align });
    if (place.dy) leaders.push({ x1: toX(sx), y1: toY(sy), x2: toX(place.x), y2: toY(sy + place.dy) });
  }
  const xScale = { domain: [0, xMax], nice: false, zero: true };
  const yScale = { domain: [0, yMax], nice: false, zero: true };
  const spec = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: plotW,
    height: plotH,
    autosize: { type: "pad" },
    padding: 4,
    config: BASE_CONFIG,
    layer: [
      {
        data: { values: leaders },
        mark: { type: "rule", color: "#999", strokeWidth: 1, aria: false },
        encoding: { x: { field: "x1", type: "quantitative", scale: xScale, title: plain(o.x.title), axis: { description: axisKey("x"), format: "~s", labelFlush: true } }, y: { field: "y1", type: "quantitative", scale: yScale, title: plain(o.y.title), axis: { description: axisKey("y") } }, x2: { field: "x2" }, y2: { field: "y2" } },
      },
      {
        data: { values: points },
        mark: { type: "point", filled: true, size: Math.round(Math.PI * POINT_RADIUS ** 2), opacity: 0.9, stroke: "#fff", strokeWidth: 1 },
        encoding: {
          x: { field: "px", type: "quantitative", scale: xScale },
          y: { field: "py", type: "quantitative", scale: yScale },
          color: { field: "series", type: "nominal", scale: { domain: o.points.map((_, i) => `s${i}`), range: colors }, legend: null },
          description: { field: MARK_FIELD },
        },
      },
      ...(["left", "right"] as const).map((align) => ({
        data: { values: labels.filter((l) => l.align === align) },
        mark: { type: "text", align, baseline: "middle", fontSize: LABEL_SIZE, color: "#333", aria: false },
        encoding: { x: { field: "lx", type: "quantitative", scale: xScale }, y: { field: "ly", type: "quantitative", scale: yScale }, text: { field: "text" } },
      })),
    ],
    resolve: { scale: { x: "shared", y: "shared" } },
  } as unknown as TopLevelSpec;
  const rendered = await renderVegaLite(spec, { id: o.id, title: o.title, marks });
  const note = unlabelled.length ? `Not labelled for lack of room (see the legend and tooltips): ${unlabelled.join("; ")}.` : "";
  return { html: figure(o.id, "scatter", o.title, rendered.svg, o.points.map((p, i) => ({ name: p.name, color: colors[i]! })), note), rendered };
}
