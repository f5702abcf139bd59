/**
 * The scorer's bounds: results compared without holding them (a row cap past which the verdict is "too large"), and
 * a time limit that stops a query at the limit, counted from that query's start.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeSql } from "../nodes/execute.ts";
import type { Question } from "../state/question.ts";
import { resultFingerprint, resultsMatch, scoreAll, scoreQuestion, SOFT_F1_MAX_ROWS, softF1Of } from "../tools/benchmarks/score.ts";
import { digestsMatch, MAX_COMPARE_ROWS, MAX_PERMUTATION_CELLS, ResultDigest } from "../tools/sqlite/digest.js";
import { createExecutor } from "../tools/sqlite/executor.ts";
import type { ExecOptions, Row, SqlExecutor, SqlValue } from "../tools/sqlite/types.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";

const RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
/** n rows of (i, 'name-i'), made by SQLite itself. */
const series = (n: number, extra = "") =>
  `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${n}) SELECT i, 'name-' || i${extra} FROM c`;

let dir: string;
let dbPath: string;
let executor: ReturnType<typeof createExecutor>;

const q = (goldSql: string, extra: Partial<Question> = {}): Question => ({
  id: "q1",
  dbId: "t",
  dbPath,
  question: "?",
  evidence: "",
  goldSql,
  difficulty: "simple",
  ...extra,
});

beforeAll(() => {
  dir = makeTempDir("sqlmend-bounds-");
  dbPath = makeDb(dir, "t.sqlite", "CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (2, 'y');");
  executor = createExecutor({ size: 2 });
});
afterAll(async () => {
  await executor.close();
  removeTempDir(dir);
});

/** Peak resident memory of a process (Linux), bytes. */
function peakRss(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) * 1024 : NaN;
}

describe("time limit", () => {
  // A runaway left running would never finish: the test's own timeout catches that. How close to the limit a stop
  // lands is a speed figure (bench/), not a test — no upper bound on wall time here (a loaded machine is normal).
  it("a runaway prediction with a 1 s limit is stopped near 1 s; its verdict says timeout, the gold's outcome is kept", async () => {
    await Promise.all([executor.run(dbPath, "SELECT 1"), executor.run(dbPath, "SELECT 2")]); // workers started
    const started = Date.now();
    const verdict = await scoreQuestion(q("SELECT count(*) FROM t"), RUNAWAY, { executor, semantics: "bird", timeoutMs: 1000 });
    const elapsed = Date.now() - started;
    expect(verdict).toMatchObject({ correct: false, goldRows: 1 });
    expect(verdict.predError).toMatch(/^timeout: the query was stopped after 1000 ms/);
    expect(elapsed).toBeGreaterThanOrEqual(900);
  });

  // The limit counts from each query's start: the gold ran out the whole limit, and the prediction still ran (a clock
  // counted from the job's start would have stopped it at once) — without timing anything.
  it("a runaway gold query is named as the one stopped; the prediction still gets its own outcome", async () => {
    const outcome = await executor.compare!(dbPath, "SELECT count(*) FROM t", RUNAWAY, { semantics: "bird", timeoutMs: 500 });
    expect(outcome.gold).toMatchObject({ ok: false, kind: "timeout" });
    expect(outcome.pred).toMatchObject({ ok: true, rowCount: 1 });
    expect(outcome.correct).toBe(false);
  });

  it("a runaway in a batch stops at the limit; its batch-mates are compared again and keep their verdicts", async () => {
    const preds = Array.from({ length: 20 }, (_, i) => (i === 7 ? RUNAWAY : "SELECT count(*) FROM t"));
    const report = await scoreAll(
      preds.map((_, i) => q("SELECT count(*) FROM t", { id: String(i) })),
      new Map(preds.map((p, i) => [String(i), p])),
      { executor, semantics: "bird", timeoutMs: 1000 },
    );
    expect(report.verdicts.map((v) => v.correct)).toEqual(preds.map((p) => p !== RUNAWAY));
    expect(report.timeouts).toBe(1);
  });
});

describe("results compared without holding them", () => {
  it("verdicts from digests equal resultsMatch's on random small results (bird, spider, ordered)", () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const values: SqlValue[] = [null, 1n, 1, 1.5, 2n, "1", "a", "b", new Uint8Array([0, 255]), -0, 9007199254740993n, 9007199254740992];
    const table = (rows: number, cols: number): Row[] => Array.from({ length: rows }, () => Array.from({ length: cols }, () => values[rand(4) + rand(values.length - 3)] ?? null));
    const shuffle = (rows: Row[]) => rows.map((r) => [rand(1000), r] as const).sort((a, b) => a[0] - b[0]).map(([, r]) => r);
    const permute = (rows: Row[]) => rows.map((r) => [...r].reverse());
    const digest = (rows: Row[], ncols: number, semantics: "bird" | "spider", orderMatters: boolean) => {
      const d = new ResultDigest(ncols, { semantics, orderMatters, fingerprint: true });
      for (const r of rows) d.add(r);
      return d;
    };
    let agreements = 0;
    let matches = 0;
    for (let trial = 0; trial < 1500; trial++) {
      const cols = 1 + rand(4);
      const gold = table(rand(6), cols);
      const pick = rand(5);
      const pred =
        pick === 0 ? shuffle(gold) : pick === 1 ? permute(gold) : pick === 2 ? [...gold, ...gold.slice(0, 1)] : pick === 3 ? gold : table(gold.length, cols + (rand(4) === 0 ? 1 : 0));
      const pcols = pred[0]?.length ?? cols;
      for (const semantics of ["bird", "spider"] as const) {
        for (const orderMatters of [false, true]) {
          const expected = resultsMatch(pred, gold, semantics, { orderMatters });
          const got = digestsMatch(digest(pred, pcols, semantics, orderMatters), digest(gold, cols, semantics, orderMatters), semantics, { orderMatters });
          expect(got, JSON.stringify({ semantics, orderMatters, gold, pred }, (_, v) => (typeof v === "bigint" ? `${v}n` : v))).toBe(expected);
          agreements++;
          if (expected) matches++;
        }
      }
      expect(digest(pred, pcols, "bird", false).fingerprint() === digest(gold, cols, "bird", false).fingerprint()).toBe(resultsMatch(pred, gold, "bird"));
    }
    expect(agreements).toBe(6000);
    expect(matches).toBeGreaterThan(1000); // both verdicts well represented
  });

  it("past the row cap a comparison keeps no more hashes: identical sides compare by their streams, others are too large; the report counts both; under it verdicts are unchanged", async () => {
    const capped = createExecutor({ size: 1, maxCompareRows: 1000 });
    try {
      const big = await capped.compare!(dbPath, series(1500), series(1500), { semantics: "bird" });
      expect(big).toMatchObject({ correct: true, streamed: "gold: more than 1000 rows (the scorer's cap); prediction: more than 1000 rows (the scorer's cap): compared whole by a streamed digest (identical)" });
      expect(big.tooLarge).toBeUndefined();
      expect(big.pred).toMatchObject({ ok: true, rowCount: 1500, truncated: true });
      const other = await capped.compare!(dbPath, series(1501), series(1500), { semantics: "bird" });
      expect(other).toMatchObject({ correct: false, tooLarge: "gold: more than 1000 rows (the scorer's cap); prediction: more than 1000 rows (the scorer's cap)" });
      const small = await capped.compare!(dbPath, series(1000), series(1000), { semantics: "bird" });
      expect(small).toMatchObject({ correct: true, pred: { rowCount: 1000, truncated: false } });
      expect(small.tooLarge).toBeUndefined();
      const report = await scoreAll(
        [q(series(1500), { id: "big" }), q(series(1500), { id: "other" }), q(series(10), { id: "small" })],
        new Map([["big", series(1500)], ["other", series(1501)], ["small", series(10)]]),
        { executor: capped, semantics: "spider" },
      );
      expect(report.verdicts.map((v) => [v.id, v.correct, v.tooLarge])).toEqual([
        ["big", true, undefined],
        ["other", false, "gold: more than 1000 rows (the scorer's cap); prediction: more than 1000 rows (the scorer's cap)"],
        ["small", true, undefined],
      ]);
      expect([report.tooLarge, report.streamed]).toEqual([1, 1]);
    } finally {
      await capped.close();
    }
  });

  it("Soft F1, which needs the rows here, reads at most SOFT_F1_MAX_ROWS a side and says when it stopped", async () => {
    const big = series(SOFT_F1_MAX_ROWS + 1);
    expect(await softF1Of(q(big), big, { executor, semantics: "bird" })).toEqual({ f1: 0, error: `too large: Soft F1 reads at most ${SOFT_F1_MAX_ROWS} rows a side` });
    expect(await softF1Of(q(series(10)), series(10), { executor, semantics: "bird" })).toEqual({ f1: 1 });
  });

  it("Spider's permutation rule has a cell cap of its own", () => {
    const row = Array.from({ length: 400 }, (_, i) => BigInt(i));
    const d = new ResultDigest(400, { semantics: "spider", orderMatters: false });
    expect(d.maxRows).toBe(MAX_PERMUTATION_CELLS / 400);
    for (let i = 0; i < 100; i++) expect(d.add(row)).toBe(true);
    d.rows = d.maxRows; // as if the rest had been added (4 million cells take seconds)
    // Past it no hash is kept, and reading goes on into the stream.
    expect(d.add(row)).toBe(true);
    expect(d.rows).toBe(d.maxRows);
    expect(d.tooLarge).toMatch(/more than 10000 rows of 400 columns: Spider's column-permutation rule/);
    // Ordered, or BIRD: no per-cell hashes, only the row cap.
    expect(new ResultDigest(400, { semantics: "spider", orderMatters: true }).maxRows).toBe(MAX_COMPARE_ROWS);
    expect(new ResultDigest(400, { semantics: "bird" }).maxRows).toBe(MAX_COMPARE_ROWS);
  });

  it.runIf(process.platform === "linux")("comparing two results of 400,000 rows keeps the worker small and brings no row back", async () => {
    const one = createExecutor({ size: 1 });
    try {
      await one.run(dbPath, "SELECT 1");
      const pid = one.workerPids()[0]!;
      const before = peakRss(pid);
      const sql = series(400_000, ", i * 0.5");
      const outcome = await one.compare!(dbPath, sql, `${sql} ORDER BY i DESC`, { semantics: "bird", timeoutMs: 60_000 });
      expect(outcome).toMatchObject({ correct: true, pred: { ok: true, rowCount: 400_000 }, gold: { ok: true, rowCount: 400_000 } });
      // 8 bytes of hash a row and side, and growth: well under what the rows themselves take (over 100 MB).
      expect(peakRss(pid) - before).toBeLessThan(48 * 2 ** 20);
    } finally {
      await one.close();
    }
  });
});

describe("execute node", () => {
  it("asks for the preview's rows only and takes the whole result's fingerprint from the worker", async () => {
    const seen: ExecOptions[] = [];
    const spy: SqlExecutor = { run: (db, sql, o) => (seen.push(o ?? {}), executor.run(db, sql, o)), close: async () => {} };
    const execution = await executeSql(spy, dbPath, series(50_000), { previewRows: 5 });
    expect(seen).toEqual([expect.objectContaining({ maxRows: 5, fingerprint: true })]);
    expect(execution.preview).toMatchObject({ rowCount: 50_000, truncated: true });
    expect(execution.preview!.rows).toHaveLength(5);
    const all = await executor.run(dbPath, series(50_000));
    expect(execution.fingerprint).toBe(resultFingerprint(all.ok ? all.rows : []));
    // An executor that ignores maxRows (returns everything) still gets a fingerprint, made here.
    const plain: SqlExecutor = { run: (db, sql) => executor.run(db, sql), close: async () => {} };
    expect((await executeSql(plain, dbPath, series(50_000))).fingerprint).toBe(execution.fingerprint);
  });
});
