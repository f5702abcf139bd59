import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { lazyCrypto } from "../tools/hash.ts";
import type { Benchmark } from "../state/question.ts";
import { SPLITS, type Split } from "../state/splits.ts";
import { type BenchmarkSource, loadSource } from "../tools/benchmarks/benchmark.ts";
import { resolveBenchmarkDir } from "../tools/benchmarks/resolve.ts";
import type { RunIO } from "./progress.ts";
import { firstLineOf, UsageError, UserError } from "../core/errors.ts";
import { STOP_SIGNALS, type StopSignal } from "../core/exit.ts";
import { type CodeIdentity, describeCode } from "../tools/version.ts";

/**
 * What commands that run many questions into an output directory share (`eval`, `magic guideline`): the run file
 * that `--resume` checks, a JSON-lines file of finished work that survives a kill, question selection in benchmark
 * order, a bounded pool, and a graceful Ctrl-C.
 */

const RUN_FILE = "run.json";

/** The flags every such command takes: the benchmark split, the subset, the output directory, resuming. */
export const RUN_DIR_FLAGS = {
  bench: { type: "string" },
  split: { type: "string" },
  questions: { type: "string" },
  "db-dir": { type: "string" },
  limit: { type: "string" },
  ids: { type: "string", multiple: true },
  concurrency: { type: "string" },
  out: { type: "string" },
  resume: { type: "boolean" },
} as const;

/** How the run flags' question selection reads in a usage text. */
export const SELECTION_USAGE = `  --bench DIR|minibench     Spider or BIRD layout (BIRD mini-dev and Spider's test split included), or the
                            project's own small benchmark
  --split dev|train|test|minidev   default dev (a layout without dev: its one evaluation split)
  --questions FILE          another question file (Spider or BIRD format, e.g. a Spider variant) over the
                            --bench split's databases; with --db-dir DIR: your own questions (.jsonl, .csv
                            or .json: question, db_id, optional gold, evidence, difficulty, id) over DIR's
                            databases (DIR/<db_id>.sqlite or DIR/<db_id>/<db_id>.sqlite)`;

/** `--split`, checked: dev, train, test (Spider) or minidev (BIRD). */
export function splitFrom(value: string | undefined, fallback: Split): Split {
  const split = value ?? fallback;
  if (!(SPLITS as readonly string[]).includes(split)) throw new UsageError(`--split takes ${SPLITS.join(", ")}, not '${value}'`);
  return split as Split;
}

/**
 * The benchmark the run flags name: `--bench DIR|minibench` (with `--split`, and `--questions FILE` for another question
 * file over its databases), or `--questions FILE --db-dir DIR` (own data). `source` is what run.json records.
 */
export async function benchmarkFromFlags(
  values: { bench?: string | undefined; split?: string | undefined; questions?: string | undefined; "db-dir"?: string | undefined },
  io: { env: NodeJS.ProcessEnv; cwd: string },
  fallbackSplit: Split,
  opts: { cacheDir?: string } = {},
): Promise<{ bench: Benchmark; source: BenchmarkSource; benchDir: string | undefined }> {
  const split = splitFrom(values.split, fallbackSplit);
  const questions = values.questions !== undefined ? path.resolve(io.cwd, values.questions) : undefined;
  if (values["db-dir"] !== undefined) {
    if (values.bench !== undefined) throw new UsageError("--db-dir takes the place of --bench: give one of them");
    if (questions === undefined) throw new UsageError("--db-dir DIR needs --questions FILE");
    if (values.split !== undefined) throw new UsageError("--split applies to --bench layouts, not to --db-dir");
    const source: BenchmarkSource = { questions, dbDir: path.resolve(io.cwd, values["db-dir"]) };
    return { bench: await loadSource(source, opts), source, benchDir: undefined };
  }
  if (values.bench === undefined) throw new UsageError("--bench DIR is required (or --questions FILE --db-dir DIR)");
  const benchDir = await resolveBenchmarkDir(values.bench, io.env, io.cwd);
  const bench = await loadSource({ bench: benchDir, ...(values.split !== undefined || fallbackSplit !== "dev" ? { split } : {}), ...(questions ? { questions } : {}) }, opts);
  return { bench, source: { bench: benchDir, split: bench.split, ...(questions ? { questions } : {}) }, benchDir };
}

export interface RunFileBase {
  runId: string;
  startedAt: string;
}

/** The lock file of an output directory: one process writes a directory at a time. */
export const LOCK_FILE = "run.lock";

interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
}

/** Lock files this process holds (absolute paths), released on exit. */
const heldLocks = new Map<string, string>();
let exitHookSet = false;

const releaseLock = (file: string) => {
  const mine = heldLocks.get(file);
  if (mine === undefined) return;
  heldLocks.delete(file);
  if (!heldLocks.size) watchSignalsWhileLocked(false);
  try {
    // Only our own lock: a process that took it over after us keeps its.
    if (fs.readFileSync(file, "utf8") === mine) fs.unlinkSync(file);
  } catch {
    // already gone
  }
};

const readOwner = (file: string): LockOwner | undefined => {
  try {
    const owner = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<LockOwner>;
    return typeof owner.pid === "number" && typeof owner.host === "string" ? (owner as LockOwner) : undefined;
  } catch {
    return undefined;
  }
};

/** Whether the lock's process still runs: only knowable on this host; a lock from another host counts as live. */
function ownerAlive(owner: LockOwner, file: string): boolean {
  if (owner.host !== os.hostname()) return true;
  if (owner.pid === process.pid) return heldLocks.has(file);
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes `outDir/run.lock` (created with O_EXCL: pid, host, start time, command), or refuses with a one-line error
 * naming the process that holds it. A lock whose process is gone (killed) is taken over under a second O_EXCL file
 * (`run.lock.takeover`), so two processes finding the same stale lock do not both take it. Released on `release()`
 * and on exit. Returns a note when a stale lock was taken over. `file`: another lock file, for an output that is one
 * file (`memo build`'s memory locks `<memory>.lock`).
 */
export function lockOutDir(outDir: string, command: string, file = path.resolve(outDir, LOCK_FILE)): { release: () => void; note?: string } {
  const mine = `${JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString(), command } satisfies LockOwner)}\n`;
  const create = () => {
    fs.writeFileSync(file, mine, { flag: "wx" });
    heldLocks.set(file, mine);
    if (!exitHookSet) {
      exitHookSet = true;
      process.on("exit", () => [...heldLocks.keys()].forEach(releaseLock));
    }
    watchSignalsWhileLocked(true);
    return { release: () => releaseLock(file) };
  };
  const refuse = (owner: LockOwner | undefined): never => {
    const who = owner ? `process ${owner.pid} on ${owner.host} (sqlmend ${owner.command}, since ${owner.startedAt})` : "another process (its lock file does not read)";
    throw new UserError(`${outDir} is being written by ${who}: wait for it or stop it, or choose another --out${owner && owner.host !== os.hostname() ? `; if it no longer runs, delete ${file}` : ""}`);
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return create();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw new UserError(`${file}: cannot create the lock (${firstLineOf(error)})`);
    }
    const owner = readOwner(file);
    // A lock that does not parse may be one being written this instant: refuse rather than guess.
    if (!owner || ownerAlive(owner, file)) refuse(owner);
    const guard = `${file}.takeover`;
    try {
      fs.writeFileSync(guard, String(process.pid), { flag: "wx" });
    } catch {
      // Another process is taking it over; a guard left by a kill mid-takeover is stale after 10 s.
      try {
        if (Date.now() - fs.statSync(guard).mtimeMs > 10_000) fs.unlinkSync(guard);
      } catch {
        // gone meanwhile
      }
      continue;
    }
    try {
      const again = readOwner(file);
      if (again && JSON.stringify(again) !== JSON.stringify(owner)) refuse(again);
      fs.rmSync(file, { force: true });
      const lock = create();
      return { ...lock, note: `took over the lock of process ${owner!.pid} (sqlmend ${owner!.command}, since ${owner!.startedAt}), which no longer runs` };
    } finally {
      fs.rmSync(guard, { force: true });
    }
  }
  return refuse(readOwner(file));
}

/**
 * What a run is, beside its settings: the code that runs it and the questions it answers, by content. `--resume`
 * refuses other code, a question whose content changed, and a selection that leaves out questions the run holds.
 */
export interface RunIdentity {
  /** sqlmend's code (tools/version.ts `codeIdentity`). */
  code: CodeIdentity;
  /** The selected questions (skipped ones included): their content hashes by id (`questionHashes`). */
  questions: Record<string, string>;
}

/**
 * A question's content as a run knows it: text, database id, evidence and gold SQL, as 16 hex digits of sha256
 * (enough to tell an edit, not a security boundary). A skipped question (its database missing) is `skipped:` and its
 * database id: it has no answer to protect, so it may become a question (the database added) or the reverse.
 */
export function questionHash(q: { question?: string; dbId: string; evidence?: string; goldSql?: string | undefined; reason?: string }): string {
  if (q.question === undefined) return `skipped:${q.dbId}`;
  const content = JSON.stringify([q.question, q.dbId, q.evidence ?? "", q.goldSql ?? null]);
  return lazyCrypto().createHash("sha256").update(content).digest("hex").slice(0, 16);
}

/** `questionHash` of every selected question, skipped ones included, by id. */
export function questionHashes(questions: readonly { id: string; dbId: string; question?: string; evidence?: string; goldSql?: string | undefined; reason?: string }[]): Record<string, string> {
  return Object.fromEntries(questions.map((q) => [q.id, questionHash(q)]));
}

/**
 * A path as run.json records it: relative to the run folder (forward slashes) when it lies inside, so a copied or
 * moved run still names its own files; absolute otherwise.
 */
export function runPath(file: string, runDir: string): string {
  const rel = path.relative(runDir, file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel.split(path.sep).join("/") : file;
}

/**
 * A file another run wrote, which a resumed run reads again and which may grow meanwhile (a corrector's `--initial`
 * predictions): its absolute path and its path from the run folder. `--resume` takes either as the same file, so a
 * run moved alone (the absolute path holds) or with its neighbours (an experiment folder: the relative one holds)
 * resumes.
 */
export function runPlace(file: string, runDir: string): { path: string; fromRun: string } {
  return { path: file, fromRun: path.relative(runDir, file).split(path.sep).join("/") };
}

type FileIdentity = { path?: string; sha256: string };
const isFileIdentity = (v: unknown): v is FileIdentity => typeof v === "object" && v !== null && typeof (v as FileIdentity).sha256 === "string";
type Place = { path: string; fromRun: string };
const isPlace = (v: unknown): v is Place => typeof v === "object" && v !== null && typeof (v as Place).fromRun === "string" && typeof (v as Place).path === "string";

/**
 * Whether a recorded value and this run's are the same for `--resume`: files by content (their sha256, wherever they
 * are now), places by either path, the rest as JSON. The first file whose content differs is returned in `changed`.
 */
function sameRecorded(before: unknown, now: unknown, trail: string[] = []): { same: boolean; changed?: { trail: string[]; before: FileIdentity; now: FileIdentity } } {
  if (isFileIdentity(before) && isFileIdentity(now)) return before.sha256 === now.sha256 ? { same: true } : { same: false, changed: { trail, before, now } };
  if (isPlace(before) && isPlace(now)) return { same: before.fromRun === now.fromRun || before.path === now.path };
  const bothObjects = typeof before === "object" && before !== null && typeof now === "object" && now !== null && Array.isArray(before) === Array.isArray(now);
  if (!bothObjects) return { same: JSON.stringify(before ?? null) === JSON.stringify(now ?? null) };
  const a = before as Record<string, unknown>;
  const b = now as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => a[k] !== undefined || b[k] !== undefined));
  let result: ReturnType<typeof sameRecorded> = { same: true };
  for (const key of keys) {
    const inner = sameRecorded(a[key], b[key], [...trail, key]);
    if (inner.changed) return inner;
    if (!inner.same) result = { same: false };
  }
  return result;
}

/** Whether two runs recorded the same value (`sameRecorded`): what `--resume` and `sqlmend merge` compare. */
export const sameRunValue = (a: unknown, b: unknown): boolean => sameRecorded(a, b).same;

/** How the refusal names a file by where run.json keeps it: `settings.node.generate` → "the --node generate module". */
function fileLabel(trail: string[]): string {
  const at = trail.indexOf("node");
  if (at >= 0 && trail[at + 1]) return `the --node ${trail[at + 1]} module`;
  if (trail[0] === "settings" && trail[1] === "graph") return "the --graph module";
  const last = trail.at(-1) ?? "file";
  return trail[0] === "settings" ? `the --${last} file` : `the ${last} file`;
}

const shortList = (ids: string[]) => `${ids.slice(0, 5).join(", ")}${ids.length > 5 ? `, … (${ids.length} in all)` : ""}`;

/**
 * Locks `outDir` for this process (`lockOutDir`: a second run on the same folder refuses, naming the first), then
 * creates `outDir/run.json`, or with `resume` checks that the run there was started with the same `keys` (models,
 * settings, ...) and, given `identity`, the same code, the same content of its questions and no fewer questions; a
 * resume that adds questions records them. Every refusal is one line and leaves the folder as it was. A directory
 * holding a run is never reused without `resume`. `release()` frees the lock (also freed on exit and on a stop
 * signal); `io` hears of a stale lock taken over. `refresh`: keys a resume that adds questions records anew (eval's
 * `selection`).
 */
export function prepareOutDir<T extends Record<string, unknown>>(
  outDir: string,
  expected: T,
  resume: boolean,
  keys: (keyof T & string)[],
  ctx: { command: string; io?: RunIO; identity?: RunIdentity; refresh?: (keyof T & string)[] } = { command: "run" },
): T & RunFileBase & { release: () => void } {
  fs.mkdirSync(outDir, { recursive: true });
  const lock = lockOutDir(outDir, ctx.command);
  if (lock.note) ctx.io?.stderr(`sqlmend ${ctx.command}: ${outDir}: ${lock.note}\n`);
  try {
    return { ...readOrCreateRun(outDir, expected, resume, keys, ctx), release: lock.release };
  } catch (error) {
    lock.release();
    throw error;
  }
}

function readOrCreateRun<T extends Record<string, unknown>>(
  outDir: string,
  expected: T,
  resume: boolean,
  keys: (keyof T & string)[],
  ctx: { identity?: RunIdentity; refresh?: (keyof T & string)[] },
): T & RunFileBase {
  const runFile = path.join(outDir, RUN_FILE);
  const identity = ctx.identity ? { code: ctx.identity.code, questionHashes: ctx.identity.questions } : {};
  if (fs.existsSync(runFile)) {
    if (!resume) throw new UserError(`${outDir} already holds a run: pass --resume to continue it, or choose another --out`);
    let previous: T & RunFileBase & { code?: CodeIdentity; questionHashes?: Record<string, string> };
    try {
      previous = JSON.parse(fs.readFileSync(runFile, "utf8")) as typeof previous;
    } catch (error) {
      throw new UserError(`${runFile}: unreadable (${firstLineOf(error)})`);
    }
    const newRun = "start a new run with another --out";
    if (ctx.identity) {
      const code = ctx.identity.code;
      if (previous.code?.sha256 !== code.sha256 || previous.code?.version !== code.version) {
        throw new UserError(`--resume: ${outDir}: sqlmend's code changed since the run started (${describeCode(previous.code)}; now ${describeCode(code)}): finish it with the code it started with, or ${newRun}`);
      }
    }
    for (const key of keys) {
      const { same, changed } = sameRecorded(previous[key], expected[key], [key]);
      if (changed) {
        const where = changed.now.path ?? changed.before.path;
        throw new UserError(
          `--resume: ${outDir}: ${fileLabel(changed.trail)}${where ? ` ${where}` : ""} changed since the run started (sha256 ${changed.before.sha256.slice(0, 12)}…, now ${changed.now.sha256.slice(0, 12)}…): resume with it as it was, or ${newRun}`,
        );
      }
      if (!same) {
        throw new UserError(`--resume: ${outDir} holds a run with ${key} ${JSON.stringify(previous[key] ?? null)}, not ${JSON.stringify(expected[key])}; resume with the same, or choose another --out`);
      }
    }
    const before = previous.questionHashes;
    if (ctx.identity && before) {
      const now = ctx.identity.questions;
      const skipped = (hash: string | undefined) => hash?.startsWith("skipped:") ?? false;
      const changed = Object.keys(before).filter((id) => id in now && now[id] !== before[id] && !skipped(now[id]) && !skipped(before[id]));
      if (changed.length) {
        throw new UserError(`--resume: ${outDir}: question${changed.length === 1 ? "" : "s"} ${shortList(changed)} changed since the run started (text, database, evidence or gold SQL): ${newRun}`);
      }
      const dropped = Object.keys(before).filter((id) => !(id in now));
      if (dropped.length) {
        throw new UserError(
          `--resume: ${outDir} holds ${Object.keys(before).length} questions and this selection leaves out ${dropped.length} of them (${shortList(dropped)}): a resume may add questions, never drop them; resume with the same or a larger --limit/--ids, or ${newRun}`,
        );
      }
    }
    if (ctx.identity && (!before || Object.keys(ctx.identity.questions).some((id) => !(id in before)))) {
      // More questions (or a run.json from before questions were recorded): recorded before any of them runs.
      const grown = { ...previous, ...Object.fromEntries((ctx.refresh ?? []).map((k) => [k, expected[k]])), questionHashes: { ...before, ...ctx.identity.questions } };
      writeAtomically(runFile, `${JSON.stringify(grown, null, 2)}\n`);
      return grown;
    }
    return previous;
  }
  const created = { runId: lazyCrypto().randomUUID().slice(0, 8), ...expected, ...identity, startedAt: new Date().toISOString() };
  writeAtomically(runFile, `${JSON.stringify(created, null, 2)}\n`);
  return created;
}

/** Writes `file` whole or not at all (a kill mid-write leaves the old one). */
function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

/**
 * Reads a JSON-lines file of finished work through `parse`. A kill can leave a half-written last line and a resumed
 * run may have repeated one: when the parsed lines differ from the file, the file is rewritten clean (atomically).
 */
export function readJsonLines<T>(file: string, parse: (text: string) => T[], serialize: (item: T) => string = (item) => JSON.stringify(item)): T[] {
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, "utf8");
  const items = parse(text);
  const clean = items.map((item) => `${serialize(item)}\n`).join("");
  if (clean !== text) writeAtomically(file, clean);
  return items;
}

/** The questions to run: `--ids` and `--limit` (counted in file order, skipped ones included, so a subset is stable). */
export function selectQuestions(bench: Benchmark, ids: string[] | undefined, limit: number | undefined) {
  const wanted = ids?.flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean);
  let questions = bench.questions;
  let skipped = bench.skipped;
  if (wanted?.length) {
    const known = new Set([...questions.map((q) => q.id), ...skipped.map((q) => q.id)]);
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length) throw new UserError(`--ids: no question with id ${unknown.slice(0, 5).join(", ")} in ${bench.name}`);
    const set = new Set(wanted);
    questions = questions.filter((q) => set.has(q.id));
    skipped = skipped.filter((q) => set.has(q.id));
  }
  if (limit !== undefined) {
    const keep = new Set(fileOrder([...questions, ...skipped]).slice(0, limit).map((q) => q.id));
    questions = questions.filter((q) => keep.has(q.id));
    skipped = skipped.filter((q) => keep.has(q.id));
  }
  return { questions, skipped };
}

/** Benchmark order: the questions' places in their file; without them numeric ids sort as numbers, others keep their order. */
export function fileOrder<T extends { id: string; position?: number | undefined }>(items: T[]): T[] {
  if (items.every((q) => q.position !== undefined)) return [...items].sort((a, b) => a.position! - b.position!);
  const numeric = items.every((q) => /^\d+$/.test(q.id));
  return numeric ? [...items].sort((a, b) => Number(a.id) - Number(b.id)) : items;
}

/** Runs tasks with at most `limit` in flight, starting none once `stop()` says so. */
export async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>, stop: () => boolean): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length && !stop()) {
      const item = items[next++]!;
      await task(item);
    }
  });
  await Promise.all(workers);
}

// The stop statuses live with the other exit statuses (core/exit.ts); re-exported for the run's callers.
export { isStopStatus, STOP_SIGNALS, type StopSignal } from "../core/exit.ts";
const stopSignals = Object.keys(STOP_SIGNALS) as StopSignal[];

/** Loops listening for stop signals now (`gracefulInterrupt`): while one is, the lock's handler leaves them the signal. */
let gracefulLoops = 0;

/**
 * While this process holds a lock and no loop over questions listens: a stop signal (before the loop starts, or while
 * the outputs are written) exits at once with its status, through `process.exit`, so the exit hook releases the lock
 * (a signal's default action would skip it and leave run.lock behind).
 */
const onSignalWhileLocked = (signal: StopSignal) => {
  if (gracefulLoops > 0) return;
  process.exit(STOP_SIGNALS[signal]);
};
let lockSignalsSet = false;
function watchSignalsWhileLocked(on: boolean): void {
  if (on === lockSignalsSet) return;
  lockSignalsSet = on;
  for (const signal of stopSignals) on ? process.on(signal, onSignalWhileLocked) : process.off(signal, onSignalWhileLocked);
}

/**
 * The first stop signal (Ctrl-C, SIGTERM, SIGHUP): `stopping()` turns true (start no new work, finish what is in
 * flight, write the outputs) and `status()` is that signal's exit status. A second one: quit at once with it. Call
 * `release()` when done.
 */
export function gracefulInterrupt(io: RunIO, command: string): { stopping: () => boolean; status: () => number | undefined; release: () => void } {
  let received: StopSignal | undefined;
  const onSignal = (signal: StopSignal) => {
    if (received) process.exit(STOP_SIGNALS[signal]);
    received = signal;
    const how = signal === "SIGINT" ? "Ctrl-C again to quit now" : `${signal} received; a second signal quits now`;
    io.stderr(`\nsqlmend ${command}: stopping after the work in flight (${how}; --resume continues the run)\n`);
  };
  gracefulLoops++;
  for (const signal of stopSignals) process.on(signal, onSignal);
  let released = false;
  return {
    stopping: () => received !== undefined,
    status: () => (received ? STOP_SIGNALS[received] : undefined),
    release: () => {
      if (released) return;
      released = true;
      gracefulLoops--;
      for (const signal of stopSignals) process.off(signal, onSignal);
    },
  };
}
