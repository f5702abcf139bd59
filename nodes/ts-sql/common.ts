import { createHash } from "node:crypto";
import type { Linking } from "../../state/linking.ts";
import type { ChatInput } from "../../tools/models/llm.ts";
import type { TestResult, TsSqlStateUpdate, TsSqlStateValue } from "../../state/ts-sql.ts";
import type { JsonScalar } from "../../tools/sandbox/sandbox.ts";
import { type DbSchema, readSchema, showIdent } from "../../tools/schema.ts";
import { resultsMatch } from "../../tools/benchmarks/score.ts";
import { tokenizeSql } from "../../tools/sql-tokens.ts";
import type { Row, ScratchExecutor, SqlExecutor, SqlValue } from "../../tools/sqlite/types.ts";
import type { NodeDeps, NodeFactory } from "../types.ts";
import type { Command } from "@langchain/langgraph";

/** A prompt's fingerprint (sha256 of its messages), to tell a retry that would send the same prompt again. */
export const promptHash = (messages: readonly ChatInput[]): string => createHash("sha256").update(JSON.stringify(messages)).digest("hex");

/** A TS-SQL node: reads TS-SQL's state; returns an update, or a Command where it routes a loop itself. */
export type TsSqlNodeFactory = NodeFactory<TsSqlStateValue, TsSqlStateUpdate | Command>;

export interface SchemaFacts {
  schema: DbSchema;
  /** CREATE TABLE text as the database declares it, by table name. */
  ddl: Map<string, string>;
}

/** The database's structure (no rows): described tables and their CREATE statements. */
export async function schemaFacts(deps: NodeDeps, state: Pick<TsSqlStateValue, "dbPath" | "descriptionDir">): Promise<SchemaFacts> {
  const schema = await readSchema(state.dbPath, { descriptionDir: state.descriptionDir || undefined, executor: deps.executor });
  const ddl = new Map<string, string>();
  const result = await deps.executor.run(state.dbPath, "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL", { timeoutMs: 10_000 });
  if (result.ok) for (const [name, sql] of result.rows) ddl.set(String(name), String(sql));
  return { schema, ddl };
}

/**
 * The tables the question refers to, by the linking (spelled as in the schema): a linked value's table, a linked
 * column's table — except a foreign-key column, which names the table it references ("courses" linking
 * enrollments.course_id means courses, not enrollments), unless its table relates two of the tables so found (a
 * join table: "singers in each concert" needs singer_in_concert). Without this rule every table holding a key of a
 * linked table came in, with its ancestors: on a small database, all of it.
 */
export function linkedTables(schema: DbSchema, linking: Linking | null): string[] {
  if (!linking) return [];
  const byLower = new Map(schema.tables.map((t) => [t.name.toLowerCase(), t]));
  const picked = new Set<string>();
  const throughKeys = new Set<string>();
  for (const c of linking.columns) {
    const table = byLower.get(c.table.toLowerCase());
    if (!table) continue;
    const fk = table.foreignKeys.find((f) => f.columns.length === 1 && f.columns[0]!.toLowerCase() === c.column.toLowerCase());
    const referenced = fk && byLower.get(fk.refTable.toLowerCase());
    if (referenced) {
      picked.add(referenced.name);
      throughKeys.add(table.name);
    } else picked.add(table.name);
  }
  for (const v of linking.values) {
    const table = byLower.get(v.table.toLowerCase());
    if (table) picked.add(table.name);
  }
  for (const name of throughKeys) {
    const related = new Set(byLower.get(name.toLowerCase())!.foreignKeys.map((f) => byLower.get(f.refTable.toLowerCase())?.name).filter((t) => t && picked.has(t)));
    if (related.size >= 2) picked.add(name);
  }
  return schema.tables.map((t) => t.name).filter((n) => picked.has(n));
}

/**
 * The tables a test case needs: those the linking refers to (`linkedTables`), those the candidate SQL names, and the
 * tables their foreign keys point to (rows must have parents). All tables when nothing points anywhere.
 */
export function relevantTables(schema: DbSchema, linking: Linking | null, sql: string): string[] {
  const byLower = new Map(schema.tables.map((t) => [t.name.toLowerCase(), t.name]));
  const picked = new Set<string>(linkedTables(schema, linking));
  for (const token of sql ? safeTokens(sql) : []) {
    const name = token.replace(/^["`[]|["`\]]$/g, "").toLowerCase();
    if (byLower.has(name)) picked.add(byLower.get(name)!);
  }
  if (!picked.size) return schema.tables.map((t) => t.name);
  const queue = [...picked];
  while (queue.length) {
    // Popped once, outside the search: a pop inside `find`'s callback emptied the queue on the first table.
    const name = queue.pop();
    const table = schema.tables.find((t) => t.name === name);
    for (const fk of table?.foreignKeys ?? []) {
      const parent = byLower.get(fk.refTable.toLowerCase());
      if (parent && !picked.has(parent)) {
        picked.add(parent);
        queue.push(parent);
      }
    }
  }
  return schema.tables.map((t) => t.name).filter((n) => picked.has(n));
}

function safeTokens(sql: string): string[] {
  try {
    return tokenizeSql(sql).map((t) => t.text);
  } catch {
    return sql.split(/[^A-Za-z0-9_"`[\]]+/);
  }
}

/** A cell as a JSON scalar (64-bit integers beyond 2^53 as strings, blobs as hex). */
export function jsonCell(value: SqlValue): JsonScalar {
  if (typeof value === "bigint") return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("hex");
  return value;
}

export const toTestResult = (columns: string[], rows: Row[]): TestResult => ({ columns, rows: rows.map((r) => r.map(jsonCell)) });

/**
 * Floats computed in JavaScript and in SQLite may differ in the last bits (summation order); both sides are rounded
 * to 10 significant digits before the shared scorer compares them. Booleans count as SQLite's 1 and 0.
 */
function comparable(rows: readonly (readonly (JsonScalar | SqlValue)[])[]): Row[] {
  return rows.map((row) =>
    row.map((v) => {
      if (typeof v === "boolean") return v ? 1 : 0;
      if (typeof v === "number" && !Number.isInteger(v)) return Number(v.toPrecision(10));
      return v as SqlValue;
    }),
  );
}

/**
 * How a test compares results (Algorithm 1, line 5). Rows are a multiset (duplicates count, column order free), so
 * a missing or wrong DISTINCT and a duplicated row still fail (the shared BIRD set semantics would let both pass).
 * Row order counts only when order is asked for — the question asks for it, or the tested SQL orders its rows
 * (`ORDER BY` at the top, not under `LIMIT 1`) — and the test code sorts (else its order means nothing). A test
 * code's `.sort(` "for readability" does not make order count.
 */
export type Comparison = "ordered" | "multiset";

/** Whether test code sorts (`.sort(` / `.toSorted(` outside comments and strings): its row order is then deliberate. */
export function codeOrders(code: string): boolean {
  const bare = code
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/\/\/[^\n]*/g, " ")
    .replace(/(["'`])(?:\\.|(?!\1)[^\\])*\1/g, '""');
  return /\.\s*(sort|toSorted)\s*\(/.test(bare);
}

/** Wording that asks for an order of the rows ("in descending order", "sorted by", "alphabetically", "from highest to"). */
const ORDER_WORDS =
  /\b(?:in\s+(?:\w+\s+){0,2}order|order(?:ed)?\s+(?:them\s+)?by|sort(?:ed)?|ascending(?:ly)?|descending(?:ly)?|alphabetical(?:ly)?|from\s+(?:the\s+)?(?:highest|lowest|largest|smallest|most|least|biggest|oldest|youngest|newest|latest|earliest|best|worst)\s+to)\b/i;

export const questionOrders = (question: string): boolean => ORDER_WORDS.test(question);

/** Whether an SQL orders its rows: a top-level ORDER BY whose LIMIT is not 1 (one row has no order). */
export function sqlOrders(sql: string): boolean {
  const tokens = safeTokenize(sql);
  if (!tokens) return false;
  let depth = 0;
  const top: { lower: string; type: string; text: string }[] = [];
  for (const t of tokens) {
    if (t.type === "punct" && t.text === "(") depth++;
    else if (t.type === "punct" && t.text === ")") depth--;
    else if (depth === 0 && t.type !== "ws" && t.type !== "comment") top.push(t);
  }
  const order = top.findIndex((t, i) => t.lower === "order" && top[i + 1]?.lower === "by");
  if (order < 0) return false;
  const limit = top.findIndex((t, i) => i > order && t.lower === "limit");
  // `LIMIT 1` (or `LIMIT 1 OFFSET n`), not `LIMIT 1, n` (SQLite's offset, count).
  const limitOne = limit >= 0 && top[limit + 1]?.lower === "1" && top[limit + 2]?.text !== ",";
  return !limitOne;
}

/**
 * The comparison of one test run: ordered when order is asked for (`questionOrders`, `sqlOrders`) and the test code
 * sorts; a multiset otherwise, and always for a predicted result (no code).
 */
export const comparisonOf = (testCode: { code: string } | null | undefined, kind: "code" | "prediction", asked: { question: string; sql: string }): Comparison =>
  kind === "code" && testCode && codeOrders(testCode.code) && (questionOrders(asked.question) || sqlOrders(asked.sql)) ? "ordered" : "multiset";

/** The SQL's result against the expected one: Spider's multiset comparison (column order free), ordered when asked. */
export function matchesExpected(sqlRows: readonly (readonly (JsonScalar | SqlValue)[])[], expected: TestResult, comparison: Comparison = "multiset"): boolean {
  return resultsMatch(comparable(sqlRows), comparable(expected.rows), "spider", { orderMatters: comparison === "ordered" });
}

/**
 * No answer at all: no rows, or only NULLs (an aggregate over no matching rows returns one row of NULL). Test data
 * on which the question's answer is that says nothing about the SQL, so non-duality and inspection both refuse it.
 */
export const isEmptyAnswer = (rows: readonly (readonly unknown[])[]): boolean => rows.every((row) => row.every((v) => v === null));

/** The scratch-database executor, or why this run has none. */
export function scratchOf(executor: SqlExecutor): ScratchExecutor | undefined {
  const candidate = executor as SqlExecutor & Partial<ScratchExecutor>;
  return typeof candidate.runScratch === "function" ? (candidate as SqlExecutor & ScratchExecutor) : undefined;
}

export { codersOf } from "./options.ts";

export const coderLabel = (model: string): string => model || "coder";

/** BIRD's column descriptions of some tables (documentation, not rows), a line each. */
export function descriptionLines(schema: DbSchema, tables: string[], keep?: (table: string, column: string) => boolean): string {
  return schema.tables
    .filter((t) => tables.includes(t.name))
    .flatMap((t) =>
      t.columns
        .filter((c) => (c.description || c.valueDescription) && (!keep || keep(t.name, c.name)))
        .map((c) => `- ${t.name}.${c.name}: ${[c.description, c.valueDescription].filter(Boolean).join("; ")}`),
    )
    .join("\n");
}

/** A variant of a candidate SQL that differs in one thing a test can see (`sqlVariants`). */
export interface SqlVariant {
  kind: "distinct" | "limit" | "order";
  sql: string;
}

/**
 * Variants of the candidate that differ from it in one way a test compares: DISTINCT toggled on the outer SELECT, the
 * outer LIMIT dropped, the outer ORDER BY's directions flipped. When the candidate and a variant disagree on the real
 * database, the test data must tell them apart too — whichever of the two is right (non-duality in the paper's sense:
 * one result per reading of the question). Never used to make the candidate's own answer non-empty.
 */
export function sqlVariants(sql: string): SqlVariant[] {
  const tokens = safeTokenize(sql);
  if (!tokens) return [];
  let depth = 0;
  const top: number[] = []; // indexes of depth-0 words
  tokens.forEach((t, i) => {
    if (t.type === "punct" && t.text === "(") depth++;
    else if (t.type === "punct" && t.text === ")") depth--;
    else if (depth === 0 && t.type === "word") top.push(i);
  });
  const text = (parts: string[]) => parts.join("").trim();
  const at = (word: string) => top.find((i) => tokens[i]!.lower === word);
  const out: SqlVariant[] = [];
  const select = at("select");
  if (select !== undefined) {
    const next = top.find((i) => i > select);
    const parts = tokens.map((t) => t.text);
    if (next !== undefined && tokens[next]!.lower === "distinct" && tokens.slice(select + 1, next).every((t) => t.type === "ws" || t.type === "comment")) parts[next] = "";
    else parts[select] = `${tokens[select]!.text} DISTINCT`;
    out.push({ kind: "distinct", sql: text(parts) });
  }
  const limit = [...top].reverse().find((i) => tokens[i]!.lower === "limit");
  if (limit !== undefined) out.push({ kind: "limit", sql: text(tokens.slice(0, limit).map((t) => t.text)).replace(/;\s*$/, "") });
  const order = top.find((i) => tokens[i]!.lower === "order" && tokens[top[top.indexOf(i) + 1] ?? -1]?.lower === "by");
  if (order !== undefined) {
    const end = top.find((i) => i > order && ["limit", "offset"].includes(tokens[i]!.lower)) ?? tokens.length;
    const directions = top.filter((i) => i > order && i < end && ["asc", "desc"].includes(tokens[i]!.lower));
    const parts = tokens.map((t) => t.text);
    if (directions.length) for (const i of directions) parts[i] = tokens[i]!.lower === "asc" ? "DESC" : "ASC";
    else {
      // No direction written: the first key becomes DESC (before the first top-level comma, or the clause's end).
      let d = 0;
      let cut = end;
      for (let i = order + 1; i < end; i++) {
        const t = tokens[i]!;
        if (t.type === "punct" && t.text === "(") d++;
        else if (t.type === "punct" && t.text === ")") d--;
        else if (d === 0 && t.type === "punct" && (t.text === "," || t.text === ";")) {
          cut = i;
          break;
        }
      }
      let last = cut - 1;
      while (last > order && (tokens[last]!.type === "ws" || tokens[last]!.type === "comment")) last--;
      parts[last] = `${parts[last]} DESC`;
    }
    out.push({ kind: "order", sql: text(parts) });
  }
  return out;
}

function safeTokenize(sql: string) {
  try {
    return tokenizeSql(sql);
  } catch {
    return undefined;
  }
}

/** What the data agent is told when its rows cannot tell a variant from the candidate (never the SQL itself). */
export const VARIANT_GAPS: Record<SqlVariant["kind"], string> = {
  distinct:
    "in the real database the answer repeats rows (the same values more than once), but in the test data it does not: add rows that give the same answer values twice, so keeping or dropping duplicates shows",
  limit:
    "in the real database more rows satisfy the question than a top-N answer keeps, but in the test data they do not: add more rows that satisfy every condition, so the cut matters",
  order:
    "in the real database the answer's order depends on the sort direction, but in the test data it does not: give the qualifying rows different values in what the question ranks by",
};

/** A value as a prompt shows it: JSON, a long text cut to `max` characters (its format shows in its start). */
const shortValue = (v: unknown, max: number) => (typeof v === "string" && v.length > max ? `${JSON.stringify(v.slice(0, max))}…` : JSON.stringify(v));

/**
 * Tables as short lines instead of CREATE statements (issue 32: A.3 and A.4 show "DataFrames, with name, column name
 * and data value examples", not DDL): `name: col TYPE key|not null|-> parent.col[ e.g. v1, v2]; ...`, foreign keys
 * inline. `keep` picks the columns shown (keys and NOT NULL columns are always kept: a row needs them); the line of a
 * table with columns left out says how many, so the reader knows they exist. `hidden` counts them, `columns` names
 * the shown ones by table.
 */
export function compactSchema(
  schema: DbSchema,
  tables: string[],
  opts: { keep?: (table: string, column: string) => boolean; samples?: boolean; order?: Map<string, string[]> } = {},
): { text: string; hidden: number; columns: Map<string, string[]> } {
  let hidden = 0;
  const columns = new Map<string, string[]>();
  const lines = schema.tables
    .filter((t) => tables.includes(t.name))
    .map((t) => {
      const single = new Map(t.foreignKeys.filter((fk) => fk.columns.length === 1).map((fk) => [fk.columns[0]!, fk]));
      const keys = new Set([...t.primaryKey, ...t.foreignKeys.flatMap((fk) => fk.columns)]);
      // `order`: exactly these columns, in this order (a test table's rows); else `keep`'s, keys and NOT NULL ones.
      const ordered = opts.order?.get(t.name)?.flatMap((n) => t.columns.filter((c) => c.name.toLowerCase() === n.toLowerCase()));
      const shown = ordered ?? t.columns.filter((c) => !opts.keep || keys.has(c.name) || c.primaryKey || c.notNull || opts.keep(t.name, c.name));
      hidden += t.columns.length - shown.length;
      columns.set(t.name, shown.map((c) => c.name));
      const cols = shown.map((c) => {
        const fk = single.get(c.name);
        const marks = [t.primaryKey.length <= 1 && (c.primaryKey || t.primaryKey[0] === c.name) ? "key" : "", c.notNull ? "not null" : "", fk ? `-> ${showIdent(fk.refTable)}.${showIdent(fk.refColumns[0] ?? "rowid")}` : ""];
        const examples = opts.samples && !keys.has(c.name) && !c.primaryKey && c.samples.length ? ` e.g. ${c.samples.map((v) => shortValue(v, 40)).join(", ")}` : "";
        return [showIdent(c.name), c.type, ...marks].filter(Boolean).join(" ") + examples;
      });
      const composite = [
        ...(t.primaryKey.length > 1 ? [`key (${t.primaryKey.map(showIdent).join(", ")})`] : []),
        ...t.foreignKeys.filter((fk) => fk.columns.length > 1).map((fk) => `(${fk.columns.map(showIdent).join(", ")}) -> ${showIdent(fk.refTable)}(${fk.refColumns.map(showIdent).join(", ")})`),
      ];
      const left = t.columns.length - shown.length;
      return `${showIdent(t.name)}: ${[...cols, ...composite].join("; ")}${left ? ` (+${left} other columns not needed here)` : ""}`;
    });
  return { text: lines.join("\n"), hidden, columns };
}

/**
 * The columns a question's test data needs (§3.1.1's relevant selection): the linked ones (columns and values), those
 * the candidate SQL or the evidence name; compactSchema adds keys and NOT NULL columns.
 */
export function neededColumns(schema: DbSchema, linking: Linking | null, sql: string, evidence: string): (table: string, column: string) => boolean {
  const wanted = new Set<string>();
  for (const c of linking?.columns ?? []) wanted.add(`${c.table}.${c.column}`.toLowerCase());
  for (const v of linking?.values ?? []) wanted.add(`${v.table}.${v.column}`.toLowerCase());
  const words = new Set([...(sql ? safeTokens(sql) : []), ...evidence.split(/[^A-Za-z0-9_]+/)].map((w) => w.replace(/^["`[]|["`\]]$/g, "").toLowerCase()));
  return (table, column) => wanted.has(`${table}.${column}`.toLowerCase()) || words.has(column.toLowerCase());
}

/**
 * Each test table's columns as `compactSchema` describes them (type, key, foreign key), in the order of its rows'
 * values, for a header over its rows (the coder: structure and rows in one listing, A.4's DataFrames with samples);
 * BIRD's descriptions of those columns.
 */
export function testTableHeaders(facts: SchemaFacts, tables: Record<string, readonly Record<string, unknown>[]>): { headers: Record<string, string>; notes: string } {
  const order = new Map(Object.entries(tables).map(([t, rows]) => [t, [...new Set(rows.flatMap((r) => Object.keys(r)))]]));
  const lines = compactSchema(facts.schema, [...order.keys()], { order }).text.split("\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const name = [...order.keys()].find((t) => line.startsWith(`${showIdent(t)}: `));
    if (name) headers[name] = line.slice(showIdent(name).length + 2);
  }
  const held = new Set([...order].flatMap(([t, cs]) => cs.map((c) => `${t}.${c}`.toLowerCase())));
  return { headers, notes: descriptionLines(facts.schema, [...order.keys()], (t, c) => held.has(`${t}.${c}`.toLowerCase())) };
}

/**
 * The test tables' structure for the coder and the selector (A.4's DataFrames): `compactSchema` of the tables the
 * rows fill, only the columns the rows hold (the data agent leaves the others out), BIRD's descriptions of those.
 */
export function testTablesText(facts: SchemaFacts, tables: Record<string, readonly Record<string, unknown>[]>): string {
  const names = Object.keys(tables);
  const held = new Set(Object.entries(tables).flatMap(([t, rows]) => rows.flatMap((r) => Object.keys(r).map((c) => `${t}.${c}`.toLowerCase()))));
  const keep = (t: string, c: string) => held.has(`${t}.${c}`.toLowerCase());
  const text = compactSchema(facts.schema, names, { keep }).text;
  const notes = descriptionLines(facts.schema, names, keep);
  return notes ? `${text}\n\nColumn descriptions:\n${notes}` : text;
}

/**
 * The values a question (and its evidence) names — each number with the numbers just below and above it (so rows can
 * sit on either side of a bound: "above 40", "between 5000 and 10000"), and each quoted text — offered as example
 * values of the shown columns they could fill: numbers to the numeric columns (by affinity, or text columns whose
 * stored examples are all numbers, as a year kept as text), texts to the text columns; key columns get none. By
 * `table.column` in lower case. Issue 40: a schema-following model writes the values its schema offers; rows that
 * meet the question's conditions need the question's values. Taken from the question, never the candidate SQL (a
 * wrong candidate must not steer the data): an offer, never a requirement.
 */
export function questionValues(question: string, evidence: string, schema: DbSchema, shown: Map<string, string[]>): Map<string, (string | number)[]> {
  const text = `${question}\n${evidence}`;
  const numbers: number[] = [];
  for (const m of text.matchAll(/(?<![\w.])(-?\d+(?:\.\d+)?)(?!\w|\.\d)/g)) {
    const n = Number(m[1]);
    if (!Number.isFinite(n)) continue;
    for (const v of Number.isInteger(n) ? [n, n - 1, n + 1] : [n]) if (!numbers.includes(v)) numbers.push(v);
  }
  const texts = [...new Set([...text.matchAll(/'([^'\n]{1,60})'|"([^"\n]{1,60})"/g)].map((m) => (m[1] ?? m[2] ?? "").trim()).filter(Boolean))];
  const out = new Map<string, (string | number)[]>();
  if (!numbers.length && !texts.length) return out;
  for (const table of schema.tables) {
    const columns = shown.get(table.name);
    if (!columns) continue;
    const keys = new Set([...table.primaryKey, ...table.foreignKeys.flatMap((fk) => fk.columns)].map((c) => c.toLowerCase()));
    for (const name of columns) {
      const column = table.columns.find((c) => c.name === name);
      if (!column || column.primaryKey || keys.has(name.toLowerCase())) continue;
      const type = column.type.toUpperCase();
      const numeric = /INT|REAL|FLOA|DOUB|NUM|DEC/.test(type) || (column.samples.length > 0 && column.samples.every((v) => typeof v === "number" || /^-?\d+(\.\d+)?$/.test(v.trim())));
      const values = numeric ? numbers : /CHAR|CLOB|TEXT/.test(type) || !type ? texts : [];
      if (values.length) out.set(`${table.name}.${name}`.toLowerCase(), values);
    }
  }
  return out;
}
