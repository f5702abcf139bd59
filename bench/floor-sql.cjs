// The bare app's SQL in bench/launcher-overhead.ts: how both floors run a query, and, started with fork(), the
// killable floor's SQL child process (a read-only handle per file; each query's rows or error sent back).
"use strict";

/**
 * Runs a query as the official scorers' Python sqlite3 would: better-sqlite3 is built without double-quoted string
 * literals, so a "value" SQLite names in its error is rewritten as 'value' and the query run again (sqlmend's workers
 * do the same); without it the floors fail a fifth of Spider dev's questions at once, doing less.
 */
function allRows(db, sql) {
  for (let fixes = 0; ; fixes++) {
    try {
      return db.prepare(sql).raw().all();
    } catch (error) {
      const literal = /no such column: "(.*)" - should this be a string literal/.exec(String(error && error.message))?.[1];
      const fixed = literal === undefined ? sql : sql.split(`"${literal}"`).join(`'${literal.replaceAll("'", "''")}'`);
      if (fixes >= 16 || fixed === sql) throw error;
      sql = fixed;
    }
  }
}

module.exports = { allRows };

if (require.main === module) {
  const Database = require("better-sqlite3");
  const handles = new Map();
  process.on("message", ({ id, dbPath, sql }) => {
    try {
      let db = handles.get(dbPath);
      if (!db) handles.set(dbPath, (db = new Database(dbPath, { readonly: true, fileMustExist: true })));
      process.send({ id, rows: allRows(db, sql) });
    } catch (error) {
      process.send({ id, error: String(error && error.message) });
    }
  });
  process.on("disconnect", () => process.exit(0));
}
