/**
 * The run explorer's pages as HTML strings, from the trace API's values (RunView, ThreadView) and what the server
 * worked out beside them (results of the gold, initial and final SQL). The server serves each page alone; the export
 * puts several in one file as sections. Every string from a run goes through `esc` or `jsonForScript`.
 */
import type { RunQuestion, RunView, StepError, ThreadView, TraceStep } from "../trace/trace-types.ts";
import { VIEW_CSP, VIEW_CSS, VIEW_JS } from "./assets.ts";
import { diffSql } from "./diff.ts";
import { esc, jsonForScript, shortText } from "./html.ts";
import { compareViews, type CompareRunInput, DIFFICULTY_ORDER, exBy, type GroupEx, packRow, ROW_FIELDS, ROW_TEXT_MAX, runEx, type RunComparison, tableRow } from "./model.ts";
import { MOCK_LABEL } from "../../tools/models/mock-label.ts";

/** Where pages link to: the server's URLs, or the export's #sections. */
export interface Links {
  home: string;
  run(k: number): string;
  /** null: the page is not there (the export left it out). */
  question(k: number, id: string): string | null;
  /** The table's link prefix (the id is appended, encoded). */
  questionPrefix(k: number): string;
  compare(ks: number[]): string;
  experiment(k: number): string;
}

export const serverLinks: Links = {
  home: "/",
  run: (k) => `/run/${k}`,
  question: (k, id) => `/run/${k}/q/${encodeURIComponent(id)}`,
  questionPrefix: (k) => `/run/${k}/q/`,
  compare: (ks) => `/compare?runs=${ks.join(",")}`,
  experiment: (k) => `/experiment/${k}`,
};

/** A run as the explorer holds it: its index (its URL), a short name, and the trace API's view of it. */
export interface ViewRun {
  index: number;
  name: string;
  run: RunView;
  hashes?: Record<string, string>;
}

/** A whole HTML document: inline CSS and script, a CSP that allows nothing from the network. */
export function document(title: string, body: string, mode: "server" | "export"): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${VIEW_CSP}">
<title>${esc(title)}</title><style>${VIEW_CSS}</style></head>
<body data-mode="${mode}"><header class="top"><a href="${mode === "export" ? "#" : "/"}">sqlmend view</a></header>
<main>${body}</main>
<script>${VIEW_JS}</script></body></html>
`;
}

const pct = (x: number | null | undefined) => (x === null || x === undefined ? "–" : `${x.toFixed(1)} %`);
const interval = (g: Pick<GroupEx, "low" | "high">) => (g.low === null || g.high === null ? "" : `[${g.low.toFixed(1)}, ${g.high.toFixed(1)}]`);
const verdictBadge = (v: string) => `<span class="v v-${esc(v)}">${esc(v)}</span>`;
const int = (n: number) => Math.round(n).toLocaleString("en-US");

/** EX per group as a table with a bar per row (the bar is a share of its cell: it always fits the column). */
function exTable(caption: string, groups: GroupEx[], cls: string): string {
  if (!groups.length) return "";
  const rows = groups
    .map((g) => `<tr><td>${esc(g.key || "(none)")}</td><td class="num">${g.count}</td><td class="num wide-only">${g.correct}/${g.scored}</td><td class="num">${pct(g.ex)}</td><td class="wide-only">${esc(interval(g))}</td><td><div class="bar" style="width:${(g.ex ?? 0).toFixed(1)}%"></div></td></tr>`)
    .join("");
  return `<h3>${esc(caption)}</h3><div class="chart-table ${cls}"><table><thead><tr><th>${esc(caption.replace(/^EX by /, ""))}</th><th class="num">questions</th><th class="num wide-only">right/scored</th><th class="num">EX</th><th class="wide-only">95 % interval</th><th>EX</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** A chart with its table (numbers and intervals) folded below it; the table alone when there is no chart. */
const chartAndTable = (chart: string | undefined, table: string) => (chart ? `${chart}<details><summary>as a table, with 95 % intervals</summary>${table}</details>` : table);

/** On every page of a mock run (run, question, compare, export): its figures measure nothing. */
const mockBanner = `<p class="note mock"><b>${MOCK_LABEL}</b>: the built-in mock model (<code>--model mock</code>) answered from the gold SQL; these figures show the pipeline working, nothing about any method.</p>`;

/** The run's header lines: what ran, on what, with which models; a replay names its original. */
function runHeader(vr: ViewRun, links: Links, others: ViewRun[]): string {
  const r = vr.run;
  const original = r.replayOf ? others.find((o) => o.run.dir.replace(/[\\/]+$/, "") === r.replayOf!.dir.replace(/[\\/]+$/, "")) : undefined;
  const lines = [
    `<p class="meta">graph <b>${esc(r.graph)}</b>${r.kind ? ` (${esc(r.kind)})` : ""} · ${esc(r.bench ?? "own data")} · split ${esc(r.split)} · ${esc(r.semantics)} semantics · run ${esc(r.runId)}</p>`,
    `<p class="meta">models: ${esc(Object.entries(r.models).map(([k, v]) => `${k} ${typeof v === "string" ? v : JSON.stringify(v)}`).join("; ") || "–")}</p>`,
  ];
  if (r.graphModule) lines.push(`<p class="meta">--graph module ${esc(r.graphModule.path)}${r.graphModule.sha256 ? ` (sha256 ${esc(r.graphModule.sha256.slice(0, 16))})` : ""}</p>`);
  if (r.nodeModules && Object.keys(r.nodeModules).length) lines.push(`<p class="meta">--node ${esc(Object.entries(r.nodeModules).map(([s, f]) => `${s}=${f}`).join(", "))}</p>`);
  if (r.replayOf) lines.push(`<p class="note">A replay of ${original ? `<a href="${links.run(original.index)}">${esc(original.name)}</a>` : esc(r.replayOf.dir)}${r.replayOf.slot ? ` from slot <b>${esc(r.replayOf.slot)}</b>` : ""}: each question forked from its original thread; the prefix steps were reused as recorded.${original ? ` <a href="${links.compare([original.index, vr.index])}">Compare with the original</a>.` : ""}</p>`);
  if (r.mock) lines.push(mockBanner);
  if (r.droppedLines) lines.push(`<p class="note">${r.droppedLines} line(s) of results.jsonl did not read and are not shown.</p>`);
  return lines.join("\n");
}

const costLine = (c: RunView["summary"]["totalCost"]) =>
  `${int(c.calls)} calls, ${int(c.inputTokens)} input + ${int(c.outputTokens)} output tokens, ${(c.latencyMs / 1000).toFixed(1)} s of model latency${c.cachedCalls ? `, ${c.cachedCalls} cached` : ""}${c.reusedCalls ? `, ${c.reusedCalls} reused` : ""}${c.failedCalls ? `, ${c.failedCalls} failed calls` : ""}`;

/** Databases the per-database chart draws at most (the table below it lists every one). */
export const CHART_DATABASES = 40;

/** The run page's charts (Vega-Lite, drawn in Node: tools/charts.ts): EX by difficulty and by database. */
export async function runCharts(vr: ViewRun): Promise<{ byDifficulty?: string; byDatabase?: string }> {
  const { groupedBarChart } = await import("../../tools/charts.ts");
  const r = vr.run;
  const chart = (id: string, title: string, groups: GroupEx[]) =>
    groupedBarChart({ id: `${id}-${vr.index}`, title, groups: groups.map((g) => g.key || "(none)"), series: [{ name: vr.name, values: groups.map((g) => g.ex) }], unit: " %", max: 100, digits: 1, axisTitle: "EX %" });
  const all = runEx(r);
  const out: { byDifficulty?: string; byDatabase?: string } = {};
  if (r.questions.some((q) => q.difficulty)) out.byDifficulty = await chart("ex-by-difficulty", "EX by difficulty (%)", [...exBy(r.questions, (q) => q.difficulty ?? "", DIFFICULTY_ORDER), { ...all, key: "all" }]);
  const dbs = exBy(r.questions, (q) => q.dbId);
  const drawn = [...dbs].sort((a, b) => b.count - a.count).slice(0, CHART_DATABASES);
  const title = dbs.length > drawn.length ? `EX by database (%): the ${drawn.length} with most questions of ${dbs.length}` : "EX by database (%)";
  out.byDatabase = await chart("ex-by-database", title, dbs.filter((g) => drawn.includes(g)));
  return out;
}

/** The run page: EX with its interval, per difficulty and per database, and the question table (filtered client-side). */
export function runPage(vr: ViewRun, links: Links, opts: { others?: ViewRun[]; detail?: string[]; exportNote?: string; charts?: { byDifficulty?: string; byDatabase?: string } } = {}): string {
  const r = vr.run;
  const ex = runEx(r);
  const by = r.summary.byVerdict;
  const verdicts = (["right", "wrong", "failed", "skipped", "unscored"] as const).filter((v) => by[v]);
  const counts = verdicts.map((v) => `<a href="?v=${v}" data-set-verdict="${v}">${verdictBadge(v)} ${by[v]}</a>`).join(" · ");
  const tableId = `table-${vr.index}`;
  const rows = r.questions.map((q) => packRow(tableRow(q)));
  const data = { fields: ROW_FIELDS, rows, link: links.questionPrefix(vr.index), detail: opts.detail ?? null };
  const byDiff = r.questions.some((q) => q.difficulty) ? exBy(r.questions, (q) => q.difficulty ?? "", DIFFICULTY_ORDER) : [];
  const byDb = exBy(r.questions, (q) => q.dbId);
  const compareLinks = (opts.others ?? []).filter((o) => o.index !== vr.index).map((o) => `<a href="${links.compare([vr.index, o.index])}">${esc(o.name)}</a>`);
  return `<h1>${esc(vr.name)}</h1>
${runHeader(vr, links, opts.others ?? [])}
<p><b>EX ${pct(ex.ex)}</b> ${esc(interval(ex))} — ${ex.correct} right of ${ex.scored} scored (95 % Wilson interval); ${r.summary.selected} selected: ${counts || "no questions"} <a href="?" data-set-verdict="">(all)</a></p>
<p class="meta">Cost: ${costLine(r.summary.totalCost)}. Failed questions spent ${costLine(r.summary.failedCost)}.</p>
${opts.exportNote ? `<p class="note">${esc(opts.exportNote)}</p>` : ""}
${compareLinks.length ? `<p class="meta">Compare with: ${compareLinks.join(" · ")}</p>` : ""}
<div class="grid">${byDiff.length ? `<div>${chartAndTable(opts.charts?.byDifficulty, exTable("EX by difficulty", byDiff, "by-difficulty"))}</div>` : ""}<div>${chartAndTable(opts.charts?.byDatabase, exTable("EX by database", byDb, "by-database"))}</div></div>
<h2>Questions</h2>
<div id="${tableId}" class="qtable">
<form class="filters" autocomplete="off">
<label>verdict<select name="v"><option value="">any</option>${["right", "wrong", "failed", "skipped", "unscored"].map((v) => `<option value="${v}">${v}</option>`).join("")}</select></label>
<label>difficulty<select name="diff"><option value="">any</option></select></label>
<label>database<select name="db"><option value="">any</option></select></label>
<label>outcome field<select name="ok"><option value="">–</option></select></label>
<label>field value<input name="ov" placeholder="any value"></label>
<label>text in question or SQL<input name="text" type="search"></label>
<label>sort by<select name="sort"><option value="">id (run order)</option><option value="cost">cost (tokens)</option><option value="latency">latency</option><option value="rounds">rounds</option><option value="calls">calls</option></select></label>
<label>order<select name="dir"><option value="desc">high first</option><option value="asc">low first</option></select></label>
</form>
<div class="pager"><button type="button" class="prev">‹ previous</button><span class="count"></span><button type="button" class="next">next ›</button></div>
<p class="meta">100 questions a page; texts longer than ${ROW_TEXT_MAX.toLocaleString("en-US")} characters are cut in this table (the question page shows them whole), and the text filter searches what the table holds.</p>
<table class="questions"><thead><tr><th class="c-id">id</th><th class="wide-only c-db">database</th><th class="wide-only c-diff">difficulty</th><th class="c-verdict">verdict</th><th>question</th><th class="wide-only">final SQL</th><th class="num c-num">tokens</th><th class="num wide-only c-num">calls</th><th class="num wide-only c-num">latency s</th><th class="num c-num">rounds</th></tr></thead><tbody></tbody></table>
</div>
<script type="application/json" data-table="${tableId}">${jsonForScript(data)}</script>`;
}

// ---------------------------------------------------------------------------
// The question page
// ---------------------------------------------------------------------------

/** One SQL's result as the question page shows it (bounded rows, cells as text). */
export interface ResultView {
  ok: boolean;
  columns?: string[];
  rows?: string[][];
  rowCount?: number;
  error?: string;
  /** Against the gold, by the project's scorer. */
  correct?: boolean;
  note?: string;
}

/** What the server worked out for a question beside the trace API's values. */
export interface QuestionDetail {
  thread?: ThreadView;
  /** Why the thread could not be read (one line). */
  threadError?: string;
  /** A replay's thread: the original thread's steps up to the fork (reused as recorded), or why they could not be read. */
  prefix?: TraceStep[];
  prefixError?: string;
  goldSql?: string;
  /** Why there is no gold SQL or no results (one line). */
  goldNote?: string;
  results?: { gold?: ResultView; initial?: ResultView; final?: ResultView };
  /** Cap on steps, calls and texts (the export bounds them). */
  textMax?: number;
}

function sqlDiff(title: string, before: string, after: string): string {
  const { parts, coarse } = diffSql(before, after);
  const body = parts.map((p) => (p.op === "same" ? esc(p.text) : `<${p.op}>${esc(p.text)}</${p.op}>`)).join("");
  return `<h3>${esc(title)}</h3><pre class="diff">${body}</pre>${coarse ? `<p class="meta">A long SQL: diffed by line, not by token.</p>` : ""}`;
}

function resultBlock(title: string, sql: string | undefined, r: ResultView | undefined): string {
  const head = `<h3>${esc(title)}${r?.correct === true ? ` ${verdictBadge("right")}` : r?.correct === false ? ` ${verdictBadge("wrong")}` : ""}</h3>`;
  if (sql === undefined) return `<div>${head}<p class="meta">none</p></div>`;
  if (!r) return `<div>${head}<p class="meta">not run</p></div>`;
  if (!r.ok) return `<div class="result">${head}<div class="error">${esc(r.error ?? "error")}</div></div>`;
  const cols = r.columns ?? [];
  const rows = r.rows ?? [];
  const table = `<table class="result-table"><thead><tr>${cols.map((c) => `<th>${esc(c)}</th>`).join("")}</tr></thead><tbody>${rows.map((row) => `<tr>${row.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
  return `<div class="result">${head}<p class="meta">${r.rowCount ?? rows.length} row(s)${(r.rowCount ?? 0) > rows.length ? `, first ${rows.length} shown` : ""}${r.note ? `; ${esc(r.note)}` : ""}</p>${table}</div>`;
}

/** What differs between the final (or initial) result and the gold's: one line per side. */
function resultDifferences(results: NonNullable<QuestionDetail["results"]>): string[] {
  const gold = results.gold;
  const lines: string[] = [];
  if (!gold?.ok) return lines;
  for (const [name, r] of [["final", results.final], ["initial", results.initial]] as const) {
    if (!r) continue;
    if (!r.ok) { lines.push(`${name}: an error where the gold returns ${gold.rowCount} row(s)`); continue; }
    const what: string[] = [];
    if ((r.columns?.length ?? 0) !== (gold.columns?.length ?? 0)) what.push(`${r.columns?.length ?? 0} column(s) against the gold's ${gold.columns?.length ?? 0}`);
    if (r.rowCount !== gold.rowCount) what.push(`${r.rowCount} row(s) against the gold's ${gold.rowCount}`);
    const goldRows = new Set((gold.rows ?? []).map((row) => JSON.stringify(row)));
    const mine = new Set((r.rows ?? []).map((row) => JSON.stringify(row)));
    const onlyMine = [...mine].filter((x) => !goldRows.has(x)).length;
    const onlyGold = [...goldRows].filter((x) => !mine.has(x)).length;
    if (onlyMine || onlyGold) what.push(`among the rows shown, ${onlyMine} not in the gold's and ${onlyGold} of the gold's missing`);
    lines.push(`${name}: ${r.correct ? "same result as the gold (scorer)" : what.length ? what.join("; ") : "differs from the gold (scorer) beyond the rows shown"}`);
  }
  return lines;
}

function errorBlock(e: StepError): string {
  return `<div class="error"><b>${esc(e.errorClass)}</b>${e.slot ? ` in slot <b class="slot">${esc(e.slot)}</b>` : ""}: ${esc(e.message)}${e.at ? `<br><span class="meta">at ${esc(e.at)}</span>` : ""}${e.stack ? `<details open><summary>stack</summary><pre class="stack">${esc(e.stack)}</pre></details>` : ""}</div>`;
}

/** The shell-quoted word (single quotes) for a command line. */
export const shellWord = (s: string) => (/^[\w./:=,@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** `sqlmend replay` that re-runs one question from a slot (replay forks before the slot's first run). */
export function replayCommand(run: RunView, id: string, slot: string): string {
  const out = `${run.dir.replace(/[\\/]+$/, "")}-replay-${slot}`;
  return ["sqlmend", "replay", shellWord(run.dir), "--from", shellWord(slot), "--ids", shellWord(id), "--out", shellWord(out)].join(" ");
}

function stepBlock(step: TraceStep, vr: ViewRun, q: RunQuestion, max: number, reusedUpTo: number, maxCalls: number): string {
  const reused = step.step <= reusedUpTo;
  const gold = step.gold
    ? ` ${verdictBadge(step.gold.correct ? "right" : "wrong")}${step.gold.marks.length ? ` <span class="meta">${esc(step.gold.marks.join(", "))}</span>` : ""}`
    : "";
  const calls = step.calls.slice(0, maxCalls).map((c, i) => {
    const prompt = c.messages.map((m) => `${m.role}:\n${m.content}`).join("\n\n");
    return `<details class="call"><summary>call ${i + 1}: ${esc(c.role)} · ${esc(c.model)} · ${c.inputTokens}+${c.outputTokens} tokens · ${(c.latencyMs / 1000).toFixed(2)} s${c.cached ? " · cached" : ""}${c.reused ? " · reused" : ""}${c.error ? ` · error: ${esc(c.error)}` : ""}</summary><h4>prompt</h4><pre class="prompt">${esc(shortText(prompt, max))}</pre><h4>reply</h4><pre class="reply">${esc(shortText(c.reply, max))}</pre></details>`;
  });
  if (step.calls.length > maxCalls) calls.push(`<p class="meta">${step.calls.length - maxCalls} more call(s) not shown.</p>`);
  const diff = step.diff.length
    ? `<details class="state-diff"><summary>state diff: ${esc(step.diff.map((d) => `${d.field} ${d.change}`).join(", "))}</summary><table><thead><tr><th style="width:8rem">field</th><th>before</th><th>after</th></tr></thead><tbody>${step.diff.map((d) => `<tr><td>${esc(d.field)}</td><td><pre>${esc(shortText(d.before, max))}</pre></td><td><pre>${esc(shortText(d.after, max))}</pre></td></tr>`).join("")}</tbody></table></details>`
    : `<p class="meta">no change of state</p>`;
  const ex = step.execution;
  const execution = ex
    ? ex.ok
      ? `<p class="meta">execution: ${ex.rowCount ?? "?"} row(s)${ex.rows && ex.rows.length < (ex.rowCount ?? 0) ? `, first ${Math.min(ex.rows.length, 5)} shown` : ""}</p>${ex.columns?.length ? `<table class="exec-table"><thead><tr>${ex.columns.map((c) => `<th>${esc(c)}</th>`).join("")}</tr></thead><tbody>${(ex.rows ?? []).slice(0, 5).map((row) => `<tr>${row.map((c) => `<td>${esc(shortText(c, 500))}</td>`).join("")}</tr>`).join("")}</tbody></table>` : ""}`
      : `<div class="error">execution failed${ex.errorKind ? ` (${esc(ex.errorKind)})` : ""}: ${esc(ex.error ?? "")}</div>`
    : "";
  const slot = step.slots[0];
  // A reused step is the original run's: re-running from it replays the original.
  const from = reused && vr.run.replayOf ? { ...vr.run, dir: vr.run.replayOf.dir } : vr.run;
  const command = slot ? `<details><summary>re-run from here</summary><code class="cmd">${esc(replayCommand(from, q.id, slot))}</code>${step.slots.length > 1 || step.step > 1 ? `<p class="meta">replay forks at the last checkpoint before slot ${esc(slot)} first ran in this thread.</p>` : ""}</details>` : "";
  return `<div class="step${reused ? " reused" : ""}${step.error ? " err" : ""}" data-step="${step.step}"><h3>step ${step.step}: ${esc(step.slots.join(", ") || "(input)")}${step.roles.length ? ` <span class="meta">roles ${esc(step.roles.join(", "))}</span>` : ""}${gold}${reused ? ` <span class="meta">reused prefix</span>` : ""}</h3>
${step.sql !== undefined ? `<pre class="sql">${esc(shortText(step.sql, max))}</pre>` : ""}
${calls.join("")}${diff}${execution}${step.error ? errorBlock(step.error) : ""}${command}</div>`;
}

/** The question page: question, SQL diffs, results side by side, the step timeline, replay commands. */
export function questionPage(vr: ViewRun, q: RunQuestion, d: QuestionDetail, links: Links, opts: { maxSteps?: number; maxCalls?: number } = {}): string {
  const max = d.textMax ?? 20_000;
  const t = d.thread;
  const parts: string[] = [];
  parts.push(`<p class="meta"><a href="${links.run(vr.index)}">${esc(vr.name)}</a> › question ${esc(q.id)}</p>`);
  parts.push(`<h1>Question ${esc(q.id)} ${verdictBadge(q.verdict)}</h1>`);
  if (vr.run.mock) parts.push(mockBanner);
  parts.push(`<p class="meta">database ${esc(q.dbId)}${q.difficulty ? ` · ${esc(q.difficulty)}` : ""} · thread ${esc(q.threadId)} · ${int(q.cost.calls)} calls, ${int(q.cost.inputTokens)}+${int(q.cost.outputTokens)} tokens, ${(q.cost.latencyMs / 1000).toFixed(1)} s, ${q.iterations} round(s)</p>`);
  parts.push(`<h2>Question</h2><p class="question-text">${esc(q.question)}</p>${q.evidence ? `<p class="meta">evidence: <span class="evidence">${esc(q.evidence)}</span></p>` : ""}`);
  if (q.failure || q.error) parts.push(`<h2>Failure</h2>${q.failure ? `<div class="error">${esc(q.failure)}</div>` : ""}${q.error ? errorBlock(q.error) : ""}`);
  if (q.replay) parts.push(`<p class="note">Replayed: forked from thread ${esc(q.replay.originalThread)} at checkpoint ${esc(q.replay.checkpointId)}; its first ${q.replay.prefixSteps} step(s) were reused as recorded${q.replay.originalCorrect !== undefined ? `; the original answer was ${q.replay.originalCorrect ? "right" : "wrong"}` : ""}.</p>`);

  // SQL: each text, then the diffs.
  parts.push(`<h2>SQL</h2><div class="grid">`);
  if (d.goldSql !== undefined) parts.push(`<div><h3>gold</h3><pre class="sql gold">${esc(d.goldSql)}</pre></div>`);
  if (q.initialSql !== undefined) parts.push(`<div><h3>initial${q.initialCorrect !== undefined ? ` ${verdictBadge(q.initialCorrect ? "right" : "wrong")}` : ""}</h3><pre class="sql initial">${esc(q.initialSql)}</pre>${q.correction ? `<p class="meta">correction: ${esc(q.correction)}</p>` : ""}</div>`);
  parts.push(`<div><h3>final ${verdictBadge(q.verdict)}</h3><pre class="sql final">${esc(q.sql || "(none)")}</pre>${q.predError ? `<div class="error">${esc(q.predError)}</div>` : ""}</div></div>`);
  if (d.goldNote) parts.push(`<p class="note">${esc(d.goldNote)}</p>`);
  if (d.goldSql !== undefined) parts.push(`<div class="gold-diff">${sqlDiff("gold → final (deleted: only in the gold; inserted: only in the final SQL)", d.goldSql, q.sql)}</div>`);
  if (q.initialSql !== undefined) parts.push(`<div class="initial-diff">${sqlDiff("initial → final (what the correction changed)", q.initialSql, q.sql)}</div>`);

  if (d.results) {
    const diffs = resultDifferences(d.results);
    parts.push(`<h2>Results</h2>${diffs.length ? `<ul class="differs">${diffs.map((l) => `<li>${esc(l)}</li>`).join("")}</ul>` : ""}<div class="grid results">${resultBlock("gold", d.goldSql, d.results.gold)}${q.initialSql !== undefined ? resultBlock("initial", q.initialSql, d.results.initial) : ""}${resultBlock("final", q.sql || undefined, d.results.final)}</div>`);
  }

  parts.push(`<h2>Steps</h2>`);
  if (d.threadError) parts.push(`<p class="note">The thread could not be read: ${esc(d.threadError)}</p>`);
  if (t) {
    const reusedUpTo = t.forkedFrom?.prefixSteps ?? 0;
    parts.push(`<p class="meta">${t.steps.length} step(s)${d.prefix?.length ? ` after ${d.prefix.length} reused` : ""}, ${t.finished ? "finished" : `unfinished${t.next.length ? `, next: ${esc(t.next.join(", "))}` : ""}`} · read ${t.readAs === "graph" ? `by graph ${esc(t.graph ?? "")}` : "generically from the checkpoints (the graph module is not available)"}</p>`);
    if (t.forkedFrom) parts.push(`<p class="note fork">Forked from thread ${esc(t.forkedFrom.threadId)} at checkpoint ${esc(t.forkedFrom.checkpointId)}: steps 1–${t.forkedFrom.prefixSteps} are the original's, reused.</p>`);
    if (t.goldSummary) {
      // A replay's summary is over its own steps: the reused prefix's first right step counts too.
      const prefixRight = d.prefix?.find((s) => s.gold?.correct)?.step;
      const g = { ...t.goldSummary, ...(t.goldSummary.firstRight === undefined && prefixRight !== undefined ? { firstRight: prefixRight } : {}) };
      parts.push(`<p class="meta gold-summary">Against the gold: ${g.firstRight !== undefined ? `first right at step ${g.firstRight}` : "never right"}${g.broke?.length ? `; a right answer broken at step ${g.broke.join(", ")}` : ""}${g.last !== undefined ? `; last SQL change at step ${g.last}` : ""}${g.finalCorrect !== undefined ? `; final ${g.finalCorrect ? "right" : "wrong"}` : ""}.</p>`);
    }
    if (t.note) parts.push(`<p class="meta">${esc(t.note)}</p>`);
    if (t.goldNote) parts.push(`<p class="meta">No gold verdict per step: ${esc(t.goldNote)}</p>`);
    if (t.error && !t.steps.some((s) => s.error)) parts.push(errorBlock(t.error));
    if (d.prefixError) parts.push(`<p class="note">The original thread's prefix could not be read: ${esc(d.prefixError)}</p>`);
    const maxSteps = opts.maxSteps ?? Infinity;
    const steps = [...(d.prefix ?? []), ...t.steps];
    parts.push(steps.slice(0, maxSteps).map((s) => stepBlock(s, vr, q, max, reusedUpTo, opts.maxCalls ?? Infinity)).join("\n"));
    if (steps.length > maxSteps) parts.push(`<p class="note">${steps.length - maxSteps} later step(s) left out of this export.</p>`);
  }
  const firstSlot = [...(d.prefix ?? []), ...(t?.steps ?? [])].find((s) => s.slots.length)?.slots[0];
  const firstRun = d.prefix?.length && vr.run.replayOf ? { ...vr.run, dir: vr.run.replayOf.dir } : vr.run;
  if (firstSlot) parts.push(`<h2>Re-run</h2><p>This question from its first slot (each step above gives its own):</p><code class="cmd">${esc(replayCommand(firstRun, q.id, firstSlot))}</code><p class="meta">Add --node SLOT=FILE to swap a node for the rest; the models are replay's flags (as eval takes them).</p>`);
  return parts.join("\n");
}

// ---------------------------------------------------------------------------
// The compare page
// ---------------------------------------------------------------------------

export const COMPARE_ROWS_MAX = 500;

/** The compare page's chart: EX by difficulty (and over all), a bar per run, each over its own scored questions. */
export async function compareChart(runs: ViewRun[]): Promise<string | undefined> {
  const { groupedBarChart } = await import("../../tools/charts.ts");
  const per = runs.map((r) => new Map([...exBy(r.run.questions, (q) => q.difficulty ?? "", DIFFICULTY_ORDER).map((g) => [g.key, g.ex] as const), ["all", runEx(r.run).ex]]));
  const groups = [...new Set(runs.flatMap((r) => exBy(r.run.questions, (q) => q.difficulty ?? "", DIFFICULTY_ORDER).map((g) => g.key)))].filter(Boolean);
  return groupedBarChart({ id: "compare-ex", title: "EX by difficulty (%), each run over its own scored questions", groups: [...groups, "all"], series: runs.map((r, k) => ({ name: r.name, label: `#${k + 1}`, values: [...groups, "all"].map((g) => per[k]!.get(g) ?? null) })), unit: " %", max: 100, digits: 1, axisTitle: "EX %" });
}

/** The compare page, or its one-line refusal (different questions). */
export function comparePage(runs: ViewRun[], links: Links, chart?: string): string {
  const inputs: CompareRunInput[] = runs.map((r) => ({ name: r.name, run: r.run, ...(r.hashes ? { hashes: r.hashes } : {}) }));
  let c: RunComparison;
  try {
    c = compareViews(inputs);
  } catch (error) {
    return `<h1>Compare</h1><p class="refused">${esc((error as Error).message)}</p>`;
  }
  const mock = runs.some((r) => r.run.mock) ? mockBanner : "";
  const base = runs[0]!;
  const idList = (k: number, ids: string[]) =>
    ids.length ? `<ul class="ids">${ids.map((id) => { const href = links.question(runs[k]!.index, id); return `<li>${href ? `<a href="${href}">${esc(id)}</a>` : esc(id)}</li>`; }).join("")}</ul>` : `<p class="meta">none</p>`;
  const parts = [`<h1>Compare ${runs.map((r) => esc(r.name)).join(" · ")}</h1>`, ...(mock ? [mock] : []), `<p class="meta">Against <a href="${links.run(base.index)}">${esc(base.name)}</a> (the first). Same questions checked by ${c.checkedBy === "hashes" ? "run.json's question hashes" : "question text and database (run.json records no hashes)"}.${c.notInAll.length ? ` ${c.notInAll.length} question(s) are not in every run: compared where present.` : ""}</p>`];
  if (chart) parts.push(`<div class="compare-chart">${chart}</div>`);
  c.pairs.forEach((p, i) => {
    const other = runs[i + 1]!;
    parts.push(`<section class="pair" data-run="${esc(other.name)}"><h2>${esc(base.name)} → <a href="${links.run(other.index)}">${esc(other.name)}</a></h2>`);
    if (p.replayOfBase) parts.push(`<p class="note">${esc(other.name)} replays ${esc(base.name)}${p.replayOfBase.slot ? ` from slot ${esc(p.replayOfBase.slot)}` : ""}: each question forked from its original thread; the fork point and the reused prefix are in the table below and on each question page.</p>`);
    parts.push(`<table class="auto counts"><tr><th>fixed (wrong → right)</th><th>broken (right → wrong)</th><th>both wrong</th><th>both right</th><th>not compared</th><th>exact McNemar p</th></tr><tr><td class="num fixed-count">${p.fixed.length}</td><td class="num broken-count">${p.broken.length}</td><td class="num">${p.bothWrong.length}</td><td class="num">${p.bothRight.length}</td><td class="num">${p.notCompared.length}</td><td class="num">${p.p.toPrecision(3)}</td></tr></table>`);
    parts.push(`<h3>Fixed</h3><div class="fixed">${idList(i + 1, p.fixed)}</div><h3>Broken</h3><div class="broken">${idList(i + 1, p.broken)}</div></section>`);
  });
  // Side by side: questions whose verdicts differ first, then the rest, bounded.
  const verdicts = (id: string) => c.byId.map((m) => m.get(id)?.verdict ?? "");
  const changed = c.ids.filter((id) => new Set(verdicts(id)).size > 1);
  const order = [...changed, ...c.ids.filter((id) => !changed.includes(id))];
  const shown = order.slice(0, COMPARE_ROWS_MAX);
  const head = `<tr><th style="width:7rem">id</th><th>question</th>${runs.map((r) => `<th>${esc(r.name)}</th>`).join("")}</tr>`;
  const body = shown.map((id) => {
    const cells = runs.map((r, k) => {
      const q = c.byId[k]!.get(id);
      if (!q) return `<td class="meta">not in this run</td>`;
      const href = links.question(r.index, id);
      const fork = q.replay ? `<div class="meta fork">forked after step ${q.replay.prefixSteps} (checkpoint ${esc(q.replay.checkpointId)}), prefix reused</div>` : "";
      return `<td>${href ? `<a href="${href}">${verdictBadge(q.verdict)}</a>` : verdictBadge(q.verdict)}<code class="clamp">${esc(q.sql)}</code>${fork}</td>`;
    });
    const q0 = c.byId.find((m) => m.has(id))!.get(id)!;
    return `<tr data-id="${esc(id)}"><td>${esc(id)}</td><td><div class="clamp">${esc(q0.question)}</div></td>${cells.join("")}</tr>`;
  }).join("");
  parts.push(`<h2>Each question side by side</h2><p class="meta">${changed.length} question(s) with differing verdicts first.${order.length > shown.length ? ` ${order.length - shown.length} more question(s) not shown (each run page lists them all).` : ""}</p><table class="side">${head}${body}</table>`);
  return parts.join("\n");
}

// ---------------------------------------------------------------------------
// Experiment and index pages
// ---------------------------------------------------------------------------

/** An experiment folder: table.json's rows and which registered run each row is. */
export interface ViewExperiment {
  index: number;
  name: string;
  dir: string;
  table: { recipe?: { name?: string }; rows?: ExperimentRow[]; intervals?: unknown; repeats?: number };
  /** Row name → run index. */
  runOf: Map<string, number>;
}

interface ExperimentRow {
  run: string;
  graph?: string;
  questions?: number;
  correct?: number;
  ex?: number;
  exInterval?: { low: number; high: number; over?: string; n?: number } | null;
  failed?: number;
  tokensPerQuestion?: number;
  paper?: { source: string; model: string; row: string; figures: Record<string, number>; differs?: string } | null;
  notRun?: string | null;
  versus?: { reference: string; tests: { seed: number | null; compared: number; onlyRow: number; onlyReference: number; p: number; holmP: number; family: number }[]; notTested: string | null } | null;
}

export function experimentPage(e: ViewExperiment, links: Links): string {
  const rows = e.table.rows ?? [];
  const body = rows.map((r) => {
    const k = e.runOf.get(r.run);
    const name = k !== undefined ? `<a href="${links.run(k)}">${esc(r.run)}</a>` : esc(r.run);
    const iv = r.exInterval ? `[${r.exInterval.low.toFixed(1)}, ${r.exInterval.high.toFixed(1)}]${r.exInterval.over === "repeats" ? " (t, repeats)" : ""}` : "";
    const paper = r.paper ? `${esc(Object.entries(r.paper.figures).map(([f, v]) => `${f} ${v}`).join("; "))}<div class="meta">${esc(r.paper.source)}; ${esc(r.paper.model)}${r.paper.differs ? `; differs: ${esc(r.paper.differs)}` : ""}</div>` : "–";
    const test = r.versus
      ? r.versus.notTested
        ? `vs ${esc(r.versus.reference)}: ${esc(r.versus.notTested)}`
        : `vs ${esc(r.versus.reference)}: ${r.versus.tests.map((t) => `+${t.onlyRow}/−${t.onlyReference}, p ${t.p.toPrecision(3)}, Holm ${t.holmP.toPrecision(3)} (of ${t.family})${t.seed !== null ? ` seed ${t.seed}` : ""}`).map(esc).join("<br>")}`
      : "–";
    return r.notRun
      ? `<tr><td>${name}</td><td>${esc(r.graph ?? "")}</td><td colspan="4" class="meta">not run: ${esc(r.notRun)}</td><td>${paper}</td><td>–</td></tr>`
      : `<tr><td>${name}</td><td>${esc(r.graph ?? "")}</td><td class="num">${r.questions ?? ""}</td><td class="num">${r.ex !== undefined ? `${r.ex.toFixed(1)} %` : ""}</td><td>${esc(iv)}</td><td class="num">${r.failed ?? 0}</td><td>${paper}</td><td>${test}</td></tr>`;
  }).join("");
  const runLinks = [...e.runOf.entries()].filter(([name]) => !rows.some((r) => r.run === name)).map(([name, k]) => `<a href="${links.run(k)}">${esc(name)}</a>`);
  return `<h1>Experiment ${esc(e.table.recipe?.name ?? e.name)}</h1><p class="meta">${esc(e.dir)}${e.table.repeats && e.table.repeats > 1 ? ` · ${e.table.repeats} repeats` : ""}</p>
<table class="experiment"><thead><tr><th>run</th><th>graph</th><th class="num">questions</th><th class="num">EX</th><th>95 % interval</th><th class="num">failed</th><th>paper's figures</th><th>planned test</th></tr></thead><tbody>${body}</tbody></table>
${runLinks.length ? `<p class="meta">Other runs in the folder: ${runLinks.join(" · ")}</p>` : ""}`;
}

export function indexPage(runs: ViewRun[], experiments: ViewExperiment[], links: Links): string {
  const runRows = runs.map((r) => {
    const ex = runEx(r.run);
    return `<tr><td><a href="${links.run(r.index)}">${esc(r.name)}</a></td><td>${esc(r.run.graph)}</td><td class="num">${r.run.summary.selected}</td><td class="num">${pct(ex.ex)}</td><td class="wide-only">${esc(interval(ex))}</td><td class="num">${r.run.summary.byVerdict.failed}</td></tr>`;
  }).join("");
  const exps = experiments.map((e) => `<li><a href="${links.experiment(e.index)}">${esc(e.name)}</a></li>`).join("");
  return `<h1>Runs</h1>${exps ? `<h2>Experiments</h2><ul>${exps}</ul>` : ""}<table class="auto runs"><thead><tr><th>run</th><th>graph</th><th class="num">questions</th><th class="num">EX</th><th class="wide-only">95 % interval</th><th class="num">failed</th></tr></thead><tbody>${runRows}</tbody></table>${runs.length > 1 ? `<p><a href="${links.compare(runs.map((r) => r.index))}">Compare all runs</a> (against the first)</p>` : ""}`;
}
