import { tokenizeSql } from "./sql-tokens.ts";

const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]*$/;

/**
 * SQL in a canonical spelling, for "is this the same query?" (R³'s consensus): white space and comments collapse,
 * words (keywords and identifiers, both case-insensitive in SQLite) are lower-cased, quoting is dropped from
 * identifiers that need none, trailing semicolons go. String literals are kept exactly. Never throws.
 */
export function normaliseSql(sql: string): string {
  const parts: string[] = [];
  for (const token of tokenizeSql(sql)) {
    if (token.type === "ws" || token.type === "comment") continue;
    if (token.type === "qident") {
      const inner = unquote(token.text);
      parts.push(inner !== undefined && PLAIN_IDENTIFIER.test(inner) ? inner.toLowerCase() : token.text);
      continue;
    }
    parts.push(token.type === "word" ? token.lower : token.text);
  }
  while (parts.at(-1) === ";") parts.pop();
  return parts.join(" ");
}

/** True when two SQL strings differ only in what `normaliseSql` erases. */
export const sameSql = (a: string, b: string): boolean => normaliseSql(a) === normaliseSql(b);

function unquote(text: string): string | undefined {
  const open = text[0];
  const close = open === "[" ? "]" : open;
  if (text.length < 2 || text.at(-1) !== close) return undefined;
  const inner = text.slice(1, -1);
  return open === "[" ? inner : inner.split(`${open}${open}`).join(open);
}
