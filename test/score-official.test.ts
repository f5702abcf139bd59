/**
 * Scores that agree with the official scorers around the verdict rule (issue 29): how predictions pair with
 * questions, how files are read, several statements, questions without gold, runaway queries, locked databases,
 * R-VES timing, several database roots.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Question } from "../state/question.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { BIRD_SEPARATOR, scoreAll } from "../tools/benchmarks/score.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";
import { goldResponder, runCli } from "./support/cli.ts";

const RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c";

const dir = makeTempDir();
const db = makeDb(dir, "shop.sqlite", "CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1),(2),(3),(4),(5),(6),(7),(8),(9),(10),(11),(12);");
afterAll(() => removeTempDir(dir));

const question = (i: number, extra: Partial<Question> = {}): Question => ({
  id: String(i),
  dbId: "shop",
  dbPath: db,
  question: `q${i}`,
  evidence: "",
  goldSql: `SELECT x FROM t WHERE x = ${i + 1}`,
  ...extra,
});

describe("runaway queries cost only their own verdicts", () => {
  const questions = Array.from({ length: 12 }, (_, i) => question(i));
  const runaways = new Set([1, 4, 7, 10]);
  const predictions = new Map(questions.map((q, i) => [q.id, runaways.has(i) ? RUNAWAY : q.goldSql!]));

  it.each([1, 3])("twelve questions, four runaways in one batch: 8/12 at pool size %i, the same verdicts", async (size) => {
    const executor = createExecutor({ size });
    try {
      const report = await scoreAll(questions, predictions, { executor, semantics: "bird", timeoutMs: 400 });
      expect(report.correct).toBe(8);
      for (const [i, v] of report.verdicts.entries()) {
        if (runaways.has(i)) expect(v.predError).toMatch(/^timeout:/);
        else expect(v, `question ${i}`).toMatchObject({ correct: true });
      }
    } finally {
      await executor.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// Pairing predictions with questions (points 1 and 2)

const SHOP = "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, price REAL); INSERT INTO item VALUES (1,'pen',1.5),(2,'ink',4.0),(3,'pad',2.25);";
const ZOO = "CREATE TABLE animal(id INTEGER PRIMARY KEY, kind TEXT, legs INTEGER); INSERT INTO animal VALUES (1,'ant',6),(2,'cat',4),(3,'owl',2);";

/** A BIRD mini-dev folder whose question_ids are not in file order, one of them repeated (the official file allows it). */
function miniDevFixture(root: string) {
  makeDb(root, "dev_databases/shop/shop.sqlite", SHOP);
  makeDb(root, "dev_databases/zoo/zoo.sqlite", ZOO);
  const items = [
    { question_id: 41, db_id: "zoo", question: "How many legs has the owl?", evidence: "", SQL: "SELECT legs FROM animal WHERE kind = 'owl'", difficulty: "simple" },
    { question_id: 7, db_id: "shop", question: "What does ink cost?", evidence: "", SQL: "SELECT price FROM item WHERE name = 'ink'", difficulty: "moderate" },
    { question_id: 19, db_id: "shop", question: "Which items cost under 2?", evidence: "", SQL: "SELECT name FROM item WHERE price < 2", difficulty: "simple" },
    { question_id: 7, db_id: "zoo", question: "Which animal has six legs?", evidence: "", SQL: "SELECT kind FROM animal WHERE legs = 6", difficulty: "challenging" },
    { question_id: 3, db_id: "shop", question: "How many items are there?", evidence: "", SQL: "SELECT count(*) FROM item", difficulty: "simple" },
  ];
  fs.writeFileSync(path.join(root, "mini_dev_sqlite.json"), JSON.stringify(items, null, 2));
  // The official gold file: "SQL\tdb_id" per line, in the question file's order.
  fs.writeFileSync(path.join(root, "mini_dev_sqlite_gold.sql"), items.map((i) => `${i.SQL}\t${i.db_id}`).join("\n") + "\n");
  return items;
}

describe("pairing predictions as the official scorers do", () => {
  let root: string;
  let server: OpenAIServer;
  let items: ReturnType<typeof miniDevFixture>;
  const home = () => ({ OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(root, "home") });
  const sqlmend = (...args: string[]) => runCli(args, root, home());
  const scoreJson = async (...args: string[]) => {
    const r = await sqlmend("score", ...args, "--json");
    expect(r.code, r.err).toBe(0);
    return JSON.parse(r.out) as { count: number; correct: number; verdicts: { id: string; correct: boolean }[]; skipped: { id: string }[] };
  };
  beforeAll(async () => {
    root = makeTempDir();
    items = miniDevFixture(path.join(root, "minidev"));
    const own = path.join(root, "own");
    makeDb(own, "dbs/shop.sqlite", SHOP);
    makeDb(own, "dbs/zoo.sqlite", ZOO);
    const ownQuestions = [
      { id: "q-b", db_id: "shop", question: "Name the cheapest item.", gold: "SELECT name FROM item ORDER BY price LIMIT 1" },
      { id: "q-a", db_id: "gone", question: "A question on a database that is not there.", gold: "SELECT 1" },
      { id: "q-c", db_id: "zoo", question: "How many animals are there?", gold: "SELECT count(*) FROM animal" },
      { id: "q-d", db_id: "zoo", question: "Which animal has four legs?", gold: "SELECT kind FROM animal WHERE legs = 4" },
    ];
    fs.writeFileSync(path.join(own, "questions.jsonl"), ownQuestions.map((q) => JSON.stringify(q)).join("\n") + "\n");
    const questions = [...(await loadBenchmark(path.join(root, "minidev"))).questions, ...ownQuestions.map((q) => ({ question: q.question, goldSql: q.gold }) as Question)];
    server = await startOpenAIServer({ respond: goldResponder(questions) });
  });
  afterAll(async () => {
    await server?.close();
    removeTempDir(root);
  });

  it("mini-dev: a repeated question_id is read as its own question, in file order", async () => {
    const bench = await loadBenchmark(path.join(root, "minidev"));
    expect(bench.split).toBe("minidev");
    expect(bench.questions.map((q) => q.id)).toEqual(["41", "7", "19", "7_2", "3"]);
  });

  it("mini-dev: an official-style predictions file (keys 0..n-1, by position) of a perfect system scores 100%", async () => {
    const official: Record<string, string> = {};
    items.forEach((item, i) => (official[String(i)] = `${item.SQL}${BIRD_SEPARATOR}${item.db_id}`));
    const file = path.join(root, "predict_mini_dev_official.json");
    fs.writeFileSync(file, JSON.stringify(official, null, 4));
    const report = await scoreJson("--bench", path.join(root, "minidev"), "--pred", file);
    expect(report).toMatchObject({ count: 5, correct: 5 });
    // Its keys are not ids: any keys, the entries in file order, pair the same way.
    const otherKeys: Record<string, string> = {};
    items.forEach((item, i) => (otherKeys[`entry ${i}`] = `${item.SQL}${BIRD_SEPARATOR}${item.db_id}`));
    fs.writeFileSync(file, JSON.stringify(otherKeys));
    expect(await scoreJson("--bench", path.join(root, "minidev"), "--pred", file)).toMatchObject({ count: 5, correct: 5 });
  });

  it("mini-dev: eval writes both files in file order, positional keys; they re-score 100% and pair as the official scorer pairs them", async () => {
    const out = path.join(root, "run-minidev");
    const run = await sqlmend("eval", "baseline", "--bench", path.join(root, "minidev"), "--out", out, "--model", "test-model", "--base-url", server.url, "--checkpoints", "memory");
    expect(run.code, run.err).toBe(0);
    const text = fs.readFileSync(path.join(out, "predict_minidev.json"), "utf8");
    const written = JSON.parse(text) as Record<string, string>;
    // The official reader takes the values in the order written and zips them with the gold file's lines.
    const keysInOrder = [...text.matchAll(/^\s*"([^"]+)":/gm)].map((m) => m[1]);
    expect(keysInOrder).toEqual(["0", "1", "2", "3", "4"]);
    const gold = fs.readFileSync(path.join(root, "minidev", "mini_dev_sqlite_gold.sql"), "utf8").trim().split("\n");
    keysInOrder.forEach((key, i) => expect(written[key!]!.split(BIRD_SEPARATOR)).toEqual(gold[i]!.split("\t")));
    expect(fs.readFileSync(path.join(out, "pred_minidev.sql"), "utf8").trim().split("\n")).toEqual(gold);
    for (const file of ["predict_minidev.json", "pred_minidev.sql"]) {
      expect(await scoreJson("--bench", path.join(root, "minidev"), "--pred", path.join(out, file))).toMatchObject({ count: 5, correct: 5 });
    }
  });

  it("own data with ids: text predictions pair by position in the question file; a question without its database keeps its place", async () => {
    const own = path.join(root, "own");
    const sel = ["--questions", path.join(own, "questions.jsonl"), "--db-dir", path.join(own, "dbs")];
    const out = path.join(root, "run-own");
    const run = await sqlmend("eval", "baseline", ...sel, "--out", out, "--model", "test-model", "--base-url", server.url, "--checkpoints", "memory");
    expect(run.code, run.err).toBe(0);
    const lines = fs.readFileSync(path.join(out, "pred_dev.sql"), "utf8").split("\n");
    expect(lines.slice(0, 4).map((l) => l.split("\t")[1])).toEqual(["shop", "gone", "zoo", "zoo"]);
    const report = await scoreJson(...sel, "--pred", path.join(out, "pred_dev.sql"));
    expect(report).toMatchObject({ count: 3, correct: 3 });
    expect(report.skipped.map((s) => s.id)).toEqual(["q-a"]);
    expect(await scoreJson(...sel, "--pred", path.join(out, "predict_dev.json"))).toMatchObject({ count: 3, correct: 3 });

    // --initial reads the same text file by position too (as-given: the initial SQL scored as it is).
    const given = path.join(root, "run-own-given");
    const asGiven = await sqlmend("eval", "as-given", ...sel, "--initial", path.join(out, "pred_dev.sql"), "--correct", "all", "--out", given, "--model", "test-model", "--base-url", server.url, "--checkpoints", "memory");
    expect(asGiven.code, asGiven.err).toBe(0);
    const records = fs.readFileSync(path.join(given, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; correct: boolean });
    expect(records.map((r) => [r.id, r.correct]).sort()).toEqual([["q-b", true], ["q-c", true], ["q-d", true]]);

    // --limit counts in file order, the skipped question in its place.
    const limited = path.join(root, "run-own-limit");
    const two = await sqlmend("eval", "baseline", ...sel, "--limit", "2", "--out", limited, "--model", "test-model", "--base-url", server.url, "--checkpoints", "memory");
    expect(two.code, two.err).toBe(0);
    expect(fs.readFileSync(path.join(limited, "pred_dev.sql"), "utf8").trim().split("\n").map((l) => l.split("\t")[1])).toEqual(["shop", "gone"]);
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// Several statements in one prediction (point 3)

describe("a prediction with two statements", () => {
  const q = question(0);
  const predictions = new Map([[q.id, "SELECT x FROM t WHERE x = 1; SELECT 'second'"]]);
  let executor: ReturnType<typeof createExecutor>;
  beforeAll(() => void (executor = createExecutor({ size: 1 })));
  afterAll(() => executor.close());

  it("spider, DISTINCT removed (test-suite-sql-eval's default): the first statement is judged, the drop said and counted", async () => {
    const report = await scoreAll([q], predictions, { executor, semantics: "spider" });
    expect(report.verdicts[0]).toMatchObject({ correct: true, note: expect.stringMatching(/statements after the first dropped/) });
    expect(report.droppedStatements).toEqual(["0"]);
  });

  it("spider with --keep-distinct, and bird: the string runs as it is, and fails as in Python's sqlite3", async () => {
    for (const opts of [{ semantics: "spider" as const, keepDistinct: true }, { semantics: "bird" as const }]) {
      const report = await scoreAll([q], predictions, { executor, ...opts });
      expect(report.verdicts[0]).toMatchObject({ correct: false, predError: expect.stringMatching(/several statements/) });
      expect(report.droppedStatements).toEqual([]);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// Questions without gold (point 4)

describe("questions without gold are not scored", () => {
  it("score: in a mixed file, a question without gold and without a prediction is not counted wrong", async () => {
    const executor = createExecutor({ size: 1 });
    try {
      const questions = [question(0), question(1), question(2), question(3, { goldSql: undefined }), question(4, { goldSql: undefined })];
      const predictions = new Map([["0", "SELECT x FROM t WHERE x = 1"], ["1", "SELECT 42"], ["4", "SELECT 1"]]);
      const report = await scoreAll(questions, predictions, { executor, semantics: "bird" });
      expect(report).toMatchObject({ count: 3, correct: 1, noGold: 2, missingPredictions: 1 });
      expect(report.verdicts[3]).toMatchObject({ goldError: "no gold SQL" });
    } finally {
      await executor.close();
    }
  });

  it("compare: runs without gold get no EX, no 'both wrong' and no McNemar test; SQL agreement, errors and cost instead", async () => {
    const { main } = await import("../cli/main.ts");
    const root = makeTempDir();
    try {
      const rec = (id: string, sql: string, extra: Record<string, unknown> = {}) => ({ id, dbId: "shop", question: `q${id}`, sql, correct: false, goldError: "no gold SQL", inputTokens: 10, outputTokens: 0, calls: 1, latencyMs: 100, iterations: 0, usageByRole: {}, thread: `t${id}`, ...extra });
      const write = (name: string, records: object[]) => {
        const out = path.join(root, name);
        fs.mkdirSync(out);
        fs.writeFileSync(path.join(out, "results.jsonl"), records.map((r) => JSON.stringify(r)).join("\n") + "\n");
        return out;
      };
      const a = write("a", [rec("1", "SELECT 1"), rec("2", "SELECT 2"), rec("3", "SELECT x", { predError: "sql: no such column: x" })]);
      const b = write("b", [rec("1", "SELECT  1"), rec("2", "SELECT 3"), rec("3", "SELECT 4")]);
      const out: string[] = [];
      const io = { stdout: (t: string) => void out.push(t), stderr: () => {}, env: {}, cwd: root };
      expect(await main(["compare", a, b], io)).toBe(0);
      const text = out.join("");
      expect(text).toMatch(/no question has gold SQL: no EX/);
      expect(text).toMatch(/same SQL on 1 of 3/);
      expect(text).not.toMatch(/EX %|both wrong|McNemar/);
      expect(text).toMatch(/^A a \(\?\)\s+1\s+10\s/m); // one prediction failed to run; 10 tokens a question
      // Mixed: EX over the questions with gold only.
      const c = write("c", [rec("1", "SELECT 1"), { ...rec("2", "SELECT 2"), goldError: undefined, correct: true }]);
      const d = write("d", [rec("1", "SELECT 1"), { ...rec("2", "SELECT 5"), goldError: undefined, correct: false }]);
      out.length = 0;
      expect(await main(["compare", c, d, "--json"], io)).toBe(0);
      expect(JSON.parse(out.join(""))).toMatchObject({ common: 2, noGold: 1, bothCorrect: 0, neitherCorrect: 0, onlyACorrect: ["2"], a: { ex: 100 }, b: { ex: 0 } });
    } finally {
      removeTempDir(root);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// A locked database; a tab inside a text prediction (point 6)

describe("a database locked by another process", () => {
  it("is retried, then reported as that question's database error: never scored wrong, never counted", async () => {
    const { default: Database } = await import("better-sqlite3");
    const locked = makeDb(dir, "locked/shop.sqlite", "CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1),(2);");
    const holder = new Database(locked);
    holder.exec("BEGIN EXCLUSIVE; INSERT INTO t VALUES (3);"); // holds the write lock: readers get SQLITE_BUSY
    const executor = createExecutor({ size: 1, busyTimeoutMs: 20 });
    try {
      const questions = [question(0), question(1, { dbPath: locked })];
      const predictions = new Map(questions.map((q) => [q.id, q.goldSql!]));
      const report = await scoreAll(questions, predictions, { executor, semantics: "bird", lockRetryDelaysMs: [10, 10] });
      expect(report).toMatchObject({ count: 1, correct: 1, ex: 100 });
      expect(report.databaseErrors).toEqual([{ id: "1", error: `database: database is locked by another process: ${locked}` }]);
      expect(report.verdicts[1]).toMatchObject({ lockRetries: 2 });
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
      await executor.close();
    }
  });
});

describe("a text prediction with a tab before its last token", () => {
  it("keeps the whole SQL; a trailing tab and db_id is still dropped", async () => {
    const { pairPredictions, readPredictionFile } = await import("../tools/benchmarks/score.ts");
    const file = path.join(dir, "tabs.sql");
    fs.writeFileSync(file, "SELECT x FROM\tt\nSELECT x FROM t WHERE x = 2\tshop\nSELECT x FROM t WHERE x =\t3\n");
    const ordered = [question(0), question(1), question(2)];
    const paired = pairPredictions(file, await readPredictionFile(file), ordered, { pairing: "key" });
    expect([...paired.values()]).toEqual(["SELECT x FROM\tt", "SELECT x FROM t WHERE x = 2", "SELECT x FROM t WHERE x =\t3"]);
    const executor = createExecutor({ size: 1 });
    try {
      const gold = ["SELECT x FROM t", "SELECT x FROM t WHERE x = 2", "SELECT x FROM t WHERE x = 3"];
      const report = await scoreAll(ordered.map((q, i) => ({ ...q, goldSql: gold[i]! })), paired, { executor, semantics: "bird" });
      expect(report.correct).toBe(3);
    } finally {
      await executor.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// R-VES timing (point 7)

describe("VES timing, as BIRD's evaluation_ves.py times", () => {
  it("alternates prediction and gold (ABBA) round by round and averages the rounds' gold/pred ratios", async () => {
    const { scoreQuestion } = await import("../tools/benchmarks/score.ts");
    const order: string[] = [];
    const times: Record<string, number[]> = { pred: [1, 2, 4, 1], gold: [2, 2, 2, 1] };
    const executor = {
      async run(_db: string, sql: string, options: { maxRows?: number; repeat?: number } = {}) {
        const side = sql.includes("'p'") ? "pred" : "gold";
        const timed = options.maxRows === 0;
        if (timed) order.push(side);
        const elapsedMs = timed ? times[side]!.shift()! : 1;
        return { ok: true as const, columns: ["x"], rows: [[1n]], rowCount: 1, truncated: false, elapsedMs };
      },
      async close() {},
    };
    const q = question(0, { goldSql: "SELECT 1 AS x, 'g'" });
    const v = await scoreQuestion(q, "SELECT 1 AS x, 'p'", { executor, semantics: "bird", ves: { iterations: 4 } });
    expect(v.correct).toBe(true);
    expect(order).toEqual(["pred", "gold", "gold", "pred", "pred", "gold", "gold", "pred"]);
    expect(v.timeRatio).toBeCloseTo((2 + 1 + 0.5 + 1) / 4, 12);
    expect(v.reward).toBe(1);
  });

  it("the executor times the rounds in one worker, each run on a fresh connection, every query each round", async () => {
    const executor = createExecutor({ size: 1 });
    try {
      const timed = await executor.time!(db, ["SELECT x FROM t", "SELECT count(*) FROM t"], { iterations: 5 });
      expect(timed.ok).toBe(true);
      if (timed.ok) {
        expect(timed.timesMs.map((t) => t.length)).toEqual([5, 5]);
        expect(timed.timesMs.flat().every((t) => t > 0)).toBe(true);
      }
      expect(await executor.time!(db, ["DELETE FROM t"], { iterations: 1 })).toMatchObject({ ok: false, kind: "rejected" });
    } finally {
      await executor.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------------
// Sets with databases of their own (point 8)

describe("a Spider variant over several database roots", () => {
  it("--bench spider --questions FILE finds databases in any of the layout's folders; --db-dir A:B searches several roots, with Spider semantics and hardness when asked", async () => {
    const root = makeTempDir();
    try {
      const spider = path.join(root, "spider");
      makeDb(spider, "database/shop/shop.sqlite", SHOP);
      fs.writeFileSync(path.join(spider, "dev.json"), JSON.stringify([{ db_id: "shop", question: "How many items?", query: "SELECT count(*) FROM item" }]));
      makeDb(spider, "test_database/zoo/zoo.sqlite", ZOO);
      fs.writeFileSync(path.join(spider, "test.json"), JSON.stringify([{ db_id: "zoo", question: "How many animals?", query: "SELECT count(*) FROM animal" }]));
      // The variant's own database, beside Spider's.
      makeDb(path.join(root, "dk"), "database/farm/farm.sqlite", "CREATE TABLE crop(name TEXT, acres INTEGER); INSERT INTO crop VALUES ('corn', 3), ('rye', 1);");
      const dk = path.join(root, "dk", "dk.json");
      fs.writeFileSync(
        dk,
        JSON.stringify([
          { db_id: "shop", question: "Item names by price?", query: "SELECT name FROM item ORDER BY price" },
          { db_id: "zoo", question: "Kinds of animals?", query: "SELECT DISTINCT kind FROM animal" },
          { db_id: "farm", question: "Crops over two acres, with their acres?", query: "SELECT name, acres FROM crop WHERE acres > 2" },
        ]),
      );
      const sqlmend = (...args: string[]) => runCli(args, root, { SQLMEND_HOME: path.join(root, "home") });

      const inLayout = await sqlmend("score", "--bench", spider, "--questions", dk, "--pred", "gold", "--json");
      expect(inLayout.code, inLayout.err).toBe(0);
      const a = JSON.parse(inLayout.out) as { count: number; correct: number; semantics: string; skipped: { id: string }[] };
      expect(a).toMatchObject({ count: 2, correct: 2, semantics: "spider" });
      expect(a.skipped.map((s) => s.id)).toEqual(["2"]); // farm is only in the variant's folder

      const roots = [path.join(spider, "database"), path.join(spider, "test_database"), path.join(root, "dk", "database")].join(path.delimiter);
      const own = await sqlmend("score", "--questions", dk, "--db-dir", roots, "--semantics", "spider", "--pred", "gold", "--json");
      expect(own.code, own.err).toBe(0);
      const b = JSON.parse(own.out) as { count: number; correct: number; semantics: string; skipped: unknown[]; byDifficulty: { difficulty: string }[]; verdicts: { difficulty?: string }[] };
      expect(b).toMatchObject({ count: 3, correct: 3, semantics: "spider", skipped: [] });
      expect(b.verdicts.map((v) => v.difficulty)).toEqual(["easy", "easy", "medium"]);
    } finally {
      removeTempDir(root);
    }
  });
});
