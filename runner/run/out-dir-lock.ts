import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { firstLineOf, UserError } from "../../core/errors.ts";
import { opt, optionUserError } from "../../core/config.ts";
import { watchSignalsWhileLocked } from "./stop-signals.ts";

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
    throw optionUserError`${outDir} is being written by ${who}: wait for it or stop it, or choose another ${opt("out")}${owner && owner.host !== os.hostname() ? `; if it no longer runs, delete ${file}` : ""}`;
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
