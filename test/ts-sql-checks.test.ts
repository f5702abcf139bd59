import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { comparisonOf, matchesExpected, relevantTables, sqlVariants } from "../nodes/ts-sql/common.ts";
import { TS_SQL_OPTIONS } from "../nodes/ts-sql/options.ts";
import { coverageGaps } from "../nodes/ts-sql/data.ts";
import { CODER_ROWS_SHOWN, coderPrompt, dataPrompt, ONE_SHOT, REVISER_ROWS_SHOWN, revisePrompt } from "../nodes/ts-sql/prompts.ts";
import { tsSqlOutcome } from "../graphs/ts-sql.ts";
import { TestTablesSchema } from "../state/ts-sql.ts";
import { runSandboxed } from "../tools/sandbox/sandbox.ts";
import type { Linking } from "../state/linking.ts";
import { readSchema } from "../tools/schema.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";

// A three-table chain: school → district → region. Only the child is linked.
const CHAIN = `
CREATE TABLE region (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE district (id INTEGER PRIMARY KEY, region_id INTEGER NOT NULL REFERENCES region(id), name TEXT);
CREATE TABLE school (id INTEGER PRIMARY KEY, district_id INTEGER NOT NULL REFERENCES district(id), name TEXT, score REAL);
CREATE TABLE unrelated (id INTEGER PRIMARY KEY, note TEXT);
`;

let dir: string;
let dbPath: string;
const executor = createExecutor({ size: 1 });
beforeAll(() => {
  dir = makeTempDir();
  dbPath = makeDb(dir, "chain.sqlite", CHAIN);
});
afterAll(async () => {
  await executor.close();
  removeTempDir(dir);
});

const linkingOf = (columns: { table: string; column: string }[]): Linking => ({
  keywords: ["score"],
  columns: columns.map((c) => ({ ...c, score: 1, via: "name" as const })),
  values: [],
  ranking: "lexical",
});

describe("relevantTables", () => {
  it("adds every foreign-key ancestor of a linked child (a three-table chain)", async () => {
    const schema = await readSchema(dbPath, { executor });
    expect(relevantTables(schema, linkingOf([{ table: "school", column: "score" }]), "")).toEqual(["region", "district", "school"]);
    // Also when the child comes from the SQL alone, and never the unrelated table.
    expect(relevantTables(schema, null, "SELECT name FROM school")).toEqual(["region", "district", "school"]);
  });

  it("a linked foreign-key column names the table it references: its own table is not asked for rows (nor its ancestors)", async () => {
    const schema = await readSchema(dbPath, { executor });
    // "district" linked school.district_id too (a real linker does): the question is about districts, not schools.
    const linking = linkingOf([{ table: "district", column: "name" }, { table: "school", column: "district_id" }]);
    expect(relevantTables(schema, linking, "")).toEqual(["region", "district"]);
    // The coverage check agrees: no "school has no rows" gap for test data without schools.
    expect(coverageGaps(linking, schema, { region: [{ id: 1, name: "North" }], district: [{ id: 1, region_id: 1, name: "A" }] })).toEqual([]);
    // A table the question does refer to (a column of its own) still must have rows.
    expect(coverageGaps(linkingOf([{ table: "school", column: "score" }]), schema, { district: [{ id: 1, region_id: 1, name: "A" }] })).toEqual([
      "school has no rows, but the question refers to it (linked columns or values): add rows to it",
    ]);
    // The SQL still brings in the table it names.
    expect(relevantTables(schema, linking, "SELECT count(*) FROM school")).toEqual(["region", "district", "school"]);
  });

  it("a join table whose keys relate two linked tables is kept: 'singers in each concert' needs it", async () => {
    const joinDb = makeDb(dir, "join.sqlite", `
      CREATE TABLE singer (singer_id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE concert (concert_id INTEGER PRIMARY KEY, theme TEXT);
      CREATE TABLE singer_in_concert (concert_id INTEGER REFERENCES concert(concert_id), singer_id INTEGER REFERENCES singer(singer_id));`);
    const schema = await readSchema(joinDb, { executor });
    const both = linkingOf([{ table: "concert", column: "theme" }, { table: "singer", column: "name" }, { table: "singer_in_concert", column: "concert_id" }]);
    expect(relevantTables(schema, both, "")).toEqual(["singer", "concert", "singer_in_concert"]);
    // Only concerts linked: the join table's key names concerts, and singers stay out.
    expect(relevantTables(schema, linkingOf([{ table: "concert", column: "theme" }, { table: "singer_in_concert", column: "concert_id" }]), "")).toEqual(["concert"]);
  });
});

describe("test outcomes are compared as the question asks", () => {
  const sortingCode = "// best first\nresult = rows.sort((a, b) => b.score - a.score);";
  const plainCode = "// the names of the schools\nresult = school.map((s) => ({ name: s.name }));";
  const expected = (rows: (string | number)[][]) => ({ columns: ["name"], rows });
  const unordered = { question: "Which schools are in the north?", sql: "SELECT name FROM school WHERE region = 'north'" };
  const byScore = { question: "List the schools by score, best first.", sql: "SELECT name FROM school ORDER BY score DESC" };

  it("a duplicate row fails (multiset, not a set)", () => {
    const comparison = comparisonOf({ code: plainCode }, "code", unordered);
    expect(comparison).toBe("multiset");
    expect(matchesExpected([["A"], ["A"], ["B"]], expected([["A"], ["B"]]), comparison)).toBe(false);
    expect(matchesExpected([["B"], ["A"]], expected([["A"], ["B"]]), comparison)).toBe(true);
  });

  it("a wrong DISTINCT fails: one too many (duplicates lost) and one missing (duplicates kept)", () => {
    const comparison = comparisonOf({ code: plainCode }, "code", unordered);
    // The question wants every school's name (two schools share one): a DISTINCT drops a row.
    expect(matchesExpected([["A"], ["B"]], expected([["A"], ["A"], ["B"]]), comparison)).toBe(false);
    // The question wants distinct names: a query without DISTINCT returns the repeat.
    expect(matchesExpected([["A"], ["A"], ["B"]], expected([["A"], ["B"]]), comparison)).toBe(false);
  });

  it("a wrong ORDER BY fails when order is asked for and the test code sorts; order is free otherwise", () => {
    expect(comparisonOf({ code: sortingCode }, "code", byScore)).toBe("ordered");
    expect(matchesExpected([["A"], ["B"]], expected([["B"], ["A"]]), comparisonOf({ code: sortingCode }, "code", byScore))).toBe(false);
    expect(matchesExpected([["B"], ["A"]], expected([["B"], ["A"]]), comparisonOf({ code: sortingCode }, "code", byScore))).toBe(true);
    expect(matchesExpected([["A"], ["B"]], expected([["B"], ["A"]]), comparisonOf({ code: plainCode }, "code", byScore))).toBe(true);
  });

  it("issue 28, point 13: a .sort( for readability does not make order count; the question or the SQL's ORDER BY (not under LIMIT 1) does", () => {
    // A correct unordered SQL passes a test whose code sorts only for readability.
    expect(comparisonOf({ code: sortingCode }, "code", unordered)).toBe("multiset");
    expect(matchesExpected([["A"], ["B"]], expected([["B"], ["A"]]), comparisonOf({ code: sortingCode }, "code", unordered))).toBe(true);
    // The question asks for an order, the SQL does not: ordered.
    for (const question of ["List the names in alphabetical order.", "Names sorted by age", "Show them in descending order of score", "From the highest to the lowest score, the names"]) {
      expect(comparisonOf({ code: sortingCode }, "code", { question, sql: unordered.sql }), question).toBe("ordered");
    }
    // The SQL orders: ordered, unless one row is kept (LIMIT 1 has no order to compare).
    expect(comparisonOf({ code: sortingCode }, "code", { question: unordered.question, sql: "SELECT name FROM school ORDER BY score DESC LIMIT 3" })).toBe("ordered");
    expect(comparisonOf({ code: sortingCode }, "code", { question: "Which school scores best?", sql: "SELECT name FROM school ORDER BY score DESC LIMIT 1" })).toBe("multiset");
    // An ORDER BY inside a subquery does not order the answer; orders (the table) is no order.
    expect(comparisonOf({ code: sortingCode }, "code", { question: "How many orders did each school place?", sql: "SELECT name FROM school WHERE id IN (SELECT id FROM school ORDER BY score LIMIT 5)" })).toBe("multiset");
  });

  it("a sort named only in a comment or a string does not make the comparison ordered; a prediction is a multiset", () => {
    expect(comparisonOf({ code: "// no need to .sort( here\nresult = school.map((s) => ({ name: '.sort(' }));" }, "code", byScore)).toBe("multiset");
    expect(comparisonOf({ code: sortingCode }, "prediction", byScore)).toBe("multiset");
    expect(comparisonOf(null, "code", byScore)).toBe("multiset");
  });
});

describe("the paper's settings: 1-shot prompts, revision limit", () => {
  /** The example's rows in its own schema (constraints and foreign keys on), and a query's rows on them. */
  function exampleRows(sql: string): unknown[][] {
    const db = new Database(":memory:");
    try {
      db.pragma("foreign_keys = ON");
      db.exec(ONE_SHOT.schema);
      for (const [table, rows] of Object.entries(ONE_SHOT.tables)) {
        for (const row of rows) {
          const cols = Object.keys(row);
          db.prepare(`INSERT INTO ${table} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`).run(...cols.map((c) => row[c]));
        }
      }
      return db.prepare(sql).raw(true).all() as unknown[][];
    } finally {
      db.close();
    }
  }

  it("the 1-shot example is a working test case: rows fit the schema, code and SQL give the expected answer, each condition matters", async () => {
    expect(TestTablesSchema.safeParse(ONE_SHOT.tables).success).toBe(true);
    expect(exampleRows(ONE_SHOT.sql)).toEqual(ONE_SHOT.expected.rows);
    const run = await runSandboxed(ONE_SHOT.code, ONE_SHOT.tables, { timeoutMs: 2000 });
    expect(run).toMatchObject({ ok: true, columns: ONE_SHOT.expected.columns, rows: ONE_SHOT.expected.rows });
    // The rows tell a query that forgets either condition apart from the right one.
    expect(exampleRows(ONE_SHOT.sql.replace(" AND b.year > 2000", ""))).not.toEqual(ONE_SHOT.expected.rows);
    expect(exampleRows(ONE_SHOT.sql.replace("a.country = 'France' AND ", ""))).not.toEqual(ONE_SHOT.expected.rows);
  });

  it("the data agent's and the coder's prompts carry the example; the revision limit is Appendix B.4's 5", () => {
    const args = { schema: "t: x INTEGER", question: "How many?", evidence: "" };
    const data = dataPrompt({ ...args, relevant: "" }).map((m) => ("content" in m ? String(m.content) : "")).join("\n");
    const code = coderPrompt({ ...args, tables: { t: [{ x: 1 }] }, dbId: "d" }).map((m) => ("content" in m ? String(m.content) : "")).join("\n");
    // The example's reply in the form asked of the agent: each table's columns once, its rows as arrays.
    expect(data).toContain(JSON.stringify({ tables: { author: [{ id: 1, name: "Claire Roux", country: "France" }, { id: 2, name: "Paul Martin", country: "France" }, { id: 3, name: "Anna Weber", country: "Germany" }] } }).slice(0, -2));
    expect(data.indexOf(ONE_SHOT.question)).toBeLessThan(data.indexOf("Question: How many?"));
    expect(code).toContain(ONE_SHOT.code);
    expect(code).not.toContain(ONE_SHOT.sql);
    // Issue 32: one small example (≈ 220 and 280 tokens; the first pass's took ≈ 420 and 390): its tables as the
    // prompts show tables, one line each, not CREATE statements.
    expect(data.indexOf("(End of the example.)")).toBeLessThan(1200); // the system line included
    expect(code.indexOf("(End of the example.)")).toBeLessThan(1350);
    expect(data.slice(0, data.indexOf("(End of the example.)"))).not.toMatch(/CREATE TABLE/);
    expect(TS_SQL_OPTIONS.maxRevisions.default).toBe(5);
    expect(TS_SQL_OPTIONS.maxCodeRefinements.default).toBe(5);
  });
});

describe("sqlVariants: the candidate's one-change variants a test can see", () => {
  it("toggles DISTINCT, drops the outer LIMIT, flips the outer ORDER BY; inner queries are left alone", () => {
    const variants = sqlVariants("SELECT name FROM t WHERE id IN (SELECT DISTINCT id FROM u ORDER BY x LIMIT 3) ORDER BY score DESC, name LIMIT 1;");
    expect(variants).toEqual([
      { kind: "distinct", sql: "SELECT DISTINCT name FROM t WHERE id IN (SELECT DISTINCT id FROM u ORDER BY x LIMIT 3) ORDER BY score DESC, name LIMIT 1;" },
      { kind: "limit", sql: "SELECT name FROM t WHERE id IN (SELECT DISTINCT id FROM u ORDER BY x LIMIT 3) ORDER BY score DESC, name" },
      { kind: "order", sql: "SELECT name FROM t WHERE id IN (SELECT DISTINCT id FROM u ORDER BY x LIMIT 3) ORDER BY score ASC, name LIMIT 1;" },
    ]);
    expect(sqlVariants("select distinct a from t order by a")).toEqual([
      { kind: "distinct", sql: "select  a from t order by a" },
      { kind: "order", sql: "select distinct a from t order by a DESC" },
    ]);
  });
});

describe("what the coder and the reviser are shown (issue 32: tokens per SQL)", () => {
  const many = { school: Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `School ${i + 1}`, score: 500 + i })) };
  const args = { schema: "school: id INTEGER key; name TEXT; score REAL", question: "Which school scores best?", evidence: "" };
  const textOf = (messages: { content: unknown }[]) => messages.map((m) => String(m.content)).join("\n");
  const rowLines = (prompt: string) => prompt.split("\n").filter((l) => /^ {2}\[\d+,"School \d+",\d+\]$/.test(l)).length;

  it("the coder sees a bounded sample of each table's rows and is told it is one; the reviser fewer; both count what they left out", () => {
    const coder = textOf(coderPrompt({ ...args, tables: many, dbId: "d" }));
    expect(rowLines(coder)).toBe(CODER_ROWS_SHOWN);
    expect(coder).toContain(`at most ${CODER_ROWS_SHOWN} rows of each table shown; the code runs on every row`);
    expect(coder).toContain(`school (20 rows; columns id, name, score):`);
    expect(coder).toContain(`... ${20 - CODER_ROWS_SHOWN} more rows not shown`);
    const expected = { columns: ["name"], rows: Array.from({ length: 30 }, (_, i) => [`School ${i}`]) };
    const reviser = textOf(revisePrompt({ ...args, tables: many, code: "result = [];", codeKind: "code", expected, sql: "SELECT name FROM school", sqlResult: expected }));
    expect(rowLines(reviser)).toBe(REVISER_ROWS_SHOWN);
    expect(reviser).toContain(`... ${20 - REVISER_ROWS_SHOWN} more rows not shown`);
    // Results are bounded too (the expected one and the SQL's), and say how many rows they hold.
    expect(reviser).toContain("30 row(s):");
    expect(reviser).toContain("... 20 more rows not shown");
    // The run records what the prompts left out (nothing silent).
    const state = { testData: { tables: many, source: "generated", loaded: { school: 20 }, violations: [], gaps: [], sqlRan: true, sqlRows: 1 }, attempts: [], codeCandidates: [], rounds: 1, dataRounds: 1, testCode: null, testRun: null, dataStopReason: null, stopReason: null };
    expect(tsSqlOutcome(state)).toMatchObject({ coderRowsNotShown: 20 - CODER_ROWS_SHOWN, reviserRowsNotShown: 20 - REVISER_ROWS_SHOWN });
  });

  it("one 1-shot example per prompt: the data agent's and the coder's first turn carry it once; an inspection round and the reviser none", () => {
    const count = (text: string) => text.split(ONE_SHOT.question).length - 1;
    expect(count(textOf(dataPrompt({ ...args, relevant: "" })))).toBe(1);
    expect(count(textOf(coderPrompt({ ...args, tables: many, dbId: "d" })))).toBe(1);
    // A.5's inspection prompt revises the model's own code: no example (B.4: the 1-shot is test-case generation's).
    const retry = textOf(coderPrompt({ ...args, tables: many, dbId: "d", previous: { code: "result = [];", problem: "the result is empty" } }));
    expect(count(retry)).toBe(0);
    expect(retry).toContain("Inspection found a problem: the result is empty");
    const expected = { columns: ["name"], rows: [["School 20"]] };
    expect(count(textOf(revisePrompt({ ...args, tables: many, code: "result = [];", codeKind: "code", expected, sql: "SELECT 1", sqlResult: expected })))).toBe(0);
  });
});
