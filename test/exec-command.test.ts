import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIO } from "../cli/shared/command.ts";
import { main } from "../cli/main.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
let dir: string;

beforeAll(() => {
  dir = makeTempDir();
  makeDb(
    dir,
    "shop.sqlite",
    `CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price REAL, data BLOB);
     INSERT INTO item VALUES (1, 'pen', 1.5, x'00ff'), (2, 'book', 12.0, NULL), (3, 'lamp', NULL, NULL);
     CREATE TABLE n (v INTEGER);
     WITH RECURSIVE s(v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM s WHERE v < 120) INSERT INTO n SELECT v FROM s;`,
  );
  writeFileSync(path.join(dir, "garbage.sqlite"), "garbage ".repeat(500));
});

afterAll(() => removeTempDir(dir));

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: CliIO = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), env: {}, cwd: dir };
  const code = await main(["exec", ...argv], io);
  return { code, out, err };
}

describe("sqlmend exec", () => {
  it("prints a table", async () => {
    const { code, out, err } = await run("--db", "shop.sqlite", "SELECT id, name, price FROM item ORDER BY id");
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toBe(
      ["id | name | price", "---+------+------", " 1 | pen  |   1.5", " 2 | book |    12", " 3 | lamp |  NULL", "(3 rows)", ""].join("\n"),
    );
  });

  it("shows 50 rows by default, --max-rows to change", async () => {
    const { out } = await run("--db", "shop.sqlite", "SELECT v FROM n");
    expect(out.trimEnd().split("\n").at(-1)).toBe("(50 of 120 rows shown)");
    const { out: three } = await run("--db", "shop.sqlite", "--max-rows", "3", "SELECT v FROM n");
    expect(three.trimEnd().split("\n")).toHaveLength(6);
    const { out: all } = await run("--db", "shop.sqlite", "--max-rows", "0", "SELECT v FROM n");
    expect(all.trimEnd().split("\n").at(-1)).toBe("(120 rows)");
  });

  it("--json encodes every storage class losslessly", async () => {
    const { code, out } = await run(
      "--db",
      "shop.sqlite",
      "--json",
      "SELECT 1 AS i, 1.0 AS r, '1' AS t, NULL AS z, x'00ff' AS b, 9223372036854775807 AS big, 2.5e300 AS e",
    );
    expect(code).toBe(0);
    expect(out.endsWith("\n")).toBe(true);
    expect(out).toContain('"rows":[[1,1.0,"1",null,{"blob":"00ff"},{"int":"9223372036854775807"},2.5e+300]]');
    const parsed = JSON.parse(out);
    expect(parsed).toMatchObject({
      columns: ["i", "r", "t", "z", "b", "big", "e"],
      rowCount: 1,
      truncated: false,
    });
    expect(typeof parsed.elapsedMs).toBe("number");
  });

  it("--json honours --max-rows and reports truncation", async () => {
    const parsed = JSON.parse((await run("--db", "shop.sqlite", "--json", "--max-rows", "2", "SELECT v FROM n")).out);
    expect(parsed.rows).toEqual([[1], [2]]);
    expect(parsed.rowCount).toBe(120);
    expect(parsed.truncated).toBe(true);
  });

  const failures: Array<[string, string[], RegExp]> = [
    ["rejected", ["--db", "shop.sqlite", "DROP TABLE item"], /^sqlmend exec: rejected: DROP writes to the database/],
    ["timeout", ["--db", "shop.sqlite", "--timeout-ms", "300", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c"], /^sqlmend exec: timeout: /],
    ["sql", ["--db", "shop.sqlite", "SELECT nope FROM item"], /^sqlmend exec: sql: no such column: nope$/],
    ["missing", ["--db", "missing.sqlite", "SELECT 1"], /^sqlmend exec: database: database file not found: .*missing\.sqlite$/],
    ["garbage", ["--db", "garbage.sqlite", "SELECT 1"], /^sqlmend exec: database: not a database file: .*garbage\.sqlite$/],
  ];
  it.each(failures)("%s: one line on stderr, non-zero exit", async (_, argv, pattern) => {
    const { code, out, err } = await run(...argv);
    expect(code).not.toBe(0);
    expect(out).toBe("");
    expect(err.endsWith("\n")).toBe(true);
    expect(err.trimEnd().split("\n")).toHaveLength(1);
    expect(err.trimEnd()).toMatch(pattern);
  });

  it("usage errors exit 2", async () => {
    expect((await run("SELECT 1")).code).toBe(2);
    expect((await run("--db", "shop.sqlite")).code).toBe(2);
    expect((await run("--db", "shop.sqlite", "--max-rows", "x", "SELECT 1")).code).toBe(2);
  });

  it("bin/sqlmend.js runs it and exits promptly", async () => {
    const started = Date.now();
    const child = spawn(process.execPath, [path.join(ROOT, "bin", "sqlmend.js"), "exec", "--db", "shop.sqlite", "SELECT name FROM item WHERE id = 2"], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toBe("name\n----\nbook\n(1 row)\n");
    expect(Date.now() - started).toBeLessThan(10_000);

    const failed = spawn(process.execPath, [path.join(ROOT, "bin", "sqlmend.js"), "exec", "--db", "shop.sqlite", "DELETE FROM item"], {
      cwd: dir,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let failedErr = "";
    failed.stderr.on("data", (d) => (failedErr += d));
    expect(await new Promise((resolve) => failed.on("close", resolve))).toBe(1);
    expect(failedErr).toMatch(/^sqlmend exec: rejected: DELETE writes to the database/);
  });
});
