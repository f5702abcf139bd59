/**
 * Peak memory and time of scoring one question whose gold and prediction each return N rows (default 2 million):
 * the RSS of the whole process tree (this process + the executor's worker), sampled every 20 ms while it scores,
 * and each process's own peak (VmHWM) as an upper bound. Target: under 300 MB at 2 million rows. Linux (/proc).
 *
 * Then huge cells (issue 32), each pair scored by a whole `sqlmend score` process (the launcher and its workers, RSS
 * summed): a 100 MB text cell against an equal one (correct) and against one that differs in its last byte (wrong),
 * under both semantics, and 10,000 rows of 100 KB against themselves in another order; target under 500 MB.
 *
 *   npx tsx bench/score-memory.ts [--rows N] [--huge-only]
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
import { writeFileSync } from "node:fs";
import { distIsFresh } from "../bin/freshness.js";
import { buildDatabase, hugeCellStatements, runSampled, wideRowsStatements } from "./peak-rss.ts";

const { values } = parseArgs({ options: { rows: { type: "string", default: "2000000" }, "huge-only": { type: "boolean" } } });
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
if (!values["huge-only"]) {
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
}

// Huge cells through the launcher: what a user runs.
const TARGET_MB = 500;
if (!distIsFresh(ROOT)) console.log("note: dist/ is missing or older than the sources, so `sqlmend` runs them through tsx (more memory); run `npm run build` first");
const dbDir = path.join(dir, "dbs");
await buildDatabase(ROOT, path.join(dbDir, "huge.sqlite"), hugeCellStatements());
await buildDatabase(ROOT, path.join(dbDir, "wide.sqlite"), wideRowsStatements());
const pairs = [
  { label: "100 MB cell vs an equal one", db: "huge", gold: "SELECT t FROM huge WHERE id = 1", pred: "SELECT t FROM huge WHERE id = 3", expect: "correct" },
  { label: "100 MB cell vs one differing in the last byte", db: "huge", gold: "SELECT t FROM huge WHERE id = 1", pred: "SELECT t FROM huge WHERE id = 2", expect: "wrong" },
  { label: "(id, 100 MB cell) vs (cell, id), equal", db: "huge", gold: "SELECT id > 0, t FROM huge WHERE id = 1", pred: "SELECT t, id > 0 FROM huge WHERE id = 3", expect: "correct" },
  { label: "10,000 rows of 100 KB, in another order", db: "wide", gold: "SELECT id, t FROM wide", pred: "SELECT id, t FROM wide ORDER BY id DESC", expect: "correct" },
] as const;
console.log(`\nhuge cells, each pair scored by \`sqlmend score\` (one question), peak RSS of the launcher and its workers:`);
const sqlmend = path.join(ROOT, "bin", "sqlmend.js");
for (const semantics of ["bird", "spider"] as const) {
  for (const [n, pair] of pairs.entries()) {
    if (semantics === "bird" && n === 2) continue; // column order matters under BIRD's rule: not a pair of equals
    const questions = path.join(dir, `q${n}.jsonl`);
    writeFileSync(questions, `${JSON.stringify({ id: "q", question: "?", db_id: pair.db, gold: pair.gold })}\n`);
    const pred = path.join(dir, `p${n}.sql`);
    writeFileSync(pred, `${pair.pred}\n`);
    const r = await runSampled(process.execPath, [sqlmend, "score", "--questions", questions, "--db-dir", dbDir, "--pred", pred, "--semantics", semantics, "--json"], { cwd: dir });
    let verdict = `exit ${r.code}: ${r.stderr.trim().split("\n").at(-1)}`;
    try {
      const v = JSON.parse(r.stdout).verdicts[0];
      verdict = `${v.correct ? "correct" : "wrong"}${v.predError ? ` (${v.predError})` : ""}${v.tooLarge ? ` (too large: ${v.tooLarge})` : ""}`;
    } catch {
      // the exit line says why
    }
    console.log(
      `${semantics.padEnd(6)} ${pair.label.padEnd(48)} ${verdict.padEnd(8)} (expected ${pair.expect})  peak RSS ${r.peakMb.toFixed(0).padStart(4)} MB ` +
        `(target <= ${TARGET_MB} MB${r.peakMb <= TARGET_MB ? "" : ", MISSED"}; each process's own: ${r.processesMb.slice(0, 3).join(", ")} MB)  ${(r.ms / 1000).toFixed(1)} s`,
    );
  }
}
rmSync(dir, { recursive: true, force: true });
