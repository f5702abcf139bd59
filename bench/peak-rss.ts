/**
 * Peak resident memory of a command and every process it starts (the launcher and its SQL workers): the sum of their
 * VmRSS, sampled every 20 ms from /proc while it runs (Linux). Shared by bench/executor-memory.ts and
 * bench/score-memory.ts.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const rssKb = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0; // gone
  }
};

/** CPU ms (user + system) a process has used so far (its own: each descendant is sampled itself); 0 when gone. */
const cpuMs = (pid: number): number => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(f[11]) + Number(f[12])) * 10; // clock ticks of 10 ms
  } catch {
    return 0;
  }
};

/** The pid and all its descendants now. */
function tree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone
    }
  }
  const out: number[] = [];
  const visit = (pid: number) => {
    out.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return out;
}

export interface SampledRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** MB (2^20 bytes) */
  peakMb: number;
  ms: number;
  /** Each process's own peak (sampled), MB, largest first. */
  processesMb: number[];
  /** CPU ms of the tree: each process's last sampled figure (a process that ends between samples loses < 20 ms). */
  cpuMs: number;
  /**
   * Near the peak (read from /proc/PID/smaps_rollup when the sum last rose, at most every 250 ms): the tree's
   * proportional set size (a page mapped by several processes, the node binary's above all, divided among all of them,
   * in the tree or not) and its anonymous memory (heaps: what each process has of its own), MB; undefined where
   * smaps_rollup is not readable.
   */
  atPeak?: { pssMb: number; anonymousMb: number };
}

/** Pss and Anonymous of a process, kB (Linux's smaps_rollup); undefined when it is gone or unreadable. */
function rollupKb(pid: number): { pss: number; anonymous: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? NaN);
    const out = { pss: field("Pss"), anonymous: field("Anonymous") };
    return Number.isFinite(out.pss) && Number.isFinite(out.anonymous) ? out : undefined;
  } catch {
    return undefined;
  }
}

/** Runs the command and returns its output and the peak of its process tree's summed RSS. */
export function runSampled(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; onSpawn?: (pid: number) => void } = {}): Promise<SampledRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const { onSpawn, ...spawnOptions } = options;
    const child = spawn(command, args, { ...spawnOptions, stdio: ["ignore", "pipe", "pipe"] });
    if (child.pid !== undefined) onSpawn?.(child.pid);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (t: string) => (stdout = (stdout + t).slice(-200_000)));
    child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr = (stderr + t).slice(-20_000)));
    let peakKb = 0;
    let atPeak: SampledRun["atPeak"];
    let rollupAt = 0;
    const perPid = new Map<number, number>();
    const cpuPerPid = new Map<number, number>();
    const timer = setInterval(() => {
      if (child.pid === undefined) return;
      let sum = 0;
      const pids = tree(child.pid);
      for (const pid of pids) {
        const kb = rssKb(pid);
        sum += kb;
        perPid.set(pid, Math.max(perPid.get(pid) ?? 0, kb));
        cpuPerPid.set(pid, Math.max(cpuPerPid.get(pid) ?? 0, cpuMs(pid)));
      }
      if (sum > peakKb && performance.now() - rollupAt >= 250) {
        rollupAt = performance.now();
        const rollups = pids.map(rollupKb);
        if (rollups.every((r) => r !== undefined)) {
          atPeak = { pssMb: rollups.reduce((a, r) => a + r!.pss, 0) / 1024, anonymousMb: rollups.reduce((a, r) => a + r!.anonymous, 0) / 1024 };
        }
      }
      peakKb = Math.max(peakKb, sum);
    }, 20);
    child.on("error", reject);
    child.on("close", (code) => {
      clearInterval(timer);
      const processes = [...perPid.values()].filter((kb) => kb > 0).map((kb) => Math.round(kb / 1024)).sort((a, b) => b - a);
      resolve({ code, stdout, stderr, peakMb: peakKb / 1024, ms: performance.now() - started, processesMb: processes, cpuMs: [...cpuPerPid.values()].reduce((a, b) => a + b, 0), atPeak });
    });
  });
}

/** Builds a SQLite file in a child process (so building does not count toward anyone's peak): the statements in order. */
export function buildDatabase(root: string, file: string, statements: string[]): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const code = `const Database = require("better-sqlite3"); const db = new Database(${JSON.stringify(file)});
    for (const sql of ${JSON.stringify(statements)}) db.exec(sql); db.close();`;
  return runSampled(process.execPath, ["-e", code], { cwd: root }).then((r) => {
    if (r.code !== 0) throw new Error(`could not build ${file}: ${r.stderr}`);
  });
}

/** The huge-cell fixtures of issue 32: one 100 MB text cell (and a second that differs in its last byte), and 10,000 rows of 100 KB. */
export const HUGE_CELL_MB = 100;
export const hugeCellStatements = (mb = HUGE_CELL_MB): string[] => [
  "CREATE TABLE huge (id INTEGER PRIMARY KEY, t TEXT)",
  // hex(zeroblob(n)) is 2n characters of '0'; the two cells differ only in the last one.
  `INSERT INTO huge VALUES (1, substr(hex(zeroblob(${(mb * 1e6) / 2})), 2) || 'a')`,
  `INSERT INTO huge VALUES (2, substr(hex(zeroblob(${(mb * 1e6) / 2})), 2) || 'b')`,
  `INSERT INTO huge VALUES (3, substr(hex(zeroblob(${(mb * 1e6) / 2})), 2) || 'a')`,
];
export const wideRowsStatements = (rows = 10_000, kb = 100): string[] => [
  "CREATE TABLE wide (id INTEGER PRIMARY KEY, t TEXT)",
  `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${rows}) INSERT INTO wide SELECT i, hex(randomblob(${(kb * 1024) / 2})) FROM c`,
];
