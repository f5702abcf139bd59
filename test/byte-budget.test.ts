/**
 * Results bounded by bytes, not rows (issue 32): the executor keeps each cell up to 1 MiB and the rows up to 32 MiB
 * (tools/sqlite/keep.js), says what it cut, and the scorer still compares huge cells whole, exactly.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import type { Question } from "../state/question.ts";
import { scoreQuestion } from "../tools/benchmarks/score.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { MAX_CELL_BYTES } from "../tools/sqlite/keep.js";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { resultsOf, runCli } from "./support/cli.ts";
import { startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";

const MIB = 1 << 20;
/** A text of n characters made by SQLite ('0's, then the last character given). */
const text = (n: number, last: string) => `substr(hex(zeroblob(${Math.ceil(n / 2)})), 1, ${n - 1}) || '${last}'`;

let dir: string;
let db: string;
let executor: ReturnType<typeof createExecutor>;

beforeAll(() => {
  dir = makeTempDir("sqlmend-bytes-");
  db = makeDb(
    dir,
    "big.sqlite",
    `CREATE TABLE cell (id INTEGER PRIMARY KEY, t TEXT);
     INSERT INTO cell VALUES (1, ${text(3 * MIB, "a")}), (2, ${text(3 * MIB, "b")}), (3, ${text(3 * MIB, "a")});
     CREATE TABLE rows (id INTEGER PRIMARY KEY, t TEXT);
     WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 40) INSERT INTO rows SELECT i, ${text(MIB, "z")} FROM c;`,
  );
  executor = createExecutor({ size: 1 });
});
afterAll(async () => {
  await executor.close();
  removeTempDir(dir);
});

describe("exec", () => {
  it("a cell past 1 MiB comes back as its first MiB, and the output says so", async () => {
    const table = await runCli(["exec", "--db", db, "SELECT id, t FROM cell WHERE id = 1"], dir);
    expect(table.code).toBe(0);
    expect(table.out).toContain("(1 row)");
    expect(table.out).toContain("note: 1 cell longer than 1 MiB shortened to 1 MiB");

    const json = await runCli(["exec", "--db", db, "--json", "SELECT id, t FROM cell WHERE id = 1"], dir);
    const parsed = JSON.parse(json.out);
    expect(parsed.rows[0][1]).toHaveLength(MAX_CELL_BYTES);
    expect(parsed).toMatchObject({ rowCount: 1, truncated: true, cellsShortened: 1, bytesCut: false, cut: "1 cell longer than 1 MiB shortened to 1 MiB" });
  });

  it("rows past 32 MiB are counted, not kept, and the output says how many were kept", async () => {
    const json = await runCli(["exec", "--db", db, "--json", "--max-rows", "0", "SELECT id, t FROM rows"], dir);
    const parsed = JSON.parse(json.out);
    expect(parsed.rowCount).toBe(40);
    expect(parsed.rows.length).toBeLessThan(40);
    expect(parsed.rows.length).toBeGreaterThan(25);
    expect(parsed).toMatchObject({ truncated: true, bytesCut: true, cut: `rows past 32 MiB not kept (${parsed.rows.length} of 40 kept)` });
    const table = await runCli(["exec", "--db", db, "--max-rows", "0", "SELECT id, t FROM rows"], dir);
    expect(table.out).toContain(`(${parsed.rows.length} of 40 rows shown)`);
    expect(table.out).toContain(`note: rows past 32 MiB not kept (${parsed.rows.length} of 40 kept)`);
  });
});

describe("executor", () => {
  it("run() shortens cells and stops keeping rows by bytes; the fingerprint is still the whole result's", async () => {
    const cut = await executor.run(db, "SELECT t FROM cell ORDER BY id", { maxCellBytes: 1000, maxBytes: 2500, fingerprint: true });
    const whole = await executor.run(db, "SELECT t FROM cell ORDER BY id", { maxCellBytes: 4 * MIB, maxBytes: 64 * MIB, fingerprint: true });
    if (!cut.ok || !whole.ok) throw new Error("query failed");
    expect(cut.rows.map((r) => (r[0] as string).length)).toEqual([1000, 1000]);
    expect(cut).toMatchObject({ rowCount: 3, truncated: true, cellsShortened: 2, bytesCut: true });
    expect(whole.rows.map((r) => (r[0] as string).length)).toEqual([3 * MIB, 3 * MIB, 3 * MIB]);
    expect(whole.cellsShortened).toBeUndefined();
    expect(cut.fingerprint).toBe(whole.fingerprint);
    // Without a fingerprint SQLite shortens the cells itself: the same rows and cut.
    const capped = await executor.run(db, "SELECT t FROM cell ORDER BY id DESC; -- newest first", { maxCellBytes: 1000, maxBytes: 2500 });
    expect(capped).toMatchObject({ ok: true, rowCount: 3, cellsShortened: 2, bytesCut: true });
    if (capped.ok) expect(capped.rows.map((r) => (r[0] as string).slice(-1))).toEqual(["0", "0"]);
  });
});

describe("score", () => {
  const question = (goldSql: string): Question => ({ id: "q", dbId: "big", dbPath: db, question: "?", evidence: "", goldSql });
  it("huge cells are compared whole: equal ones are correct, ones that differ in the last byte are not", async () => {
    for (const semantics of ["bird", "spider"] as const) {
      const opts = { executor, semantics };
      expect((await scoreQuestion(question("SELECT id > 0, t FROM cell WHERE id = 1"), "SELECT id > 0, t FROM cell WHERE id = 3", opts)).correct).toBe(true);
      expect((await scoreQuestion(question("SELECT id > 0, t FROM cell WHERE id = 1"), "SELECT id > 0, t FROM cell WHERE id = 2", opts)).correct).toBe(false);
      // Spider: columns in another order are still the same result.
      if (semantics === "spider")
        expect((await scoreQuestion(question("SELECT id > 0, t FROM cell WHERE id = 1"), "SELECT t, id > 0 FROM cell WHERE id = 3", opts)).correct).toBe(true);
    }
  });

  it.runIf(process.platform === "linux")("comparing two rows with a 48 MB cell under Spider's rule holds about one copy of the cell, not one per key", async () => {
    const big = makeDb(dir, "huge.sqlite", `CREATE TABLE h (id INTEGER, t TEXT); INSERT INTO h VALUES (1, ${text(48e6, "a")}), (2, ${text(48e6, "a")});`);
    const one = createExecutor({ size: 1 });
    try {
      await one.run(big, "SELECT 1");
      const pid = one.workerPids()[0]!;
      const hwm = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) * 1024;
      const before = hwm();
      const outcome = await one.compare!(big, "SELECT t, id > 0 FROM h WHERE id = 2", "SELECT id > 0, t FROM h WHERE id = 1", { semantics: "spider", timeoutMs: 60_000 });
      expect(outcome.correct).toBe(true);
      // SQLite's copy and one string per side at a time (each 48 MB); building the row's sort and value keys made
      // three or four more.
      expect(hwm() - before).toBeLessThan(160e6);
    } finally {
      await one.close();
    }
  });
});

describe("eval", () => {
  it("a question whose final result had a cell cut records it in its outcome, and report.md counts it", async () => {
    const server = await startOpenAIServer({ respond: () => ({ content: "```sql\nSELECT t FROM cell WHERE id = 1\n```", usage: { prompt_tokens: 10, completion_tokens: 5 } }) });
    try {
      const dbDir = path.join(dir, "dbs");
      fs.mkdirSync(dbDir, { recursive: true });
      fs.copyFileSync(db, path.join(dbDir, "big.sqlite"));
      const questions = path.join(dir, "q.jsonl");
      fs.writeFileSync(questions, `${JSON.stringify({ id: "c1", question: "the long text", db_id: "big", gold: "SELECT t FROM cell WHERE id = 3" })}\n`);
      const out = path.join(dir, "run");
      const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") };
      const r = await runCli(["eval", "baseline", "--questions", questions, "--db-dir", dbDir, "--out", out, "--cache", "off"], dir, env);
      expect(r.code, r.err).toBe(0);
      const record = (await resultsOf(out)).get("c1")!;
      expect(record.correct).toBe(true);
      expect(record.outcome).toMatchObject({ finalSqlExecutes: true, resultCutByBytes: true });
      expect(fs.readFileSync(path.join(out, "report.md"), "utf8")).toMatch(/resultCutByBytes: 100\.0 % \(1\/1\)/);
    } finally {
      await server.close();
    }
  });
});
