import { tokenizeSql } from "./sql-tokens.ts";

/**
 * The skeleton of a SQL query: its structure without the parts that tie it to one question and one database.
 * Memo-SQL retrieves memory entries and exemplars by question + skeleton (§3.1, §3.4.1, §3.5.1).
 *
 * - Literals (strings, numbers, parameters) become `?`: values say nothing about the query's shape.
 * - Identifiers (tables, columns, aliases, quoted names) become `_` by default, and `T1.col` becomes one `_`. The
 *   memory is built on training databases and queried for others (BIRD train → dev, or → Spider), so names rarely
 *   coincide; kept, they would make the key match the database instead of the error's shape. The question half of
 *   the key already carries the domain. Type names that are also common column names (date, text) count as names.
 *   `{ identifiers: "keep" }` keeps names (lower-cased) for same-database use.
 * - Keywords are upper-cased, function names lower-cased (kept: COUNT vs SUM vs strftime is structure), comments
 *   dropped, whitespace collapsed.
 */
export interface SkeletonOptions {
  identifiers?: "mask" | "keep";
}

const KEYWORDS = new Set(
  `select from where group by having order limit offset join inner left right full outer cross natural on using as and or
  not in is null like glob between exists case when then else end distinct all union intersect except with recursive asc
  desc cast collate escape over partition rows range filter values true false current_date current_time current_timestamp
  integer real numeric varchar`.split(/\s+/).filter(Boolean),
);

export function sqlSkeleton(sql: string, options: SkeletonOptions = {}): string {
  const mask = (options.identifiers ?? "mask") === "mask";
  const tokens = tokenizeSql(sql).filter((t) => t.type !== "ws" && t.type !== "comment");
  const out: string[] = [];
  const fn: boolean[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const next = tokens[i + 1];
    let text: string;
    if (token.type === "string" || token.type === "number" || token.type === "param") text = "?";
    else if (token.type === "word" && KEYWORDS.has(token.lower)) text = token.lower.toUpperCase();
    else if (token.type === "word" && next?.text === "(") text = token.lower;
    else if (token.type === "word" || token.type === "qident") text = mask ? "_" : token.type === "word" ? token.lower : token.text;
    else text = token.text;
    // A qualified name (T1.col, "t"."c") is one identifier.
    if (mask && text === "_" && out.at(-1) === "." && out.at(-2) === "_") {
      out.pop();
      fn.pop();
      continue;
    }
    if (text === "?" && out.at(-1) === "-" && /^[(,=<>]|^$|^(SELECT|WHERE|AND|OR|THEN|ELSE|WHEN|LIMIT|OFFSET|BETWEEN|IN)$/.test(out.at(-2) ?? "")) {
      out.pop(); // -5 is one literal
      fn.pop();
    }
    out.push(text);
    fn.push(token.type === "word" && next?.text === "(" && !KEYWORDS.has(token.lower));
  }
  let rendered = "";
  out.forEach((text, i) => {
    const glued = i === 0 || text === ")" || text === "," || text === "." || out[i - 1] === "(" || out[i - 1] === "." || (text === "(" && fn[i - 1]);
    rendered += glued ? text : ` ${text}`;
  });
  return rendered;
}
