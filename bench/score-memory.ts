/**
 * Peak memory and time of scoring one question whose gold and prediction each return N rows (default 2 million):
 * the RSS of the whole process tree (this process + the executor's worker), sampled every 20 ms while it scores,
 * and each process's own peak (VmHWM) as an upper bound. Target: under 300 MB at 2 million rows. Linux (/proc).
 *
 *   npx tsx bench/score-memory.ts [--rows N]
 *
 * The database is built by a child process first, so building it does not count. Writes only to a temp directory.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { Question } from "../state/question.ts";
import { scoreAll } from "../tools/benchmarks/score.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";

const { values } = parseArgs({ options: { rows: { type: "string", default: "2000000" } } });
const rows = Number(values.rows);
/**
 * Gold returns (id, name, score) or (id, name); the prediction the same rows in another order, columns swapped for
 * Spider (its rule allows that, so it must search the column permutations, keeping a hash of every cell).
 */
const CASES = [
  { semantics: "bird", gold: "SELECT id, name, score FROM big", pred: "SELECT id, name, score FROM big ORDER BY id DESC" },
  { semantics: "spider", gold: "SELECT id, name FROM big", pred: "SELECT name, id FROM big ORDER BY id DESC" },
  { semantics: "spider", gold: "SELECT id, name, score FROM big", pred: "SELECT name, id, score FROM big ORDER BY id DESC" },
] as const;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const dir = mkdtempSync(path.join(os.tmpdir(), "sqlmend-score-memory-"));
const file = path.join(dir, "big.sqlite");
// Built in a child: better-sqlite3's inserts would otherwise raise this process's own peak.
const build = spawnSync(
  process.execPath,
  [
    "--input-type=module",
    "-e",
    `import Database from "better-sqlite3";
     const db = new Database(${JSON.stringify(file)});
     db.exec("CREATE TABLE big (id INTEGER PRIMARY KEY, name TEXT, score REAL)");
     db.exec("WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${rows}) INSERT INTO big SELECT i, 'name-' || i, i * 0.5 FROM c");
     db.close();`,
  ],
  { cwd: ROOT, stdio: "inherit" },
);
if (build.status !== 0) throw new Error("could not build the database");

const kb = (pid: number, field: "VmRSS" | "VmHWM"): number => {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0; // the process is gone
  }
};
const mb = (k: number) => `${(k / 1024).toFixed(0)} MB`;

console.log(`rows per side: ${rows.toLocaleString("en")}; cpus: ${os.availableParallelism()}`);
for (const { semantics, gold, pred } of CASES) {
  const executor = createExecutor({ size: 1 });
  await executor.run(file, "SELECT 1"); // the worker is up
  const question: Question = { id: "big", dbId: "big", dbPath: file, question: "?", evidence: "", goldSql: gold };
  let peakTree = 0;
  const sample = () => {
    const pids = [process.pid, ...executor.workerPids()];
    peakTree = Math.max(peakTree, pids.reduce((sum, pid) => sum + kb(pid, "VmRSS"), 0));
  };
  const timer = setInterval(sample, 20);
  const started = performance.now();
  const report = await scoreAll([question], new Map([["big", pred]]), { executor, semantics, timeoutMs: 600_000 });
  const elapsed = performance.now() - started;
  sample();
  clearInterval(timer);
  const hwm = kb(process.pid, "VmHWM") + executor.workerPids().reduce((sum, pid) => sum + kb(pid, "VmHWM"), 0);
  const v = report.verdicts[0]!;
  console.log(
    `${semantics}, ${gold.split(" FROM")[0]!.replace("SELECT ", "").split(",").length} columns: ${(elapsed / 1000).toFixed(1)} s, verdict ${v.correct ? "correct" : "wrong"}${v.tooLarge ? ` (too large: ${v.tooLarge})` : ""}` +
      `${v.predError ? ` (${v.predError})` : ""}; peak RSS of the tree (sampled, parent + worker): ${mb(peakTree)}; ` +
      `sum of each process's own peak: ${mb(hwm)} (parent ${mb(kb(process.pid, "VmHWM"))})`,
  );
  await executor.close();
}
rmSync(dir, { recursive: true, force: true });
