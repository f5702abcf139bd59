/**
 * The scorer's seams, each against what the official scripts (Python's sqlite3) do: a database another process holds
 * locked, double-quoted literals holding whitespace, `;;` under BIRD semantics, empty predictions when the gold returns
 * no rows, and the tab rule of text predictions.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Question } from "../state/question.ts";
import { scoreAll, textLineSql } from "../tools/benchmarks/score.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";

let dir: string;
const executor = createExecutor({ size: 2 });
beforeAll(() => {
  dir = makeTempDir();
});
afterAll(async () => {
  await executor.close();
  removeTempDir(dir);
});

const question = (id: string, dbPath: string, goldSql: string): Question => ({ id, dbId: path.basename(dbPath, ".sqlite"), dbPath, question: `q${id}`, goldSql }) as Question;

/** Another process holding `file` under BEGIN EXCLUSIVE until it is killed. */
async function holdExclusive(file: string) {
  const child = spawn(process.execPath, ["-e", `const D = require(${JSON.stringify(require.resolve("better-sqlite3"))}); const db = new D(${JSON.stringify(file)}); db.exec("BEGIN EXCLUSIVE"); console.log("held"); setInterval(() => {}, 1000);`], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("held") && resolve());
    child.on("exit", (code) => reject(new Error(`lock holder exited ${code}`)));
  });
  return child;
}

describe("a database another process holds locked", () => {
  it("is retried, then its questions are not scored (database locked), never scored wrong — also when SQLite's lock wait is longer than the query's time limit", async () => {
    const free = makeDb(dir, "free.sqlite", "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2);");
    const held = makeDb(dir, "held.sqlite", "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (3);");
    const questions = [question("1", free, "SELECT x FROM t"), question("2", held, "SELECT x FROM t"), question("3", free, "SELECT count(*) FROM t"), question("4", held, "SELECT max(x) FROM t")];
    const holder = await holdExclusive(held);
    try {
      // SQLite waits 5 s for a lock by default; the time limit here is 1 s: the wait must not end as a time-limit stop.
      const r = await scoreAll(questions, new Map(questions.map((q) => [q.id, q.goldSql!])), { executor, semantics: "bird", timeoutMs: 1000, lockRetryDelaysMs: [50] });
      expect([r.count, r.correct]).toEqual([2, 2]);
      expect(r.databaseErrors.map((d) => d.id).sort()).toEqual(["2", "4"]);
      expect(r.databaseErrors.every((d) => /database is locked/.test(d.error))).toBe(true);
      expect(r.verdicts.filter((v) => v.lockRetries).map((v) => v.id).sort()).toEqual(["2", "4"]);
    } finally {
      holder.kill("SIGKILL");
    }
  }, 60_000);
});

describe("double-quoted literals holding whitespace (Spider train 2880, 2881, 5635)", () => {
  it("a tab, a newline or two spaces inside \"...\" are literals, as Python's sqlite3 reads them: gold against gold is right", async () => {
    const db = makeDb(dir, "lever.sqlite", "CREATE TABLE parts (name TEXT, n INTEGER); INSERT INTO parts VALUES ('little  lever', 1), ('big\tlever', 2), ('two\nlines', 3), ('little lever', 4);");
    const golds = ['SELECT n FROM parts WHERE name = "little  lever"', 'SELECT n FROM parts WHERE name = "big\tlever"', 'SELECT n FROM parts WHERE name = "two\nlines"'];
    const questions = golds.map((sql, i) => question(String(i), db, sql));
    const r = await scoreAll(questions, new Map(questions.map((q) => [q.id, q.goldSql!])), { executor, semantics: "spider" });
    expect(r.verdicts.map((v) => [v.id, v.correct, v.predError ?? null])).toEqual([["0", true, null], ["1", true, null], ["2", true, null]]);
    // Each found its own row, not the one-space "little lever".
    const one = await executor.run(db, golds[0]!);
    expect(one.ok && one.rows).toEqual([[1n]]);
  });
});

describe("BIRD semantics: the statements Python's sqlite3 takes", () => {
  it("`;;` and `; ;` after a statement are wrong, as Python's sqlite3 refuses them; one `;` and a trailing comment are fine", async () => {
    const db = makeDb(dir, "semi.sqlite", "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);");
    const gold = "SELECT x FROM t";
    const preds = ["SELECT x FROM t ;;", "SELECT x FROM t ; ;", "SELECT x FROM t -- x\n;  ;", "SELECT x FROM t;", "SELECT x FROM t; -- done", "SELECT x FROM t; /* c */ "];
    const questions = preds.map((_, i) => question(String(i), db, gold));
    const r = await scoreAll(questions, new Map(preds.map((p, i) => [String(i), p])), { executor, semantics: "bird" });
    expect(r.verdicts.map((v) => v.correct)).toEqual([false, false, false, true, true, true]);
    expect(r.verdicts[0]!.predError).toMatch(/You can only execute one statement at a time/);
    expect(r.severalStatements).toBe(3);
  });

  it("an empty or comment-only prediction returns no rows: right when the gold returns none (as the official BIRD scorers), wrong otherwise; counted", async () => {
    const db = makeDb(dir, "empty.sqlite", "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);");
    const questions = [question("none", db, "SELECT x FROM t WHERE x > 5"), question("some", db, "SELECT x FROM t"), question("c", db, "SELECT x FROM t WHERE x < 0"), question("semi", db, "SELECT x FROM t WHERE x = 2")];
    const preds = new Map([["none", ""], ["some", ""], ["c", "-- no idea\n/* really */"], ["semi", " ; "]]);
    const r = await scoreAll(questions, preds, { executor, semantics: "bird" });
    expect(r.verdicts.map((v) => [v.id, v.correct])).toEqual([["none", true], ["some", false], ["c", true], ["semi", true]]);
    expect(r.emptyPredictions).toEqual({ count: 4, credited: 3 });
  });
});

describe("text predictions' tab rule", () => {
  it("a tab-separated query whose last word names a database keeps it as its table; a db_id after a whole query is dropped", () => {
    const dbIds = new Set(["poker_player", "concert_singer"]);
    expect(textLineSql("SELECT\tcount(*)\tFROM\tpoker_player", dbIds)).toBe("SELECT\tcount(*)\tFROM\tpoker_player");
    expect(textLineSql("SELECT name FROM people JOIN\tpoker_player", dbIds)).toBe("SELECT name FROM people JOIN\tpoker_player");
    expect(textLineSql("SELECT count(*) FROM poker_player\tpoker_player", dbIds)).toBe("SELECT count(*) FROM poker_player");
    expect(textLineSql("SELECT count(*) FROM singer\tconcert_singer", dbIds)).toBe("SELECT count(*) FROM singer");
    expect(textLineSql("SELECT\tname\tFROM\tsinger", dbIds)).toBe("SELECT\tname\tFROM\tsinger");
  });
});

describe("VES of gold-equal predictions", () => {
  it("stays in [90, 110] with two CPU-bound processes beside the scorer (a behaviour band, not a timing)", async () => {
    const db = makeDb(dir, "ves.sqlite", `CREATE TABLE t (x INTEGER, y TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO t SELECT i, 'v' || (i % 37) FROM n;`);
    const golds = ["SELECT count(*) FROM t", "SELECT y, count(*) FROM t GROUP BY y ORDER BY y", "SELECT max(x) FROM t WHERE y = 'v3'", "SELECT x FROM t WHERE x % 97 = 0", ...Array.from({ length: 8 }, (_, i) => `SELECT y FROM t WHERE x = ${i + 1}`)];
    const questions = golds.map((sql, i) => question(String(i), db, sql));
    const busy = [0, 1].map(() => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
    try {
      const r = await scoreAll(questions, new Map(questions.map((q) => [q.id, q.goldSql!])), { executor, semantics: "bird", ves: true });
      expect(r.correct).toBe(12);
      expect(r.ves!.ves).toBeGreaterThanOrEqual(90);
      expect(r.ves!.ves).toBeLessThanOrEqual(110);
    } finally {
      for (const child of busy) child.kill("SIGKILL");
    }
  }, 120_000);
});

describe("results past the scorer's cap", () => {
  it("identical results past the cap are compared whole (streamed) and right; different ones stay too large", async () => {
    // A cap of 1,000 rows per side stands for 5 million rows (and Spider's 4 million cells): the same path, small.
    const capped = createExecutor({ size: 1, maxCompareRows: 1000 });
    try {
      const db = makeDb(dir, "big.sqlite", "CREATE TABLE t (a INTEGER, b TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500) INSERT INTO t SELECT i, 'x' || (i % 7) FROM n;");
      const q = question("big", db, "SELECT a, b FROM t");
      for (const semantics of ["spider", "bird"] as const) {
        const same = await scoreAll([q], new Map([["big", "SELECT a, b FROM t ORDER BY a DESC"]]), { executor: capped, semantics });
        expect([semantics, same.verdicts[0]!.correct, same.verdicts[0]!.tooLarge]).toEqual([semantics, true, undefined]);
        expect(same.verdicts[0]!.streamed).toMatch(/compared whole by a streamed digest/);
        expect(same.streamed).toBe(1);
        const other = await scoreAll([q], new Map([["big", "SELECT a, b FROM t WHERE a <> 1200"]]), { executor: capped, semantics });
        expect([other.verdicts[0]!.correct, Boolean(other.verdicts[0]!.tooLarge)]).toEqual([false, true]);
      }
      // Under Spider's ORDER BY rule the order counts: the same rows in another order are not identical.
      const ordered = question("ord", db, "SELECT a, b FROM t ORDER BY a");
      const reversed = await scoreAll([ordered], new Map([["ord", "SELECT a, b FROM t ORDER BY a DESC"]]), { executor: capped, semantics: "spider" });
      expect(reversed.verdicts[0]!.correct).toBe(false);
      const same = await scoreAll([ordered], new Map([["ord", "SELECT a, b FROM t ORDER BY a"]]), { executor: capped, semantics: "spider" });
      expect(same.verdicts[0]!.correct).toBe(true);
    } finally {
      await capped.close();
    }
  });
});

describe("verdicts on slow comparisons", () => {
  it("do not depend on concurrency: a comparison stopped at the time limit while others ran beside it is scored again alone", async () => {
    // An executor whose comparisons only finish in time when alone (a huge result read on a shared CPU).
    let inFlight = 0;
    const slow = {
      async run() {
        return { ok: true as const, columns: ["x"], rows: [], rowCount: 3_000_000, truncated: true, elapsedMs: 1 };
      },
      async compare(_db: string, pred: string, gold: string) {
        inFlight++;
        await new Promise((resolve) => setTimeout(resolve, 20));
        const crowded = inFlight > 1;
        inFlight--;
        const side = { ok: true as const, columns: ["x"], rowCount: 3_000_000, truncated: false, elapsedMs: 1 };
        if (crowded) return { pred: { ok: false as const, kind: "timeout" as const, message: "the query was stopped after 30000 ms (time limit)", elapsedMs: 30_000, sql: pred }, gold: { ...side, sql: gold }, correct: false };
        return { pred: { ...side, sql: pred }, gold: { ...side, sql: gold }, correct: true };
      },
      async close() {},
    };
    const questions = ["1", "2", "3", "4"].map((id) => question(id, path.join(dir, "huge.sqlite"), "SELECT x FROM huge"));
    const preds = new Map(questions.map((q) => [q.id, "SELECT x FROM huge"]));
    const alone = await scoreAll(questions, preds, { executor: slow, semantics: "bird", concurrency: 1 });
    const shared = await scoreAll(questions, preds, { executor: slow, semantics: "bird", concurrency: 4 });
    expect(alone.verdicts.map((v) => v.correct)).toEqual([true, true, true, true]);
    expect(shared.verdicts.map((v) => v.correct)).toEqual([true, true, true, true]);
    expect(shared.verdicts.every((v) => v.predError === undefined)).toBe(true);
    expect(shared.rescoredAlone).toBeGreaterThan(0);
  });
});
