/**
 * Schema description: tables, columns, keys, sample values and BIRD column descriptions, read
 * through the safe executor (a hostile or corrupt file takes the same path as any query), and
 * rendered as CREATE TABLE text for prompts, within a size budget.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { getSharedExecutor } from "./sqlite/executor.ts";
import type { ExecSuccess, Row, SqlExecutor, SqlValue } from "./sqlite/types.ts";
import type { Linking } from "../state/linking.ts";

export type SampleValue = string | number;

export interface ColumnSchema {
  name: string;
  /** Declared type as written in CREATE TABLE ("" when none). */
  type: string;
  /** Member of the table's primary key. */
  primaryKey: boolean;
  notNull: boolean;
  /** A few distinct non-null values (text cut to 100 characters; blobs left out). */
  samples: SampleValue[];
  /** From BIRD's database_description CSV. */
  description?: string;
  valueDescription?: string;
}

export interface ForeignKeySchema {
  columns: string[];
  /** The referenced table, spelled as in its CREATE TABLE when it exists. */
  refTable: string;
  /** The referenced columns (the referenced table's primary key when the FK names none). */
  refColumns: string[];
}

export interface TableSchema {
  name: string;
  columns: ColumnSchema[];
  /** Primary key columns in key order. */
  primaryKey: string[];
  foreignKeys: ForeignKeySchema[];
}

export interface DbSchema {
  /** Absolute path of the database file. */
  path: string;
  tables: TableSchema[];
}

export interface ReadSchemaOptions {
  /**
   * Folder of BIRD `<table>.csv` description files. Default: `database_description` next to the
   * database file, when it exists.
   */
  descriptionDir?: string;
  /** Distinct sample values per column. Default 3; 0 skips them. */
  sampleValues?: number;
  executor?: SqlExecutor;
  /** Time limit of each sample-value query. Default 2000 ms. */
  sampleTimeoutMs?: number;
}

const SAMPLE_CHARS = 100;
/** Sample queries look at this many rows at most, so big tables cost little. */
const SAMPLE_SCAN_ROWS = 100_000;

// ---------------------------------------------------------------------------------------------
// Quoting

const KEYWORDS = new Set(
  `ABORT ACTION ADD AFTER ALL ALTER ALWAYS ANALYZE AND AS ASC ATTACH AUTOINCREMENT BEFORE BEGIN
  BETWEEN BY CASCADE CASE CAST CHECK COLLATE COLUMN COMMIT CONFLICT CONSTRAINT CREATE CROSS CURRENT
  CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP DATABASE DEFAULT DEFERRABLE DEFERRED DELETE DESC
  DETACH DISTINCT DO DROP EACH ELSE END ESCAPE EXCEPT EXCLUDE EXCLUSIVE EXISTS EXPLAIN FAIL FILTER
  FIRST FOLLOWING FOR FOREIGN FROM FULL GENERATED GLOB GROUP GROUPS HAVING IF IGNORE IMMEDIATE IN
  INDEX INDEXED INITIALLY INNER INSERT INSTEAD INTERSECT INTO IS ISNULL JOIN KEY LAST LEFT LIKE
  LIMIT MATCH MATERIALIZED NATURAL NO NOT NOTHING NOTNULL NULL NULLS OF OFFSET ON OR ORDER OTHERS
  OUTER OVER PARTITION PLAN PRAGMA PRECEDING PRIMARY QUERY RAISE RANGE RECURSIVE REFERENCES REGEXP
  REINDEX RELEASE RENAME REPLACE RESTRICT RETURNING RIGHT ROLLBACK ROW ROWS SAVEPOINT SELECT SET
  TABLE TEMP TEMPORARY THEN TIES TO TRANSACTION TRIGGER UNBOUNDED UNION UNIQUE UPDATE USING VACUUM
  VALUES VIEW VIRTUAL WHEN WHERE WINDOW WITH WITHOUT`.split(/\s+/),
);

/** Always-quoted identifier, for the queries we send. */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;
/** String literal. */
export const quoteText = (text: string): string => `'${text.replace(/'/g, "''")}'`;
/** Identifier quoted only when it needs to be, for prompts. */
export function showIdent(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name.toUpperCase()) ? name : quoteIdent(name);
}

// ---------------------------------------------------------------------------------------------
// BIRD description CSVs

/** RFC 4180 with leniency: quoted fields may hold commas, quotes ("") and newlines; blank lines are skipped. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  const endRecord = () => {
    record.push(field);
    field = "";
    if (record.some((f) => f.trim() !== "")) records.push(record);
    record = [];
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"' && field.trim() === "") {
      field = "";
      quoted = true;
    } else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endRecord();
    } else field += c;
    i++;
  }
  if (field !== "" || record.length > 0) endRecord();
  return records;
}

/** UTF-8 (with or without BOM), UTF-16 with BOM, else Windows-1252 / latin-1. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes.subarray(2));
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

const squash = (text: string): string => text.replace(/\s+/g, " ").trim();
const nameKey = (text: string): string => squash(text).toLowerCase();

interface ColumnNote {
  description?: string;
  valueDescription?: string;
}

/** Column notes of one description CSV, by lower-cased column name. Never throws. */
function readDescriptionCsv(file: string): Map<string, ColumnNote> {
  const notes = new Map<string, ColumnNote>();
  let records: string[][];
  try {
    records = parseCsv(decodeText(readFileSync(file)));
  } catch {
    return notes;
  }
  const header = records[0]?.map((h) => nameKey(h.replace(/^\uFEFF/, "")));
  if (!header) return notes;
  const at = (name: string) => header.indexOf(name);
  const original = at("original_column_name");
  const readable = at("column_name");
  const described = at("column_description");
  const values = at("value_description");
  if (original < 0) return notes;
  for (const record of records.slice(1)) {
    const column = squash(record[original] ?? "");
    if (!column) continue;
    const name = squash(readable >= 0 ? (record[readable] ?? "") : "");
    let description = squash(described >= 0 ? (record[described] ?? "") : "");
    // The readable name says something when it is not just the column name again.
    const sameAsColumn = nameKey(name).replace(/[\s_]+/g, "") === nameKey(column).replace(/[\s_]+/g, "");
    if (name && !sameAsColumn && !nameKey(description).includes(nameKey(name)))
      description = description ? `${name}: ${description}` : name;
    if (nameKey(description).replace(/[\s_]+/g, "") === nameKey(column).replace(/[\s_]+/g, "")) description = "";
    const valueDescription = squash(values >= 0 ? (record[values] ?? "") : "");
    const note: ColumnNote = {};
    if (description) note.description = description;
    if (valueDescription) note.valueDescription = valueDescription;
    if (note.description || note.valueDescription) notes.set(nameKey(column), note);
  }
  return notes;
}

/** Description CSVs of a folder, by lower-cased table name (file names' case may differ). */
function listDescriptionFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  try {
    for (const entry of readdirSync(dir)) {
      if (/\.csv$/i.test(entry)) files.set(nameKey(entry.slice(0, -4)), path.join(dir, entry));
    }
  } catch {
    // No folder, no descriptions.
  }
  return files;
}

// ---------------------------------------------------------------------------------------------
// Reading

/**
 * Schemas by file state: a read in flight is its promise, a finished one the schema itself (a promise made inside a
 * graph run keeps that run's context — LangChain's config, LangGraph's loop — alive as long as it is kept). The newest
 * SCHEMAS_KEPT, so a run over many databases holds a bounded number.
 */
const cache = new Map<string, Promise<DbSchema> | DbSchema>();
const SCHEMAS_KEPT = 256;

const text = (value: SqlValue | undefined): string => (value === null || value === undefined ? "" : String(value));
const int = (value: SqlValue | undefined): number => (typeof value === "bigint" ? Number(value) : Number(value ?? 0));

function sampleOf(value: SqlValue): SampleValue | undefined {
  if (value === null || value instanceof Uint8Array) return undefined;
  if (typeof value === "bigint") {
    const safe = value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER);
    return safe ? Number(value) : value.toString();
  }
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  const chars = Array.from(value);
  return chars.length > SAMPLE_CHARS ? `${chars.slice(0, SAMPLE_CHARS - 1).join("")}…` : value;
}

const USER_TABLES = `m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`;

/**
 * Describes a SQLite database. Results are cached by path, modification time and size.
 * Throws (one-line message) when the file is missing or not a readable database.
 */
export async function readSchema(dbPath: string, opts: ReadSchemaOptions = {}): Promise<DbSchema> {
  const file = path.resolve(dbPath);
  const sampleValues = Math.max(0, Math.floor(opts.sampleValues ?? 3));
  const descriptionDir = opts.descriptionDir ?? path.join(path.dirname(file), "database_description");
  let info;
  try {
    // Synchronous: a stat per question, cheaper than the thread-pool round trip of the promise API.
    info = statSync(file);
  } catch {
    throw new Error(`cannot read the schema: database file not found: ${file}`);
  }
  const key = JSON.stringify([file, info.mtimeMs, info.size, path.resolve(descriptionDir), sampleValues, opts.sampleTimeoutMs]);
  const kept = cache.get(key);
  if (kept !== undefined) {
    // Most recently used last (the oldest go first).
    cache.delete(key);
    cache.set(key, kept);
    return kept;
  }
  const pending = describe(file, descriptionDir, sampleValues, opts.executor ?? getSharedExecutor(), opts.sampleTimeoutMs ?? 2000).then(
    (schema) => {
      if (cache.get(key) === pending) cache.set(key, schema);
      return schema;
    },
    (error: unknown) => {
      if (cache.get(key) === pending) cache.delete(key);
      throw error;
    },
  );
  cache.set(key, pending);
  while (cache.size > SCHEMAS_KEPT) cache.delete(cache.keys().next().value!);
  return pending;
}

async function describe(
  file: string,
  descriptionDir: string,
  sampleValues: number,
  executor: SqlExecutor,
  sampleTimeoutMs: number,
): Promise<DbSchema> {
  const query = async (sql: string, timeoutMs = 30_000): Promise<ExecSuccess> => {
    const result = await executor.run(file, sql, { timeoutMs });
    if (!result.ok) {
      // Database messages already name the file.
      const where = result.kind === "database" ? "" : ` of ${file}`;
      throw new Error(`cannot read the schema${where}: ${result.kind}: ${result.message}`);
    }
    return result;
  };

  const tableRows = (await query(`SELECT m.name FROM sqlite_master AS m WHERE ${USER_TABLES} ORDER BY m.rowid`)).rows;
  const tables: TableSchema[] = tableRows.map((r) => ({ name: text(r[0]), columns: [], primaryKey: [], foreignKeys: [] }));
  const byName = new Map(tables.map((t) => [t.name, t]));
  const byLowerName = new Map(tables.map((t) => [t.name.toLowerCase(), t]));

  // All columns (and all foreign keys) in one query each; table by table if that fails
  // (e.g. a virtual table whose module is missing breaks the joined query).
  const perTable = async (
    joined: string,
    single: (table: string) => string,
  ): Promise<Array<[TableSchema, Row]>> => {
    try {
      return (await query(joined)).rows.flatMap((r) => {
        const t = byName.get(text(r[0]));
        return t ? [[t, r.slice(1)] as [TableSchema, Row]] : [];
      });
    } catch {
      const out: Array<[TableSchema, Row]> = [];
      for (const t of tables) {
        const result = await executor.run(file, single(t.name), { timeoutMs: 30_000 });
        if (result.ok) for (const r of result.rows) out.push([t, r]);
      }
      return out;
    }
  };

  const infoCols = `p.cid, p.name, p.type, p."notnull", p.pk`;
  const columnRows = await perTable(
    `SELECT m.name, ${infoCols} FROM sqlite_master AS m, pragma_table_info(m.name) AS p WHERE ${USER_TABLES} ORDER BY m.rowid, p.cid`,
    (t) => `SELECT ${infoCols} FROM pragma_table_info(${quoteText(t)}) AS p ORDER BY p.cid`,
  );
  const pkOrder = new Map<TableSchema, Array<[number, string]>>();
  for (const [t, r] of columnRows) {
    const pk = int(r[4]);
    t.columns.push({ name: text(r[1]), type: text(r[2]), primaryKey: pk > 0, notNull: int(r[3]) !== 0, samples: [] });
    if (pk > 0) pkOrder.set(t, [...(pkOrder.get(t) ?? []), [pk, text(r[1])]]);
  }
  for (const [t, keys] of pkOrder) t.primaryKey = keys.sort((a, b) => a[0] - b[0]).map(([, name]) => name);

  const fkCols = `f.id, f.seq, f."table", f."from", f."to"`;
  const fkRows = await perTable(
    `SELECT m.name, ${fkCols} FROM sqlite_master AS m, pragma_foreign_key_list(m.name) AS f WHERE ${USER_TABLES} ORDER BY m.rowid, f.id, f.seq`,
    (t) => `SELECT ${fkCols} FROM pragma_foreign_key_list(${quoteText(t)}) AS f ORDER BY f.id, f.seq`,
  );
  const fks = new Map<string, { table: TableSchema; fk: ForeignKeySchema; to: Array<string | null> }>();
  for (const [t, r] of fkRows) {
    const id = `${t.name}\u0000${int(r[0])}`;
    let entry = fks.get(id);
    if (!entry) {
      const target = text(r[2]);
      entry = { table: t, fk: { columns: [], refTable: byLowerName.get(target.toLowerCase())?.name ?? target, refColumns: [] }, to: [] };
      fks.set(id, entry);
      t.foreignKeys.push(entry.fk);
    }
    entry.fk.columns.push(text(r[3]));
    entry.to.push(r[4] === null ? null : text(r[4]));
  }
  for (const { fk, to } of fks.values()) {
    // "REFERENCES t" without columns means t's primary key.
    const targetPk = byName.get(fk.refTable)?.primaryKey ?? [];
    fk.refColumns = to.map((c, i) => c ?? targetPk[i] ?? "");
  }
  // The same key declared twice (inline and as a table constraint) is shown once.
  for (const t of tables) {
    const seen = new Set<string>();
    t.foreignKeys = t.foreignKeys.filter((fk) => {
      const id = JSON.stringify([fk.columns, fk.refTable.toLowerCase(), fk.refColumns]);
      return seen.has(id) ? false : (seen.add(id), true);
    });
  }

  if (sampleValues > 0) {
    await Promise.all(
      tables.flatMap((t) =>
        t.columns.map(async (c) => {
          const col = quoteIdent(c.name);
          // Distinct over what a sample shows (text past SAMPLE_CHARS is cut; blobs are never shown): a column of huge
          // cells costs SQLite one value at a time, not a DISTINCT index of them.
          const shown = `CASE typeof(${col}) WHEN 'text' THEN substr(${col}, 1, ${SAMPLE_CHARS + 1}) WHEN 'blob' THEN NULL ELSE ${col} END`;
          const sql =
            `SELECT DISTINCT v FROM (SELECT ${shown} AS v FROM ${quoteIdent(t.name)} LIMIT ${SAMPLE_SCAN_ROWS}) ` +
            `WHERE v IS NOT NULL AND v <> '' LIMIT ${sampleValues}`;
          const result = await executor.run(file, sql, { timeoutMs: sampleTimeoutMs, maxRows: sampleValues });
          if (!result.ok) return; // a slow or odd column simply has no samples
          c.samples = result.rows.map((r) => sampleOf(r[0] ?? null)).filter((v): v is SampleValue => v !== undefined);
        }),
      ),
    );
  }

  const csvFiles = listDescriptionFiles(descriptionDir);
  for (const t of tables) {
    const csv = csvFiles.get(nameKey(t.name));
    if (!csv) continue;
    const notes = readDescriptionCsv(csv);
    for (const c of t.columns) {
      const note = notes.get(nameKey(c.name));
      if (note?.description) c.description = note.description;
      if (note?.valueDescription) c.valueDescription = note.valueDescription;
    }
  }
  return { path: file, tables };
}

// ---------------------------------------------------------------------------------------------
// Rendering

export interface RenderOptions {
  /** With evidence, decides which tables and columns are most relevant under a budget. */
  question?: string;
  evidence?: string;
  /** Size budget in characters; omitted parts are counted in a trailing comment. */
  maxChars?: number;
  /** Show sample values. Default true. */
  sampleValues?: boolean;
  /**
   * What linking found (slot `link`): its columns rank first under the budget (kept longest), and the stored values
   * that matched the question are shown beside their columns.
   */
  linking?: Pick<Linking, "columns" | "values"> | null;
  /**
   * `create` (default): CREATE TABLE statements. `lines`: a line per table, `name: column TYPE key|not null|->
   * parent.column (notes); ...` — the same facts in fewer tokens (TS-SQL, issue 32). The budget is counted as for
   * `create` (an upper bound).
   */
  layout?: "create" | "lines";
}

const STOPWORDS = new Set(
  `a an the of in on at to for from by with and or not no is are was were be been being what which
  who whom whose how many much list give show find return all each every any that this these those
  there their its it as than then have has had do does did please me tell name names number`.split(/\s+/),
);

function stem(token: string): string {
  if (token.length > 4 && token.endsWith("ies")) return `${token.slice(0, -3)}y`;
  if (token.length > 3 && token.endsWith("s") && !token.endsWith("ss")) return token.slice(0, -1);
  return token;
}

/** Lower-case word tokens; camelCase and snake_case split; plurals folded. */
export function tokens(textIn: string): string[] {
  return textIn
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map(stem);
}

function overlap(words: string[], wanted: Set<string>): number {
  let n = 0;
  for (const w of new Set(words)) if (wanted.has(w)) n++;
  return n;
}

function sampleText(value: SampleValue): string {
  if (typeof value === "number") return String(value);
  const chars = Array.from(value.replace(/\s+/g, " "));
  return quoteText(chars.length > 40 ? `${chars.slice(0, 39).join("")}…` : chars.join(""));
}

interface ColumnPlan {
  column: ColumnSchema;
  score: number;
  key: boolean;
  keep: boolean;
  samples: boolean;
  description: boolean;
  base: string;
  notes: Array<string | undefined>;
  /** Stored values linking matched, shown whatever the budget while the column is shown. */
  matched: string[];
}

interface TablePlan {
  table: TableSchema;
  score: number;
  keep: boolean;
  columns: ColumnPlan[];
  keyLines: string[];
}

/** The column's trailing comment for its current flags (memoized: budgets ask often). */
function comment(c: ColumnPlan): string {
  const key = (c.samples ? 1 : 0) + (c.description ? 2 : 0);
  return (c.notes[key] ??= buildComment(c));
}

function buildComment(c: ColumnPlan): string {
  const parts: string[] = [];
  if (c.matched.length) parts.push(`matches the question: ${c.matched.map((v) => sampleText(v)).join(", ")}`);
  if (c.description && c.column.description) parts.push(c.column.description);
  if (c.description && c.column.valueDescription) parts.push(`values: ${c.column.valueDescription}`);
  if (c.samples && c.column.samples.length > 0) parts.push(`examples: ${c.column.samples.map(sampleText).join(", ")}`);
  return parts.length > 0 ? ` -- ${parts.join("; ")}` : "";
}

/** Upper bound of a column's line length (every item counted with a comma). */
const columnLength = (c: ColumnPlan): number => (c.keep ? c.base.length + 2 + comment(c).length : 0);
const tableFrame = (t: TablePlan): number =>
  `CREATE TABLE ${showIdent(t.table.name)} (\n);\n\n`.length + t.keyLines.reduce((n, l) => n + l.length + 2, 0);

/**
 * CREATE TABLE text for prompts. Without maxChars everything is shown. With it, parts are dropped
 * in this order until the text fits: sample values, then descriptions, of columns unrelated to the
 * question; unrelated non-key columns; unrelated tables; then the same for related ones, least
 * related first. Primary and foreign keys of the tables shown are always kept.
 */
export function renderSchema(schema: DbSchema, opts: RenderOptions = {}): string {
  const showSamples = opts.sampleValues ?? true;
  // Without matched values the question only ranks what a budget leaves out: a schema that fits whole reads the same
  // for every question of its database, so it is rendered once.
  if (!opts.linking?.values?.length) {
    const whole = wholeSchema(schema, showSamples, opts.layout ?? "create");
    if (opts.maxChars === undefined || whole.chars <= opts.maxChars) return whole.text;
  }
  return renderPlans(schema, opts, showSamples);
}

/** Each schema's whole rendering (by samples and layout) and the size the budget compares. */
const wholeRenderings = new WeakMap<DbSchema, Map<string, { text: string; chars: number }>>();

function wholeSchema(schema: DbSchema, showSamples: boolean, layout: "create" | "lines"): { text: string; chars: number } {
  let renderings = wholeRenderings.get(schema);
  if (!renderings) wholeRenderings.set(schema, (renderings = new Map()));
  const key = `${showSamples}:${layout}`;
  let whole = renderings.get(key);
  if (!whole) {
    const plans = planTables(schema, { sampleValues: showSamples }, showSamples);
    const chars = plans.reduce((n, t) => n + tableFrame(t) + t.columns.reduce((m, c) => m + columnLength(c), 0), 0);
    whole = { text: render(plans, layout), chars };
    renderings.set(key, whole);
  }
  return whole;
}

function renderPlans(schema: DbSchema, opts: RenderOptions, showSamples: boolean): string {
  const plans = planTables(schema, opts, showSamples);
  if (opts.maxChars !== undefined) fitBudget(plans, opts.maxChars);
  return render(plans, opts.layout ?? "create");
}

function planTables(schema: DbSchema, opts: RenderOptions, showSamples: boolean): TablePlan[] {
  const asked = `${opts.question ?? ""} ${opts.evidence ?? ""}`;
  const wanted = new Set(tokens(asked).filter((t) => !STOPWORDS.has(t)));
  const askedLower = asked.toLowerCase();
  const linkKey = (table: string, column: string) => `${table}\u0000${column}`;
  const linkedScore = new Map<string, number>();
  for (const c of opts.linking?.columns ?? []) linkedScore.set(linkKey(c.table, c.column), Math.max(linkedScore.get(linkKey(c.table, c.column)) ?? 0, c.score));
  const matched = new Map<string, string[]>();
  for (const v of opts.linking?.values ?? []) {
    const key = linkKey(v.table, v.column);
    const list = matched.get(key) ?? [];
    if (!list.includes(v.value) && list.length < 5) list.push(v.value);
    matched.set(key, list);
    linkedScore.set(key, Math.max(linkedScore.get(key) ?? 0, v.score));
  }

  const plans: TablePlan[] = schema.tables.map((table) => {
    const keyNames = new Set([...table.primaryKey, ...table.foreignKeys.flatMap((fk) => fk.columns)]);
    const columns = table.columns.map((column): ColumnPlan => {
      let score = 3 * overlap(tokens(column.name), wanted);
      score += overlap(tokens(`${column.description ?? ""} ${column.valueDescription ?? ""}`), wanted);
      if (column.name.length >= 3 && askedLower.includes(column.name.toLowerCase())) score += 3;
      for (const s of column.samples) {
        if (typeof s === "string" && s.length >= 3 && askedLower.includes(s.toLowerCase())) score += 2;
      }
      // Linked columns outrank any word overlap, so the budget keeps them longest.
      const linked = linkedScore.get(linkKey(table.name, column.name));
      if (linked !== undefined) score += 20 + 10 * linked;
      const type = column.type ? ` ${column.type}` : "";
      return {
        column,
        score,
        key: keyNames.has(column.name),
        keep: true,
        samples: showSamples,
        description: true,
        base: `  ${showIdent(column.name)}${type}${column.notNull ? " NOT NULL" : ""}`,
        notes: [],
        matched: matched.get(linkKey(table.name, column.name)) ?? [],
      };
    });
    const scores = columns.map((c) => c.score).sort((a, b) => b - a);
    const score =
      3 * overlap(tokens(table.name), wanted) + (scores[0] ?? 0) + 0.25 * scores.slice(1).reduce((a, b) => a + b, 0);
    const keyLines: string[] = [];
    if (table.primaryKey.length > 0) keyLines.push(`  PRIMARY KEY (${table.primaryKey.map(showIdent).join(", ")})`);
    for (const fk of table.foreignKeys) {
      keyLines.push(
        `  FOREIGN KEY (${fk.columns.map(showIdent).join(", ")}) REFERENCES ${showIdent(fk.refTable)} (${fk.refColumns.map(showIdent).join(", ")})`,
      );
    }
    return { table, score, keep: true, columns, keyLines };
  });
  return plans;
}

function fitBudget(plans: TablePlan[], maxChars: number): void {
  let total = 0;
  for (const t of plans) total += tableFrame(t) + t.columns.reduce((n, c) => n + columnLength(c), 0);
  if (total <= maxChars) return;
  total += 130; // room for the closing "omitted" comment, once something is left out

  // Tables linked by a foreign key to a related table are dropped last among the unrelated.
  const related = new Set(plans.filter((t) => t.score > 0).map((t) => t.table.name.toLowerCase()));
  const linkBonus = (t: TablePlan): number =>
    t.table.foreignKeys.some((fk) => related.has(fk.refTable.toLowerCase())) ||
    plans.some((o) => o.score > 0 && o.table.foreignKeys.some((fk) => fk.refTable.toLowerCase() === t.table.name.toLowerCase()))
      ? 0.1
      : 0;

  type Step = { tier: number; order: number[]; apply: () => void; live: () => boolean };
  const steps: Step[] = [];
  plans.forEach((t, ti) => {
    const tScore = t.score + linkBonus(t);
    t.columns.forEach((c, ci) => {
      const unrelated = c.score === 0;
      const order = [tScore, c.score, -ti, -ci];
      const change = (mutate: () => void) => () => {
        total -= columnLength(c);
        mutate();
        total += columnLength(c);
      };
      if (c.samples && c.column.samples.length > 0)
        steps.push({ tier: unrelated ? 0 : 4, order, live: () => t.keep && c.keep, apply: change(() => (c.samples = false)) });
      if (c.column.description || c.column.valueDescription)
        steps.push({ tier: unrelated ? 1 : 5, order, live: () => t.keep && c.keep, apply: change(() => (c.description = false)) });
      if (!c.key) steps.push({ tier: unrelated ? 2 : 6, order, live: () => t.keep, apply: change(() => (c.keep = false)) });
    });
    steps.push({
      tier: t.score === 0 ? 3 : 7,
      order: [tScore, 0, -ti, 0],
      live: () => t.keep,
      apply: () => {
        t.keep = false;
        total -= tableFrame(t) + t.columns.reduce((n, c) => n + columnLength(c), 0);
      },
    });
  });
  const compare = (a: Step, b: Step): number => {
    if (a.tier !== b.tier) return a.tier - b.tier;
    for (let i = 0; i < a.order.length; i++) if (a.order[i] !== b.order[i]) return a.order[i]! - b.order[i]!;
    return 0;
  };
  steps.sort(compare);
  let kept = plans.length;
  for (const step of steps) {
    if (total <= maxChars) break;
    if (!step.live()) continue;
    if (step.tier === 3 || step.tier === 7) {
      if (kept <= 1) continue; // always show at least one table
      kept--;
    }
    step.apply();
  }
}

function render(plans: TablePlan[], layout: "create" | "lines"): string {
  const blocks: string[] = [];
  let tablesOmitted = 0;
  let columnsOmitted = 0;
  let notesOmitted = 0;
  for (const t of plans) {
    if (!t.keep) {
      tablesOmitted++;
      continue;
    }
    const items: Array<{ line: string; note: string }> = [];
    for (const c of t.columns) {
      if (!c.keep) {
        columnsOmitted++;
        continue;
      }
      if (!c.description && (c.column.description || c.column.valueDescription)) notesOmitted++;
      items.push({ line: c.base, note: comment(c) });
    }
    if (layout === "lines") {
      blocks.push(`${showIdent(t.table.name)}: ${[...linesItems(t), ...linesComposite(t)].join("; ")}`);
      continue;
    }
    for (const line of t.keyLines) items.push({ line, note: "" });
    const body = items.map((item, i) => `${item.line}${i < items.length - 1 ? "," : ""}${item.note}`).join("\n");
    blocks.push(`CREATE TABLE ${showIdent(t.table.name)} (\n${body}\n);`);
  }
  const omitted: string[] = [];
  if (tablesOmitted > 0) omitted.push(`${tablesOmitted} ${tablesOmitted === 1 ? "table" : "tables"}`);
  if (columnsOmitted > 0) omitted.push(`${columnsOmitted} more ${columnsOmitted === 1 ? "column" : "columns"} of the tables shown`);
  if (notesOmitted > 0) omitted.push(`descriptions of ${notesOmitted} ${notesOmitted === 1 ? "column" : "columns"}`);
  if (omitted.length > 0) blocks.push(`-- omitted to fit the size limit: ${omitted.join(", ")}`);
  return blocks.join(layout === "lines" ? "\n" : "\n\n");
}

/** The `lines` layout's columns: name, type, key / not null / single-column foreign key, then the comment's notes. */
function linesItems(t: TablePlan): string[] {
  const single = new Map(t.table.foreignKeys.filter((fk) => fk.columns.length === 1).map((fk) => [fk.columns[0]!, fk]));
  const onlyKey = t.table.primaryKey.length === 1 ? t.table.primaryKey[0] : undefined;
  return t.columns
    .filter((c) => c.keep)
    .map((c) => {
      const fk = single.get(c.column.name);
      const marks = [c.column.type, c.column.name === onlyKey ? "key" : "", c.column.notNull ? "not null" : "", fk ? `-> ${showIdent(fk.refTable)}.${showIdent(fk.refColumns[0] ?? "rowid")}` : ""];
      // A key's examples (1, 2, 3) show no format: left out of this layout.
      const note = comment(c).replace(/^ -- /, "").replace(c.key ? /(?:^|; )examples: .*$/ : /$^/, "");
      return `${[showIdent(c.column.name), ...marks].filter(Boolean).join(" ")}${note ? ` (${note})` : ""}`;
    });
}

/** The `lines` layout's composite keys: a primary key or foreign key over several columns. */
function linesComposite(t: TablePlan): string[] {
  return [
    ...(t.table.primaryKey.length > 1 ? [`key (${t.table.primaryKey.map(showIdent).join(", ")})`] : []),
    ...t.table.foreignKeys
      .filter((fk) => fk.columns.length > 1)
      .map((fk) => `(${fk.columns.map(showIdent).join(", ")}) -> ${showIdent(fk.refTable)}(${fk.refColumns.map(showIdent).join(", ")})`),
  ];
}
