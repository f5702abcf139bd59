/**
 * `sqlmend view`: a local, read-only web app over run folders and experiment folders (`startView`), and one
 * self-contained HTML file of a run or a comparison (`exportView`). Runs are read through the trace API only
 * (`readRun`, `readThread`); the benchmark is read for the gold SQL, and the gold, initial and final SQL run through
 * the project's executor (databases opened read-only, rows bounded) and scorer. The server binds 127.0.0.1 by
 * default, answers GET and HEAD only, and serves nothing but the pages of the runs it was given (URLs name runs by
 * their index, never by a path).
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { firstLineOf, UserError } from "../../core/errors.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import type { Question } from "../../state/question.ts";
import { loadSource } from "../../tools/benchmarks/benchmark.ts";
import { type Semantics, scoreQuestion } from "../../tools/benchmarks/score.ts";
import { describeCut } from "../../tools/format.ts";
import { dataDir } from "../../tools/paths.ts";
import { createExecutor } from "../../tools/sqlite/executor.ts";
import type { SqlExecutor, SqlValue } from "../../tools/sqlite/types.ts";
import type { ReadThreadMore } from "../trace/read-trace.ts";
import type { GoldOptions } from "../trace/gold-per-step.ts";
import type { ReadThreadOptions, RunQuestion, RunView, ThreadView } from "../trace/trace-types.ts";
import { VIEW_CSP } from "./assets.ts";
import { compareChart, comparePage, document, experimentPage, indexPage, type Links, type QuestionDetail, questionPage, type ResultView, runCharts, runPage, serverLinks, type ViewExperiment, type ViewRun } from "./pages.ts";

/** The trace API as the explorer uses it (runner/trace/read-trace.ts). */
export interface TraceApi {
  readRun(dir: string): RunView | Promise<RunView>;
  readThread(threadId: string, options?: ReadThreadOptions & ReadThreadMore): ThreadView | Promise<ThreadView>;
  /** The gold's verdict on each step of a thread read without it (runner/trace/gold-per-step.ts). */
  goldForThread?(view: ThreadView, options: GoldOptions): Promise<void>;
}

async function defaultTrace(): Promise<TraceApi> {
  const [{ readRun, readThread }, { goldForThread }] = await Promise.all([import("../trace/read-trace.ts"), import("../trace/gold-per-step.ts")]);
  return { readRun, readThread, goldForThread };
}

/** What the explorer was given: runs (an experiment's runs included) and experiments. */
export interface ViewSources {
  runs: ViewRun[];
  experiments: ViewExperiment[];
}

const hasFile = (dir: string, name: string) => fs.existsSync(path.join(dir, name));
const readJson = (file: string): Record<string, unknown> => {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new UserError(`${file}: cannot read: ${firstLineOf(error)}`);
  }
};

/** Run folders inside an experiment folder (its runs, or repeat-K/ runs), sorted. */
function runFoldersIn(dir: string): string[] {
  const found: string[] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    const sub = path.join(dir, name);
    if (!fs.statSync(sub).isDirectory()) continue;
    if (hasFile(sub, "run.json") && hasFile(sub, "results.jsonl")) found.push(sub);
    else if (/^repeat-\d+$/.test(name)) for (const inner of fs.readdirSync(sub).sort()) {
      const run = path.join(sub, inner);
      if (fs.statSync(run).isDirectory() && hasFile(run, "run.json") && hasFile(run, "results.jsonl")) found.push(run);
    }
  }
  return found;
}

/** Reads each folder: an experiment (table.json) with its runs, or a run (run.json + results.jsonl). One line when neither. */
export async function loadViewSources(dirs: string[], trace: TraceApi, cwd = process.cwd()): Promise<ViewSources> {
  if (!dirs.length) throw new UserError("name one or more run folders (or experiment folders) to view");
  const runs: ViewRun[] = [];
  const experiments: ViewExperiment[] = [];
  const names = new Set<string>();
  const uniqueName = (base: string) => {
    let name = base;
    for (let k = 2; names.has(name); k++) name = `${base} (${k})`;
    names.add(name);
    return name;
  };
  const addRun = async (dir: string, name: string): Promise<number> => {
    let run: RunView;
    try {
      run = await trace.readRun(dir);
    } catch (error) {
      throw new UserError(`${dir}: cannot read the run: ${firstLineOf(error)}`);
    }
    const hashes = readJson(path.join(dir, "run.json")).questionHashes;
    const index = runs.length;
    runs.push({ index, name: uniqueName(name), run, ...(hashes && typeof hashes === "object" ? { hashes: hashes as Record<string, string> } : {}) });
    return index;
  };
  for (const given of dirs) {
    const dir = path.resolve(cwd, given);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UserError(`${given}: no such folder`);
    if (hasFile(dir, "table.json")) {
      const table = readJson(path.join(dir, "table.json")) as ViewExperiment["table"];
      const runOf = new Map<string, number>();
      for (const runDir of runFoldersIn(dir)) {
        const rel = path.relative(dir, runDir).split(path.sep).join("/");
        const index = await addRun(runDir, `${path.basename(dir)}/${rel}`);
        // A row names its run; with repeats, repeat 1's folder stands for the row.
        const row = rel.replace(/^repeat-(\d+)\//, (_m, k: string) => (k === "1" ? "" : `repeat-${k}/`));
        if (!runOf.has(row)) runOf.set(row, index);
      }
      experiments.push({ index: experiments.length, name: uniqueName(path.basename(dir)), dir, table, runOf });
    } else if (hasFile(dir, "run.json") && hasFile(dir, "results.jsonl")) {
      await addRun(dir, path.basename(dir));
    } else throw new UserError(`${given}: neither a run folder (run.json, results.jsonl) nor an experiment folder (table.json)`);
  }
  return { runs, experiments };
}

// ---------------------------------------------------------------------------
// A question's detail: its thread, its gold SQL and the three results
// ---------------------------------------------------------------------------

/** Rows and bytes a result on the question page keeps. */
const RESULT_ROWS = 10;
const RESULT_LIMITS = { timeoutMs: 15_000, maxRows: RESULT_ROWS, maxBytes: 256 * 1024, maxCellBytes: 2_000 };

function cellText(v: SqlValue): string {
  if (v === null) return "NULL";
  if (typeof v === "bigint" || typeof v === "number") return String(v);
  if (typeof v === "string") return v;
  const hex = Buffer.from(v.buffer, v.byteOffset, Math.min(v.byteLength, 64)).toString("hex");
  return `x'${hex}'${v.byteLength > 64 ? `… (${v.byteLength} bytes)` : ""}`;
}

/** Reads what a question page needs beside the run: benchmarks (for gold SQL) loaded once per run, an executor made on first use. */
export class DetailReader {
  private benches = new Map<string, Promise<Map<string, Question> | string>>();
  private executor: SqlExecutor & { close(): Promise<void> } | undefined;

  constructor(
    private trace: TraceApi,
    private where: { env: NodeJS.ProcessEnv; cwd: string; checkpoints?: string },
  ) {}

  /** The run's questions from its benchmark (as run.json names it), or why they cannot be read. */
  private questionsOf(run: RunView): Promise<Map<string, Question> | string> {
    let p = this.benches.get(run.dir);
    if (!p) {
      p = (async () => {
        try {
          const rec = readJson(path.join(run.dir, "run.json"));
          const str = (v: unknown) => (typeof v === "string" ? v : undefined);
          const bench = str(rec.bench), questions = str(rec.questions), dbDir = str(rec.dbDir), split = str(rec.split);
          if (!bench && !questions) return "run.json names no benchmark";
          const loaded = await loadSource({ ...(bench ? { bench } : {}), ...(questions ? { questions } : {}), ...(dbDir ? { dbDir } : {}), ...(split ? { split: split as "dev" } : {}) });
          return new Map(loaded.questions.map((q) => [q.id, q]));
        } catch (error) {
          return `its benchmark cannot be read: ${firstLineOf(error)}`;
        }
      })();
      this.benches.set(run.dir, p);
    }
    return p;
  }

  private exec() {
    return (this.executor ??= createExecutor({ size: 1 }));
  }

  private async result(q: Question | undefined, dbPath: string, sql: string, semantics: Semantics, score: boolean): Promise<ResultView> {
    const r = await this.exec().run(dbPath, sql, RESULT_LIMITS);
    if (!r.ok) return { ok: false, error: `${r.kind}: ${r.message}` };
    const view: ResultView = { ok: true, columns: r.columns, rows: r.rows.map((row) => row.map(cellText)), rowCount: r.rowCount };
    const cut = describeCut(r, RESULT_LIMITS);
    if (cut) view.note = cut;
    if (score && q?.goldSql) view.correct = (await scoreQuestion(q, sql, { executor: this.exec(), semantics })).correct;
    return view;
  }

  async detail(vr: ViewRun, q: RunQuestion, opts: { textMax?: number; results?: boolean } = {}): Promise<QuestionDetail> {
    const detail: QuestionDetail = { ...(opts.textMax ? { textMax: opts.textMax } : {}) };
    const questions = await this.questionsOf(vr.run);
    const question = typeof questions === "string" ? undefined : questions.get(q.id);
    const semantics: Semantics = vr.run.semantics === "spider" ? "spider" : "bird";
    const where = { env: this.where.env, cwd: this.where.cwd };
    const store = this.where.checkpoints ? { checkpoints: this.where.checkpoints } : {};
    // Gold verdicts per step with the question this reader already holds and its executor: `readThread(..., { gold,
    // run })` would load the run's benchmark a second time (10,000 questions: tens of MB) and the verdicts are the same.
    const withGold = async (view: ThreadView) => {
      const cacheDir = path.join(dataDir(where.env, where.cwd), "trace-gold", vr.run.runId.replace(/[^\w.-]/g, "_"));
      if (question && this.trace.goldForThread) await this.trace.goldForThread(view, { ...where, question, executor: this.exec(), semantics, cacheDir });
      return view;
    };
    try {
      detail.thread = await withGold(await this.trace.readThread(q.threadId, { run: vr.run.dir, ...where, ...store }));
    } catch (error) {
      detail.threadError = firstLineOf(error);
    }
    // A replay's thread starts at the fork: the reused prefix is the original thread's, read from the original run.
    const fork = detail.thread?.forkedFrom;
    if (fork) {
      try {
        const original = await withGold(await this.trace.readThread(fork.threadId, { run: vr.run.replayOf?.dir ?? vr.run.dir, ...where, ...store }));
        detail.prefix = original.steps.filter((s) => s.step <= fork.prefixSteps);
      } catch (error) {
        detail.prefixError = firstLineOf(error);
      }
    }
    if (typeof questions === "string") detail.goldNote = `No gold SQL or results: ${questions}.`;
    else if (!question) detail.goldNote = `Question ${q.id} is no longer in its benchmark: no gold SQL or results.`;
    else if (question.goldSql !== undefined) detail.goldSql = question.goldSql;
    else detail.goldNote = "The question has no gold SQL.";
    const state = detail.thread?.state;
    const dbPath = question?.dbPath ?? (typeof state?.dbPath === "string" ? state.dbPath : undefined);
    if (opts.results !== false && dbPath && fs.existsSync(dbPath)) {
      const [gold, initial, final] = await Promise.all([
        detail.goldSql !== undefined ? this.result(question, dbPath, detail.goldSql, semantics, false) : undefined,
        q.initialSql ? this.result(question, dbPath, q.initialSql, semantics, true) : undefined,
        q.sql ? this.result(question, dbPath, q.sql, semantics, true) : undefined,
      ]);
      detail.results = { ...(gold ? { gold } : {}), ...(initial ? { initial } : {}), ...(final ? { final } : {}) };
    } else if (opts.results !== false && !detail.goldNote) detail.goldNote = `The database ${dbPath ?? q.dbId} is not found: no results.`;
    return detail;
  }

  async close(): Promise<void> {
    await this.executor?.close();
  }
}

// ---------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------

export interface ViewServer {
  url: string;
  port: number;
  host: string;
  sources: ViewSources;
  close(): Promise<void>;
}

export interface StartViewOptions {
  /** Run folders and experiment folders. */
  runs: string[];
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  cwd?: string;
  /** Where the data directory is (SQLMEND_HOME: the default checkpoint store) — default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Where the runs' threads are, over what run.json says (a PostgreSQL URL: run.json keeps it without its password). */
  checkpoints?: string;
  /** The trace API (default runner/trace/read-trace.ts): a test may give hand-made values. */
  trace?: TraceApi;
}

const HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": VIEW_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-frame-options": "DENY",
};

const loopbackHost = (host: string) => ["127.0.0.1", "localhost", "::1", "[::1]"].includes(host);

/** Starts the explorer; resolves once it listens. `close()` stops it and its executor. */
export async function startView(options: StartViewOptions): Promise<ViewServer> {
  const trace = options.trace ?? (await defaultTrace());
  const sources = await loadViewSources(options.runs, trace, options.cwd);
  const reader = new DetailReader(trace, { env: options.env ?? process.env, cwd: options.cwd ?? process.cwd(), ...(options.checkpoints ? { checkpoints: options.checkpoints } : {}) });
  const links: Links = serverLinks;
  const runPages = new Map<number, Promise<string>>();
  const runPageOf = (vr: ViewRun) => {
    let body = runPages.get(vr.index);
    if (!body) runPages.set(vr.index, (body = runCharts(vr).then((charts) => runPage(vr, links, { others: sources.runs, charts }))));
    return body;
  };
  // The first run page before listening: it loads the charting library (a second or so), so no request waits for it.
  if (sources.runs[0]) await runPageOf(sources.runs[0]);
  const host = options.host ?? "127.0.0.1";

  const page = async (url: URL): Promise<{ status: number; title: string; body: string }> => {
    const parts = url.pathname.split("/").filter(Boolean).map((p) => decodeURIComponent(p));
    const runAt = (k: string | undefined) => (k !== undefined && /^\d+$/.test(k) ? sources.runs[Number(k)] : undefined);
    if (!parts.length) return { status: 200, title: "sqlmend view", body: indexPage(sources.runs, sources.experiments, links) };
    if (parts[0] === "run" && parts.length === 2) {
      const vr = runAt(parts[1]);
      if (vr) {
        return { status: 200, title: vr.name, body: await runPageOf(vr) };
      }
    }
    if (parts[0] === "run" && parts[2] === "q" && parts.length === 4) {
      const vr = runAt(parts[1]);
      const q = vr?.run.questions.find((x) => x.id === parts[3]);
      if (vr && q) return { status: 200, title: `${vr.name} · ${q.id}`, body: questionPage(vr, q, await reader.detail(vr, q), links) };
    }
    if (parts[0] === "compare" && parts.length === 1) {
      const ks = (url.searchParams.get("runs") ?? "").split(",").filter(Boolean);
      const runs = ks.map(runAt);
      if (runs.length >= 2 && runs.every((r): r is ViewRun => r !== undefined)) return { status: 200, title: "compare", body: comparePage(runs, links, await compareChart(runs)) };
      return { status: 400, title: "compare", body: `<p class="refused">compare takes runs=K,K,… : two or more of the runs given (0 to ${sources.runs.length - 1})</p>` };
    }
    if (parts[0] === "experiment" && parts.length === 2 && /^\d+$/.test(parts[1]!)) {
      const e = sources.experiments[Number(parts[1])];
      if (e) return { status: 200, title: e.name, body: experimentPage(e, links) };
    }
    return { status: 404, title: "not found", body: `<p class="refused">Not found: this server shows only the runs it was given (<a href="/">the list</a>).</p>` };
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { ...HEADERS, allow: "GET, HEAD" }).end("read-only: GET only\n");
        return;
      }
      // Another site's page cannot reach this server under its own name (DNS rebinding): loopback names only.
      const hostName = (req.headers.host ?? "").replace(/:\d+$/, "");
      if (loopbackHost(host) && !loopbackHost(hostName)) {
        res.writeHead(403, HEADERS).end("refused: not a loopback host name\n");
        return;
      }
      if (req.url === "/favicon.ico") {
        res.writeHead(204).end();
        return;
      }
      let status = 500, html: string;
      try {
        const url = new URL(req.url ?? "/", "http://localhost");
        const p = await page(url);
        status = p.status;
        html = document(p.title, p.body, "server");
      } catch (error) {
        html = document("error", `<p class="refused">${firstLineOf(error).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`, "server");
      }
      res.writeHead(status, HEADERS);
      res.end(req.method === "HEAD" ? undefined : html);
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => reject(new UserError(`cannot listen on ${host}:${options.port ?? 0}: ${error.code ?? firstLineOf(error)}`)));
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}/`,
    port,
    host,
    sources,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await reader.close();
    },
  };
}

// ---------------------------------------------------------------------------
// The export
// ---------------------------------------------------------------------------

export interface ExportViewOptions {
  runs: string[];
  /** The .html file to write. */
  out: string;
  /** Question pages included, per run (default 100): wrong and failed (and a comparison's fixed and broken) first. */
  maxQuestions?: number;
  cwd?: string;
  /** As startView's. */
  checkpoints?: string;
  trace?: TraceApi;
  io?: CliIO;
}

export interface ExportResult {
  file: string;
  bytes: number;
  /** What the file leaves out, one line each (also written at the top of the page). */
  leftOut: string[];
}

/** Texts (prompts, replies, state values) and steps an exported question page keeps. */
export const EXPORT_LIMITS = { textMax: 4_000, maxSteps: 40, maxCalls: 12 };

/** One self-contained HTML file of a run, or of a comparison when given several: no server, no network. */
export async function exportView(options: ExportViewOptions): Promise<ExportResult> {
  const io = options.io ?? defaultIO();
  const trace = options.trace ?? (await defaultTrace());
  const sources = await loadViewSources(options.runs, trace, options.cwd ?? io.cwd);
  const max = options.maxQuestions ?? 100;
  const reader = new DetailReader(trace, { env: io.env, cwd: options.cwd ?? io.cwd, ...(options.checkpoints ? { checkpoints: options.checkpoints } : {}) });
  const sectionId = (k: number, id: string) => `q-${k}-${encodeURIComponent(id)}`;
  const detailIds = new Map<number, string[]>();
  const runs = sources.runs;
  // A comparison's fixed and broken questions first, then wrong and failed, then the rest.
  let firstIds: Set<string> = new Set();
  const sections: string[] = [];
  const leftOut: string[] = [];
  const detailLinks = (): Links => ({
    home: "#",
    run: (k) => `#run-${k}`,
    question: (k, id) => (detailIds.get(k)?.includes(id) ? `#${sectionId(k, id)}` : null),
    questionPrefix: (k) => `#q-${k}-`,
    compare: () => "#compare",
    experiment: (k) => `#experiment-${k}`,
  });
  if (runs.length >= 2) {
    try {
      const { compareViews } = await import("./model.ts");
      const c = compareViews(runs.map((r) => ({ name: r.name, run: r.run, ...(r.hashes ? { hashes: r.hashes } : {}) })));
      firstIds = new Set(c.pairs.flatMap((p) => [...p.fixed, ...p.broken]));
    } catch {
      // comparePage prints the refusal.
    }
  }
  const rank = (q: RunQuestion) => (firstIds.has(q.id) ? 0 : q.verdict === "wrong" || q.verdict === "failed" ? 1 : 2);
  for (const vr of runs) {
    const chosen = [...vr.run.questions].sort((a, b) => rank(a) - rank(b)).slice(0, max);
    detailIds.set(vr.index, chosen.map((q) => q.id));
  }
  const links = detailLinks();
  try {
    for (const e of sources.experiments) sections.push(`<section class="page" id="experiment-${e.index}">${experimentPage(e, links)}</section>`);
    if (runs.length >= 2) sections.push(`<section class="page" id="compare">${comparePage(runs, links, await compareChart(runs))}</section>`);
    for (const vr of runs) {
      const ids = detailIds.get(vr.index)!;
      const left = vr.run.questions.length - ids.length;
      const note = left > 0 ? `This file holds the pages of ${ids.length} of ${vr.run.questions.length} questions (${runs.length >= 2 ? "fixed and broken, then " : ""}wrong and failed first); the other ${left} are in the table only (--max-questions raises the bound). Each page keeps ${EXPORT_LIMITS.maxSteps} steps, ${EXPORT_LIMITS.maxCalls} calls a step and ${EXPORT_LIMITS.textMax.toLocaleString("en-US")} characters a text at most.` : `Each question page keeps ${EXPORT_LIMITS.maxSteps} steps, ${EXPORT_LIMITS.maxCalls} calls a step and ${EXPORT_LIMITS.textMax.toLocaleString("en-US")} characters a text at most.`;
      if (left > 0) leftOut.push(`${vr.name}: the pages of ${left} question(s) (in the table only)`);
      sections.push(`<section class="page" id="run-${vr.index}">${runPage(vr, links, { others: runs, detail: ids, exportNote: note, charts: await runCharts(vr) })}</section>`);
      for (const id of ids) {
        const q = vr.run.questions.find((x) => x.id === id)!;
        const detail = await reader.detail(vr, q, { textMax: EXPORT_LIMITS.textMax });
        sections.push(`<section class="page" id="${sectionId(vr.index, id)}">${questionPage(vr, q, detail, links, EXPORT_LIMITS)}</section>`);
      }
    }
  } finally {
    await reader.close();
  }
  if (runs.length >= 2 || sources.experiments.length) {
    sections.push(`<section class="page" id="runs">${indexPage(runs, sources.experiments, links)}</section>`);
  }
  const html = document(runs.length >= 2 ? "sqlmend comparison" : (runs[0]?.name ?? "sqlmend view"), sections.join("\n"), "export");
  const file = path.resolve(options.cwd ?? io.cwd, options.out);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, html);
  return { file, bytes: Buffer.byteLength(html), leftOut };
}
