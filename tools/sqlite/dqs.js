/**
 * Double-quoted string literals. Python's sqlite3 and the sqlite3 shell (and so the official scorers) accept "JetBlue"
 * where no column has that name; better-sqlite3 is built without that (SQLITE_DQS=0). SQLite's error names the token:
 * it is rewritten as a single-quoted literal and the statement run again. Plain JavaScript, shared by the executor
 * (tools/sqlite/executor.ts) and its workers (./worker.js).
 */
import { tokenizeSql } from "./sql-tokens.js";

export const DQS_HINT = /no such column: "([\s\S]*)" - should this be a string literal in single-quotes\?/;
export const MAX_DQS_FIXES = 16;

/** Whitespace runs as one space: error messages reach here on one line (a tab, a newline or two spaces collapsed). */
const collapsed = (text) => text.replace(/\s+/g, " ").trim();

/**
 * Rewrites each "value" token (a double-quoted identifier SQLite could not resolve) as 'value', with the token's own
 * text (its tabs, newlines and runs of spaces kept): `value` may come from a message whose whitespace was collapsed.
 * @param {string} sql @param {string} value @returns {string}
 */
export function singleQuoteLiteral(sql, value) {
  const wanted = collapsed(value);
  return tokenizeSql(sql)
    .map((t) => {
      if (t.type !== "qident" || !t.text.startsWith('"')) return t.text;
      const own = t.text.slice(1, -1).replaceAll('""', '"');
      return own === value || collapsed(own) === wanted ? `'${own.replaceAll("'", "''")}'` : t.text;
    })
    .join("");
}

/**
 * The rewritten statement for an error that names a double-quoted literal, or undefined when there is nothing to do.
 * @param {string} sql @param {string} message @returns {string | undefined}
 */
export function rewriteForHint(sql, message) {
  const literal = DQS_HINT.exec(message)?.[1];
  if (literal === undefined) return undefined;
  const rewritten = singleQuoteLiteral(sql, literal);
  return rewritten === sql ? undefined : rewritten;
}
