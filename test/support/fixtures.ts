/** Test fixtures: SQLite databases built from SQL scripts in temporary directories. */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll } from "vitest";
import { createExecutor } from "../../tools/sqlite/executor.ts";

/** A fresh temporary directory; remove it with `removeTempDir`. */
export function makeTempDir(prefix = "sqlmend-test-"): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Creates `dir/name` (parent folders included) from a SQL script and returns its path.
 * The file is closed and in rollback-journal mode, like the Spider and BIRD databases.
 */
export function makeDb(dir: string, name: string, sqlScript: string): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.exec(sqlScript);
  } finally {
    db.close();
  }
  return file;
}

/** SHA-256 of a file's bytes, to prove a file was not changed. */
export function sha256File(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/**
 * A test file's database: made now from `sqlScript` as `shop.sqlite` in a temporary folder, with an executor; both
 * closed and removed after the file's tests.
 */
export function testDatabase(sqlScript: string, options: { executorSize?: number } = {}) {
  const dir = makeTempDir();
  const dbPath = makeDb(dir, "shop.sqlite", sqlScript);
  const executor = createExecutor({ size: options.executorSize ?? 2 });
  afterAll(async () => {
    await executor.close();
    removeTempDir(dir);
  });
  return { dir, dbPath, executor };
}
