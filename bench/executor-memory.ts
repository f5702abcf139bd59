/**
 * Time and memory of one large result: a million-row table read with a row cap (what models see) and in full (what
 * run() without maxRows returns; the scorer instead compares digests in the worker: bench/score-memory.ts), plus a
 * runaway query stopped at its limit.
 * Run: npx tsx bench/executor-memory.ts [--rows N]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { previewResult } from "../tools/format.ts";

const { values } = parseArgs({ options: { rows: { type: "string", default: "1000000" } } });
const rows = Number(values.rows);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-"));
const file = path.join(dir, "big.sqlite");
const db = new Database(file);
db.exec(`CREATE TABLE big (id INTEGER PRIMARY KEY, name TEXT, score REAL);
  WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${rows})
  INSERT INTO big SELECT i, 'name-' || i, i * 0.5 FROM c;`);
db.close();
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
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
fs.rmSync(dir, { recursive: true, force: true });
