import { tokenizeSql } from "../../tools/sql-tokens.ts";

/**
 * Keeping the gold answer away from the correction agent (MAGIC §3.2). A text "contains" a SQL query when the
 * query's tokens appear in it as one run, compared case-insensitively, ignoring whitespace, comments, a trailing
 * semicolon, and quoting (so "name", `name`, [name] and name match, as do 'London' and "London").
 */

interface Tok {
  key: string;
  start: number;
  end: number;
}

const unquote = (text: string) => {
  const first = text[0];
  if (first === "[") return text.slice(1, -1);
  if (first === '"' || first === "'" || first === "`") return text.slice(1, text.endsWith(first) && text.length > 1 ? -1 : undefined);
  return text;
};

/** Comparable tokens of any text (prose included), with their spans in the original. */
function keyedTokens(text: string): Tok[] {
  const out: Tok[] = [];
  let at = 0;
  // Backticks are inline-code marks in prose more often than identifier quotes: read them as spaces (same length).
  for (const token of tokenizeSql(text.replace(/`/g, " "))) {
    const start = at;
    at += token.text.length;
    if (token.type === "ws" || token.type === "comment") continue;
    // Quoting is ignored: "name", [name] and name are one identifier; 'London' and "London" one value.
    const key = token.type === "string" || token.type === "qident" ? unquote(token.text).toLowerCase() : token.text.toLowerCase();
    out.push({ key, start, end: at });
  }
  return out;
}

function sqlKeys(sql: string): string[] {
  const keys = keyedTokens(sql).map((t) => t.key);
  while (keys.length && keys.at(-1) === ";") keys.pop();
  return keys;
}

/** Spans of `text` where the whole of `sql` appears. */
export function sqlSpans(text: string, sql: string): Array<[number, number]> {
  const needle = sqlKeys(sql);
  if (!needle.length) return [];
  const hay = keyedTokens(text);
  const spans: Array<[number, number]> = [];
  for (let i = 0; i + needle.length <= hay.length; i++) {
    let j = 0;
    while (j < needle.length && hay[i + j]!.key === needle[j]) j++;
    if (j === needle.length) {
      spans.push([hay[i]!.start, hay[i + needle.length - 1]!.end]);
      i += needle.length - 1;
    }
  }
  return spans;
}

export const containsSql = (text: string, sql: string): boolean => sqlSpans(text, sql).length > 0;

export const REDACTED = "[correct SQL withheld]";

/** `text` with every occurrence of `sql` replaced by a marker. */
export function redactSql(text: string, sql: string): string {
  let out = text;
  for (const [start, end] of sqlSpans(text, sql).reverse()) out = `${out.slice(0, start)}${REDACTED}${out.slice(end)}`;
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const hasWord = (lowerText: string, cell: string) => new RegExp(`(^|[^\\p{L}\\p{N}_.])${escape(cell)}($|[^\\p{L}\\p{N}_])`, "u").test(lowerText);

/**
 * Does `text` give away a row of the gold result? A row counts as given away when every one of its cells appears in
 * the text as a whole word. Cells shorter than two characters (a count of 3, a flag of 1) match too much ordinary
 * text to be evidence on their own, so a row made only of those is never flagged: a known blind spot. Cells the
 * reader is shown anyway (`known`: the question, evidence, incorrect SQL, feedback) give nothing away: a row made
 * only of those is not flagged either, so instructions may say "filter on 'Lecturer'" when the evidence does.
 */
export function leakedRow(text: string, rows: ReadonlyArray<ReadonlyArray<unknown>>, known = ""): ReadonlyArray<unknown> | undefined {
  const lower = text.toLowerCase();
  const knownLower = known.toLowerCase();
  for (const row of rows) {
    const cells = row.filter((c) => c !== null && c !== undefined).map((c) => (c instanceof Uint8Array ? "" : String(c).toLowerCase().trim()));
    if (!cells.length || cells.every((c) => c.length < 2)) continue;
    if (cells.every((c) => c !== "" && hasWord(knownLower, c))) continue;
    if (cells.every((c) => c !== "" && hasWord(lower, c))) return row;
  }
  return undefined;
}
