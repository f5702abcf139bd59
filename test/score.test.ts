import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../cli/shared/command.ts";
import type { Question } from "../state/question.ts";
import {
  cleanAbnormal,
  prepareQueries,
  pyFloatRepr,
  readPredictionFile,
  readPredictions,
  removeDistinct,
  firstStatement,
  pythonStatements,
  resultFingerprint,
  resultsMatch,
  scoreAll,
  scoreQuestion,
  vesReward,
  writeBirdPredictions,
  writeSpiderPredictions,
} from "../tools/benchmarks/score.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import type { Row, SqlExecutor } from "../tools/sqlite/types.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";

const bytes = (...b: number[]) => new Uint8Array(b);

describe("resultsMatch, bird semantics (set of row tuples)", () => {
  const m = (pred: Row[], gold: Row[]) => resultsMatch(pred, gold, "bird");
  it("ignores row order and duplicates", () => {
    expect(m([[1n], [2n]], [[2n], [1n]])).toBe(true);
    expect(m([[1n], [1n], [2n]], [[2n], [1n]])).toBe(true);
    expect(m([[1n]], [[1n], [2n]])).toBe(false);
  });
  it("makes column order matter", () => {
    expect(m([["a", 1n]], [[1n, "a"]])).toBe(false);
    expect(m([["a", 1n]], [["a", 1n]])).toBe(true);
    expect(m([["a"]], [["a", 1n]])).toBe(false);
  });
  it("compares values as Python does", () => {
    expect(m([[1n]], [[1.0]])).toBe(true); // 1 == 1.0
    expect(m([[2n ** 60n]], [[2 ** 60]])).toBe(true); // exact, beyond 2^53
    expect(m([[2n ** 53n + 1n]], [[2 ** 53]])).toBe(false);
    expect(m([[1.5]], [[1n]])).toBe(false);
    expect(m([["1"]], [[1n]])).toBe(false); // '1' != 1
    expect(m([["1.0"]], [[1.0]])).toBe(false);
    expect(m([[null]], [[null]])).toBe(true); // None == None
    expect(m([[null]], [[""]])).toBe(false);
    expect(m([[bytes(97)]], [["a"]])).toBe(false); // bytes != str
    expect(m([[bytes(1, 2)]], [[bytes(1, 2)]])).toBe(true);
    expect(m([[0.1 + 0.2]], [[0.3]])).toBe(false);
    expect(m([[-0]], [[0n]])).toBe(true);
  });
  it("treats two empty results as equal, empty vs rows as different", () => {
    expect(m([], [])).toBe(true);
    expect(m([], [[null]])).toBe(false);
  });
});

describe("resultsMatch, spider semantics (test-suite-sql-eval result_eq)", () => {
  const m = (pred: Row[], gold: Row[], orderMatters = false) => resultsMatch(pred, gold, "spider", { orderMatters });
  it("compares bags of rows: duplicates count, order ignored unless asked", () => {
    expect(m([[1n], [2n]], [[2n], [1n]])).toBe(true);
    expect(m([[1n], [1n], [2n]], [[1n], [2n], [2n]])).toBe(false);
    expect(m([[1n], [2n]], [[1n], [2n], [2n]])).toBe(false);
    expect(m([[1n], [2n]], [[2n], [1n]], true)).toBe(false);
    expect(m([[1n], [2n]], [[1n], [2n]], true)).toBe(true);
  });
  it("allows a consistent column permutation", () => {
    expect(m([["a", 1n], ["b", 2n]], [[1n, "a"], [2n, "b"]])).toBe(true);
    expect(m([["a", 1n], ["b", 2n]], [[2n, "a"], [1n, "b"]])).toBe(false); // not one permutation for all rows
    expect(m([["b", 2n], ["a", 1n]], [[1n, "a"], [2n, "b"]], true)).toBe(false);
    expect(m([["a", 1n], ["b", 2n]], [[1n, "a"], [2n, "b"]], true)).toBe(true);
    // More than three columns (where the official code samples rows to prune permutations).
    const gold: Row[] = [[1n, 2n, 3n, 4n, "x"], [5n, 6n, 7n, 8n, "y"], [1n, 2n, 3n, 4n, "x"]];
    const pred: Row[] = gold.map((r) => [r[4]!, r[2]!, r[0]!, r[3]!, r[1]!]);
    expect(m(pred, gold)).toBe(true);
    expect(m(pred, gold, true)).toBe(true);
    expect(m([pred[1]!, pred[0]!, pred[2]!], gold, true)).toBe(false);
    // Same column bags, but no single permutation pairs them row by row.
    expect(m([[1n, 1n], [2n, 2n]], [[1n, 2n], [2n, 1n]])).toBe(false);
    // Identical columns are interchangeable.
    expect(m([[1n, 1n, 3n, 1n], [2n, 2n, 4n, 2n]], [[3n, 1n, 1n, 1n], [4n, 2n, 2n, 2n]])).toBe(true);
  });
  it("reproduces its edge cases", () => {
    expect(m([], [])).toBe(true);
    expect(m([["a"]], [["a", "b"]])).toBe(false); // column count differs
    expect(m([], [[1n]])).toBe(false);
    expect(m([[1n]], [[1.0]])).toBe(true);
    expect(m([["1"]], [[1n]])).toBe(false);
    expect(m([[null, 1n]], [[1n, null]])).toBe(true);
    // quick_rej sorts each row by str(value) + str(type): 1 sorts after '1.0' but 1.0 before it,
    // so the official scorer rejects this pair although the rows are equal under ==.
    expect(m([[1n, "1.0"]], [[1.0, "1.0"]])).toBe(false);
    expect(resultsMatch([[1n, "1.0"]], [[1.0, "1.0"]], "bird")).toBe(true);
  });
});

describe("resultFingerprint", () => {
  it("is equal exactly when results match under bird semantics", () => {
    const cases: Array<[Row[], Row[]]> = [
      [[[1n], [2n]], [[2n], [1n], [1n]]],
      [[[1n, "a"]], [["a", 1n]]],
      [[[1n]], [[1.0]]],
      [[["1"]], [[1n]]],
      [[[null]], [[null]]],
      [[], []],
      [[[bytes(97)]], [["a"]]],
      [[["a", "bc"]], [["ab", "c"]]],
      [[[2n ** 60n]], [[2 ** 60]]],
    ];
    for (const [a, b] of cases) {
      expect(resultFingerprint(a) === resultFingerprint(b)).toBe(resultsMatch(a, b, "bird"));
    }
    expect(resultFingerprint([[1n]])).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("query rewriting", () => {
  it("the statement rules read a ';' inside a string or after the statement alike, with or without tokenizing", () => {
    // Texts without comment marks and with at most a trailing ';' skip the tokenizer: each answer is the tokenizer's.
    const cases: Array<[string, "empty" | "one" | "several"]> = [
      ["SELECT 1", "one"], ["SELECT 1;", "one"], ["SELECT 1 ;\n ", "one"], [" ; ", "empty"], [";", "empty"], ["", "empty"], [" \n", "empty"],
      ["SELECT ';'", "one"], ["SELECT 'a;", "one"], ["SELECT 1; SELECT 2", "several"], ["SELECT 1;;", "several"], ["SELECT ';' ;", "one"],
      ["-- c;", "empty"], ["SELECT 1 -- x;\n", "one"], ["SELECT 1; -- done", "one"],
    ];
    for (const [sql, expected] of cases) expect(pythonStatements(sql), JSON.stringify(sql)).toBe(expected);
    expect(firstStatement("SELECT 1 ;  ")).toEqual({ sql: "SELECT 1 ;  ", dropped: false });
    expect(firstStatement("SELECT 'a;b'")).toEqual({ sql: "SELECT 'a;b'", dropped: false });
    expect(firstStatement("SELECT 1; SELECT 2")).toEqual({ sql: "SELECT 1; ", dropped: true });
    expect(removeDistinct("SELECT a FROM t;")).toBe("SELECT a FROM t;");
    expect(removeDistinct("SELECT DISTINCT a FROM t; SELECT DISTINCT b FROM t")).toBe("SELECT  a FROM t; ");
  });
  it("removeDistinct drops DISTINCT keyword tokens only", () => {
    expect(removeDistinct("SELECT DISTINCT a FROM t")).toBe("SELECT  a FROM t");
    expect(removeDistinct("SELECT count(distinct a) FROM t")).toBe("SELECT count( a) FROM t");
    expect(removeDistinct("SELECT a FROM t WHERE b = 'distinct' -- distinct\n")).toBe("SELECT a FROM t WHERE b = 'distinct' -- distinct\n");
    expect(removeDistinct('SELECT "distinct", distinct_count FROM t')).toBe('SELECT "distinct", distinct_count FROM t');
  });
  it("spider: rewrites, strips DISTINCT unless kept, and orders when gold says ORDER BY", () => {
    const p = prepareQueries("SELECT DISTINCT a FROM t WHERE b > = 1", "SELECT DISTINCT a FROM t ORDER BY a", "spider");
    expect(p).toEqual({ pred: "SELECT  a FROM t WHERE b >= 1", gold: "SELECT  a FROM t ORDER BY a", orderMatters: true });
    expect(prepareQueries("SELECT DISTINCT a FROM t", "SELECT a FROM t", "spider", true).pred).toBe("SELECT DISTINCT a FROM t");
    expect(prepareQueries("x", "SELECT a FROM t ORDER  BY a", "spider").orderMatters).toBe(false); // substring test, as official
    expect(prepareQueries("SELECT DISTINCT a FROM t ORDER BY a", "SELECT a FROM t ORDER BY a", "bird")).toEqual({
      pred: "SELECT DISTINCT a FROM t ORDER BY a",
      gold: "SELECT a FROM t ORDER BY a",
      orderMatters: false,
    });
  });
  it("pyFloatRepr matches Python's repr", () => {
    const cases: Array<[number, string]> = [
      [1, "1.0"], [0.1, "0.1"], [-0, "-0.0"], [1.5e-5, "1.5e-05"], [0.0001, "0.0001"], [1e16, "1e+16"],
      [123456789012345680, "1.2345678901234568e+17"], [1e15, "1000000000000000.0"], [2.5e-300, "2.5e-300"], [Infinity, "inf"],
      [9.999999999999999e-5, "9.999999999999999e-05"], [9999999999999998, "9999999999999998.0"], [-7, "-7.0"], [0.1 + 0.2, "0.30000000000000004"], [-1234.5, "-1234.5"],
    ];
    for (const [x, s] of cases) expect(pyFloatRepr(x)).toBe(s);
  });
});

describe("VES helpers", () => {
  it("cleanAbnormal keeps values within mean ± 3 std", () => {
    const values = [...Array.from({ length: 20 }, () => 1), 100];
    expect(cleanAbnormal(values)).toEqual(Array.from({ length: 20 }, () => 1));
    expect(cleanAbnormal([2, 2, 2])).toEqual([2, 2, 2]);
  });
  it("vesReward follows BIRD's R-VES buckets", () => {
    expect([0, 0.1, 0.25, 0.5, 0.99, 1, 1.99, 2, 10].map(vesReward)).toEqual([0, 0.25, 0.5, 0.75, 0.75, 1, 1, 1.25, 1.25]);
  });
});

describe("scoring against a database", () => {
  let dir: string;
  let dbPath: string;
  let executor: ReturnType<typeof createExecutor>;
  const q = (goldSql: string, extra: Partial<Question> = {}): Question => ({
    id: "q1",
    dbId: "people",
    dbPath,
    question: "?",
    evidence: "",
    goldSql,
    difficulty: "simple",
    ...extra,
  });

  beforeAll(() => {
    dir = makeTempDir("sqlmend-score-");
    dbPath = makeDb(
      dir,
      "people.sqlite",
      `CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT, city TEXT, age INTEGER, score REAL);
       INSERT INTO people VALUES (1, 'Ana', 'Oslo', 30, 1.0), (2, 'Ben', 'Rome', 25, 2.5),
         (3, 'Cy', 'Oslo', 41, NULL), (4, 'Di', 'Rome', 25, 2.5);`,
    );
    executor = createExecutor({ size: 2 });
  });
  afterAll(async () => {
    await executor.close();
    removeTempDir(dir);
  });

  it("bird: a set comparison where 1 == 1.0 and '1' != 1", async () => {
    const bird = { executor, semantics: "bird" as const };
    expect((await scoreQuestion(q("SELECT age FROM people"), "SELECT DISTINCT age FROM people ORDER BY age DESC", bird)).correct).toBe(true);
    expect((await scoreQuestion(q("SELECT count(*) FROM people"), "SELECT 4.0", bird)).correct).toBe(true);
    expect((await scoreQuestion(q("SELECT count(*) FROM people"), "SELECT '4'", bird)).correct).toBe(false);
    expect((await scoreQuestion(q("SELECT name, age FROM people"), "SELECT age, name FROM people", bird)).correct).toBe(false);
    const v = await scoreQuestion(q("SELECT name FROM people WHERE age > 100"), "SELECT city FROM people WHERE 0", bird);
    expect(v).toMatchObject({ id: "q1", correct: true, predRows: 0, goldRows: 0, difficulty: "simple" });
  });

  it("an error or a timeout of the prediction scores 0 with a one-line reason", async () => {
    const bird = { executor, semantics: "bird" as const };
    const bad = await scoreQuestion(q("SELECT name FROM people"), "SELECT nam FROM people", bird);
    expect(bad.correct).toBe(false);
    expect(bad.predError).toMatch(/^sql: no such column: nam/);
    expect(bad.goldRows).toBe(4);
    const slow = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
    const timeout = await scoreQuestion(q("SELECT count(*) FROM people"), slow, { ...bird, timeoutMs: 300 });
    expect(timeout.correct).toBe(false);
    expect(timeout.predError).toMatch(/^timeout: /);
    const refused = await scoreQuestion(q("SELECT 1"), "DELETE FROM people", bird);
    expect(refused).toMatchObject({ correct: false });
    expect(refused.predError).toMatch(/^rejected: the prediction writes \(a DELETE statement\)/);
    expect(refused.writes).toBe(true);
    const goldBad = await scoreQuestion(q("SELECT nope FROM people"), "SELECT 1", bird);
    expect(goldBad.correct).toBe(false);
    expect(goldBad.goldError).toMatch(/^sql: /);
    const missing = await scoreQuestion(q("SELECT 1", { dbPath: path.join(dir, "missing.sqlite") }), "SELECT 1", bird);
    expect(missing.correct).toBe(false);
    expect(missing.goldError).toMatch(/^database: /);
  });

  it("spider: bags of rows, ORDER BY in gold makes order matter, columns may be permuted", async () => {
    const spider = { executor, semantics: "spider" as const };
    // Duplicates count: gold has two rows with age 25.
    expect((await scoreQuestion(q("SELECT age FROM people"), "SELECT DISTINCT age FROM people", spider)).correct).toBe(true); // DISTINCT stripped
    expect((await scoreQuestion(q("SELECT age FROM people"), "SELECT age FROM people GROUP BY age", spider)).correct).toBe(false);
    expect((await scoreQuestion(q("SELECT name FROM people ORDER BY age, name"), "SELECT name FROM people ORDER BY age DESC, name", spider)).correct).toBe(false);
    expect((await scoreQuestion(q("SELECT name FROM people ORDER BY age, name"), "SELECT name FROM people ORDER BY age, name", spider)).correct).toBe(true);
    expect((await scoreQuestion(q("SELECT name FROM people"), "SELECT name FROM people ORDER BY name DESC", spider)).correct).toBe(true);
    expect((await scoreQuestion(q("SELECT name, city FROM people"), "SELECT city, name FROM people", spider)).correct).toBe(true);
    expect((await scoreQuestion(q("SELECT name, city FROM people"), "SELECT city, name FROM people", { executor, semantics: "bird" })).correct).toBe(false);
  });

  it("spider: DISTINCT is stripped from both queries unless keepDistinct", async () => {
    const gold = q("SELECT DISTINCT city FROM people");
    expect((await scoreQuestion(gold, "SELECT city FROM people", { executor, semantics: "spider" })).correct).toBe(true);
    expect((await scoreQuestion(gold, "SELECT city FROM people", { executor, semantics: "spider", keepDistinct: true })).correct).toBe(false);
    expect((await scoreQuestion(gold, "SELECT DISTINCT city FROM people", { executor, semantics: "spider", keepDistinct: true })).correct).toBe(true);
  });

  it("runs double-quoted string literals as Python's sqlite3 does", async () => {
    const v = await scoreQuestion(q(`SELECT name FROM people WHERE city = "Oslo" AND "name" != "Cy"`), "SELECT 'Ana'", { executor, semantics: "bird" });
    expect(v).toMatchObject({ correct: true, goldRows: 1 });
  });

  it("VES: correct predictions get a time ratio and reward, wrong ones 0", async () => {
    const ves = { executor, semantics: "bird" as const, ves: { iterations: 3 } };
    const right = await scoreQuestion(q("SELECT name FROM people"), "SELECT name FROM people", ves);
    expect(right.correct).toBe(true);
    expect(right.timeRatio).toBeGreaterThan(0);
    expect([0.25, 0.5, 0.75, 1, 1.25]).toContain(right.reward);
    const wrong = await scoreQuestion(q("SELECT name FROM people"), "SELECT city FROM people", ves);
    expect(wrong).toMatchObject({ correct: false, timeRatio: 0, reward: 0 });
  });

  it("compares inside the worker with the same verdicts as comparing full results here, batched or not", async () => {
    // The same pool seen without compare(): scoreQuestion then fetches both results and compares them in this process.
    const rowsHere: SqlExecutor = { run: (db, sql, o) => executor.run(db, sql, o), close: async () => {} };
    const pairs: Array<[string, string]> = [
      ["SELECT age FROM people", "SELECT DISTINCT age FROM people ORDER BY age DESC"],
      ["SELECT count(*) FROM people", "SELECT 4.0"],
      ["SELECT count(*) FROM people", "SELECT '4'"],
      ["SELECT name, city FROM people", "SELECT city, name FROM people"],
      ["SELECT name FROM people ORDER BY age, name", "SELECT name FROM people ORDER BY age DESC, name"],
      ["SELECT name FROM people ORDER BY age, name", "SELECT name FROM people ORDER BY age, name"],
      ["SELECT age FROM people", "SELECT age FROM people GROUP BY age"],
      ["SELECT score FROM people", "SELECT score FROM people WHERE score IS NOT NULL"],
      [`SELECT name FROM people WHERE city = "Oslo"`, `SELECT name FROM people WHERE city = "Oslo" AND "x" = "x"`],
      ["SELECT name FROM people", "SELECT nam FROM people"],
      ["SELECT nope FROM people", "SELECT 1"],
      ["SELECT 1", "DELETE FROM people"],
      ["SELECT x'00ff'", "SELECT x'00ff'"],
      ["SELECT 9007199254740993", "SELECT 9007199254740992.0"],
      // An integer past 2^53 after other rows: read as doubles first (BIRD), then again exact.
      ["SELECT 1 UNION ALL SELECT 9007199254740993", "SELECT 1 UNION ALL SELECT 9007199254740992"],
    ];
    for (const semantics of ["bird", "spider"] as const) {
      const inWorker = await Promise.all(pairs.map(([gold, pred], i) => scoreQuestion(q(gold, { id: String(i) }), pred, { executor, semantics })));
      const here = [];
      for (const [i, [gold, pred]] of pairs.entries()) here.push(await scoreQuestion(q(gold, { id: String(i) }), pred, { executor: rowsHere, semantics }));
      expect(inWorker).toEqual(here);
    }
    const outcome = await executor.compare!(dbPath, "SELECT name FROM people", "SELECT name FROM people", { semantics: "bird", fingerprint: true });
    const rows = await executor.run(dbPath, "SELECT name FROM people");
    expect(outcome).toMatchObject({ correct: true, pred: { ok: true, rowCount: 4 }, gold: { ok: true, rowCount: 4 } });
    expect(outcome.fingerprint).toBe(resultFingerprint(rows.ok ? rows.rows : []));
    expect(outcome).not.toHaveProperty("pred.rows");
    const dqs = await executor.compare!(dbPath, `SELECT name FROM people WHERE city = "Rome"`, "SELECT 'Ben' UNION SELECT 'Di'", { semantics: "bird" });
    expect(dqs).toMatchObject({ correct: true, pred: { sql: "SELECT name FROM people WHERE city = 'Rome'" } });
  });

  it("a runaway query in a batch of comparisons times out alone; the others keep their verdicts", async () => {
    const slow = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
    const preds = Array.from({ length: 12 }, (_, i) => (i === 5 ? slow : "SELECT count(*) FROM people"));
    const started = Date.now();
    const verdicts = await Promise.all(
      preds.map((pred, i) => scoreQuestion(q("SELECT count(*) FROM people", { id: String(i) }), pred, { executor, semantics: "bird", timeoutMs: 300 })),
    );
    expect(verdicts.map((v) => v.correct)).toEqual(preds.map((p) => p !== slow));
    expect(verdicts[5]!.predError).toMatch(/^timeout: /);
    expect(verdicts[5]!.goldRows).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("scoreAll: per difficulty, missing and unmatched predictions, never dies", async () => {
    const questions = [
      q("SELECT count(*) FROM people", { id: "a", difficulty: "simple" }),
      q("SELECT name FROM people", { id: "b", difficulty: "simple" }),
      q("SELECT city FROM people", { id: "c", difficulty: "moderate" }),
      q("SELECT age FROM people", { id: "d", difficulty: "challenging" }),
    ];
    const predictions = new Map([
      ["a", "SELECT 4"],
      ["b", "SELECT nope"],
      ["c", "SELECT city FROM people"],
      ["zz", "SELECT 1"],
    ]);
    const seen: string[] = [];
    const r = await scoreAll(questions, predictions, { executor, semantics: "bird", concurrency: 3, ves: true, onVerdict: (v) => seen.push(v.id) });
    expect(seen.sort()).toEqual(["a", "b", "c", "d"]);
    expect(r.verdicts.map((v) => [v.id, v.correct])).toEqual([["a", true], ["b", false], ["c", true], ["d", false]]);
    expect(r.verdicts[3]!.predError).toBe("no prediction");
    expect(r).toMatchObject({ semantics: "bird", count: 4, correct: 2, ex: 50, missingPredictions: 1, unmatchedPredictions: ["zz"] });
    expect(r.byDifficulty.map((d) => [d.difficulty, d.count, d.correct, d.ex])).toEqual([
      ["simple", 2, 1, 50],
      ["moderate", 1, 1, 100],
      ["challenging", 1, 0, 0],
    ]);
    expect(r.ves).toMatchObject({ iterations: 100, officialIterations: 100 });
    expect(r.ves!.ves).toBeGreaterThan(0);

    const broken: SqlExecutor = {
      run: () => Promise.reject(new Error("boom\nsecond line")),
      close: async () => {},
    };
    const r2 = await scoreAll(questions.slice(0, 2), predictions, { executor: broken, semantics: "spider" });
    expect(r2.verdicts.map((v) => v.predError)).toEqual(["internal: boom second line", "internal: boom second line"]);
    expect(r2.ex).toBe(0);
  });
});

describe("prediction files", () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTempDir("sqlmend-pred-");
  });
  afterAll(() => removeTempDir(dir));
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  async function expectUserError(promise: Promise<unknown>, ...fragments: string[]) {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).not.toContain("\n");
    for (const f of fragments) expect((error as Error).message).toContain(f);
  }

  it("reads BIRD's predict_dev.json", async () => {
    const p = file(
      "predict_dev.json",
      JSON.stringify({ "0": "SELECT 1\t----- bird -----\tcalifornia_schools", "1": "SELECT\n  2 ", "2": 0, "5": "SELECT 5\t----- bird -----\tx" }),
    );
    const r = await readPredictionFile(p);
    expect(r.format).toBe("bird");
    expect([...r.predictions]).toEqual([["0", "SELECT 1"], ["1", "SELECT\n  2"], ["5", "SELECT 5"]]);
  });

  it("reads Spider's text format, with or without db ids, a blank line an empty prediction", async () => {
    const p = file("pred.sql", "SELECT a FROM t\tconcert_singer\n\nSELECT b FROM u WHERE c = 'x\ty'\r\nSELECT 3\n");
    const r = await readPredictionFile(p);
    expect(r.format).toBe("spider");
    expect([...r.predictions]).toEqual([["0", "SELECT a FROM t"], ["1", ""], ["2", "SELECT b FROM u WHERE c = 'x\ty'"], ["3", "SELECT 3"]]);
    expect(r.lines).toBe(4);
  });

  it("rejects malformed files with a one-line UserError naming the file and line or key", async () => {
    await expectUserError(readPredictions(file("bad.json", '{\n  "0": "SELECT 1",\n  "1": SELECT\n}')), "bad.json", "not valid JSON", "line 3");
    await expectUserError(readPredictions(file("bad2.json", JSON.stringify({ "0": "SELECT 1", "7": 12 }))), "bad2.json", 'key "7"', "got number");
    await expectUserError(readPredictions(file("empty.sql", "\n\n")), "empty.sql", "no predictions");
    await expectUserError(readPredictions(file("bin.sql", "SELECT 1\nSEL\0ECT\n")), "bin.sql", "line 2");
    await expectUserError(readPredictions(path.join(dir, "missing.json")), "missing.json", "cannot read");
  });

  it("writes both formats so that they read back", async () => {
    const rows = [
      { id: "0", sql: "SELECT a\nFROM t", dbId: "db1" },
      { id: "1", sql: "", dbId: "db2" },
      { id: "2", sql: "SELECT 'it''s'", dbId: "db1" },
    ];
    const bird = path.join(dir, "out.json");
    await writeBirdPredictions(bird, rows);
    expect([...(await readPredictions(bird))]).toEqual([["0", "SELECT a\nFROM t"], ["1", ""], ["2", "SELECT 'it''s'"]]);
    const spider = path.join(dir, "out.sql");
    await writeSpiderPredictions(spider, rows);
    expect([...(await readPredictions(spider))]).toEqual([["0", "SELECT a FROM t"], ["1", "SELECT"], ["2", "SELECT 'it''s'"]]);
    await writeSpiderPredictions(spider, rows.map(({ sql }) => ({ sql })));
    expect((await readPredictions(spider)).get("0")).toBe("SELECT a FROM t");
  });
});
