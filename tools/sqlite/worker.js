// One child process of the executor pool (tools/sqlite/executor.ts). Plain ESM JavaScript so it
// runs under plain node without tsx. It answers {type:"run"} (a result with rows), {type:"compare"}
// (two queries compared here, only the verdict goes back) and {type:"batch"} (several comparisons)
// messages one at a time; the parent
// kills this whole process to stop a runaway query (better-sqlite3 has no interrupt).
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { writeSync } from "node:fs";
import { ResultDigest, digestsMatch, streamsMatch, unsafeNumber } from "./digest.js";
import { MAX_DQS_FIXES, rewriteForHint } from "./dqs.js";
import { KeptRows, MAX_CELL_BYTES, MAX_KEPT_BYTES, cellCappedSql, collectAfterHugeValues } from "./keep.js";

// Through require: the ESM loader would first scan the CommonJS module for its export names.
const require = createRequire(import.meta.url);
const Database = require("better-sqlite3");
/** The compiled addon, named directly: otherwise the first open runs the `bindings` package's search of many paths. */
const ADDON = (() => {
  try {
    const file = join(dirname(require.resolve("better-sqlite3/package.json")), "build", "Release", "better_sqlite3.node");
    return existsSync(file) ? { nativeBinding: file } : {};
  } catch {
    return {};
  }
})();

const ONLY =
  "only a single read-only SELECT/WITH/VALUES statement is allowed";
// SQLite result codes that mean the file, not the statement, is at fault.
const DATABASE_CODES = /^SQLITE_(NOTADB|CORRUPT|CANTOPEN|IOERR|PERM|AUTH|FULL|PROTOCOL|EMPTY|FORMAT|BUSY|LOCKED)/;
/** How long SQLite waits for another process's lock before SQLITE_BUSY (better-sqlite3's default: 5 s). */
const BUSY_TIMEOUT_MS = /^\d+$/.test(process.env.SQLMEND_BUSY_TIMEOUT_MS ?? "") ? Number(process.env.SQLMEND_BUSY_TIMEOUT_MS) : 5000;
const CACHE_SIZE = 8;
/**
 * Each open handle's page cache, KiB as SQLite's negative cache_size says (its default: 2 MiB): the pages freed when
 * a handle closes stay in this process's malloc heap, so CACHE_SIZE handles at 2 MiB kept a worker ~13 MB larger over
 * Spider train (bench/memory-flat.ts); 1 MiB saved as much as 256 KiB did there.
 */
const PAGE_CACHE_KIB = -1024;
/**
 * How much of each file SQLite reads through a memory map instead of read() calls: a scan then costs no system call and
 * no copy a page (a third of a heavy comparison's CPU went to the kernel: bench/score-heavy.ts). The mapped pages are
 * the OS's page cache, shared and reclaimable, but they show in this process's RSS: 32 MiB at most a file.
 */
const MMAP_BYTES = 32 << 20;

/** Open handles by path (LRU: Map keeps insertion order, the oldest is first). */
const handles = new Map();

// This process's main thread can be stuck in native code for as long as a query runs, so something else must end
// it if the parent dies. Where the parent could start us under `setpriv --pdeathsig KILL` (Linux), the kernel does
// (SQLMEND_ORPHAN_GUARD=pdeathsig; we only check that the parent did not die before the guard was set). Elsewhere a
// watchdog thread kills the process if we were reparented or a query outlived its deadline (the parent should have
// killed us already). The thread costs ~80 ms of CPU to start, as much as the rest of this process.
const deadline = new BigInt64Array(new SharedArrayBuffer(8));
if (process.env.SQLMEND_ORPHAN_GUARD === "pdeathsig") {
  if (String(process.ppid) !== process.env.SQLMEND_PARENT_PID) process.exit(1);
} else {
  // Loaded only here: under pdeathsig, node:worker_threads would be start-up time for nothing.
  const { Worker } = require("node:worker_threads");
  const watchdog = new Worker(
    `const { workerData } = require("node:worker_threads");
     const deadline = new BigInt64Array(workerData.buffer);
     setInterval(() => {
       const d = Number(Atomics.load(deadline, 0));
       if (process.ppid !== workerData.ppid || (d > 0 && Date.now() > d)) process.kill(process.pid, "SIGKILL");
     }, 250);`,
    { eval: true, workerData: { buffer: deadline.buffer, ppid: process.ppid } },
  );
  watchdog.unref();
}

const oneLine = (text) => String(text).replace(/\s+/g, " ").trim();

// Marks: before each query this process writes {job id, item, phase, start time} over the first 16 bytes of a file
// the parent shares with it (fd SQLMEND_MARK_FD), so the parent's clock counts from the start of the query that is
// running, and knows which one to blame when it stops us. A positioned write costs one system call and wakes nobody;
// the parent reads it only when a clock runs out.
const MARK_FD = Number(process.env.SQLMEND_MARK_FD) || -1;
const MARK = Buffer.alloc(16);
/**
 * The gold side's outcome, left in the mark file after the mark ({job, item, length, JSON}) before the prediction
 * runs: if the parent stops the prediction, it has the gold's outcome without running the gold again.
 */
const OUTCOME_AT = 16;
const OUTCOME_MAX = 4096;
/**
 * The outcome waits for the prediction's mark, which lies just before it in the file: one write for both (a system
 * call per query start is what marks cost; see mark()).
 */
let pendingOutcome = null;
function leaveOutcome(id, item, outcome) {
  pendingOutcome = null;
  if (MARK_FD < 0 || id === undefined) return;
  const json = Buffer.from(JSON.stringify(outcome));
  if (json.length > OUTCOME_MAX - 12) return; // the parent runs the gold again
  const record = Buffer.allocUnsafe(MARK.length + 12 + json.length);
  record.writeUInt32LE(id >>> 0, MARK.length);
  record.writeUInt32LE(item, MARK.length + 4);
  record.writeUInt32LE(json.length, MARK.length + 8);
  json.copy(record, MARK.length + 12);
  pendingOutcome = { id, item, record };
}

/**
 * A batch's finished comparisons, written after the gold's outcome ({job, item, length, JSON}, then a zero header
 * that ends the list): when the parent stops this process for a later comparison, or it dies, the parent still has
 * them (positioned writes; no message, no wake-up). Those finished within DONE_FLUSH_MS of the last write wait for
 * the next one (one system call for many quick comparisons): if this process is stopped meanwhile, the parent runs
 * those again, as it runs those not reached, and gets the same verdicts.
 */
const DONE_AT = OUTCOME_AT + OUTCOME_MAX;
const DONE_MAX = 1 << 20;
const DONE_FLUSH_MS = 20;
let doneOffset = 0;
/** @type {{ id: number, item: number, result: unknown }[]} finished, not written yet (serialized only when written) */
let doneWaiting = [];
let doneWrittenAt = 0;
function recordDone(id, item, result) {
  if (MARK_FD < 0 || id === undefined) return;
  doneWaiting.push({ id, item, result });
  if (performance.now() - doneWrittenAt > DONE_FLUSH_MS) writeDone();
}
/**
 * Writes the waiting records, then the zero header that ends the list. A batch that ends before the next write never
 * serializes its last records: its reply carries them.
 */
function writeDone() {
  doneWrittenAt = performance.now();
  if (!doneWaiting.length) return;
  const records = [];
  let bytes = 0;
  for (const { id, item, result } of doneWaiting) {
    const json = Buffer.from(JSON.stringify(result));
    if (doneOffset + bytes + 24 + json.length > DONE_MAX) continue; // the parent runs it again
    const record = Buffer.allocUnsafe(12 + json.length);
    record.writeUInt32LE(id >>> 0, 0);
    record.writeUInt32LE(item, 4);
    record.writeUInt32LE(json.length, 8);
    json.copy(record, 12);
    records.push(record);
    bytes += record.length;
  }
  doneWaiting = [];
  if (!records.length) return;
  const all = Buffer.concat([...records, Buffer.alloc(12)]);
  try {
    writeSync(MARK_FD, all, 0, all.length, DONE_AT + doneOffset);
    doneOffset += all.length - 12;
  } catch {
    // the parent runs them again
  }
}

/** Phases of a mark: a run()'s query, a comparison's gold or prediction, or the comparison itself. */
const PHASE = { run: 0, gold: 1, pred: 2, compare: 3 };
/** Beyond the parent's limit, the watchdog thread's own (the parent should have killed us already). */
const WATCHDOG_GRACE_MS = 3_000;

function mark(id, item, phase, timeoutMs) {
  const now = Date.now();
  Atomics.store(deadline, 0, BigInt(Math.ceil(now + (timeoutMs ?? 30_000) + WATCHDOG_GRACE_MS)));
  if (MARK_FD < 0 || id === undefined) return;
  MARK.writeUInt32LE(id >>> 0, 0);
  MARK.writeUInt16LE(item, 4);
  MARK[6] = phase;
  MARK.writeDoubleLE(now, 8);
  // The prediction's mark carries the gold's outcome after it (leaveOutcome), in the same write.
  let bytes = MARK;
  if (pendingOutcome && phase === PHASE.pred && pendingOutcome.id === id && pendingOutcome.item === item) {
    bytes = pendingOutcome.record;
    MARK.copy(bytes, 0);
  }
  pendingOutcome = null;
  try {
    writeSync(MARK_FD, bytes, 0, bytes.length, 0);
  } catch {
    // The parent's clock then counts from the job's start, as without marks.
  }
}

function databaseMessage(path, error) {
  const code = String(error?.code ?? "");
  if (code === "ENOENT") return `database file not found: ${path}`;
  if (code === "EISDIR") return `not a database file: ${path} (it is a directory)`;
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return `database is locked by another process: ${path}`;
  if (code.startsWith("SQLITE_NOTADB")) return `not a database file: ${path}`;
  if (code.startsWith("SQLITE_CORRUPT")) return `database file is corrupt: ${path} (${oneLine(error.message)})`;
  return `cannot read database ${path}: ${oneLine(error?.message ?? error)}`;
}

/**
 * Paths already checked during the current batch (path → file key): a batch's comparisons were queued together, so
 * one stat per file and batch is enough to notice a replaced file, and saves a stat per query on slow file systems.
 */
let checkedThisBatch = null;

function fileKey(path) {
  const known = checkedThisBatch?.get(path);
  if (known) return known;
  const stat = statSync(path); // throws ENOENT before SQLite can say something vaguer
  if (stat.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
  const key = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  checkedThisBatch?.set(path, key);
  return key;
}

/**
 * How long SQLite waits for another process's lock: at most half the query's time limit, so a held lock ends as
 * "database is locked" (which the scorer retries, then reports as not scored), never as a time-limit stop that names
 * no query and reads as a wrong answer.
 */
const busyWithin = (timeoutMs) => Math.max(0, Math.min(BUSY_TIMEOUT_MS, Math.floor((timeoutMs ?? 30_000) / 2)));

/** The cached handle of a file: {db, key, statements (SQL text → prepared statement, LRU), rewrites}; `timeoutMs`: the query's limit. */
function openEntry(path, timeoutMs, at) {
  // Opening a file reads its schema, which waits for a lock: on the clock of the side that opens it.
  if (at && handles.get(path)?.key !== fileKey(path)) mark(at.id, at.item, at.phase, at.timeoutMs);
  const entry = openEntryOnce(path, busyWithin(timeoutMs));
  const busy = busyWithin(timeoutMs);
  if (entry.busy !== busy) {
    entry.db.pragma(`busy_timeout = ${busy}`);
    entry.busy = busy;
  }
  return entry;
}

function openEntryOnce(path, busy) {
  const key = fileKey(path);
  const cached = handles.get(path);
  if (cached) {
    handles.delete(path);
    if (cached.key === key) {
      handles.set(path, cached);
      return cached;
    }
    cached.golds.clear();
    cached.db.close();
  }
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: busy, ...ADDON });
  try {
    db.pragma("query_only = ON");
    db.pragma("trusted_schema = OFF");
    db.pragma(`cache_size = ${PAGE_CACHE_KIB}`);
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
    // Reads the header and schema now, so a garbage file fails here as a database error.
    db.prepare("SELECT count(*) FROM sqlite_master").get();
  } catch (error) {
    db.close();
    throw error;
  }
  const entry = { db, key, busy, statements: new Map(), rewrites: new Map(), golds: new Map() };
  handles.set(path, entry);
  while (handles.size > CACHE_SIZE) {
    const [oldest, old] = handles.entries().next().value;
    handles.delete(oldest);
    old.golds.clear();
    old.db.close();
  }
  return entry;
}

/** Remembered per handle: a gold query is run once per prediction, and a prediction is often its gold's text. */
const STATEMENT_CACHE_SIZE = 64;

/** A prepared statement for the text, reused while the file is unchanged (a failed prepare is not cached). */
function prepareCached(entry, sql) {
  const hit = entry.statements.get(sql);
  if (hit) {
    entry.statements.delete(sql);
    entry.statements.set(sql, hit);
    return hit;
  }
  const stmt = entry.db.prepare(sql);
  remember(entry.statements, sql, stmt);
  return stmt;
}

/**
 * A prepared statement's column names, read once: stmt.columns() builds an object per column at every call (a sixth
 * of a quick comparison's time), and a statement's columns stay as they are while its handle lives (the handle is
 * dropped when the file changes).
 */
const COLUMN_NAMES = new WeakMap();
function columnNames(stmt) {
  let names = COLUMN_NAMES.get(stmt);
  if (!names) {
    names = stmt.columns().map((c) => c.name);
    COLUMN_NAMES.set(stmt, names);
  }
  return names;
}

/** Keeps at most STATEMENT_CACHE_SIZE entries, the newest. */
function remember(map, key, value) {
  map.set(key, value);
  if (map.size > STATEMENT_CACHE_SIZE) map.delete(map.keys().next().value);
}

function cell(value) {
  // A plain, exactly sized Uint8Array (Buffers from better-sqlite3 may be views on a larger pool).
  return value instanceof Uint8Array ? new Uint8Array(value) : value;
}

function classify(error, path, started) {
  const elapsedMs = performance.now() - started;
  const code = String(error?.code ?? "");
  if (error instanceof RangeError && /more than one statement/i.test(error.message))
    return { ok: false, kind: "rejected", message: `several statements in one string; ${ONLY}`, elapsedMs };
  if (error instanceof RangeError && /no statements/i.test(error.message))
    return { ok: false, kind: "rejected", message: `no SQL statement given; ${ONLY}`, elapsedMs };
  if (code.startsWith("SQLITE_READONLY"))
    return { ok: false, kind: "rejected", message: `the statement writes to the database; ${ONLY}`, elapsedMs };
  if (DATABASE_CODES.test(code)) return { ok: false, kind: "database", message: databaseMessage(path, error), elapsedMs };
  if (code.startsWith("SQLITE_")) return { ok: false, kind: "sql", message: oneLine(error.message), elapsedMs };
  return { ok: false, kind: "internal", message: oneLine(error?.message ?? error), elapsedMs };
}

/** The statement wrapped by cellCappedSql, prepared, or undefined if it does not prepare as the statement does. */
function cellCapped(entry, sql, ncols, maxCell) {
  if (ncols === 0) return undefined;
  try {
    const stmt = prepareCached(entry, cellCappedSql(sql, ncols, maxCell));
    if (!stmt.readonly || !stmt.reader || stmt.columns().length !== ncols) return undefined;
    stmt.safeIntegers(true);
    stmt.raw(true);
    return stmt;
  } catch {
    return undefined; // the original runs, its cells cut here instead
  }
}

function execute({ id, path, sql, maxRows, maxBytes, maxCellBytes, repeat, fingerprint, timeoutMs }) {
  mark(id, 0, PHASE.run, timeoutMs);
  const started = performance.now();
  let entry;
  try {
    entry = openEntry(path, timeoutMs);
  } catch (error) {
    return { ok: false, kind: "database", message: databaseMessage(path, error), elapsedMs: performance.now() - started };
  }
  try {
    const stmt = prepareCached(entry, sql);
    if (!stmt.readonly) return classify({ code: "SQLITE_READONLY" }, path, started);
    if (!stmt.reader)
      return { ok: false, kind: "rejected", message: `the statement returns no rows; ${ONLY}`, elapsedMs: performance.now() - started };
    stmt.safeIntegers(true);
    stmt.raw(true);
    const columns = columnNames(stmt);
    // Rows kept by count and by bytes (./keep.js): a huge cell or a wide result never crosses to the parent whole.
    const kept = new KeptRows(maxRows ?? Infinity, maxBytes ?? MAX_KEPT_BYTES, maxCellBytes ?? MAX_CELL_BYTES);
    // Without a fingerprint nothing needs whole cells: SQLite shortens them (unless the wrapping fails to prepare).
    const reader = fingerprint || repeat > 1 ? stmt : cellCapped(entry, sql, columns.length, kept.maxCellBytes) ?? stmt;
    const runTimesMs = [];
    // The fingerprint of the whole result, folded row by row: the rows beyond maxRows are never held.
    let digest = fingerprint ? new ResultDigest(columns.length, { semantics: "bird", fingerprint: true }) : undefined;
    let rowCount = 0;
    for (let run = 0; run < repeat; run++) {
      const t0 = performance.now();
      let count = 0;
      if (run === 0) {
        for (const row of reader.iterate()) {
          collectAfterHugeValues(); // the previous row's
          kept.add(row);
          if (digest && !digest.add(row)) digest = undefined; // too large to fingerprint; rows still counted
          count++;
        }
        rowCount = count;
      } else {
        for (const _ of stmt.iterate()) count++;
      }
      runTimesMs.push(performance.now() - t0);
    }
    const elapsedMs = runTimesMs.reduce((a, b) => a + b, 0) / runTimesMs.length;
    const rows = kept.rows;
    const result = { ok: true, columns, rows, rowCount, truncated: rowCount > rows.length || kept.cellsShortened > 0, elapsedMs };
    if (kept.cellsShortened) result.cellsShortened = kept.cellsShortened;
    if (kept.bytesCut) result.bytesCut = true;
    if (repeat > 1) result.runTimesMs = runTimesMs;
    if (digest) result.fingerprint = digest.fingerprint();
    return result;
  } catch (error) {
    return classify(error, path, started);
  }
}

// ---------------------------------------------------------------------------------------------
// Scratch databases (TS-SQL's test data): an in-memory database built from the real file's CREATE statements,
// loaded with model-written rows, queried, thrown away. The real file is only read for its schema.

const SCHEMA_SQL =
  "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND type IN ('table', 'index', 'view') " +
  "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, rowid";
const quoteId = (name) => `"${String(name).replace(/"/g, '""')}"`;

/** A JSON cell as SQLite should store it: whole numbers as INTEGER (not 3.0), booleans as 1/0. */
function bindable(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean") return value ? 1n : 0n;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`${value} is not a finite number`);
    return Number.isSafeInteger(value) ? BigInt(value) : value;
  }
  if (typeof value === "string") return value;
  throw new Error("cells must be numbers, strings, booleans or null");
}

/** Tables whose foreign keys point at others come after them, so rows can name their parents. */
function parentsFirst(db, names) {
  const order = [];
  const state = new Map();
  const visit = (name) => {
    if (state.get(name)) return; // done, or on the stack (a cycle: deferred checks cover it)
    state.set(name, 1);
    for (const fk of db.prepare(`SELECT "table" FROM pragma_foreign_key_list(?)`).raw().all(name)) {
      const parent = names.find((n) => n.toLowerCase() === String(fk[0]).toLowerCase());
      if (parent && parent !== name) visit(parent);
    }
    order.push(name);
  };
  for (const name of names) visit(name);
  return order;
}

function queryScratch(db, sql, maxRows) {
  const started = performance.now();
  try {
    const stmt = db.prepare(sql);
    if (!stmt.readonly) return { ok: false, kind: "rejected", message: `the statement writes to the database; ${ONLY}`, elapsedMs: performance.now() - started };
    if (!stmt.reader) return { ok: false, kind: "rejected", message: `the statement returns no rows; ${ONLY}`, elapsedMs: performance.now() - started };
    stmt.safeIntegers(true);
    stmt.raw(true);
    const columns = stmt.columns().map((c) => c.name);
    const rows = [];
    let rowCount = 0;
    const limit = maxRows ?? Infinity;
    for (const row of stmt.iterate()) {
      if (rowCount < limit) rows.push(row.map(cell));
      rowCount++;
    }
    return { ok: true, columns, rows, rowCount, truncated: rowCount > rows.length, elapsedMs: performance.now() - started };
  } catch (error) {
    return classify(error, ":memory:", started);
  }
}

function scratch({ path, tables, queries, maxRows }) {
  const started = performance.now();
  let statements;
  try {
    statements = openEntry(path).db.prepare(SCHEMA_SQL).raw().all();
  } catch (error) {
    return { ok: false, kind: "database", message: databaseMessage(path, error), elapsedMs: performance.now() - started };
  }
  const db = new Database(":memory:", ADDON);
  try {
    db.pragma("foreign_keys = ON");
    db.pragma("trusted_schema = OFF");
    const skipped = [];
    for (const [type, name, sql] of statements) {
      try {
        db.exec(sql);
      } catch (error) {
        skipped.push(`${type} ${name}: ${oneLine(error.message)}`); // e.g. a virtual table whose module is missing
      }
    }
    const real = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").raw().all().map((r) => r[0]);
    const byLower = new Map(real.map((n) => [n.toLowerCase(), n]));
    const errors = [];
    const loaded = {};
    const given = new Map(); // real table name -> rows
    for (const [name, rows] of Object.entries(tables ?? {})) {
      const table = byLower.get(name.toLowerCase());
      if (!table) errors.push(`table ${name}: no such table in the schema (tables: ${real.join(", ")})`);
      else if (!Array.isArray(rows)) errors.push(`table ${table}: rows must be an array of objects`);
      else given.set(table, rows);
    }
    // Queries see the rows inside one transaction that is rolled back: deferred foreign keys allow any order of
    // insertion and cycles, and are checked explicitly below.
    db.exec("BEGIN");
    db.pragma("defer_foreign_keys = ON");
    const rowIndex = new Map(); // table -> rowid -> row number
    for (const table of parentsFirst(db, [...given.keys()])) {
      const columns = new Map(db.prepare("SELECT name FROM pragma_table_info(?)").raw().all(table).map((r) => [String(r[0]).toLowerCase(), r[0]]));
      const rowids = new Map();
      rowIndex.set(table, rowids);
      loaded[table] = 0;
      given.get(table).forEach((row, i) => {
        const where = `${table} row ${i + 1}`;
        if (!row || typeof row !== "object" || Array.isArray(row)) return errors.push(`${where}: not an object of column values`);
        const keys = Object.keys(row);
        const unknown = keys.filter((k) => !columns.has(k.toLowerCase()));
        if (unknown.length) return errors.push(`${where}: no such column: ${unknown.join(", ")}`);
        try {
          const values = keys.map((k) => bindable(row[k]));
          const sql = keys.length
            ? `INSERT INTO ${quoteId(table)} (${keys.map((k) => quoteId(columns.get(k.toLowerCase()))).join(", ")}) VALUES (${keys.map(() => "?").join(", ")})`
            : `INSERT INTO ${quoteId(table)} DEFAULT VALUES`;
          const info = db.prepare(sql).run(...values);
          rowids.set(String(info.lastInsertRowid), i + 1);
          loaded[table]++;
        } catch (error) {
          errors.push(`${where}: ${oneLine(error.message)}`);
        }
      });
    }
    // TS-SQL review fix: dropping a row can orphan its own children, so check again until nothing is left
    // (bounded: each pass deletes at least one row, or stops).
    for (let pass = 0; pass < 20; pass++) {
      const broken = db.prepare("PRAGMA foreign_key_check").raw().all();
      if (!broken.length) break;
      let deleted = 0;
      for (const [table, rowid, parent] of broken) {
        const number = rowIndex.get(table)?.get(String(rowid));
        errors.push(`${table} row ${number ?? `rowid ${rowid}`}: FOREIGN KEY constraint failed (no matching row in ${parent})`);
        // Queries see only rows that satisfy the schema.
        if (rowid !== null) {
          try {
            if (db.prepare(`DELETE FROM ${quoteId(table)} WHERE rowid = ?`).run(rowid).changes) {
              loaded[table]--;
              deleted++;
            }
          } catch {
            // WITHOUT ROWID: the error above still reports it
          }
        }
      }
      if (!deleted) break;
    }
    const results = (queries ?? []).map((sql) => queryScratch(db, sql, maxRows));
    return { ok: true, loaded, errors, skipped, results, elapsedMs: performance.now() - started };
  } catch (error) {
    return { ok: false, kind: "internal", message: oneLine(error?.message ?? error), elapsedMs: performance.now() - started };
  } finally {
    db.close();
  }
}

process.on("message", (msg) => {
  if (msg?.type !== "scratch") return;
  Atomics.store(deadline, 0, BigInt(Math.ceil(Date.now() + msg.deadlineMs)));
  let result;
  try {
    result = scratch(msg);
  } catch (error) {
    result = { ok: false, kind: "internal", message: oneLine(error?.message ?? error), elapsedMs: 0 };
  }
  Atomics.store(deadline, 0, 0n);
  process.send({ type: "result", id: msg.id, result });
});
/**
 * One side of a comparison: its outcome without rows and the SQL actually run, and its rows folded into a digest
 * (./digest.js; they are never held). Double-quoted literals are rewritten and run again, as the parent's run() does.
 */
function runSide(path, sql, needs, at) {
  let entry;
  try {
    entry = openEntry(path, at.timeoutMs, at);
  } catch (error) {
    return { outcome: { ok: false, kind: "database", message: databaseMessage(path, error), elapsedMs: 0 } };
  }
  // A text seen before on this file starts from its rewriting: the same error would come back.
  let current = entry.rewrites.get(sql) ?? sql;
  let side = runOn(entry, path, current, needs, at);
  for (let fixes = 0; fixes < MAX_DQS_FIXES && !side.outcome.ok && side.outcome.kind === "sql"; fixes++) {
    const rewritten = rewriteForHint(current, side.outcome.message);
    if (rewritten === undefined) break;
    current = rewritten;
    side = runOn(entry, path, current, needs, at);
  }
  // Here, not in runOn: its frame may still hold its last row.
  collectAfterHugeValues();
  if (current !== sql) remember(entry.rewrites, sql, current);
  if (current !== sql) side.outcome.sql = current; // the parent knows the text it sent
  return side;
}

/** Runs a statement on an open handle: its outcome without rows, and the digest of its rows. */
function runOn(entry, path, sql, needs, at) {
  mark(at.id, at.item, at.phase, at.timeoutMs);
  const started = performance.now();
  try {
    const stmt = prepareCached(entry, sql);
    if (!stmt.readonly) return { outcome: classify({ code: "SQLITE_READONLY" }, path, started) };
    if (!stmt.reader)
      return { outcome: { ok: false, kind: "rejected", message: `the statement returns no rows; ${ONLY}`, elapsedMs: performance.now() - started } };
    const columns = columnNames(stmt);
    // BIRD's set takes 1 and 1.0 as one value (digest.js hashes both as the integer), so its rows may come as doubles:
    // no BigInt per integer cell (a third of a quick query's time). A double past 2^53 may be an INTEGER that lost
    // digits: the side then runs again with BigInts, on a clock of its own (mark), as if it had run so at first.
    // Spider's rule tells 1 from 1.0 only where it sorts a row's values (unorder_row): a one-column result reads as
    // doubles too.
    let exact = needs.semantics !== "bird" && columns.length > 1;
    let t0 = performance.now();
    let digest;
    for (;;) {
      stmt.safeIntegers(exact);
      stmt.raw(true);
      digest = new ResultDigest(columns.length, needs);
      unsafeNumber.seen = false;
      // Past the digest's cap, stop reading: the side is too large to compare, whatever follows. Cells are hashed whole
      // (no verdict from a cut cell), and a huge one's garbage collected before the next row.
      for (const row of stmt.iterate()) {
        collectAfterHugeValues();
        if (!digest.add(row) || (unsafeNumber.seen && !exact)) break;
      }
      if (exact || !unsafeNumber.seen) break;
      exact = true;
      mark(at.id, at.item, at.phase, at.timeoutMs);
      t0 = performance.now();
    }
    digest.seal();
    const rowCount = digest.streamCut ? digest.seen + 1 : digest.seen;
    return { outcome: { ok: true, columns, rowCount, truncated: Boolean(digest.tooLarge), elapsedMs: performance.now() - t0 }, digest };
  } catch (error) {
    return { outcome: classify(error, path, started) };
  }
}

/** Rows a side at most for a comparison without a mark of its own (the permutation search then stays in milliseconds). */
const SMALL_COMPARISON = 64;

/**
 * Gold digests kept for the next question with the same gold on the same file (Spider's dev set asks 972 questions
 * of 533 gold queries): a gold is a fixed query over a file that has not changed (the handle is dropped when it does),
 * so its result is too. Only results that ran, at most GOLD_CACHE_ROWS rows, GOLD_CACHE_BYTES of hashes in all
 * (oldest dropped first); a gold whose text calls random() is always run. A digest is reused only under the same
 * rule (semantics, order): the comparisons read it and never change what they read again.
 */
const GOLD_CACHE_ROWS = 10_000;
const GOLD_CACHE_BYTES = 32 << 20;
/** @type {{ golds: Map<string, unknown>, key: string, bytes: number }[]} every cached digest, oldest first: its handle's map and key */
const goldOrder = [];
let goldBytes = 0;
function goldSide(path, sql, needs, at) {
  let entry;
  try {
    entry = openEntry(path, at.timeoutMs, at);
  } catch {
    return runSide(path, sql, needs, at);
  }
  const key = `${needs.semantics}|${needs.orderMatters ? 1 : 0}|${needs.maxRows ?? ""}|${sql}`;
  const hit = entry.golds.get(key);
  if (hit) return hit;
  const side = runSide(path, sql, needs, at);
  const d = side.digest;
  if (side.outcome.ok && d && !d.tooLarge && d.rows <= GOLD_CACHE_ROWS && !/random/i.test(sql)) {
    const bytes = 64 + d.rows * 8 * (2 + (d.cells ? d.ncols : 0));
    const kept = { outcome: side.outcome, digest: d, bytes };
    entry.golds.set(key, kept);
    goldOrder.push({ golds: entry.golds, key, bytes });
    goldBytes += bytes;
    while (goldBytes > GOLD_CACHE_BYTES && goldOrder.length) {
      const old = goldOrder.shift();
      old.golds.delete(old.key);
      goldBytes -= old.bytes;
    }
  }
  return side;
}

/** Runs gold and prediction and compares them here: only the verdict goes back to the parent. */
function compare({ path, pred, gold, semantics, orderMatters, fingerprint, timeoutMs, maxRows }, id, item = 0) {
  const at = (phase) => ({ id, item, phase, timeoutMs });
  const g = goldSide(path, gold, { semantics, orderMatters, maxRows }, at(PHASE.gold));
  leaveOutcome(id, item, g.outcome);
  const p = runSide(path, pred, { semantics, orderMatters, fingerprint, maxRows }, at(PHASE.pred));
  const result = { pred: p.outcome, gold: g.outcome, correct: false };
  if (g.digest && p.digest) {
    const tooLarge = [g.digest.tooLarge && `gold: ${g.digest.tooLarge}`, p.digest.tooLarge && `prediction: ${p.digest.tooLarge}`].filter(Boolean);
    // Past the cap, identical results still compare (streamed); anything else stays too large to tell.
    if (tooLarge.length && streamsMatch(p.digest, g.digest, semantics, { orderMatters })) {
      result.correct = true;
      result.streamed = `${tooLarge.join("; ")}: compared whole by a streamed digest (identical)`;
    } else if (tooLarge.length) result.tooLarge = tooLarge.join("; ");
    else {
      // Comparing results this small takes microseconds, whatever the rule: counted on the prediction's clock
      // rather than paying a mark (a system call) for it.
      if (g.digest.rows > SMALL_COMPARISON || p.digest.rows > SMALL_COMPARISON) mark(id, item, PHASE.compare, timeoutMs);
      result.correct = digestsMatch(p.digest, g.digest, semantics, { orderMatters });
    }
  }
  if (fingerprint && p.digest && !p.digest.tooLarge) result.fingerprint = p.digest.fingerprint();
  return result;
}

/**
 * VES timing as BIRD's evaluation_ves.py times — each run on a new connection, the clock around `cursor.execute` only
 * (the statement prepared and stepped to its first row; the connect and the fetch not timed) — made stable on a busy
 * machine: the queries alternate within and across rounds (ABBA: a round's order reversed the next round), and each
 * timed run is the fastest of `REPEATS_PER_RUN` runs on fresh connections, so a run the OS preempted (milliseconds
 * against a query's microseconds) never stands for the query. One untimed round first; `budgetMs` ends the rounds
 * early once `MIN_ROUNDS` are done (slow queries: the official 100 rounds would take minutes).
 */
const REPEATS_PER_RUN = 3;
const MIN_ROUNDS = 10;
/** A run slower than this is timed once per round: preemption is noise at that scale, and repeats would cost seconds. */
const REPEAT_BELOW_MS = 50;

function timeQueries({ id, path, queries, iterations, timeoutMs, budgetMs }) {
  try {
    fileKey(path);
  } catch (error) {
    return { ok: false, kind: "database", message: databaseMessage(path, error), elapsedMs: 0 };
  }
  const timesMs = queries.map(() => []);
  const repeats = queries.map(() => REPEATS_PER_RUN);
  /** One timed run of query q on a new connection, or a failure. */
  const once = (q) => {
    mark(id, q, PHASE.run, timeoutMs);
    const started = performance.now();
    let db;
    try {
      db = new Database(path, { readonly: true, fileMustExist: true, timeout: busyWithin(timeoutMs), ...ADDON });
      db.pragma("query_only = ON");
      const t0 = performance.now();
      const stmt = db.prepare(queries[q]);
      if (!stmt.readonly) return classify({ code: "SQLITE_READONLY" }, path, started);
      if (!stmt.reader) return { ok: false, kind: "rejected", message: `the statement returns no rows; ${ONLY}`, elapsedMs: 0 };
      stmt.raw(true);
      const rows = stmt.iterate();
      rows.next();
      const elapsed = performance.now() - t0;
      rows.return?.();
      return elapsed;
    } catch (error) {
      return classify(error, path, started);
    } finally {
      db?.close();
    }
  };
  const started = performance.now();
  for (let round = -1; round < iterations; round++) {
    if (round >= MIN_ROUNDS && budgetMs && performance.now() - started > budgetMs) break;
    const order = queries.map((_, q) => q);
    if (round % 2 === 1) order.reverse();
    for (const q of order) {
      let best = Infinity;
      for (let k = 0; k < (round < 0 ? 1 : repeats[q]); k++) {
        const t = once(q);
        if (typeof t !== "number") return t;
        best = Math.min(best, t);
      }
      if (round < 0 && best > REPEAT_BELOW_MS) repeats[q] = 1;
      if (round >= 0) timesMs[q].push(best);
    }
  }
  return { ok: true, timesMs };
}

/**
 * Sends the comparisons done so far after a slow stretch, so that the parent, if it must stop this process for a
 * later one, has them (the marks say which one it stopped).
 */
const PROGRESS_AFTER_MS = 500;

function compareBatch(msg) {
  let lastSent = performance.now();
  let sent = 0;
  checkedThisBatch = new Map();
  doneOffset = 0;
  doneWaiting = [];
  doneWrittenAt = performance.now();
  try {
    const results = [];
    msg.items.forEach((item, i) => {
      results.push(compare(item, msg.id, i));
      recordDone(msg.id, i, results[i]);
      const now = performance.now();
      if (now - lastSent > PROGRESS_AFTER_MS && i + 1 < msg.items.length) {
        lastSent = now;
        process.send({ type: "progress", id: msg.id, from: sent, results: results.slice(sent) });
        sent = results.length;
      }
    });
    return results;
  } finally {
    checkedThisBatch = null;
  }
}

process.on("message", (msg) => {
  if (msg?.type !== "run" && msg?.type !== "compare" && msg?.type !== "batch" && msg?.type !== "time") return;
  Atomics.store(deadline, 0, BigInt(Math.ceil(Date.now() + msg.deadlineMs)));
  let result;
  try {
    if (msg.type === "batch") result = { results: compareBatch(msg) };
    else if (msg.type === "time") result = timeQueries(msg);
    else result = msg.type === "compare" ? compare(msg, msg.id) : execute(msg);
    collectAfterHugeValues(); // a huge last row of execute()'s, once its frame is gone
  } catch (error) {
    result = { ok: false, kind: "internal", message: oneLine(error?.message ?? error), elapsedMs: 0 };
  }
  Atomics.store(deadline, 0, 0n);
  process.send({ type: "result", id: msg.id, result });
});
// The parent went away (it exited or closed the channel): nothing left to do.
process.on("disconnect", () => process.exit(0));
process.send({ type: "ready" });
