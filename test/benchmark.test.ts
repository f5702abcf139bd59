import { spawn } from "node:child_process";
import { lstatSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../cli/shared/command.ts";
import { loadBenchmark, loadQuestionFile } from "../tools/benchmarks/benchmark.ts";
import { parseCsv } from "../tools/benchmarks/csv.ts";
import { spiderHardness, spiderHardnessCounts } from "../tools/benchmarks/hardness.ts";
import { describeBenchmarkDir } from "../tools/benchmarks/info.ts";
import { detectLayout } from "../tools/benchmarks/layouts.ts";
import { resolveBenchmarkDir } from "../tools/benchmarks/resolve.ts";
import { tokenizeSql } from "../tools/sql-tokens.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { main } from "../cli/main.ts";
import type { CliIO } from "../cli/shared/command.ts";

const SCHOOL = readFileSync(new URL("../tools/benchmarks/minibench/sql/school.sql", import.meta.url), "utf8");

/** Expects a one-line UserError whose message contains every fragment. */
async function expectUserError(promise: Promise<unknown>, ...fragments: string[]) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UserError);
  const message = (error as Error).message;
  expect(message).not.toContain("\n");
  for (const f of fragments) expect(message).toContain(f);
}

describe("tokenizeSql", () => {
  it("is lossless and keeps strings, quoted names and comments whole", () => {
    const sql = `SELECT "a b", [c], \`d\`, 'it''s' -- note\nFROM t /* x */ WHERE x >= 1.5e3 AND y <> :p`;
    const toks = tokenizeSql(sql);
    expect(toks.map((t) => t.text).join("")).toBe(sql);
    expect(toks.find((t) => t.type === "string")?.text).toBe("'it''s'");
    expect(toks.filter((t) => t.type === "qident").map((t) => t.text)).toEqual(['"a b"', "[c]", "`d`"]);
    expect(toks.filter((t) => t.type === "comment").map((t) => t.text)).toEqual(["-- note", "/* x */"]);
    expect(toks.find((t) => t.type === "number")?.text).toBe("1.5e3");
    expect(toks.some((t) => t.type === "punct" && t.text === ">=")).toBe(true);
    expect(toks.some((t) => t.type === "punct" && t.text === "<>")).toBe(true);
  });

  it("never throws on unterminated input", () => {
    for (const sql of ["SELECT 'abc", 'SELECT "x', "SELECT /* open", "SELECT [x", ""]) {
      expect(tokenizeSql(sql).map((t) => t.text).join("")).toBe(sql);
    }
  });
});

describe("spiderHardness", () => {
  // Expected values were produced by Spider's own evaluation.py (eval_hardness over process_sql's parse).
  const cases: Array<[string, string, [number, number, number]]> = [
    ["easy", "SELECT count(*) FROM students", [0, 0, 0]],
    ["easy", "SELECT first_name FROM students WHERE city = 'Denver'", [1, 0, 0]],
    ["medium", "SELECT first_name, last_name FROM students WHERE city = 'Denver'", [1, 0, 1]],
    ["medium", "SELECT T2.name, count(*) FROM instructors AS T1 JOIN departments AS T2 ON T1.dept_id = T2.dept_id GROUP BY T2.name", [2, 0, 1]],
    ["hard", "SELECT name FROM departments WHERE dept_id NOT IN (SELECT dept_id FROM instructors)", [1, 1, 0]],
    [
      "extra",
      "SELECT T1.name FROM departments AS T1 JOIN instructors AS T2 ON T1.dept_id = T2.dept_id WHERE T2.salary > 100000 GROUP BY T1.name ORDER BY count(*) DESC LIMIT 1",
      [5, 0, 0],
    ],
    ["hard", "SELECT city FROM students WHERE gpa > 3 INTERSECT SELECT city FROM students WHERE gpa < 2", [1, 1, 0]],
    ["medium", "SELECT first_name FROM students WHERE city = 'Denver' OR city = 'Boston'", [2, 0, 1]],
    // Quirk: count_agg over HAVING counts the 'and'/'or' strings, not the aggregates.
    ["easy", "SELECT city FROM students GROUP BY city HAVING count(*) > 2 AND avg(gpa) > 3", [1, 0, 0]],
    ["medium", "SELECT city FROM students GROUP BY city HAVING count(*) > 2 AND avg(gpa) > 3 AND max(gpa) < 4", [1, 0, 1]],
    ["medium", "SELECT max(gpa), min(gpa) FROM students", [0, 0, 2]],
    // Quirk: a column-valued comparison swallows the OR that follows it.
    ["easy", "SELECT first_name FROM students WHERE gpa < enrollment_year OR city = 'Boston'", [1, 0, 0]],
    ["medium", "SELECT first_name FROM students WHERE gpa > 3 AND city = 'Denver' AND enrollment_year = 2020 ORDER BY gpa", [2, 0, 1]],
    ["easy", "SELECT count(*) FROM (SELECT city FROM students GROUP BY city)", [0, 0, 0]],
    ["extra", "SELECT name FROM departments WHERE budget > (SELECT avg(budget) FROM departments) AND name LIKE '%o%'", [2, 1, 1]],
    ["medium", "SELECT DISTINCT city FROM students WHERE gpa BETWEEN 2 AND 3 ORDER BY city", [2, 0, 0]],
    ["medium", "SELECT first_name FROM students WHERE city NOT LIKE 'B%' AND gpa > 3.5", [2, 0, 1]],
    [
      "hard",
      'SELECT T1.title FROM courses AS T1 JOIN departments AS T2 ON T1.dept_id = T2.dept_id JOIN teaching AS T3 ON T1.course_id = T3.course_id WHERE T2.name = "Physics"',
      [3, 0, 0],
    ],
  ];
  it.each(cases)("%s: %s", (expected, sql, [c1, c2, others]) => {
    expect(spiderHardnessCounts(sql)).toEqual({ component1: c1, component2: c2, others });
    expect(spiderHardness(sql)).toBe(expected);
  });

  it("gives an answer for SQL Spider's parser rejects", () => {
    expect(spiderHardness("SELECT a FROM t WHERE (x = 1 OR y = 2) AND z IS NOT NULL")).toMatch(/^(easy|medium|hard|extra)$/);
    expect(spiderHardness("WITH c AS (SELECT 1) SELECT * FROM c;")).toBe("easy");
    expect(spiderHardness("")).toBe("easy");
  });
});

describe("loadBenchmark", () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTempDir("sqlmend-bench-");
  });
  afterAll(() => removeTempDir(dir));

  async function spiderLayout(name: string) {
    const root = path.join(dir, name);
    makeDb(root, "database/school/school.sqlite", SCHOOL);
    await writeFile(
      path.join(root, "dev.json"),
      JSON.stringify([
        { db_id: "school", question: "How many students?", query: "SELECT count(*) FROM students", query_toks: ["x"] },
        { db_id: "wta_1", question: "How many players?", query: "SELECT count(*) FROM players" },
        {
          db_id: "school",
          question: "Top department?",
          query:
            "SELECT T1.name FROM departments AS T1 JOIN instructors AS T2 ON T1.dept_id = T2.dept_id GROUP BY T1.name ORDER BY count(*) DESC LIMIT 1",
        },
      ]),
    );
    await writeFile(path.join(root, "train_spider.json"), JSON.stringify([{ db_id: "school", question: "Names?", query: "SELECT first_name FROM students" }]));
    await writeFile(path.join(root, "tables.json"), "[]");
    return root;
  }

  it("caches parsed question files: reused while the file is unchanged, read again when it changes, a foreign or broken cache file is a miss", async () => {
    const root = await spiderLayout("spider-cached");
    const cacheDir = path.join(dir, "cache");
    const first = await loadBenchmark(root, { cacheDir });
    const files = readdirSync(cacheDir).filter((f) => f.startsWith("items-"));
    expect(files).toHaveLength(1);
    const cacheFile = path.join(cacheDir, files[0]!);
    expect(await loadBenchmark(root, { cacheDir })).toEqual(first);

    // The cache is what a load reads while dev.json is unchanged.
    const entry = JSON.parse(readFileSync(cacheFile, "utf8")) as { key: string; items: Array<{ question: string }> };
    entry.items[0]!.question = "from the cache";
    writeFileSync(cacheFile, JSON.stringify(entry));
    expect((await loadBenchmark(root, { cacheDir })).questions[0]!.question).toBe("from the cache");

    // A cache file of another key under the same name (a clash of the quick hash) or a broken one is not used.
    writeFileSync(cacheFile, JSON.stringify({ ...entry, key: `${entry.key}-other` }));
    expect((await loadBenchmark(root, { cacheDir })).questions[0]!.question).toBe("How many students?");
    writeFileSync(cacheFile, "{ not json");
    expect((await loadBenchmark(root, { cacheDir })).questions[0]!.question).toBe("How many students?");

    // An edited dev.json is read again.
    const dev = JSON.parse(readFileSync(path.join(root, "dev.json"), "utf8")) as Array<{ question: string }>;
    dev[0]!.question = "How many students are there?";
    writeFileSync(path.join(root, "dev.json"), JSON.stringify(dev));
    expect((await loadBenchmark(root, { cacheDir })).questions[0]!.question).toBe("How many students are there?");
  });

  it("reads the Spider layout: index ids, computed hardness, missing database skipped with a reason", async () => {
    const root = await spiderLayout("spider");
    expect(detectLayout(root)).toBe("spider");
    const b = await loadBenchmark(root);
    expect(b.layout).toBe("spider");
    expect(b.split).toBe("dev");
    expect(b.name).toBe("spider/dev");
    expect(b.questions.map((q) => q.id)).toEqual(["0", "2"]);
    expect(b.questions[0]).toMatchObject({
      dbId: "school",
      dbPath: path.join(root, "database/school/school.sqlite"),
      evidence: "",
      goldSql: "SELECT count(*) FROM students",
      difficulty: "easy",
    });
    expect(b.questions[1]!.difficulty).toBe("extra");
    expect(b.skipped).toEqual([{ id: "1", dbId: "wta_1", reason: "database file not found: database/wta_1/wta_1.sqlite", position: 1 }]);

    const train = await loadBenchmark(root, { split: "train" });
    expect(train.questions).toHaveLength(1);
    expect(train.name).toBe("spider/train");
  });

  async function birdLayout(name: string) {
    const root = path.join(dir, name);
    makeDb(root, "dev_databases/school/school.sqlite", SCHOOL);
    await mkdir(path.join(root, "dev_databases/school/database_description"), { recursive: true });
    await writeFile(path.join(root, "dev_databases/school/database_description/students.csv"), "original_column_name,column_name\n");
    await writeFile(
      path.join(root, "dev.json"),
      JSON.stringify([
        { question_id: 7, db_id: "school", question: "How many students?", evidence: "", SQL: "SELECT count(*) FROM students", difficulty: "simple" },
        { question_id: 8, db_id: "formula_1", question: "Fastest lap?", evidence: "fastest refers to MIN(time)", SQL: "SELECT 1", difficulty: "moderate" },
      ]),
    );
    makeDb(root, "train_databases/school/school.sqlite", SCHOOL);
    await writeFile(
      path.join(root, "train.json"),
      JSON.stringify([
        { db_id: "school", question: "Count?", evidence: "x refers to y", SQL: "SELECT count(*) FROM courses" },
        { db_id: "school", question: "Names?", SQL: "SELECT name FROM departments" },
      ]),
    );
    return root;
  }

  it("reads the BIRD layout: question_id, evidence, difficulty, descriptions; train without ids uses the index", async () => {
    const root = await birdLayout("bird");
    expect(detectLayout(root)).toBe("bird");
    const b = await loadBenchmark(root);
    expect(b.layout).toBe("bird");
    expect(b.questions).toHaveLength(1);
    expect(b.questions[0]).toMatchObject({
      id: "7",
      dbId: "school",
      difficulty: "simple",
      goldSql: "SELECT count(*) FROM students",
      descriptionDir: path.join(root, "dev_databases/school/database_description"),
    });
    expect(b.skipped).toEqual([{ id: "8", dbId: "formula_1", reason: "database file not found: dev_databases/formula_1/formula_1.sqlite", position: 1 }]);

    const train = await loadBenchmark(root, { split: "train" });
    expect(train.questions.map((q) => q.id)).toEqual(["0", "1"]);
    expect(train.questions[0]!.evidence).toBe("x refers to y");
    expect(train.questions[1]!.evidence).toBe("");
    expect(train.questions[0]!.difficulty).toBeUndefined();
    expect(train.questions[0]!.descriptionDir).toBeUndefined();
  });

  it("rejects malformed files with a one-line UserError naming the file and the first problem", async () => {
    const root = await birdLayout("bird-bad");
    const file = path.join(root, "dev.json");
    writeFileSync(file, "[{ not json");
    await expectUserError(loadBenchmark(root), "dev.json", "not valid JSON");
    writeFileSync(file, JSON.stringify({ questions: [] }));
    await expectUserError(loadBenchmark(root), "dev.json", "expected a JSON array", "object");
    writeFileSync(file, JSON.stringify([{ question_id: 0, db_id: "school", question: "q", SQL: "SELECT 1" }, { question_id: 1, db_id: "school", SQL: "SELECT 1" }]));
    await expectUserError(loadBenchmark(root), `${file}: item 1: "question" is required`);
    writeFileSync(file, JSON.stringify([{ question_id: 0, db_id: 5, question: "q", SQL: "SELECT 1" }]));
    await expectUserError(loadBenchmark(root), 'item 0: "db_id" must be a string (got number)');
    writeFileSync(file, JSON.stringify([{ question_id: 0, db_id: "school", question: "q", SQL: "" }]));
    await expectUserError(loadBenchmark(root), 'item 0: "SQL" is empty');
    writeFileSync(file, JSON.stringify(["SELECT 1"]));
    await expectUserError(loadBenchmark(root), "item 0: expected an object (got string)");
    writeFileSync(file, JSON.stringify([
      { question_id: 3, db_id: "school", question: "q", SQL: "SELECT 1" },
      { question_id: 3, db_id: "school", question: "q", SQL: "SELECT 1" },
    ]));
    await expectUserError(loadBenchmark(root), "item 1: duplicate question_id 3");

    const spider = await spiderLayout("spider-bad");
    writeFileSync(path.join(spider, "dev.json"), JSON.stringify([{ db_id: "school", question: "q" }]));
    await expectUserError(loadBenchmark(spider), 'dev.json: item 0: "query" is required');
  });

  it("names the directory and what it looked for when the layout is unknown", async () => {
    const root = path.join(dir, "empty");
    await mkdir(root, { recursive: true });
    writeFileSync(path.join(root, "questions.json"), "[]");
    await expectUserError(loadBenchmark(root), root, "not a Spider or BIRD benchmark", "dev_databases/", "train_spider.json");
    await expectUserError(loadBenchmark(path.join(dir, "nope")), "no such benchmark directory");
    const birdDevOnly = await birdLayout("bird-dev-only");
    await expectUserError(loadBenchmark(path.join(birdDevOnly, "dev_databases")), "not a Spider or BIRD benchmark");
  });
});

describe("more layouts, splits and question files", () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTempDir("sqlmend-bench-more-");
  });
  afterAll(() => removeTempDir(dir));

  const TINY = "CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (2, 'y');";

  async function spiderWithTest(name: string, withDev = true) {
    const root = path.join(dir, name);
    if (withDev) {
      makeDb(root, "database/school/school.sqlite", SCHOOL);
      await writeFile(path.join(root, "dev.json"), JSON.stringify([{ db_id: "school", question: "How many students?", query: "SELECT count(*) FROM students" }]));
    }
    makeDb(root, "test_database/tiny/tiny.sqlite", TINY);
    await writeFile(
      path.join(root, "test.json"),
      JSON.stringify([
        { db_id: "tiny", question: "All a?", query: "SELECT a FROM t" },
        { db_id: "gone", question: "Nothing?", query: "SELECT 1" },
        { db_id: "tiny", question: "Sorted b?", query: "SELECT b FROM t WHERE a > 0 ORDER BY b" },
      ]),
    );
    await writeFile(path.join(root, "test_tables.json"), "[]");
    await writeFile(path.join(root, "test_gold.sql"), "SELECT a FROM t\ttiny\n");
    return root;
  }

  it("reads Spider's test split (test.json over test_database/) with --split test, and by default when it is the only split", async () => {
    const root = await spiderWithTest("spider-test");
    expect((await loadBenchmark(root)).split).toBe("dev");
    const test = await loadBenchmark(root, { split: "test" });
    expect(test).toMatchObject({ layout: "spider", split: "test", name: "spider-test/test", dbDir: path.join(root, "test_database") });
    expect(test.questions.map((q) => [q.id, q.dbPath, q.difficulty])).toEqual([
      ["0", path.join(root, "test_database/tiny/tiny.sqlite"), "easy"],
      ["2", path.join(root, "test_database/tiny/tiny.sqlite"), "medium"],
    ]);
    expect(test.skipped).toEqual([{ id: "1", dbId: "gone", reason: "database file not found: test_database/gone/gone.sqlite", position: 1 }]);
    const only = await spiderWithTest("spider-test-only", false);
    expect(detectLayout(only)).toBe("spider");
    expect((await loadBenchmark(only)).split).toBe("test");
    await expectUserError(loadBenchmark(only, { split: "train" }), "Spider layout has no train_spider.json with database/ for split train");
    await expectUserError(loadBenchmark(only, { split: "minidev" }), "the Spider layout has no split minidev");
  });

  async function miniDev(name: string) {
    const root = path.join(dir, name);
    makeDb(root, "dev_databases/tiny/tiny.sqlite", TINY);
    await writeFile(
      path.join(root, "mini_dev_sqlite.json"),
      JSON.stringify([
        { question_id: 1471, db_id: "tiny", question: "All a?", evidence: "a is a number", SQL: "SELECT a FROM t", difficulty: "simple" },
        { question_id: 1472, db_id: "tiny", question: "b of 2?", evidence: "", SQL: "SELECT b FROM t WHERE a = 2", difficulty: "moderate" },
        { question_id: 1480, db_id: "tiny", question: "Both?", evidence: "", SQL: "SELECT a, b FROM t", difficulty: "challenging" },
        { question_id: 1500, db_id: "formula_1", question: "Laps?", evidence: "", SQL: "SELECT 1", difficulty: "simple" },
      ]),
    );
    await writeFile(path.join(root, "mini_dev_mysql.json"), "[]");
    return root;
  }

  it("reads BIRD mini-dev (mini_dev_sqlite.json over dev_databases/) with its ids and difficulty labels, detected or as --split minidev", async () => {
    const root = await miniDev("minidev");
    expect(detectLayout(root)).toBe("bird");
    const b = await loadBenchmark(root);
    expect(b).toMatchObject({ layout: "bird", split: "minidev", name: "minidev/minidev" });
    expect(b.questions.map((q) => [q.id, q.difficulty, q.evidence])).toEqual([
      ["1471", "simple", "a is a number"],
      ["1472", "moderate", ""],
      ["1480", "challenging", ""],
    ]);
    expect(b.skipped).toEqual([{ id: "1500", dbId: "formula_1", reason: "database file not found: dev_databases/formula_1/formula_1.sqlite", position: 3 }]);
    expect((await loadBenchmark(root, { split: "minidev" })).questions).toHaveLength(3);
    writeFileSync(path.join(root, "mini_dev_sqlite.json"), JSON.stringify([{ question_id: 1, db_id: "tiny", SQL: "SELECT 1" }]));
    await expectUserError(loadBenchmark(root), 'mini_dev_sqlite.json: item 0: "question" is required');
  });

  it("--questions reads a Spider-format variant file (or Spider-Syn's SpiderSynQuestion, or BIRD format) over the layout's databases", async () => {
    const root = await spiderWithTest("spider-variants");
    const syn = path.join(dir, "spider-syn.json");
    writeFileSync(
      syn,
      JSON.stringify([
        { db_id: "school", SpiderQuestion: "How many students?", SpiderSynQuestion: "How many pupils?", query: "SELECT count(*) FROM students" },
        { db_id: "school", question: "Pupil cities?", query: "SELECT DISTINCT city FROM students" },
      ]),
    );
    const b = await loadBenchmark(root, { questions: syn });
    expect(b).toMatchObject({ layout: "spider", split: "dev", name: "spider-variants/spider-syn.json", questionsFile: syn, customQuestions: true });
    expect(b.questions.map((q) => [q.id, q.question, q.dbPath, q.goldSql, q.difficulty])).toEqual([
      ["0", "How many pupils?", path.join(root, "database/school/school.sqlite"), "SELECT count(*) FROM students", "easy"],
      ["1", "Pupil cities?", path.join(root, "database/school/school.sqlite"), "SELECT DISTINCT city FROM students", "easy"],
    ]);
    // Over the test split's databases.
    const dk = path.join(dir, "variant-test.json");
    writeFileSync(dk, JSON.stringify([{ question_id: 9, db_id: "tiny", question: "a?", SQL: "SELECT a FROM t", evidence: "e" }]));
    const t = await loadBenchmark(root, { split: "test", questions: dk });
    expect(t.questions[0]).toMatchObject({ id: "9", dbPath: path.join(root, "test_database/tiny/tiny.sqlite"), goldSql: "SELECT a FROM t", evidence: "e" });
    await expectUserError(loadBenchmark(root, { questions: path.join(dir, "nope.json") }), "nope.json: no such question file");
    writeFileSync(dk, JSON.stringify([{ db_id: "tiny", query: "SELECT 1" }]));
    await expectUserError(loadBenchmark(root, { questions: dk }), `${dk}: item 0: "question" is required`);
  });

  async function ownData(name: string) {
    const root = path.join(dir, name);
    makeDb(root, "dbs/tiny.sqlite", TINY);
    makeDb(root, "dbs/school/school.sqlite", SCHOOL);
    return root;
  }

  it("own data: JSONL with and without gold over DIR/<db_id>.sqlite or DIR/<db_id>/<db_id>.sqlite; missing databases skipped with the reason", async () => {
    const root = await ownData("own-jsonl");
    const dbs = path.join(root, "dbs");
    const withGold = path.join(root, "q.jsonl");
    writeFileSync(
      withGold,
      [
        JSON.stringify({ id: "a1", question: "All a?", db_id: "tiny", gold: "SELECT a FROM t", difficulty: "easy" }),
        "",
        JSON.stringify({ question: "How many students?", db_id: "school", evidence: "students are rows of students" }),
        JSON.stringify({ question: "Gone?", db_id: "nowhere", gold: "SELECT 1" }),
      ].join("\n"),
    );
    const b = await loadQuestionFile(withGold, dbs);
    expect(b).toMatchObject({ layout: "own", name: "q.jsonl", dir: dbs, dbDir: dbs, questionsFile: withGold });
    expect(b.questions).toEqual([
      { id: "a1", dbId: "tiny", dbPath: path.join(dbs, "tiny.sqlite"), question: "All a?", evidence: "", goldSql: "SELECT a FROM t", difficulty: "easy", position: 0 },
      { id: "1", dbId: "school", dbPath: path.join(dbs, "school/school.sqlite"), question: "How many students?", evidence: "students are rows of students", position: 1 },
    ]);
    expect(b.skipped).toEqual([{ id: "2", dbId: "nowhere", reason: `database file not found: nowhere.sqlite or nowhere/nowhere.sqlite in ${dbs}`, position: 2 }]);

    const noGold = path.join(root, "nogold.jsonl");
    writeFileSync(noGold, `${JSON.stringify({ question: "All a?", db_id: "tiny" })}\n${JSON.stringify({ question: "All b?", db_id: "tiny" })}\n`);
    const n = await loadQuestionFile(noGold, dbs);
    expect(n.questions.map((q) => [q.id, q.goldSql])).toEqual([["0", undefined], ["1", undefined]]);
  });

  it("own data: CSV with quoted commas, doubled quotes and line breaks in cells", async () => {
    const root = await ownData("own-csv");
    const file = path.join(root, "q.csv");
    writeFileSync(
      file,
      'id,question,db_id,gold,evidence\r\n' +
        'q1,"Which a, if any, exist?",tiny,"SELECT a FROM t WHERE b IN (\'x\', \'y\')",\r\n' +
        'q2,"The ""b"" column,\nplease",tiny,SELECT b FROM t,"b is text, short"\r\n' +
        "\r\n",
    );
    const b = await loadQuestionFile(file, path.join(root, "dbs"));
    expect(b.questions.map((q) => [q.id, q.question, q.goldSql, q.evidence])).toEqual([
      ["q1", "Which a, if any, exist?", "SELECT a FROM t WHERE b IN ('x', 'y')", ""],
      ["q2", 'The "b" column,\nplease', "SELECT b FROM t", "b is text, short"],
    ]);
    expect(parseCsv('a,b\n"1,2",3\n').map((r) => r.cells)).toEqual([["a", "b"], ["1,2", "3"]]);
  });

  it("own data: bad files are one-line errors naming the file, line or item, and field", async () => {
    const root = await ownData("own-bad");
    const dbs = path.join(root, "dbs");
    const jsonl = path.join(root, "bad.jsonl");
    writeFileSync(jsonl, `${JSON.stringify({ question: "q", db_id: "tiny" })}\n{ "question": "q", db_id\n`);
    await expectUserError(loadQuestionFile(jsonl, dbs), `${jsonl}: line 2: not valid JSON at column`);
    writeFileSync(jsonl, `${JSON.stringify({ question: "q" })}\n`);
    await expectUserError(loadQuestionFile(jsonl, dbs), `${jsonl}: line 1: "db_id" is required`);
    writeFileSync(jsonl, `${JSON.stringify({ question: "q", db_id: "tiny", gold: 3 })}\n`);
    await expectUserError(loadQuestionFile(jsonl, dbs), 'line 1: "gold" must be a string (got number)');
    writeFileSync(jsonl, `${JSON.stringify({ id: "x", question: "q", db_id: "tiny" })}\n${JSON.stringify({ id: "x", question: "r", db_id: "tiny" })}\n`);
    await expectUserError(loadQuestionFile(jsonl, dbs), "item 1: duplicate id x");
    writeFileSync(jsonl, "\n");
    await expectUserError(loadQuestionFile(jsonl, dbs), "no questions in the file");
    const csv = path.join(root, "bad.csv");
    writeFileSync(csv, 'question,db_id\n"open,tiny\n');
    await expectUserError(loadQuestionFile(csv, dbs), `${csv}: line 2: unterminated quoted field`);
    writeFileSync(csv, "question,db_id\nq,tiny,extra\n");
    await expectUserError(loadQuestionFile(csv, dbs), `${csv}: line 2: 3 cells, the header has 2`);
    writeFileSync(csv, "question,db_id\n,tiny\n");
    await expectUserError(loadQuestionFile(csv, dbs), 'line 2: "question" is required');
    await expectUserError(loadQuestionFile(csv, path.join(root, "nodbs")), "no such database directory");
  });

  it("sqlmend bench info prints layout, splits, questions, databases present and missing, difficulty counts", async () => {
    const root = await spiderWithTest("spider-info");
    const mini = await miniDev("minidev-info");
    let out = "";
    const io: CliIO = { stdout: (t) => void (out += t), stderr: () => {}, env: { SQLMEND_HOME: path.join(dir, "home") }, cwd: dir, isTTY: false };
    expect(await main(["bench", "info", root], io)).toBe(0);
    expect(out).toContain(`benchmark:   ${root}\nlayout:      Spider\nsplits:      dev, test\nalso:        test_tables.json, test_gold.sql\n`);
    expect(out).toContain("test: test.json over test_database/\n  questions: 3, 1 of them skipped (database missing); 2 of the 2 runnable have gold SQL\n  databases: 1 present, 1 missing (gone)\n  difficulty: easy 1, medium 1\n");
    out = "";
    expect(await main(["bench", "info", mini], io)).toBe(0);
    expect(out).toContain("layout:      BIRD\nsplits:      minidev\n");
    expect(out).toContain("difficulty: simple 1, moderate 1, challenging 1");
    expect(out).toContain("1 missing (formula_1)");
    const own = await ownData("own-info");
    writeFileSync(path.join(own, "q.jsonl"), `${JSON.stringify({ question: "q", db_id: "tiny" })}\n`);
    out = "";
    expect(await main(["bench", "info", "--questions", path.join(own, "q.jsonl"), "--db-dir", path.join(own, "dbs")], io)).toBe(0);
    expect(out).toContain("0 of the 1 runnable have gold SQL");
    const info = await describeBenchmarkDir(mini);
    expect(info.splits.map((s) => [s.split, s.questions, s.databases])).toEqual([["minidev", 4, { present: ["tiny"], missing: ["formula_1"] }]]);
  });
});

describe("minibench", () => {
  let dir: string;
  beforeAll(async () => {
    dir = makeTempDir("sqlmend-minibench-");
    await buildMinibench(path.join(dir, "mb"));
  });
  afterAll(() => removeTempDir(dir));

  it("has train and dev splits in BIRD layout with evidence, difficulties, tables.json and descriptions", async () => {
    const dev = await loadBenchmark(path.join(dir, "mb"));
    const train = await loadBenchmark(path.join(dir, "mb"), { split: "train" });
    expect(dev.layout).toBe("bird");
    expect(dev.questions).toHaveLength(20);
    expect(train.questions).toHaveLength(30);
    expect(dev.skipped).toEqual([]);
    for (const b of [dev, train]) {
      expect(new Set(b.questions.map((q) => q.dbId))).toEqual(new Set(["school", "shop", "music"]));
      expect(new Set(b.questions.map((q) => q.difficulty))).toEqual(new Set(["simple", "moderate", "challenging"]));
      expect(b.questions.some((q) => q.evidence === "")).toBe(true);
      expect(b.questions.some((q) => q.evidence.includes("refers to"))).toBe(true);
    }
    expect(dev.questions.find((q) => q.dbId === "shop")!.descriptionDir).toBe(path.join(dir, "mb/dev_databases/shop/database_description"));
    for (const split of ["dev", "train"]) {
      const tables = JSON.parse(readFileSync(path.join(dir, "mb", `${split}_tables.json`), "utf8")) as Array<Record<string, unknown[]>>;
      expect(tables.map((t) => t.db_id)).toEqual(["school", "shop", "music"]);
      for (const t of tables) {
        expect(t.table_names_original!.length).toBeGreaterThanOrEqual(4);
        expect(t.table_names_original!.length).toBeLessThanOrEqual(7);
        expect(t.foreign_keys!.length).toBeGreaterThan(0);
        expect(t.column_names_original!.length).toBe(t.column_types!.length);
      }
    }
  });

  it("every gold query executes and returns rows", async () => {
    const executor = createExecutor({ size: 2 });
    try {
      for (const split of ["dev", "train"] as const) {
        const b = await loadBenchmark(path.join(dir, "mb"), { split });
        for (const q of b.questions) {
          const r = await executor.run(q.dbPath, q.goldSql!);
          expect(r.ok ? r.rowCount : `${q.id}: ${r.message}`, `${split} ${q.id}: ${q.goldSql}`).toBeGreaterThan(0);
        }
      }
    } finally {
      await executor.close();
    }
  });

  it("resolveBenchmarkDir builds minibench once into the data dir and rebuilds when stale", async () => {
    const env = { SQLMEND_HOME: path.join(dir, "home") };
    const target = await resolveBenchmarkDir("minibench", env, dir);
    expect(target).toBe(path.join(dir, "home", "minibench"));
    const stamp = path.join(target, ".minibench-stamp");
    const db = path.join(target, "dev_databases/school/school.sqlite");
    const first = statSync(db).mtimeMs;
    await resolveBenchmarkDir("minibench", env, dir);
    expect(statSync(db).mtimeMs).toBe(first);
    writeFileSync(stamp, "stale\n");
    await resolveBenchmarkDir("minibench", env, dir);
    expect(readFileSync(stamp, "utf8").trim()).not.toBe("stale");
    expect((await loadBenchmark(target)).questions).toHaveLength(20);

    expect(await resolveBenchmarkDir("mb", {}, dir)).toBe(path.join(dir, "mb"));
    await expectUserError(resolveBenchmarkDir("no-such-dir", {}, dir), "no-such-dir", "no such benchmark directory");
  });

  it("concurrent first uses build once, atomically, in every round (8 callers x 8 rounds, fresh data dirs)", async () => {
    for (let round = 0; round < 8; round++) {
      const env = { SQLMEND_HOME: path.join(dir, `race-${round}`) };
      // Each caller reads the benchmark as soon as it resolves, while the others may still be building or linking:
      // a finished build must never disappear or be half there.
      const reads = await Promise.all(
        Array.from({ length: 8 }, async (_, k) => {
          await new Promise((resolve) => setTimeout(resolve, (k * 7 + round * 3) % 11));
          const target = await resolveBenchmarkDir("minibench", env, dir);
          const dev = JSON.parse(readFileSync(path.join(target, "dev.json"), "utf8")) as unknown[];
          statSync(path.join(target, "train_databases/music/music.sqlite"));
          return { target, questions: dev.length };
        }),
      );
      expect(new Set(reads.map((r) => r.target))).toEqual(new Set([path.join(dir, `race-${round}`, "minibench")]));
      expect(reads.map((r) => r.questions)).toEqual(new Array(8).fill(20));
      // Exactly one build is kept; every loser removed its own temp directory.
      expect(readdirSync(path.join(dir, `race-${round}`, ".minibench-builds"))).toHaveLength(1);
      expect(readdirSync(path.join(dir, `race-${round}`)).sort()).toEqual([".minibench-builds", "minibench"]);
    }
    expect((await loadBenchmark(path.join(dir, "race-0", "minibench"), { split: "train" })).questions).toHaveLength(30);
  }, 60_000);

  it("two processes building at once both get the same complete benchmark", async () => {
    const home = path.join(dir, "two-processes");
    const script = `import { resolveBenchmarkDir } from ${JSON.stringify(pathToFileURL(path.resolve("tools/benchmarks/resolve.ts")).href)};
      import { readFileSync } from "node:fs";
      const dirs = await Promise.all([1, 2, 3, 4].map(() => resolveBenchmarkDir("minibench", { SQLMEND_HOME: process.argv[1] })));
      for (const d of dirs) JSON.parse(readFileSync(d + "/train.json", "utf8"));
      console.log(dirs[0]);`;
    const child = () =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const p = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, home], { stdio: "pipe" });
        let out = "";
        let err = "";
        p.stdout.on("data", (d) => (out += d));
        p.stderr.on("data", (d) => (err += d));
        p.on("close", (code) => resolve({ code, out, err }));
      });
    const [a, b] = await Promise.all([child(), child()]);
    expect(a.err + b.err).toBe("");
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(a.out.trim()).toBe(path.join(home, "minibench"));
    expect(b.out.trim()).toBe(path.join(home, "minibench"));
    expect(readdirSync(path.join(home, ".minibench-builds"))).toHaveLength(1);
    expect((await loadBenchmark(path.join(home, "minibench"))).questions).toHaveLength(20);
  }, 60_000);

  it("replaces a stale real directory left by an older layout", async () => {
    const env = { SQLMEND_HOME: path.join(dir, "legacy") };
    await buildMinibench(path.join(dir, "legacy", "minibench"));
    writeFileSync(path.join(dir, "legacy", "minibench", ".minibench-stamp"), "old\n");
    const target = await resolveBenchmarkDir("minibench", env, dir);
    expect(lstatSync(target).isSymbolicLink()).toBe(true);
    expect((await loadBenchmark(target)).questions).toHaveLength(20);
    expect(readdirSync(path.join(dir, "legacy")).sort()).toEqual([".minibench-builds", "minibench"]);
  });
});
