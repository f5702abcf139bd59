import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor } from "../tools/sqlite/executor.ts";
import type { ScratchResult, ScratchSuccess } from "../tools/sqlite/types.ts";
import { makeDb, makeTempDir, removeTempDir, sha256File } from "./support/fixtures.ts";

const SCHEMA = `
  CREATE TABLE district (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
  CREATE TABLE school (
    id INTEGER PRIMARY KEY,
    district_id INTEGER NOT NULL REFERENCES district(id),
    name TEXT NOT NULL,
    status TEXT CHECK (status IN ('Active', 'Closed')),
    score REAL
  );
  INSERT INTO district VALUES (1, 'REAL-DISTRICT');
  INSERT INTO school VALUES (1, 1, 'REAL-SCHOOL', 'Active', 500);
`;

let dir: string;
let db: string;
const executor = createExecutor({ size: 1 });

beforeAll(() => {
  dir = makeTempDir();
  db = makeDb(dir, "schools.sqlite", SCHEMA);
});
afterAll(async () => {
  await executor.close();
  removeTempDir(dir);
});

const ok = (r: ScratchResult): ScratchSuccess => {
  if (!r.ok) throw new Error(`${r.kind}: ${r.message}`);
  return r;
};

describe("scratch databases (test data in an in-memory copy of the schema)", () => {
  it("loads rows (children given before parents) and runs queries on them, never on the real rows", async () => {
    const before = sha256File(db);
    const out = ok(
      await executor.runScratch(
        db,
        {
          school: [
            { id: 10, district_id: 7, name: "Test High", status: "Active", score: 610 },
            { id: 11, district_id: 7, name: "Old School", status: "Closed", score: 480.5 },
          ],
          district: [{ id: 7, name: "Test District" }],
        },
        ["SELECT s.name, d.name FROM school s JOIN district d ON d.id = s.district_id WHERE s.status = 'Active'", "SELECT count(*) FROM school"],
      ),
    );
    expect(out.errors).toEqual([]);
    expect(out.loaded).toEqual({ district: 1, school: 2 });
    expect(out.results[0]).toMatchObject({ ok: true, columns: ["name", "name"], rows: [["Test High", "Test District"]] });
    expect(out.results[1]).toMatchObject({ ok: true, rows: [[2n]] });
    expect(sha256File(db)).toBe(before);
  });

  it("sends back each row that violates the schema, with the constraint, and keeps the others", async () => {
    const out = ok(
      await executor.runScratch(
        db,
        {
          district: [{ id: 1, name: "A" }, { id: 2, name: "A" }, { id: 3 }],
          school: [
            { id: 1, district_id: 1, name: "ok", status: "Active" },
            { id: 2, district_id: 99, name: "orphan", status: "Active" },
            { id: 3, district_id: 1, name: "bad status", status: "Maybe" },
            { id: 4, district_id: 1, name: "x", colour: "red" },
            { id: 1, district_id: 1, name: "duplicate key" },
          ],
          teachers: [{ id: 1 }],
        },
        ["SELECT name FROM school ORDER BY id"],
      ),
    );
    const text = out.errors.join("\n");
    expect(text).toMatch(/table teachers: no such table/);
    expect(text).toMatch(/district row 2: UNIQUE constraint failed: district.name/);
    expect(text).toMatch(/district row 3: NOT NULL constraint failed: district.name/);
    expect(text).toMatch(/school row 2: FOREIGN KEY constraint failed \(no matching row in district\)/);
    expect(text).toMatch(/school row 3: CHECK constraint failed/);
    expect(text).toMatch(/school row 4: no such column: colour/);
    expect(text).toMatch(/school row 5: UNIQUE constraint failed: school.id/);
    expect(out.results[0]).toMatchObject({ ok: true, rows: [["ok"]] });
  });

  it("a row whose parent was dropped for a broken foreign key is dropped too (the kept rows satisfy the schema)", async () => {
    const chained = makeDb(dir, "chained.sqlite", `
      CREATE TABLE district (id INTEGER PRIMARY KEY);
      CREATE TABLE school (id INTEGER PRIMARY KEY, district_id INTEGER REFERENCES district(id));
      CREATE TABLE student (id INTEGER PRIMARY KEY, school_id INTEGER REFERENCES school(id));`);
    const out = ok(
      await executor.runScratch(
        chained,
        { district: [{ id: 1 }], school: [{ id: 1, district_id: 9 }, { id: 2, district_id: 1 }], student: [{ id: 1, school_id: 1 }, { id: 2, school_id: 2 }] },
        ["SELECT s.id FROM student s LEFT JOIN school c ON c.id = s.school_id WHERE c.id IS NULL"],
      ),
    );
    expect(out.errors).toEqual([
      "school row 1: FOREIGN KEY constraint failed (no matching row in district)",
      "student row 1: FOREIGN KEY constraint failed (no matching row in school)",
    ]);
    expect(out.loaded).toEqual({ district: 1, school: 1, student: 1 });
    expect(out.results[0]).toMatchObject({ ok: true, rows: [] });
  });

  it("stores whole numbers as INTEGER and booleans as 1/0; rejects nested values", async () => {
    const out = ok(
      await executor.runScratch(db, { school: [{ id: 1, district_id: 1, name: 5, score: true }, { id: 2, district_id: 1, name: { x: 1 } as never }], district: [{ id: 1, name: "d" }] }, [
        "SELECT name, typeof(name), score FROM school",
      ]),
    );
    expect(out.errors.join()).toMatch(/school row 2: cells must be numbers, strings, booleans or null/);
    expect(out.results[0]).toMatchObject({ ok: true, rows: [["5", "text", 1]] });
  });

  it("reports SQL errors and refuses writes; rewrites double-quoted literals as run() does", async () => {
    const out = ok(
      await executor.runScratch(db, { district: [{ id: 1, name: "x" }] }, ["SELECT nope FROM district", "DELETE FROM district", 'SELECT id FROM district WHERE name = "x"'], {}),
    );
    expect(out.results[0]).toMatchObject({ ok: false, kind: "sql" });
    expect(out.results[1]).toMatchObject({ ok: false, kind: "rejected" });
    expect(out.results[2]).toMatchObject({ ok: true, rows: [[1n]], executedSql: "SELECT id FROM district WHERE name = 'x'" });
  });

  it("a missing database file is a database error", async () => {
    expect(await executor.runScratch(`${dir}/missing.sqlite`, {}, [])).toMatchObject({ ok: false, kind: "database" });
  });

  it("a runaway query on the test data is stopped at the time limit", async () => {
    const out = await executor.runScratch(db, {}, ["WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c"], { timeoutMs: 300 });
    expect(out).toMatchObject({ ok: false, kind: "timeout" });
    expect(ok(await executor.runScratch(db, { district: [{ id: 1, name: "x" }] }, ["SELECT count(*) FROM district"])).results[0]).toMatchObject({ rows: [[1n]] });
  });
});
