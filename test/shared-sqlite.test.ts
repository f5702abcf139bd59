import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const work = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-shared-sqlite-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

interface Opened {
  file: string;
  error?: string;
  warnings: string[];
}

/** `children` processes each open the same `rounds` new files at the same moments; every open they report. */
async function race(kind: "responses" | "memory" | "checkpoints", children: number, rounds: number): Promise<Opened[]> {
  const dir = fs.mkdtempSync(path.join(work, `${kind}-`));
  const files = Array.from({ length: rounds }, (_, round) => path.join(dir, `file-${round}.sqlite`));
  // Far enough ahead that every child has loaded its modules before the first round.
  const startsAt = Date.now() + 4000;
  const runs = Array.from(
    { length: children },
    () =>
      new Promise<Opened[]>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "test/support/open-race.ts"), kind, String(startsAt), ...files], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        let err = "";
        child.stdout.on("data", (d: Buffer) => (out += d.toString()));
        child.stderr.on("data", (d: Buffer) => (err += d.toString()));
        child.on("exit", (code) => (code === 0 ? resolve(out.trim().split("\n").map((line) => JSON.parse(line) as Opened)) : reject(new Error(`child exited ${code}: ${err}`))));
      }),
  );
  const opened = (await Promise.all(runs)).flat();
  expect(opened).toHaveLength(children * rounds);
  // Nothing set aside: a file another process is creating is busy, never damaged.
  expect(fs.readdirSync(dir).filter((name) => name.includes("damaged"))).toEqual([]);
  return opened;
}

// Four processes creating one new file at once race on the switch to WAL and on CREATE TABLE, where SQLite answers
// "database is locked" at once rather than waiting. Before the shared opener, about one open in ten failed: the
// response cache then moved the other process's live file aside as "damaged" (CI saw it) and ran without a cache.
describe("several processes opening one new SQLite file at once", () => {
  it("the response cache: every process opens it, no warning, nothing set aside, one reply stored", { timeout: 60_000 }, async () => {
    const opened = await race("responses", 4, 15);
    expect(opened.filter((o) => o.error || o.warnings.length)).toEqual([]);
    // Each file is a WAL database holding the one reply its four writers raced to store (the first one wins).
    for (const file of new Set(opened.map((o) => o.file))) {
      const db = new Database(file, { readonly: true });
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(db.prepare("SELECT count(*) FROM responses").pluck().get()).toBe(1);
      db.close();
    }
  });

  it("a Memo-SQL memory and the checkpoint file: every process opens them, no error", { timeout: 60_000 }, async () => {
    const [memory, checkpoints] = await Promise.all([race("memory", 3, 10), race("checkpoints", 3, 10)]);
    expect(memory.filter((o) => o.error)).toEqual([]);
    expect(checkpoints.filter((o) => o.error || o.warnings.length)).toEqual([]);
  });
});
