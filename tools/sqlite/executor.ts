/**
 * Safe execution of untrusted SQL (the SqlExecutor contract in ./types.ts).
 *
 * better-sqlite3 is synchronous and cannot be interrupted, and a worker thread stuck in native
 * code cannot be terminated, so queries run in a pool of child processes (./worker.js) that are
 * SIGKILLed on timeout and respawned lazily. The statement is screened twice: first by its text
 * (./screen.ts), then in the worker, by SQLite's own verdict (stmt.readonly, stmt.reader) on a
 * read-only, query_only connection.
 *
 * Idle workers are unref'd, so a forgotten executor does not keep Node alive; close() kills them.
 */
import { type ChildProcess, fork, spawn, type StdioOptions } from "node:child_process";
import { closeSync, existsSync, openSync, readSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { CompareOptions, CompareOutcome, CompareSide, SideOutcome, ExecFailure, ExecOptions, ExecResult, ScratchCell, ScratchExecutor, ScratchOptions, ScratchResult, SqlExecutor, TimedRuns, TimeOptions } from "./types.ts";
import { DQS_HINT, MAX_DQS_FIXES, rewriteForHint, singleQuoteLiteral } from "./dqs.js";
import { screenStatement } from "./screen.ts";

export interface ExecutorOptions {
  /** Worker processes at most. Default: os.availableParallelism(). */
  size?: number;
  /** Time limit when run() is given none. Default 30 000 ms. */
  defaultTimeoutMs?: number;
  /** Start every worker now, so their start-up overlaps the caller's own work (e.g. reading a benchmark). */
  prestart?: boolean;
  /**
   * How a worker stuck in a query dies with this process: "pdeathsig" (Linux with setpriv; the kernel kills it) or
   * "thread" (a watchdog thread in the worker). Default: pdeathsig where available.
   */
  orphanGuard?: "pdeathsig" | "thread";
  /**
   * Rows per side a comparison reads at most (compare()); past it the outcome is `tooLarge`. Default and ceiling:
   * tools/sqlite/digest.js MAX_COMPARE_ROWS. Lower it for a tighter memory budget (8–16 bytes a row and side).
   */
  maxCompareRows?: number;
  /** How long a query waits for another process's lock on its database before failing as "database is locked". Default 5000. */
  busyTimeoutMs?: number;
}

/** The worker: bundled as one CommonJS file in dist/ (scripts/build.js; it starts faster), else the ES module. */
const WORKER = ["./worker.cjs", "./worker.js"].map((name) => fileURLToPath(new URL(name, import.meta.url))).find((file) => existsSync(file))!;
const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * Node flags of a worker: a small young generation (2 MiB semi-spaces instead of 16) and an old one that grows 20 %
 * past what the last full collection kept (V8 lets it grow up to 4x): a comparison makes short-lived garbage for every
 * row, and a larger heap only adds to the resident size: 4 MB less a worker over Spider train than 4 MiB semi-spaces
 * (bench/memory-flat.ts), at the same CPU on heavy comparisons (1 MiB saved 2 MB more, at up to 5 % more CPU in one of
 * two measurements). `gc()`: a worker collects at once after a huge cell (./keep.js), before the next row makes another.
 */
const WORKER_FLAGS = ["--max-semi-space-size=2", "--heap-growing-percent=20", "--expose-gc"];
/** A worker that does not report ready within this time is considered broken. */
const STARTUP_MS = 15_000;
/** Extra time the worker's own watchdog allows beyond the parent's limit before killing itself (also in ./worker.js). */
const WATCHDOG_GRACE_MS = 3_000;
/**
 * The worker's mark (./worker.js mark()): before each query it writes {job, item, phase, start time} over the 16 bytes
 * of a small unlinked temporary file, its fd 4; this process reads them only when a clock runs out (a positioned read:
 * no pipe to drain, no wake-up per query).
 */
const MARK_FD = 4;
const MARK_BYTES = 16;

let markFiles = 0;
/** A new mark file, already unlinked (both processes keep it open); undefined where that fails. */
function openMarkFile(): number | undefined {
  try {
    // Not node:crypto (slow to load at start-up): "wx" refuses a name that exists anyway.
    const file = path.join(os.tmpdir(), `sqlmend-mark-${process.pid}-${++markFiles}-${Math.random().toString(36).slice(2)}`);
    const fd = openSync(file, "wx+", 0o600);
    try {
      unlinkSync(file);
    } catch {
      // Windows: an open file cannot be unlinked; it stays in the temp folder (16 bytes).
    }
    return fd;
  } catch {
    return undefined;
  }
}
const MARK_READ = Buffer.alloc(MARK_BYTES);
/** Where the worker leaves a comparison's gold outcome before the prediction runs (./worker.js leaveOutcome). */
const OUTCOME_AT = 16;
const OUTCOME_MAX = 4096;

/** The gold outcome the worker left for this job's item, if it is there and whole. */
function readGoldOutcome(slot: Slot, jobId: number, item: number): WorkerSide | undefined {
  if (slot.markFd === undefined) return undefined;
  try {
    const buffer = Buffer.alloc(OUTCOME_MAX);
    const got = readSync(slot.markFd, buffer, 0, OUTCOME_MAX, OUTCOME_AT);
    if (got < 12 || buffer.readUInt32LE(0) !== jobId || buffer.readUInt32LE(4) !== item) return undefined;
    const length = buffer.readUInt32LE(8);
    if (12 + length > got) return undefined;
    const side = JSON.parse(buffer.subarray(12, 12 + length).toString("utf8")) as WorkerSide;
    return typeof side?.ok === "boolean" ? side : undefined;
  } catch {
    return undefined;
  }
}
/** Where the worker lists a batch's finished comparisons (./worker.js recordDone), and how far at most. */
const DONE_AT = OUTCOME_AT + OUTCOME_MAX;
const DONE_MAX = 1 << 20;

/** The comparisons of this batch job the worker recorded as finished (by item), read once it is gone. */
function readDoneComparisons(slot: Slot, jobId: number): Map<number, WorkerComparison> {
  const done = new Map<number, WorkerComparison>();
  if (slot.markFd === undefined) return done;
  try {
    const buffer = Buffer.alloc(DONE_MAX);
    const got = readSync(slot.markFd, buffer, 0, DONE_MAX, DONE_AT);
    for (let at = 0; at + 12 <= got; ) {
      const length = buffer.readUInt32LE(at + 8);
      if (buffer.readUInt32LE(at) !== jobId || at + 12 + length > got) break;
      const result = JSON.parse(buffer.subarray(at + 12, at + 12 + length).toString("utf8")) as WorkerComparison;
      if (typeof result?.correct === "boolean") done.set(buffer.readUInt32LE(at + 4), result);
      at += 12 + length;
    }
  } catch {
    // what could not be read is compared again
  }
  return done;
}
const PHASES = ["run", "gold", "pred", "compare"] as const;
type Phase = (typeof PHASES)[number];
/**
 * Comparisons sent to a worker in one message, at most: fewer round trips while the worker waits; a batch that fails
 * as a whole (a time limit) has its comparisons redone apart, which stays cheap at this size.
 */
const MAX_BATCH = 64;

/**
 * screenStatement's verdicts by text (the newest SCREENED_MAX, texts up to SCREENED_LENGTH): a scorer screens a gold
 * once per question that asks it (Spider dev: 972 questions, 533 golds), and a prediction is often its gold's text.
 */
const screened = new Map<string, string | null>();
const SCREENED_MAX = 4096;
const SCREENED_LENGTH = 10_000;
function screenedStatement(sql: string): string | null {
  let verdict = screened.get(sql);
  if (verdict === undefined) {
    verdict = screenStatement(sql);
    if (sql.length <= SCREENED_LENGTH) {
      if (screened.size >= SCREENED_MAX) screened.clear();
      screened.set(sql, verdict);
    }
  }
  return verdict;
}

// ---------------------------------------------------------------------------------------------
// Double-quoted string literals

export { singleQuoteLiteral } from "./dqs.js";

// ---------------------------------------------------------------------------------------------
// The pool

interface Job {
  id: number;
  /** What the worker is asked to do: {type:"run"} or {type:"compare"}, without id and deadline. */
  message: Record<string, unknown>;
  /** The time limit of each query, from its start (the worker's marks say when it starts). */
  timeoutMs: number;
  /** A batch: each comparison's own limit, by item. */
  itemTimeouts?: number[];
  /** The worker's reply, or a JobFailure when the job failed as a whole (timeout, crash, closed pool). */
  resolve: (result: ExecResult | WorkerComparison) => void;
  /** A batch: comparisons the worker reports done before the end (after a slow stretch). */
  progress?: (from: number, results: WorkerComparison[]) => void;
  /** A batch whose worker was stopped or died: the comparisons it had finished (readDoneComparisons). */
  finished?: Map<number, WorkerComparison>;
}

/** Comparisons (one, or a batch): the jobs a worker may be sent behind one another (ProcessPoolExecutor.pump). */
const isComparison = (job: Job) => job.message.type === "compare" || job.message.type === "batch";

/** A job's failure; a time limit names the query that ran out of time (item of a batch, and phase). */
type JobFailure = ExecFailure & { at?: { item: number; phase: Phase }; redo?: boolean; gold?: WorkerSide };

/** The worker's reply to {type:"compare"}: each side's outcome (no rows) and the verdict. */
type WorkerComparison = Omit<CompareOutcome, "pred" | "gold"> & { pred: WorkerSide; gold: WorkerSide };
/** A side as the worker reports it: `sql` only when it rewrote the text it was sent. */
type WorkerSide = SideOutcome & { sql?: string };

interface Slot {
  child: ChildProcess;
  ready: boolean;
  job: Job | undefined;
  /**
   * A comparison job already sent behind `job` (pump): the worker starts on it as soon as it is done, without waiting
   * for this process to hear of it. It becomes `job` when `job`'s reply comes, and is queued again if the worker dies.
   */
  next: Job | undefined;
  timer: NodeJS.Timeout | undefined;
  /** When the current job's clock started (Date.now()). */
  startedAt: number;
  /** The query the worker last said it started (its marks), and when; reset for each job. */
  current: { item: number; phase: Phase; at: number } | undefined;
  /** The worker's mark file (openMarkFile), closed when it exits. */
  markFd: number | undefined;
  /** Set when we killed the child: the failure to report once it has exited. */
  killedWith: ExecFailure | undefined;
  exited: boolean;
  /** Jobs given to this worker so far (a batch of comparisons counts once): what it has grown with. */
  jobs: number;
  /** Resolves once the child has exited and been reaped (or never started). */
  gone: Promise<void>;
  markGone: () => void;
  stderrTail: string;
  /** The pool using it; undefined for a spare (prestartWorkers) until a pool adopts it. */
  owner: WorkerEvents | undefined;
}

/** What a pool hears from its workers. */
interface WorkerEvents {
  onMessage(slot: Slot, msg: WorkerMessage): void;
  onExit(slot: Slot, code: number | null, signal: NodeJS.Signals | null, reason?: string): void;
}

type WorkerMessage = { type?: string; id?: number; result?: ExecResult | WorkerComparison; from?: number; results?: WorkerComparison[] };

/** Every live child of every executor, killed when this process exits for whatever reason. */
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const child of liveChildren) child.kill("SIGKILL");
  });
}

/**
 * util-linux's setpriv (on every Debian-like system): started under `setpriv --pdeathsig KILL`, a worker is killed by
 * the kernel when this process dies, so it needs no watchdog thread of its own (./worker.js).
 */
const SETPRIV = process.platform === "linux" ? ["/usr/bin/setpriv", "/bin/setpriv"].find((file) => existsSync(file)) : undefined;

/**
 * The parent's environment without what only slows a worker's start: Node reads NODE_EXTRA_CA_CERTS's bundle at every
 * start (tens of ms), and workers open no network connection.
 */
function workerEnv(): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _certs, ...env } = process.env;
  // One malloc arena (glibc): SQLite runs on the worker's main thread alone, and every arena another thread (V8's
  // collector) opens keeps what it freed resident: 7 MB less a worker over Spider train. A caller's own setting stands.
  return { MALLOC_ARENA_MAX: "1", ...env };
}

/** Absolute, so "file:..." or ":memory:" can never be taken as anything but a file name (an absolute path as given). */
const absolute = (file: string) => (path.isAbsolute(file) ? file : path.resolve(file));

const failure = (kind: ExecFailure["kind"], message: string, elapsedMs = 0): ExecFailure => ({
  ok: false,
  kind,
  message,
  elapsedMs,
});

/** A run()'s result as one side of a comparison (no rows). */
function sideOf(r: ExecResult, sql: string): CompareSide {
  if (!r.ok) return { ...r, sql };
  const { rows: _rows, executedSql, fingerprint: _fingerprint, ...rest } = r;
  return { ...rest, sql: executedSql ?? sql };
}

const defaultOrphanGuard = (): "pdeathsig" | "thread" => (SETPRIV ? "pdeathsig" : "thread");

/** A new worker process, idle (never holding this process open) and owned by nobody yet. */
function startWorker(orphanGuard: "pdeathsig" | "thread", busyTimeoutMs?: number): Slot {
  installExitHook();
  const guard = orphanGuard === "pdeathsig" ? SETPRIV : undefined;
  // fd 4: the worker's mark (which query it started, when).
  const markFd = openMarkFile();
  const options = {
    serialization: "advanced" as const,
    stdio: ["ignore", "ignore", "pipe", "ipc", ...(markFd === undefined ? [] : [markFd])] as StdioOptions,
  };
  const markEnv = { ...(markFd === undefined ? {} : { SQLMEND_MARK_FD: String(MARK_FD) }), ...(busyTimeoutMs === undefined ? {} : { SQLMEND_BUSY_TIMEOUT_MS: String(busyTimeoutMs) }) };
  // Plain node either way: no tsx loader, no inspector flags from the parent.
  const child = guard
    ? spawn(guard, ["--pdeathsig", "KILL", "--", process.execPath, ...WORKER_FLAGS, WORKER], {
        ...options,
        env: { ...workerEnv(), SQLMEND_ORPHAN_GUARD: "pdeathsig", SQLMEND_PARENT_PID: String(process.pid), ...markEnv },
      })
    : fork(WORKER, [], { ...options, execArgv: WORKER_FLAGS, env: { ...workerEnv(), ...markEnv } });
  let markGone = () => {};
  const gone = new Promise<void>((resolve) => (markGone = resolve));
  const slot: Slot = {
    child,
    gone,
    markGone,
    ready: false,
    job: undefined,
    next: undefined,
    timer: undefined,
    startedAt: 0,
    current: undefined,
    markFd,
    killedWith: undefined,
    exited: false,
    jobs: 0,
    stderrTail: "",
    owner: undefined,
  };
  liveChildren.add(child);
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text: string) => {
    slot.stderrTail = (slot.stderrTail + text).slice(-2000);
  });
  // A spare only notes that it is ready, or gone; a pool hears everything.
  child.on("message", (msg: WorkerMessage) => {
    if (slot.owner) slot.owner.onMessage(slot, msg);
    else if (msg?.type === "ready") slot.ready = true;
  });
  const exited = (code: number | null, signal: NodeJS.Signals | null, reason?: string) => {
    // A batch cut short keeps what its worker finished (stopped for a runaway, or died).
    if (slot.job?.message.type === "batch") slot.job.finished = readDoneComparisons(slot, slot.job.id);
    if (slot.markFd !== undefined) closeSync(slot.markFd);
    slot.markFd = undefined;
    if (slot.owner) return slot.owner.onExit(slot, code, signal, reason);
    slot.exited = true;
    liveChildren.delete(child);
    slot.markGone();
  };
  child.on("exit", (code, signal) => exited(code, signal));
  setRef(slot, false); // idle until assigned a job: never holds the process open
  child.on("error", (error) => {
    // Spawn failures emit "error" without "exit"; send failures are followed by "exit".
    if (child.pid === undefined) exited(null, null, error.message);
    else child.kill("SIGKILL");
  });
  return slot;
}

/** The worker's newest mark, when it is of the slot's current job: which query runs, since when. */
function readMark(slot: Slot): void {
  if (slot.markFd === undefined || !slot.job) return;
  try {
    if (readSync(slot.markFd, MARK_READ, 0, MARK_BYTES, 0) < MARK_BYTES) return;
  } catch {
    return;
  }
  const at = MARK_READ.readDoubleLE(8);
  // Another job's mark, or a read that crossed a write (then the time is not one of this job's): keep what we had.
  if (MARK_READ.readUInt32LE(0) !== slot.job.id || !(at >= slot.startedAt - 1000 && at <= Date.now() + 1000)) return;
  slot.current = { item: MARK_READ.readUInt16LE(4), phase: PHASES[MARK_READ[6]!] ?? "run", at };
}

function setRef(slot: Slot, busy: boolean): void {
  const handles = [slot.child, slot.child.channel, slot.child.stderr] as const;
  for (const handle of handles) {
    const h = handle as { ref?: () => void; unref?: () => void } | null | undefined;
    if (busy) h?.ref?.();
    else h?.unref?.();
  }
}

/** Workers started before any pool wanted them (prestartWorkers), oldest first. */
const spares: Slot[] = [];

function takeSpare(): Slot | undefined {
  for (let slot = spares.shift(); slot; slot = spares.shift()) if (!slot.exited) return slot;
  return undefined;
}

/**
 * Starts `count` worker processes now, for the next pools to adopt (createExecutor): the launcher calls it before
 * loading a command that runs SQL, so the workers start while that command's modules load, and from a process still
 * small enough to fork quickly. Spares nobody adopts stay idle and die with this process. Returns the live spares' pids.
 */
export function prestartWorkers(count: number): number[] {
  for (let i = spares.length; i < count; i++) spares.push(startWorker(defaultOrphanGuard()));
  return spares.flatMap((s) => (s.exited || s.child.pid === undefined ? [] : [s.child.pid]));
}

function nonNegativeInt(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a non-negative number`);
  return Math.floor(value);
}

class ProcessPoolExecutor implements SqlExecutor, ScratchExecutor, WorkerEvents {
  private readonly size: number;
  private readonly defaultTimeoutMs: number;
  private readonly maxCompareRows: number | undefined;
  private readonly busyTimeoutMs: number | undefined;
  /** Switched to "thread" for good if a worker under setpriv fails to start (a sandbox refusing prctl, say). */
  orphanGuard: "pdeathsig" | "thread";
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: ExecutorOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? os.availableParallelism()));
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxCompareRows = nonNegativeInt(options.maxCompareRows, "maxCompareRows");
    this.busyTimeoutMs = nonNegativeInt(options.busyTimeoutMs, "busyTimeoutMs");
    this.orphanGuard = options.orphanGuard === "thread" || !SETPRIV ? "thread" : "pdeathsig";
    if (options.prestart) for (let i = 0; i < this.size; i++) this.spawn();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Pids of the current worker processes (for tests and diagnostics). */
  workerPids(): number[] {
    return [...this.slots].flatMap((s) => (s.child.pid === undefined ? [] : [s.child.pid]));
  }

  /**
   * Python's sqlite3 and the sqlite3 shell (and so the official scorers) accept double-quoted string literals
   * ("JetBlue") where no column has that name; better-sqlite3 is built without that. SQLite's error names the
   * token: rewrite it to a single-quoted literal and run again, so models and scorers see what users' SQLite does.
   */
  async run(dbPath: string, sql: string, options: ExecOptions = {}): Promise<ExecResult> {
    let current = sql;
    let result = await this.runOnce(dbPath, current, options);
    for (let fixes = 0; fixes < MAX_DQS_FIXES && !result.ok && result.kind === "sql"; fixes++) {
      const rewritten = rewriteForHint(current, result.message);
      if (rewritten === undefined) break;
      current = rewritten;
      result = await this.runOnce(dbPath, current, options);
    }
    return result.ok && current !== sql ? { ...result, executedSql: current } : result;
  }

  /**
   * Both queries go to one worker, which compares the results itself and sends back only the verdict (the rows
   * never cross the process boundary, nor are they held there: ./digest.js); it rewrites double-quoted literals as
   * run() does. Each query has the time limit from its own start. A query stopped at the limit is the side that timed
   * out (the other side's outcome is then fetched alone, without rows); a side refused by its text, or a job that
   * failed as a whole (a crash), gets each side's outcome apart, and no verdict but false.
   */
  async compare(dbPath: string, predSql: string, goldSql: string, options: CompareOptions): Promise<CompareOutcome> {
    let timeoutMs: number;
    try {
      timeoutMs = nonNegativeInt(options.timeoutMs, "timeoutMs") || this.defaultTimeoutMs;
    } catch (error) {
      const fail = failure("internal", (error as Error).message);
      return { pred: { ...fail, sql: predSql }, gold: { ...fail, sql: goldSql }, correct: false };
    }
    if (this.closed || !dbPath || screenedStatement(predSql) || screenedStatement(goldSql)) return this.compareApart(dbPath, predSql, goldSql, timeoutMs);
    const message = {
      type: "compare",
      path: absolute(dbPath),
      pred: predSql,
      gold: goldSql,
      semantics: options.semantics,
      orderMatters: options.orderMatters ?? false,
      fingerprint: options.fingerprint ?? false,
      timeoutMs,
      maxRows: this.maxCompareRows ?? null,
    };
    // A comparison its batch could not reach (another one was stopped) is simply sent again, as often as that
    // happens: it is not its failure, and every stop settles the comparison it names, so the redos end.
    for (let attempt = 0; ; ) {
      const reply = await this.enqueue(message, timeoutMs);
      if (!("ok" in reply)) {
        return { ...reply, pred: { ...reply.pred, sql: reply.pred.sql ?? predSql }, gold: { ...reply.gold, sql: reply.gold.sql ?? goldSql } };
      }
      const failed = reply as JobFailure;
      if (failed.redo && !this.closed) continue;
      // The worker died under it: once more, on a fresh worker.
      if (failed.kind === "internal" && !this.closed && attempt++ < 1) continue;
      if (failed.kind === "timeout" && failed.at) return this.timedOut(dbPath, predSql, goldSql, timeoutMs, failed);
      return this.compareApart(dbPath, predSql, goldSql, timeoutMs);
    }
  }

  /** A comparison stopped at the limit: the side that ran out of time, and the other side's outcome run alone. */
  private async timedOut(dbPath: string, predSql: string, goldSql: string, timeoutMs: number, failed: JobFailure): Promise<CompareOutcome> {
    const { at: _at, redo: _redo, gold: left, ...stopped } = failed;
    if (failed.at?.phase === "gold") {
      // The prediction never ran: run it alone (its own limit), so its outcome is known.
      const pred = await this.run(dbPath, predSql, { timeoutMs, maxRows: 0 });
      return { gold: { ...stopped, sql: goldSql }, pred: sideOf(pred, predSql), correct: false };
    }
    // The gold's outcome as the worker left it before the prediction ran; else the gold is run again, alone.
    const gold: CompareSide = left ? { ...left, sql: left.sql ?? goldSql } : sideOf(await this.run(dbPath, goldSql, { timeoutMs, maxRows: 0 }), goldSql);
    const pred: ExecFailure =
      failed.at?.phase === "compare"
        ? { ...stopped, message: `comparing the two results was stopped after ${timeoutMs} ms (time limit)` }
        : stopped;
    return { gold, pred: { ...pred, sql: predSql }, correct: false };
  }

  /** Each side's outcome, run apart and without rows; no comparison is made, so the verdict is false. */
  private async compareApart(dbPath: string, predSql: string, goldSql: string, timeoutMs: number): Promise<CompareOutcome> {
    const [p, g] = await Promise.all([this.run(dbPath, predSql, { timeoutMs, maxRows: 0 }), this.run(dbPath, goldSql, { timeoutMs, maxRows: 0 })]);
    // Both ran this time (the failure was the job's, e.g. a worker that died): say so rather than score it wrong silently.
    if (p.ok && g.ok) {
      const note = failure("internal", "the comparison failed in the worker process (it died); both queries ran apart");
      return { pred: { ...note, sql: p.executedSql ?? predSql }, gold: sideOf(g, goldSql), correct: false };
    }
    return { pred: sideOf(p, predSql), gold: sideOf(g, goldSql), correct: false };
  }

  /** VES timing (SqlExecutor.time): every query screened as run() screens it; the rounds run in one worker. */
  async time(dbPath: string, queries: string[], options: TimeOptions): Promise<TimedRuns> {
    if (this.closed) return failure("internal", "the executor is closed");
    const refusal = queries.map((sql) => screenStatement(sql)).find(Boolean);
    if (refusal) return failure("rejected", refusal);
    if (!dbPath) return failure("database", "no database file given");
    let timeoutMs: number, iterations: number;
    try {
      timeoutMs = nonNegativeInt(options.timeoutMs, "timeoutMs") || this.defaultTimeoutMs;
      iterations = Math.max(1, nonNegativeInt(options.iterations, "iterations") ?? 1);
    } catch (error) {
      return failure("internal", (error as Error).message);
    }
    const reply = await this.enqueue({ type: "time", path: absolute(dbPath), queries, iterations, timeoutMs, budgetMs: options.budgetMs ?? null }, timeoutMs);
    return reply as unknown as TimedRuns;
  }

  private runOnce(dbPath: string, sql: string, options: ExecOptions): Promise<ExecResult> {
    if (this.closed) return Promise.resolve(failure("internal", "the executor is closed"));
    const refusal = screenedStatement(sql);
    if (refusal) return Promise.resolve(failure("rejected", refusal));
    if (!dbPath) return Promise.resolve(failure("database", "no database file given"));
    let timeoutMs: number, maxRows: number | undefined, maxBytes: number | undefined, maxCellBytes: number | undefined, repeat: number;
    try {
      timeoutMs = nonNegativeInt(options.timeoutMs, "timeoutMs") || this.defaultTimeoutMs;
      maxRows = nonNegativeInt(options.maxRows, "maxRows");
      maxBytes = nonNegativeInt(options.maxBytes, "maxBytes");
      maxCellBytes = nonNegativeInt(options.maxCellBytes, "maxCellBytes");
      repeat = Math.max(1, nonNegativeInt(options.repeat, "repeat") ?? 1);
    } catch (error) {
      return Promise.resolve(failure("internal", (error as Error).message));
    }
    const message = { type: "run", path: absolute(dbPath), sql, maxRows: maxRows ?? null, maxBytes: maxBytes ?? null, maxCellBytes: maxCellBytes ?? null, repeat, fingerprint: options.fingerprint ?? false, timeoutMs };
    return this.enqueue(message, timeoutMs) as Promise<ExecResult>;
  }

  private enqueue(message: Record<string, unknown>, timeoutMs: number): Promise<ExecResult | WorkerComparison> {
    if (this.closed) return Promise.resolve(failure("internal", "the executor is closed"));
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, message, timeoutMs, resolve });
      // While a caller is still queueing (a scorer queues every question in one turn), an idle worker gets a whole
      // batch as soon as the queue holds one for every worker: it starts on it (or on its start-up) meanwhile.
      if (this.queue.length >= MAX_BATCH * this.size) this.pump(MAX_BATCH * this.size, false);
      this.schedulePump();
    });
  }

  private pumpScheduled = false;
  /**
   * Dispatches on the next turn of the event loop rather than at once: callers that enqueue while handling one reply
   * (a scorer starting its next questions) then fill a batch together instead of each taking a worker alone.
   */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /**
   * Builds an in-memory copy of the file's schema in a worker, loads the rows, runs the queries (each screened as
   * run() screens them; double-quoted string literals rewritten as run() does), and discards it all.
   */
  async runScratch(
    dbPath: string,
    tables: Record<string, Record<string, ScratchCell>[]>,
    queries: string[],
    options: ScratchOptions = {},
  ): Promise<ScratchResult> {
    const refusals = queries.map((sql) => screenStatement(sql));
    let current = queries.map((sql, i) => (refusals[i] ? "SELECT 1" : sql));
    let result = await this.scratchOnce(dbPath, tables, current, options);
    for (let fixes = 0; fixes < MAX_DQS_FIXES && result.ok; fixes++) {
      const rewritten = current.map((sql, i) => {
        const r = (result as { results: ExecResult[] }).results[i];
        const literal = r && !r.ok && r.kind === "sql" ? DQS_HINT.exec(r.message)?.[1] : undefined;
        return literal === undefined ? sql : singleQuoteLiteral(sql, literal);
      });
      if (rewritten.every((sql, i) => sql === current[i])) break;
      current = rewritten;
      result = await this.scratchOnce(dbPath, tables, current, options);
    }
    if (!result.ok) return result;
    const results = result.results.map((r, i): ExecResult => {
      const refusal = refusals[i];
      if (refusal) return failure("rejected", refusal);
      return r.ok && current[i] !== queries[i] ? { ...r, executedSql: current[i] } : r;
    });
    return { ...result, results };
  }

  private scratchOnce(
    dbPath: string,
    tables: Record<string, Record<string, ScratchCell>[]>,
    queries: string[],
    options: ScratchOptions,
  ): Promise<ScratchResult> {
    if (this.closed) return Promise.resolve(failure("internal", "the executor is closed"));
    if (!dbPath) return Promise.resolve(failure("database", "no database file given"));
    return new Promise((resolve) => {
      this.queue.push({
        id: this.nextId++,
        message: { type: "scratch", path: absolute(dbPath), tables, queries, maxRows: nonNegativeInt(options.maxRows, "maxRows") ?? null },
        timeoutMs: nonNegativeInt(options.timeoutMs, "timeoutMs") || this.defaultTimeoutMs,
        resolve: resolve as (result: ExecResult | WorkerComparison) => void,
      });
      this.schedulePump();
    });
  }

  /**
   * Ends the workers that have nothing to do (a busy one finishes its work) and have run at least `minJobs` jobs, so a
   * process that has finished its queries does not keep their memory (a worker grows with the files and results it
   * has seen; one that ran few is about its start size, and starting another costs more than it frees). The pool
   * starts new ones if more queries come. Returns how many were ended.
   */
  async releaseIdle(minJobs = 0): Promise<number> {
    const idle = [...this.slots].filter((slot) => !slot.job && !slot.next && !slot.killedWith && slot.jobs >= minJobs);
    await Promise.all(idle.map((slot) => this.kill(slot, failure("internal", "the worker was released"))));
    return idle.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve(failure("internal", "the executor was closed"));
    const exits = [...this.slots].map((slot) => this.kill(slot, failure("internal", "the executor was closed")));
    await Promise.all(exits);
  }

  /**
   * Gives queued jobs to idle workers (starting workers up to the pool's size) while at least `minQueued` wait; then,
   * every worker busy, sends a worker comparing its next comparisons behind its current ones (one job ahead at most):
   * it goes on without a round trip to this process between batches, which a loaded machine makes long.
   */
  private pump(minQueued = 1, ahead = true): void {
    while (this.queue.length >= minQueued && !this.closed) {
      let slot = [...this.slots].find((s) => !s.job && !s.killedWith);
      if (!slot && this.slots.size < this.size) slot = this.spawn();
      if (slot) {
        this.assign(slot, this.takeJob());
        continue;
      }
      // Not while a caller is still queueing: how much is left to share out is known only once it is done.
      const busy = ahead && isComparison(this.queue[0]!) ? [...this.slots].find((s) => s.job && !s.next && !s.killedWith && isComparison(s.job)) : undefined;
      if (!busy) return;
      // Half a share: what is committed ahead to one worker stays small beside what is left for all.
      this.sendAhead(busy, this.takeJob(2 * this.size));
    }
  }

  /** Sends the job behind the worker's current one; its clock starts when the current one's reply comes. */
  private sendAhead(slot: Slot, job: Job): void {
    slot.next = job;
    slot.jobs++;
    this.jobsSentAhead++;
    slot.child.send({ ...job.message, id: job.id, deadlineMs: job.timeoutMs + WATCHDOG_GRACE_MS }, (error) => {
      if (error) this.kill(slot, failure("internal", `could not reach the worker process: ${error.message}`));
    });
  }

  /** Jobs sent to a worker behind the one it was running (sendAhead): for tests and diagnostics. */
  jobsSentAhead = 0;

  /** A job sent ahead that its worker will not run (it died, or was stopped): queued again first, or failed on close. */
  private requeueNext(slot: Slot, outcome: ExecFailure): void {
    const next = slot.next;
    slot.next = undefined;
    if (!next) return;
    if (this.closed) next.resolve(outcome);
    else this.queue.unshift(next);
  }

  /**
   * The next job; queued comparisons go to a worker several at a time (one message each way), so the worker is not
   * idle while the parent handles a reply. The time limit holds for each comparison of a batch (the worker says when
   * a slow one is done); a batch that fails as a whole (time limit, crash) fails each of its comparisons the same
   * way, and compare() then redoes them apart.
   */
  private takeJob(shares = this.size): Job {
    const first = this.queue.shift()!;
    if (first.message.type !== "compare") return first;
    const limit = Math.min(MAX_BATCH, Math.ceil((this.queue.length + 1) / shares));
    const batch = [first];
    while (batch.length < limit && this.queue[0]?.message.type === "compare") batch.push(this.queue.shift()!);
    if (batch.length === 1) return first;
    const done = new Array<boolean>(batch.length).fill(false);
    const settle = (i: number, result: ExecResult | WorkerComparison) => {
      if (done[i]) return;
      done[i] = true;
      batch[i]!.resolve(result);
    };
    const job: Job = {
      id: this.nextId++,
      message: { type: "batch", items: batch.map((job) => job.message) },
      timeoutMs: Math.max(...batch.map((job) => job.timeoutMs)),
      itemTimeouts: batch.map((job) => job.timeoutMs),
      // Comparisons reported done before the end are settled at once: a later one stopped does not lose them.
      progress: (from, results) => results.forEach((result, k) => settle(from + k, result)),
      resolve: (reply) => {
        if (!("ok" in reply)) {
          const results = (reply as unknown as { results?: WorkerComparison[] }).results;
          batch.forEach((_, i) => settle(i, results?.[i] ?? failure("internal", "the worker sent an incomplete reply")));
          return;
        }
        // Failed as a whole. What the worker had finished stands; a time limit names its comparison; the others of
        // the batch are sent again.
        const failed = reply as JobFailure;
        const finished = job.finished;
        batch.forEach((_, i) => {
          const result = finished?.get(i);
          if (result) settle(i, result);
          else if (failed.at && i !== failed.at.item) settle(i, { ...failure("internal", "not compared: another comparison of its batch was stopped"), redo: true } as JobFailure);
          else settle(i, failed.at ? { ...failed, at: { ...failed.at, item: 0 } } : failed);
        });
      },
    };
    return job;
  }

  /** A worker for this pool: a spare the launcher started early when one fits, or a new process. */
  private spawn(): Slot {
    // A spare was started with the defaults.
    let slot = this.orphanGuard === defaultOrphanGuard() && this.busyTimeoutMs === undefined ? takeSpare() : undefined;
    slot ??= startWorker(this.orphanGuard, this.busyTimeoutMs);
    slot.owner = this;
    this.slots.add(slot);
    return slot;
  }




  private assign(slot: Slot, job: Job): void {
    slot.job = job;
    slot.jobs++;
    setRef(slot, true);
    const message = { ...job.message, id: job.id, deadlineMs: job.timeoutMs + WATCHDOG_GRACE_MS };
    slot.current = undefined;
    slot.child.send(message, (error) => {
      if (error) this.kill(slot, failure("internal", `could not reach the worker process: ${error.message}`));
    });
    if (slot.ready) this.startClock(slot);
    else {
      slot.startedAt = Date.now();
      slot.timer = setTimeout(
        () => this.kill(slot, failure("internal", "the worker process did not start", Date.now() - slot.startedAt)),
        STARTUP_MS,
      );
    }
  }

  /**
   * The time limit counts from the start of the query that is running: the worker marks each start (readMarks); until
   * the first mark, from when the worker can start on the job (not from its spawn).
   */
  private startClock(slot: Slot): void {
    if (!slot.job) return;
    slot.startedAt = Date.now();
    this.armClock(slot);
  }

  private armClock(slot: Slot): void {
    const job = slot.job;
    clearTimeout(slot.timer);
    if (!job || slot.killedWith) return;
    readMark(slot);
    const current = slot.current;
    const since = Math.max(current?.at ?? 0, slot.startedAt);
    const limit = (current && job.itemTimeouts?.[current.item]) ?? job.timeoutMs;
    const wait = since + limit - Date.now();
    if (wait > 0) {
      slot.timer = setTimeout(() => this.armClock(slot), wait);
      return;
    }
    const elapsed = Date.now() - since;
    const stopped: JobFailure = failure("timeout", `the query was stopped after ${limit} ms (time limit)`, elapsed);
    // Without a mark (a worker that cannot write them) nobody is named: compare() then runs the sides apart.
    if (current && job.message.type !== "run") {
      stopped.at = { item: current.item, phase: current.phase };
      if (current.phase !== "gold") stopped.gold = readGoldOutcome(slot, job.id, current.item);
    }
    void this.kill(slot, stopped);
  }

  onMessage(slot: Slot, msg: WorkerMessage): void {
    if (msg?.type === "ready") {
      slot.ready = true;
      if (slot.job && !slot.killedWith) this.startClock(slot);
      return;
    }
    if (msg?.type === "progress") {
      if (slot.job && msg.id === slot.job.id && !slot.killedWith && msg.results) slot.job.progress?.(msg.from ?? 0, msg.results);
      return;
    }
    if (msg?.type !== "result" || !slot.job || msg.id !== slot.job.id || slot.killedWith) return;
    const job = slot.job;
    clearTimeout(slot.timer);
    slot.timer = undefined;
    // The job sent ahead is the one the worker runs now: its clock starts (its marks say when each query started).
    slot.job = slot.next;
    slot.next = undefined;
    slot.current = undefined;
    if (slot.job) this.startClock(slot);
    else setRef(slot, false);
    job.resolve(msg.result ?? failure("internal", "the worker sent an empty reply"));
    this.pump();
  }

  /** Kills the child; its pending job gets `outcome` once the process is really gone (reaped). */
  private kill(slot: Slot, outcome: ExecFailure): Promise<void> {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    if (!slot.killedWith) slot.killedWith = outcome;
    this.slots.delete(slot); // no new jobs for it; the pool may spawn a replacement
    this.requeueNext(slot, outcome);
    if (slot.exited) return slot.gone;
    slot.child.kill("SIGKILL");
    // Keep the process alive until the kill is confirmed, then pump the queue.
    setRef(slot, true);
    queueMicrotask(() => this.pump());
    return slot.gone;
  }

  onExit(slot: Slot, code: number | null, signal: NodeJS.Signals | null, reason?: string): void {
    if (slot.exited) return;
    slot.exited = true;
    slot.markGone();
    clearTimeout(slot.timer);
    this.slots.delete(slot);
    liveChildren.delete(slot.child);
    const job = slot.job;
    slot.job = undefined;
    this.requeueNext(slot, slot.killedWith ?? failure("internal", "the worker process died"));
    if (!slot.ready && !slot.killedWith && this.orphanGuard === "pdeathsig") {
      // setpriv or the worker could not start this way: start the next ones with their own watchdog thread.
      this.orphanGuard = "thread";
      if (job) this.queue.unshift(job);
      this.pump();
      return;
    }
    if (job) {
      if (slot.killedWith) job.resolve(slot.killedWith);
      else {
        const how = reason ?? (signal ? `signal ${signal}` : `exit code ${code}`);
        const tail = slot.stderrTail.trim().split("\n").filter(Boolean).pop();
        const elapsed = slot.startedAt ? Date.now() - slot.startedAt : 0;
        job.resolve(
          failure("internal", `the worker process died (${how})${tail ? `: ${tail.trim().slice(0, 300)}` : ""}`, elapsed),
        );
      }
    }
    this.pump();
  }
}

/** A new pool of worker processes. Call close() when done (idle workers never hold the process open). */
export function createExecutor(options?: ExecutorOptions): SqlExecutor & ScratchExecutor & {
  workerPids(): number[];
  readonly jobsSentAhead: number;
  readonly isClosed: boolean;
  readonly orphanGuard: "pdeathsig" | "thread";
} {
  return new ProcessPoolExecutor(options);
}

let shared: ProcessPoolExecutor | undefined;

/** The process-wide executor, created on first use (and again if someone closed it). */
export function getSharedExecutor(): SqlExecutor & ScratchExecutor {
  if (!shared || shared.isClosed) shared = new ProcessPoolExecutor();
  return shared;
}
