import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { lazyCrypto } from "../tools/hash.ts";
import type { Benchmark } from "../state/question.ts";
import { SPLITS, type Split } from "../state/splits.ts";
import { type BenchmarkSource, loadSource, resolveBenchmarkDir } from "../tools/benchmarks/benchmark.ts";
import type { RunIO } from "./progress.ts";
import { firstLineOf, UsageError, UserError } from "../core/errors.ts";

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
 * and on exit. Returns a note when a stale lock was taken over.
 */
export function lockOutDir(outDir: string, command: string): { release: () => void; note?: string } {
  const file = path.resolve(outDir, LOCK_FILE);
  const mine = `${JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString(), command } satisfies LockOwner)}\n`;
  const create = () => {
    fs.writeFileSync(file, mine, { flag: "wx" });
    heldLocks.set(file, mine);
    if (!exitHookSet) {
      exitHookSet = true;
      process.on("exit", () => [...heldLocks.keys()].forEach(releaseLock));
    }
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
 * Locks `outDir` for this process (`lockOutDir`: a second run on the same folder refuses, naming the first), then
 * creates `outDir/run.json`, or with `resume` checks that the run there was started with the same `keys` (models,
 * settings, ...) and returns it; a directory holding a run is never reused without `resume`. `release()` frees the
 * lock (also freed on exit); `io` hears of a stale lock taken over.
 */
export function prepareOutDir<T extends Record<string, unknown>>(
  outDir: string,
  expected: T,
  resume: boolean,
  keys: (keyof T & string)[],
  ctx: { command: string; io?: RunIO } = { command: "run" },
): T & RunFileBase & { release: () => void } {
  fs.mkdirSync(outDir, { recursive: true });
  const lock = lockOutDir(outDir, ctx.command);
  if (lock.note) ctx.io?.stderr(`sqlmend ${ctx.command}: ${outDir}: ${lock.note}\n`);
  try {
    return { ...readOrCreateRun(outDir, expected, resume, keys), release: lock.release };
  } catch (error) {
    lock.release();
    throw error;
  }
}

function readOrCreateRun<T extends Record<string, unknown>>(outDir: string, expected: T, resume: boolean, keys: (keyof T & string)[]): T & RunFileBase {
  const runPath = path.join(outDir, RUN_FILE);
  if (fs.existsSync(runPath)) {
    if (!resume) throw new UserError(`${outDir} already holds a run: pass --resume to continue it, or choose another --out`);
    let previous: T & RunFileBase;
    try {
      previous = JSON.parse(fs.readFileSync(runPath, "utf8")) as T & RunFileBase;
    } catch (error) {
      throw new UserError(`${runPath}: unreadable (${firstLineOf(error)})`);
    }
    for (const key of keys) {
      const before = JSON.stringify(previous[key] ?? null);
      const now = JSON.stringify(expected[key]);
      if (before !== now) {
        throw new UserError(`--resume: ${outDir} holds a run with ${key} ${before}, not ${now}; resume with the same, or choose another --out`);
      }
    }
    return previous;
  }
  const runFile = { runId: lazyCrypto().randomUUID().slice(0, 8), ...expected, startedAt: new Date().toISOString() };
  fs.writeFileSync(runPath, `${JSON.stringify(runFile, null, 2)}\n`);
  return runFile;
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
  if (clean !== text) {
    const tmp = `${file}.tmp`;
    fs.writeFileSync(tmp, clean);
    fs.renameSync(tmp, file);
  }
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

/**
 * First Ctrl-C: `stopping()` turns true (start no new work, finish what is in flight, write the outputs). Second: quit
 * at once. Call `release()` when done.
 */
export function gracefulInterrupt(io: RunIO, command: string): { stopping: () => boolean; release: () => void } {
  let stopping = false;
  const onInterrupt = () => {
    if (stopping) process.exit(130);
    stopping = true;
    io.stderr(`\nsqlmend ${command}: stopping after the work in flight (Ctrl-C again to quit now; --resume continues the run)\n`);
  };
  process.on("SIGINT", onInterrupt);
  return { stopping: () => stopping, release: () => process.off("SIGINT", onInterrupt) };
}
