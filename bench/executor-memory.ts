/**
 * Time and memory of one large result: a million-row table read with a row cap (what models see) and in full (what
 * run() without maxRows returns; the scorer instead compares digests in the worker: bench/score-memory.ts), plus a
 * runaway query stopped at its limit.
 * Then huge cells (issue 32): a 100 MB text cell and 10,000 rows of 100 KB, the peak RSS of the whole process tree of
 * `sqlmend exec` (table and --json) and of one `sqlmend eval baseline` question (a scripted model on the local
 * server answers with the query), beside the 500 MB target, and whether the output says what the byte budget cut.
 * Run: npx tsx bench/executor-memory.ts [--rows N] [--huge-only]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { previewResult } from "../tools/format.ts";
import { fileURLToPath } from "node:url";
import { distIsFresh } from "../bin/freshness.js";
import { startOpenAIServer, TEST_MODEL_ID } from "../test/support/openai-server.ts";
import { buildDatabase, hugeCellStatements, runSampled, wideRowsStatements } from "./peak-rss.ts";

const { values } = parseArgs({ options: { rows: { type: "string", default: "1000000" }, "huge-only": { type: "boolean" } } });
const rows = Number(values.rows);
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-"));
const file = path.join(dir, "big.sqlite");
if (!values["huge-only"]) {
const db = new Database(file);
db.exec(`CREATE TABLE big (id INTEGER PRIMARY KEY, name TEXT, score REAL);
  WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${rows})
  INSERT INTO big SELECT i, 'name-' || i, i * 0.5 FROM c;`);
db.close();

const executor = createExecutor({ size: 2 });
const base = process.memoryUsage().rss;
console.log(`table: ${rows.toLocaleString()} rows, ${mib(fs.statSync(file).size)} on disk; parent rss before: ${mib(base)}`);

let t = performance.now();
const capped = await executor.run(file, "SELECT * FROM big", { maxRows: 20 });
if (!capped.ok) throw new Error(capped.message);
const preview = previewResult(capped, { maxRows: 10 });
console.log(`capped (maxRows 20): ${(performance.now() - t).toFixed(0)} ms, rowCount ${capped.rowCount.toLocaleString()}, rows kept ${capped.rows.length}, preview ${JSON.stringify(preview).length} chars; parent rss ${mib(process.memoryUsage().rss)}`);

t = performance.now();
const full = await executor.run(file, "SELECT * FROM big");
if (!full.ok) throw new Error(full.message);
console.log(`full (all rows):     ${(performance.now() - t).toFixed(0)} ms, rows ${full.rows.length.toLocaleString()}; parent rss ${mib(process.memoryUsage().rss)}`);

t = performance.now();
const runaway = await executor.run(file, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", { timeoutMs: 1000 });
console.log(`runaway query with a 1 s limit: ${runaway.ok ? "finished?!" : runaway.kind} after ${(performance.now() - t).toFixed(0)} ms`);
await executor.close();
}

// Huge cells: each command a process of its own, its peak RSS summed over the launcher and its SQL workers.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TARGET_MB = 500;
if (!distIsFresh(ROOT)) console.log("note: dist/ is missing or older than the sources, so `sqlmend` runs them through tsx (more memory); run `npm run build` first");
const huge = path.join(dir, "huge.sqlite");
const wide = path.join(dir, "wide.sqlite");
await buildDatabase(ROOT, huge, hugeCellStatements());
await buildDatabase(ROOT, wide, wideRowsStatements());
console.log(`\nhuge cells: ${mib(fs.statSync(huge).size)} (three 100 MB text cells), ${mib(fs.statSync(wide).size)} (10,000 rows of 100 KB) on disk`);
const sqlmend = path.join(ROOT, "bin", "sqlmend.js");
const line = (label: string, r: { code: number | null; peakMb: number; ms: number; processesMb: number[] }, said: string) =>
  console.log(
    `${label.padEnd(44)} peak RSS ${r.peakMb.toFixed(0).padStart(5)} MB  (target <= ${TARGET_MB} MB${r.peakMb <= TARGET_MB ? "" : ", MISSED"}; ` +
      `each process's own: ${r.processesMb.slice(0, 3).join(", ")} MB)  ${(r.ms / 1000).toFixed(1)} s, exit ${r.code}; ${said}`,
  );
const cutSaid = (out: string) => /cell[s]? longer than|rows past|"cut":/.exec(out)?.[0] ? `says: ${/(note: [^\n]*|"cut":"[^"]*")/.exec(out)?.[0] ?? "cut"}` : "no cut said";
for (const [label, db, sql, extra] of [
  ["exec, a 100 MB cell", huge, "SELECT id, t FROM huge WHERE id = 1", []],
  ["exec --json, a 100 MB cell", huge, "SELECT id, t FROM huge WHERE id = 1", ["--json"]],
  ["exec --max-rows 0, 10,000 rows of 100 KB", wide, "SELECT * FROM wide", ["--max-rows", "0"]],
  ["exec --max-rows 0 --json, 10,000 x 100 KB", wide, "SELECT * FROM wide", ["--max-rows", "0", "--json"]],
] as const) {
  const r = await runSampled(process.execPath, [sqlmend, "exec", "--db", db, ...extra, sql], { cwd: dir });
  line(label, r, cutSaid(r.stdout));
}

// One eval question per fixture: the scripted model answers with the query, whose gold is the same query.
const cases = [
  { id: "cell", db: "huge", sql: "SELECT id, t FROM huge WHERE id = 1" },
  { id: "rows", db: "wide", sql: "SELECT * FROM wide" },
];
const server = await startOpenAIServer({
  respond: (req) => {
    const q = cases.find((c) => (req.messages.at(-1)?.content ?? "").includes(`question ${c.id}`)) ?? cases[0]!;
    return { content: `\`\`\`sql\n${q.sql}\n\`\`\``, usage: { prompt_tokens: 100, completion_tokens: 10 } };
  },
});
const dbDir = path.join(dir, "dbs");
fs.mkdirSync(dbDir);
fs.renameSync(huge, path.join(dbDir, "huge.sqlite"));
fs.renameSync(wide, path.join(dbDir, "wide.sqlite"));
const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") };
for (const c of cases) {
  const questions = path.join(dir, `${c.id}.jsonl`);
  fs.writeFileSync(questions, `${JSON.stringify({ id: c.id, question: `question ${c.id}`, db_id: c.db, gold: c.sql })}\n`);
  const out = path.join(dir, `eval-${c.id}`);
  const r = await runSampled(process.execPath, [sqlmend, "eval", "baseline", "--questions", questions, "--db-dir", dbDir, "--out", out, "--cache", "off"], { cwd: dir, env });
  const record = fs.existsSync(path.join(out, "results.jsonl")) ? JSON.parse(fs.readFileSync(path.join(out, "results.jsonl"), "utf8").split("\n")[0]!) : {};
  const report = fs.existsSync(path.join(out, "report.md")) ? fs.readFileSync(path.join(out, "report.md"), "utf8") : "";
  line(`eval baseline, one question: ${c.id === "cell" ? "a 100 MB cell" : "10,000 x 100 KB"}`, r, `correct ${record.correct}, outcome ${JSON.stringify(record.outcome)}; report: ${/resultCutByBytes[^\n]*/.exec(report)?.[0] ?? "no cut counted"}${r.code ? `; ${r.stderr.trim().split("\n").at(-1)}` : ""}`);
}
await server.close();
fs.rmSync(dir, { recursive: true, force: true });
