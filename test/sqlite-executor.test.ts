import { fork, spawn } from "node:child_process";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTable, previewResult } from "../tools/format.ts";
import { createExecutor, getSharedExecutor, prestartWorkers } from "../tools/sqlite/executor.ts";
import { screenStatement } from "../tools/sqlite/screen.ts";
import type { ExecResult, ExecSuccess } from "../tools/sqlite/types.ts";
import { makeDb, makeTempDir, removeTempDir, sha256File } from "./support/fixtures.ts";

const RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c";

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function ok(result: ExecResult): ExecSuccess {
  if (!result.ok) throw new Error(`expected success, got ${result.kind}: ${result.message}`);
  return result;
}

/** Exited, or a zombie waiting for an init process that may not reap it. */
const isGone = (pid: number): boolean => {
  if (!isAlive(pid)) return true;
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
};

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

let dir: string;
let db: string;
const executor = createExecutor({ size: 2 });

beforeAll(() => {
  dir = makeTempDir();
  db = makeDb(
    dir,
    "fixture.sqlite",
    `CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL);
     INSERT INTO t (name, score) VALUES ('a', 1.5), ('b', NULL), ('c', 3.0);
     CREATE TABLE big (n INTEGER);
     WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 1000) INSERT INTO big SELECT n FROM s;`,
  );
});

afterAll(async () => {
  await executor.close();
  removeTempDir(dir);
});

describe("refusals", () => {
  const hostile = [
    "DROP TABLE t",
    "DELETE FROM t",
    "UPDATE t SET name = 'x'",
    "INSERT INTO t (name) VALUES ('x')",
    "REPLACE INTO t (id, name) VALUES (1, 'x')",
    "CREATE TABLE u (a)",
    "CREATE TEMP TABLE u (a)",
    "ALTER TABLE t ADD COLUMN z",
    "ATTACH DATABASE 'other.sqlite' AS other",
    "DETACH DATABASE main",
    "PRAGMA journal_mode=WAL",
    "PRAGMA user_version=5",
    "PRAGMA user_version",
    "VACUUM",
    `VACUUM INTO '${"/tmp/sqlmend-vacuum-copy.sqlite"}'`,
    "SELECT load_extension('x')",
    'SELECT "load_extension"(\'x\')',
    "SELECT 1; DROP TABLE t",
    "SELECT 1; SELECT 2",
    "WITH x AS (SELECT 1) DELETE FROM t",
    "WITH x AS (SELECT 1) INSERT INTO t (name) SELECT 'y' FROM x",
    "BEGIN",
    "COMMIT",
    "SAVEPOINT s",
    "ANALYZE",
    "REINDEX",
    "EXPLAIN SELECT 1",
    "  -- comment\n /* block */ delete from t",
    "",
    "   ;  ",
  ];

  it.each(hostile)("refuses %j with a one-line reason", async (sql) => {
    const result = await executor.run(db, sql);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.kind).toBe("rejected");
    expect(result.message).not.toContain("\n");
    expect(result.message).toMatch(/only a single read-only SELECT\/WITH\/VALUES statement is allowed$/);
  });

  it("names the verb", async () => {
    const result = await executor.run(db, "delete from t where id = 1");
    expect(result).toMatchObject({ ok: false, kind: "rejected" });
    expect(!result.ok && result.message).toBe(
      "DELETE writes to the database; only a single read-only SELECT/WITH/VALUES statement is allowed",
    );
  });

  it("a DELETE inside a CTE is not valid SQLite and never runs", async () => {
    const result = await executor.run(db, "WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x");
    expect(result.ok).toBe(false);
    expect(!result.ok && ["rejected", "sql"]).toContain(!result.ok && result.kind);
  });

  it("leaves the database file unchanged after every hostile statement", async () => {
    const before = sha256File(db);
    for (const sql of hostile) await executor.run(db, sql);
    expect(sha256File(db)).toBe(before);
    expect(existsSync("/tmp/sqlmend-vacuum-copy.sqlite")).toBe(false);
    expect(ok(await executor.run(db, "SELECT count(*) FROM t")).rows).toEqual([[3n]]);
  });

  it("allows SELECT, WITH and VALUES, with comments, string semicolons and a trailing semicolon", async () => {
    expect(ok(await executor.run(db, "-- hi\nSELECT 'a;b' /* ; */ ;")).rows).toEqual([["a;b"]]);
    expect(ok(await executor.run(db, "WITH x(v) AS (VALUES (1)) SELECT v FROM x;  -- done")).rows).toEqual([[1n]]);
    expect(ok(await executor.run(db, "VALUES (1, 'x')")).rows).toEqual([[1n, "x"]]);
    expect(ok(await executor.run(db, "SELECT 'load_extension(1)'")).rows).toEqual([["load_extension(1)"]]);
  });

  it("screens text without a database", () => {
    expect(screenStatement("select 1")).toBeNull();
    expect(screenStatement("pragma table_info(t)")).toMatch(/^PRAGMA /);
    expect(screenStatement("select 1;;")).toBeNull();
  });

  it("the worker itself has no load_extension (SQLite refuses it even past the text screen)", async () => {
    const worker = fileURLToPath(new URL("../tools/sqlite/worker.js", import.meta.url));
    const child = fork(worker, [], { serialization: "advanced", execArgv: [], stdio: ["ignore", "ignore", "ignore", "ipc"] });
    try {
      const reply = await new Promise<{ result: ExecResult }>((resolve) => {
        child.on("message", (m: { type: string; result: ExecResult }) => {
          if (m.type === "result") resolve(m);
        });
        child.send({ type: "run", id: 1, path: db, sql: "SELECT load_extension('x')", maxRows: null, repeat: 1, deadlineMs: 10_000 });
      });
      expect(reply.result).toMatchObject({ ok: false, kind: "sql", message: "not authorized" });
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("time limit", () => {
  it("stops a runaway query while others run, keeps the event loop free, reaps the child", async () => {
    const ex = createExecutor({ size: 2 });
    try {
      // Warm both workers so pids are known and startup does not count.
      await Promise.all([ex.run(db, "SELECT 1"), ex.run(db, "SELECT 2")]);
      const pidsBefore = ex.workerPids();
      expect(pidsBefore).toHaveLength(2);

      let ticks = 0;
      const interval = setInterval(() => ticks++, 20);
      const started = Date.now();
      const runaway = ex.run(db, RUNAWAY, { timeoutMs: 1000 });
      // While the runaway holds one worker, the other answers.
      const other = await ex.run(db, "SELECT count(*) FROM big");
      const otherDoneAt = Date.now() - started;
      const stopped = await runaway;
      const elapsed = Date.now() - started;
      clearInterval(interval);

      expect(ok(other).rows).toEqual([[1000n]]);
      expect(otherDoneAt).toBeLessThan(900);
      expect(stopped).toMatchObject({ ok: false, kind: "timeout" });
      expect(!stopped.ok && stopped.message).not.toContain("\n");
      expect(elapsed).toBeGreaterThanOrEqual(1000);
      expect(elapsed).toBeLessThan(5000);
      expect(ticks).toBeGreaterThanOrEqual(25);

      const pidsAfter = ex.workerPids();
      const killed = pidsBefore.filter((p) => !pidsAfter.includes(p));
      expect(killed).toHaveLength(1);
      expect(isAlive(killed[0]!)).toBe(false);

      // The pool serves the next queries (a fresh worker replaces the killed one).
      const next = await Promise.all([ex.run(db, "SELECT 3"), ex.run(db, "SELECT 4")]);
      expect(next.map((r) => ok(r).rows)).toEqual([[[3n]], [[4n]]]);
    } finally {
      await ex.close();
    }
  });

  it.each(["pdeathsig", "thread"] as const)("a worker dies with its parent when the parent dies mid-query (no orphans; guard %s)", async (guard) => {
    const script = path.join(dir, `orphan-${guard}.mts`);
    const executorUrl = pathToFileURL(path.join(ROOT, "tools", "sqlite", "executor.ts")).href;
    writeFileSync(
      script,
      `import { createExecutor } from ${JSON.stringify(executorUrl)};
       const ex = createExecutor({ size: 1, orphanGuard: ${JSON.stringify(guard)} });
       await ex.run(${JSON.stringify(db)}, "SELECT 1");
       void ex.run(${JSON.stringify(db)}, ${JSON.stringify(RUNAWAY)});
       setTimeout(() => {
         process.stdout.write(ex.workerPids()[0] + "\\n", () => process.kill(process.pid, "SIGKILL"));
       }, 200);`,
    );
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    await new Promise((resolve) => child.on("close", resolve));
    const pid = Number(out.trim());
    expect(pid).toBeGreaterThan(0);
    const deadline = Date.now() + 5000;
    while (!isGone(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(isGone(pid)).toBe(true);
  });

  it("queues beyond the pool size in FIFO order", async () => {
    const ex = createExecutor({ size: 1 });
    try {
      const order: number[] = [];
      await Promise.all([1, 2, 3, 4].map((i) => ex.run(db, `SELECT ${i}`).then(() => order.push(i))));
      expect(order).toEqual([1, 2, 3, 4]);
      expect(ex.workerPids()).toHaveLength(1);
    } finally {
      await ex.close();
    }
  });

  it("close() kills every worker and fails pending queries as internal", async () => {
    const ex = createExecutor({ size: 2 });
    await ex.run(db, "SELECT 1");
    const pending = ex.run(db, RUNAWAY, { timeoutMs: 20_000 });
    const queued = [ex.run(db, RUNAWAY), ex.run(db, RUNAWAY)];
    await new Promise((r) => setTimeout(r, 100));
    const pids = ex.workerPids();
    expect(pids.length).toBeGreaterThanOrEqual(1);
    await ex.close();
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    for (const result of [await pending, ...(await Promise.all(queued))]) {
      expect(result).toMatchObject({ ok: false, kind: "internal" });
    }
    expect(await ex.run(db, "SELECT 1")).toMatchObject({ ok: false, kind: "internal" });
  });

  it("releaseIdle() ends the idle workers only (those that ran at least minJobs): a busy one finishes its query, and the pool starts new ones after", async () => {
    const ex = createExecutor({ size: 2 });
    try {
      await Promise.all([ex.run(db, "SELECT 1"), ex.run(db, "SELECT 2")]);
      const [busyPid, idlePid] = ex.workerPids();
      expect(idlePid).toBeDefined();
      // One worker busy (a query that runs until its limit), the other idle.
      const busy = ex.run(db, RUNAWAY, { timeoutMs: 1500 });
      await new Promise((r) => setTimeout(r, 100));
      // The idle one ran a single job: kept when more are asked of it.
      expect(await ex.releaseIdle!(2)).toBe(0);
      expect(ex.workerPids()).toHaveLength(2);
      expect(await ex.releaseIdle!()).toBe(1);
      expect(ex.workerPids()).toHaveLength(1);
      const [stillBusy] = ex.workerPids();
      const released = stillBusy === busyPid ? idlePid! : busyPid!;
      expect(isGone(released)).toBe(true);
      expect(isAlive(stillBusy!)).toBe(true);
      // The busy one's query ends as it would have (its time limit), not as "released".
      expect(await busy).toMatchObject({ ok: false, kind: "timeout" });
      expect(ok(await ex.run(db, "SELECT 6")).rows).toEqual([[6n]]);
      expect(await ex.releaseIdle!()).toBe(1);
      expect(ex.workerPids()).toEqual([]);
      expect(ok(await ex.run(db, "SELECT 7")).rows).toEqual([[7n]]);
    } finally {
      await ex.close();
    }
  });

  it("a worker crash fails the query as internal and the pool recovers", async () => {
    const ex = createExecutor({ size: 1 });
    try {
      await ex.run(db, "SELECT 1");
      const [pid] = ex.workerPids();
      const running = ex.run(db, RUNAWAY, { timeoutMs: 20_000 });
      await new Promise((r) => setTimeout(r, 100));
      process.kill(pid!, "SIGKILL");
      const result = await running;
      expect(result).toMatchObject({ ok: false, kind: "internal" });
      expect(!result.ok && result.message).toMatch(/worker process died/);
      expect(ok(await ex.run(db, "SELECT 5")).rows).toEqual([[5n]]);
    } finally {
      await ex.close();
    }
  });
});

describe("comparisons sent ahead", () => {
  it("a busy worker gets its next batch before it replies; a batch behind a stopped runaway is redone on a fresh worker, verdicts intact", async () => {
    const ex = createExecutor({ size: 1 });
    try {
      // 200 comparisons queued at once: batches of 64 for one worker, the next always sent behind the current one.
      const compare = (i: number, pred: string) => ex.compare!(db, pred, `SELECT n FROM big WHERE n = ${i + 1}`, { semantics: "bird", timeoutMs: 600 });
      const outcomes = await Promise.all(Array.from({ length: 200 }, (_, i) => compare(i, i === 3 ? RUNAWAY : `SELECT n FROM big WHERE n = ${i + 1}`)));
      expect(ex.jobsSentAhead).toBeGreaterThan(0);
      expect(outcomes[3]).toMatchObject({ correct: false, pred: { ok: false, kind: "timeout" } });
      outcomes.forEach((o, i) => {
        if (i !== 3) expect(o, `comparison ${i}`).toMatchObject({ correct: true, pred: { ok: true, rowCount: 1 }, gold: { ok: true, rowCount: 1 } });
      });
    } finally {
      await ex.close();
    }
  });
});

describe("values and rows", () => {
  it("keeps SQLite storage classes, 64-bit integers included", async () => {
    const result = ok(
      await executor.run(
        db,
        "SELECT 1, 1.0, '1', NULL, x'00ff', 9223372036854775807, -9223372036854775808, typeof(1.0)",
      ),
    );
    const [row] = result.rows;
    expect(row![0]).toBe(1n);
    expect(row![1]).toBe(1);
    expect(typeof row![1]).toBe("number");
    expect(row![2]).toBe("1");
    expect(row![3]).toBeNull();
    expect(row![4]).toBeInstanceOf(Uint8Array);
    expect([...(row![4] as Uint8Array)]).toEqual([0, 255]);
    expect(row![5]).toBe(9223372036854775807n);
    expect(row![6]).toBe(-9223372036854775808n);
    expect(row![7]).toBe("real");
    expect(result.columns).toHaveLength(8);
  });

  it("keeps duplicate column names apart", async () => {
    const result = ok(await executor.run(db, "SELECT 1 AS a, 2 AS a"));
    expect(result.columns).toEqual(["a", "a"]);
    expect(result.rows).toEqual([[1n, 2n]]);
  });

  it("maxRows keeps that many rows; rowCount counts all", async () => {
    const result = ok(await executor.run(db, "SELECT n FROM big ORDER BY n", { maxRows: 5 }));
    expect(result.rows).toEqual([[1n], [2n], [3n], [4n], [5n]]);
    expect(result.rowCount).toBe(1000);
    expect(result.truncated).toBe(true);
    const all = ok(await executor.run(db, "SELECT n FROM big"));
    expect(all.rows).toHaveLength(1000);
    expect(all.truncated).toBe(false);
  });

  it("repeat reports each run's time", async () => {
    const result = ok(await executor.run(db, "SELECT * FROM t", { repeat: 3 }));
    expect(result.runTimesMs).toHaveLength(3);
    expect(result.rows).toHaveLength(3);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(0);
  });
});

describe("errors", () => {
  it("SQL errors carry SQLite's message", async () => {
    expect(await executor.run(db, "SELECT nope FROM t")).toMatchObject({ ok: false, kind: "sql", message: "no such column: nope" });
    expect(await executor.run(db, "SELEC 1")).toMatchObject({ ok: false, kind: "rejected" });
    const syntax = await executor.run(db, "SELECT FROM WHERE");
    expect(syntax).toMatchObject({ ok: false, kind: "sql" });
  });

  it("missing, garbage, corrupt and directory paths are database errors naming the file", async () => {
    const missing = path.join(dir, "missing.sqlite");
    const garbage = path.join(dir, "garbage.sqlite");
    writeFileSync(garbage, "this is not a database, just some text ".repeat(200));
    const corrupt = makeDb(dir, "corrupt.sqlite", "CREATE TABLE x (a); INSERT INTO x VALUES (1);");
    // Keep the 100-byte header valid, trash the schema page.
    const { readFileSync } = await import("node:fs");
    const bytes = readFileSync(corrupt);
    bytes.fill(0xa5, 100, bytes.length);
    writeFileSync(corrupt, bytes);
    for (const file of [missing, garbage, corrupt, dir]) {
      const result = await executor.run(file, "SELECT 1");
      expect(result).toMatchObject({ ok: false, kind: "database" });
      expect(!result.ok && result.message).toContain(file);
      expect(!result.ok && result.message).not.toContain("\n");
    }
  });
});

describe("workers started early (prestartWorkers)", () => {
  it("are adopted by the next pool; a spare that died meanwhile is replaced by a new worker", async () => {
    const [spare] = prestartWorkers(1);
    const first = createExecutor({ size: 1 });
    try {
      expect(ok(await first.run(db, "SELECT 1")).rows).toEqual([[1n]]);
      expect(first.workerPids()).toEqual([spare]);
    } finally {
      await first.close();
    }
    const [dead] = prestartWorkers(1);
    process.kill(dead!, "SIGKILL");
    while (prestartWorkers(0).includes(dead!)) await new Promise((r) => setTimeout(r, 20)); // its exit was seen
    const second = createExecutor({ size: 1 });
    try {
      expect(ok(await second.run(db, "SELECT 2")).rows).toEqual([[2n]]);
      expect(second.workerPids()).not.toContain(dead);
    } finally {
      await second.close();
    }
  });
});

describe("a database file replaced between queries", () => {
  it("is read afresh: no cached handle, prepared statement or rewriting of the old file is used", async () => {
    const one = createExecutor({ size: 1 }); // one worker, so its caches would be hit
    try {
      const file = makeDb(dir, "replaced.sqlite", `CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('old');`);
      const query = `SELECT name FROM t WHERE name <> "x"`; // a double-quoted literal: rewritten, then remembered
      expect(ok(await one.run(file, query)).rows).toEqual([["old"]]);
      const before = await one.compare!(file, query, "SELECT 'old'", { semantics: "bird" });
      expect(before.correct).toBe(true);
      expect(before.pred.ok && before.pred.sql).toBe(`SELECT name FROM t WHERE name <> 'x'`);

      // A new file at the same path (a rebuilt benchmark), where "x" is now a column.
      makeDb(dir, "replaced.next.sqlite", `CREATE TABLE t (name TEXT, x TEXT); INSERT INTO t VALUES ('new', 'y'), ('same', 'same');`);
      renameSync(path.join(dir, "replaced.next.sqlite"), file);
      expect(ok(await one.run(file, query)).rows).toEqual([["new"]]);
      const after = await one.compare!(file, query, "SELECT 'new'", { semantics: "bird" });
      expect(after.correct).toBe(true);
      expect(after.pred.ok && after.pred.sql).toBe(query); // "x" is a column there: nothing rewritten
    } finally {
      await one.close();
    }
  });
});

describe("shared executor", () => {
  it("is created lazily and reused", async () => {
    const shared = getSharedExecutor();
    expect(getSharedExecutor()).toBe(shared);
    expect(ok(await shared.run(db, "SELECT 7")).rows).toEqual([[7n]]);
    await shared.close();
    const again = getSharedExecutor();
    expect(again).not.toBe(shared);
    await again.close();
  });
});

describe("format", () => {
  const result: ExecSuccess = {
    ok: true,
    columns: ["id", "name", "big", "blob", "note"],
    rows: [
      [1n, "Alice", 9007199254740993n, new Uint8Array([1, 2, 3]), null],
      [22n, "Bob", -5n, null, "x".repeat(300)],
    ],
    rowCount: 1_000_000,
    truncated: true,
    elapsedMs: 1,
  };

  it("previews JSON-safe cells", () => {
    const preview = previewResult(result, { maxRows: 1 });
    expect(preview.rows).toEqual([[1, "Alice", "9007199254740993", "<blob 3 bytes>", null]]);
    expect(preview.truncated).toBe(true);
    const long = previewResult(result, { maxCellChars: 10 });
    expect(long.rows[1]![4]).toBe(`${"x".repeat(9)}…`);
    expect(JSON.parse(JSON.stringify(long))).toEqual(long);
  });

  it("formats an aligned table with a row count line", () => {
    const table = formatTable(previewResult(result, { maxRows: 2, maxCellChars: 8 }));
    expect(table).toBe(
      [
        "id | name  | big              | blob           | note",
        "---+-------+------------------+----------------+---------",
        " 1 | Alice | 9007199254740993 | <blob 3 bytes> | NULL",
        "22 | Bob   |               -5 | NULL           | xxxxxxx…",
        "(2 of 1,000,000 rows shown)",
      ].join("\n"),
    );
    expect(formatTable({ columns: ["a"], rows: [[1]], rowCount: 1, truncated: false })).toBe("a\n-\n1\n(1 row)");
    expect(formatTable({ columns: ["a"], rows: [], rowCount: 0, truncated: false })).toBe("a\n-\n(0 rows)");
  });
});

describe("double-quoted string literals", () => {
  it("are read as strings where no column has the name, as Python's sqlite3 does", async () => {
    const dir = makeTempDir();
    try {
      const db = makeDb(dir, "dqs.sqlite", `CREATE TABLE airlines (name TEXT, "country" TEXT); INSERT INTO airlines VALUES ('JetBlue Airways', 'USA'), ('It''s "Air"', 'UK');`);
      const executor = createExecutor({ size: 1 });
      try {
        const r = await executor.run(db, `SELECT "country" FROM airlines WHERE name = "JetBlue Airways"`);
        expect(r).toMatchObject({ ok: true, rows: [["USA"]], executedSql: `SELECT "country" FROM airlines WHERE name = 'JetBlue Airways'` });
        const quoted = await executor.run(db, `SELECT country FROM airlines WHERE name = "It's ""Air"""`);
        expect(quoted).toMatchObject({ ok: true, rows: [["UK"]] });
        const plain = await executor.run(db, `SELECT country FROM airlines WHERE name = 'JetBlue Airways'`);
        expect(plain.ok && plain.executedSql).toBe(undefined);
        const missing = await executor.run(db, `SELECT nosuch FROM airlines`);
        expect(missing).toMatchObject({ ok: false, kind: "sql", message: expect.stringContaining("no such column: nosuch") });
      } finally {
        await executor.close();
      }
    } finally {
      removeTempDir(dir);
    }
  });
});
