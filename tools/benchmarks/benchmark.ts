/**
 * Reads Spider and BIRD benchmarks into `Benchmark` / `Question` (state/question.ts),
 * computes Spider's hardness from gold SQL, and resolves the name `minibench` to the
 * project's own benchmark (tools/benchmarks/minibench/).
 */
import { quickHash } from "../hash.ts";
import { existsSync, statSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { fileURLToPath } from "node:url";
import { UserError } from "../../core/errors.ts";
import type { Benchmark, Question, SkippedQuestion, Split } from "../../state/question.ts";
import { ensureMinibench } from "./minibench/index.ts";
import { dataDir } from "../paths.ts";

import { tokenizeSql, type SqlTokenType } from "../sql-tokens.ts";

// ---------------------------------------------------------------------------
// Spider hardness
// ---------------------------------------------------------------------------

export type SpiderHardness = "easy" | "medium" | "hard" | "extra";

/** The three counts Spider's eval_hardness combines. */
export interface HardnessCounts {
  component1: number;
  component2: number;
  others: number;
}

/** Spider's eval_hardness thresholds over the three counts. */
export function hardnessFromCounts({ component1: c1, component2: c2, others: o }: HardnessCounts): SpiderHardness {
  if (c1 <= 1 && o === 0 && c2 === 0) return "easy";
  if ((o <= 2 && c1 <= 1 && c2 === 0) || (c1 <= 2 && o < 2 && c2 === 0)) return "medium";
  if ((o > 2 && c1 <= 2 && c2 === 0) || (c1 > 2 && c1 <= 3 && o <= 2 && c2 === 0) || (c1 <= 1 && o === 0 && c2 <= 1)) {
    return "hard";
  }
  return "extra";
}

const AGGS = new Set(["max", "min", "count", "sum", "avg"]);
const SET_OPS = new Set(["union", "intersect", "except"]);
const CLAUSES = ["select", "from", "where", "group", "having", "order", "limit"] as const;
type Clause = (typeof CLAUSES)[number];

interface Tok {
  lower: string;
  type: SqlTokenType;
  /** Index of the matching parenthesis, for "(" and ")". */
  match: number;
}

function significant(sql: string): Tok[] {
  const toks: Tok[] = tokenizeSql(sql)
    .filter((t) => t.type !== "ws" && t.type !== "comment")
    .map((t) => ({ lower: t.lower, type: t.type, match: -1 }));
  const stack: number[] = [];
  toks.forEach((t, i) => {
    if (t.type !== "punct") return;
    if (t.lower === "(") stack.push(i);
    else if (t.lower === ")" && stack.length) {
      const open = stack.pop()!;
      toks[open]!.match = i;
      t.match = open;
    }
  });
  return toks;
}

const isWord = (t: Tok | undefined, ...words: string[]) => t?.type === "word" && words.includes(t.lower);
const isPunct = (t: Tok | undefined, p: string) => t?.type === "punct" && t.lower === p;
/** A parenthesised subquery starts here: "(" followed by SELECT (or more "(" then SELECT). */
const opensSubquery = (toks: Tok[], i: number): boolean => {
  let j = i;
  while (isPunct(toks[j], "(")) j++;
  return j > i && isWord(toks[j], "select", "with", "values");
};
/** Index after the token at i, jumping over a parenthesised group. */
const next = (toks: Tok[], i: number) => (isPunct(toks[i], "(") && toks[i]!.match > i ? toks[i]!.match + 1 : i + 1);

const COMPARISONS = new Set(["=", "==", "<", ">", "<=", ">=", "!=", "<>"]);
const isComparison = (t: Tok) => (t.type === "punct" && COMPARISONS.has(t.lower)) || (t.type === "word" && t.lower === "like");
const NOT_COLUMN = new Set(["select", "not", "null", "case", "exists", "true", "false"]);
const VALUE_STOPS = ["and", "select", "from", "where", "group", "order", "limit", "intersect", "union", "except", "join", "on", "as"];

interface CondCounts {
  conds: number;
  connectors: number;
  or: number;
  like: number;
  not: number;
  nested: number;
}

/**
 * Counts over one condition (ON / WHERE / HAVING). Spider's parser only knows flat
 * conditions; we also look inside non-subquery parentheses (where Spider's parser would fail).
 */
function countCondition(toks: Tok[], start: number, end: number): CondCounts {
  const c: CondCounts = { conds: 0, connectors: 0, or: 0, like: 0, not: 0, nested: 0 };
  if (start >= end) return c;
  const betweens: number[] = [0];
  let caseDepth = 0;
  for (let i = start; i < end; i++) {
    const t = toks[i]!;
    if (isPunct(t, "(")) {
      if (opensSubquery(toks, i)) {
        c.nested++;
        i = Math.max(i, Math.min(t.match, end - 1));
        continue;
      }
      betweens.push(0);
      continue;
    }
    if (isPunct(t, ")")) {
      if (betweens.length > 1) betweens.pop();
      continue;
    }
    if (caseDepth === 0 && isComparison(t) && toks[i + 1]?.type === "word" && !NOT_COLUMN.has(toks[i + 1]!.lower) && !isPunct(toks[i + 2], "(")) {
      // Spider's parse_value reads a column value up to the next ',', ')', AND or clause/join
      // keyword, so an OR (and the conditions after it) following `a = b.c` is not counted.
      if (t.lower === "like") c.like++;
      let j = i + 1;
      while (j < end && !isPunct(toks[j], ",") && !isPunct(toks[j], ")") && !isWord(toks[j], ...VALUE_STOPS)) j = next(toks, j);
      i = j - 1;
      continue;
    }
    if (t.type !== "word") continue;
    if (t.lower === "case") caseDepth++;
    else if (t.lower === "end" && caseDepth > 0) caseDepth--;
    if (caseDepth > 0) continue;
    const top = betweens.length - 1;
    if (t.lower === "between") betweens[top]!++;
    else if (t.lower === "and" || t.lower === "or") {
      if (t.lower === "and" && betweens[top]! > 0) betweens[top]!--;
      else {
        c.connectors++;
        if (t.lower === "or") c.or++;
      }
    } else if (t.lower === "like") c.like++;
    else if (t.lower === "not" && !isWord(toks[i - 1], "is")) c.not++;
  }
  c.conds = c.connectors + 1;
  return c;
}

/** Aggregate calls in a range, not looking into subqueries. */
function countAggCalls(toks: Tok[], start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    if (isPunct(toks[i], "(") && opensSubquery(toks, i)) {
      i = Math.max(i, toks[i]!.match);
      continue;
    }
    if (toks[i]!.type === "word" && AGGS.has(toks[i]!.lower) && isPunct(toks[i + 1], "(")) n++;
  }
  return n;
}

/** Splits a range at top-level commas. */
function splitCommas(toks: Tok[], start: number, end: number): Array<[number, number]> {
  const parts: Array<[number, number]> = [];
  let from = start;
  for (let i = start; i < end; i = next(toks, i)) {
    if (isPunct(toks[i], ",")) {
      parts.push([from, i]);
      from = i + 1;
    }
  }
  if (from < end) parts.push([from, end]);
  return parts;
}

/** Spider's three counts for the query in toks[start, end), computed the way evaluation.py counts its parse. */
function countsFor(toks: Tok[], start: number, end: number): HardnessCounts {
  // Unwrap "( ... )" around the whole query.
  while (isPunct(toks[start], "(") && toks[start]!.match === end - 1) {
    start++;
    end--;
  }
  // Skip a leading WITH clause: its CTE bodies are parenthesised and so ignored below.
  let i = start;
  if (isWord(toks[i], "with")) {
    while (i < end && !isWord(toks[i], "select")) i = next(toks, i);
  }
  // Clause positions at this level; the first set operator ends the main query.
  const at: Partial<Record<Clause, number>> = {};
  let setOp = false;
  let mainEnd = end;
  for (; i < end; i = next(toks, i)) {
    const t = toks[i]!;
    if (t.type !== "word") continue;
    if (SET_OPS.has(t.lower)) {
      setOp = true;
      mainEnd = i;
      break;
    }
    if (t.lower === "group" || t.lower === "order") {
      if (!isWord(toks[i + 1], "by")) continue;
    }
    if ((CLAUSES as readonly string[]).includes(t.lower) && at[t.lower as Clause] === undefined) {
      at[t.lower as Clause] = i;
    }
  }
  const starts = CLAUSES.map((k) => at[k]).filter((v): v is number => v !== undefined);
  const range = (k: Clause): [number, number] | undefined => {
    const s = at[k];
    if (s === undefined) return undefined;
    const after = starts.filter((v) => v > s);
    const skip = k === "group" || k === "order" ? 2 : 1;
    return [s + skip, after.length ? Math.min(...after) : mainEnd];
  };

  let component1 = 0;
  let component2 = setOp ? 1 : 0;
  let aggs = 0;
  let others = 0;

  // SELECT: item count; an item counts as aggregated when it starts with an aggregate call.
  const sel = range("select");
  if (sel) {
    let [s, e] = sel;
    if (isWord(toks[s], "distinct", "all")) s++;
    const items = splitCommas(toks, s, e);
    aggs += items.filter(([a]) => AGGS.has(toks[a]!.lower) && toks[a]!.type === "word" && isPunct(toks[a + 1], "(")).length;
    if (items.length > 1) others++;
  }
  // FROM: each JOIN (or comma) adds a table unit; ON conditions count for OR / LIKE / nesting.
  const from = range("from");
  if (from) {
    const [s, e] = from;
    let units = 1;
    let on = -1;
    const closeOn = (stop: number) => {
      if (on < 0) return;
      const c = countCondition(toks, on, stop);
      component1 += c.or + c.like;
      component2 += c.nested;
      on = -1;
    };
    for (let j = s; j < e; j = next(toks, j)) {
      if (isWord(toks[j], "join") || isPunct(toks[j], ",")) {
        closeOn(j);
        units++;
      } else if (isWord(toks[j], "on")) {
        closeOn(j);
        on = j + 1;
      }
    }
    closeOn(e);
    component1 += units - 1;
  }
  // WHERE: a NOT condition counts as an aggregation (evaluation.py checks cond_unit[0], the not flag).
  const where = range("where");
  if (where) {
    const c = countCondition(toks, where[0], where[1]);
    component1 += 1 + c.or + c.like;
    component2 += c.nested;
    aggs += c.not;
    if (c.conds > 1) others++;
  }
  const group = range("group");
  if (group) {
    component1++;
    const items = splitCommas(toks, group[0], group[1]);
    if (items.length > 1) others++;
  }
  // HAVING: evaluation.py's count_agg over the whole condition list counts every AND/OR (a string)
  // and every NOT condition; aggregates inside HAVING conditions are not counted.
  const having = range("having");
  if (having) {
    const c = countCondition(toks, having[0], having[1]);
    component1 += c.or + c.like;
    component2 += c.nested;
    aggs += c.connectors + c.not;
  }
  const order = range("order");
  if (order) {
    component1++;
    aggs += countAggCalls(toks, order[0], order[1]);
  }
  if (at.limit !== undefined) component1++;
  if (aggs > 1) others++;
  return { component1, component2, others };
}

/** Spider's three hardness counts from the SQL text (tokenizer-based; see spiderHardness). */
export function spiderHardnessCounts(sql: string): HardnessCounts {
  const toks = significant(sql);
  let end = toks.length;
  while (end > 0 && isPunct(toks[end - 1], ";")) end--;
  return countsFor(toks, 0, end);
}

/**
 * Spider's hardness (easy / medium / hard / extra) of a gold query, computed from tokens the way
 * Spider's evaluation.py counts components of its own parse (count_component1/2, count_others),
 * quirks included: a NOT condition in WHERE and every AND/OR in HAVING count as aggregations, an
 * OR after a column-valued comparison is not seen. Agrees with the official script on all 972 Spider
 * dev and 6,903 train queries it can parse. Where it may differ: queries Spider's parser rejects
 * (parenthesised boolean groups, IS NOT NULL, subqueries in SELECT, comma joins) get a sensible
 * count here instead of a crash; aggregates are recognised by name followed by "(".
 */
export function spiderHardness(sql: string): SpiderHardness {
  return hardnessFromCounts(spiderHardnessCounts(sql));
}

// ---------------------------------------------------------------------------
// Reading benchmark files
// ---------------------------------------------------------------------------

interface SpiderItem {
  db_id: string;
  question: string;
  query: string;
  /** Spider's hardness of the gold query (computed once, then cached with the item). */
  hardness?: SpiderHardness;
}
interface BirdItem {
  question_id?: number | string | undefined;
  db_id: string;
  question: string;
  evidence?: string | null | undefined;
  SQL: string;
  difficulty?: string | null | undefined;
}

// zod loads only when a benchmark file is parsed (not when the item cache answers): it is a tenth of start-up.
let itemSchemas: Promise<{ z: typeof z; spider: z.ZodType<SpiderItem>; bird: z.ZodType<BirdItem> }> | undefined;
const schemas = () =>
  (itemSchemas ??= import("zod").then(({ z }) => {
    const nonEmpty = z.string().trim().min(1);
    return {
      z,
      spider: z.looseObject({ db_id: nonEmpty, question: nonEmpty, query: nonEmpty }),
      bird: z.looseObject({
        question_id: z.union([z.number().int().nonnegative(), nonEmpty]).optional(),
        db_id: nonEmpty,
        question: nonEmpty,
        evidence: z.string().nullish(),
        SQL: nonEmpty,
        difficulty: z.string().nullish(),
      }),
    };
  }));

/**
 * This module's file (size and mtime: a rebuild or an edit changes it, and reading no text keeps a load cheap): a cache
 * written by another version of the reader (or of spiderHardness) is not used.
 */
let readerVersion: string | undefined;
const versionOfReader = () => {
  if (readerVersion === undefined) {
    const self = statSync(fileURLToPath(import.meta.url));
    readerVersion = `${self.size}:${self.mtimeMs}`;
  }
  return readerVersion;
};

/**
 * The items of a benchmark file, parsed and validated, through a cache in `cacheDir` (when given) keyed by the file's
 * path, size and mtime and this reader's version: Spider's dev.json is 3.6 MB of which a scorer needs a tenth, and its
 * hardness levels take as long again to compute. The cache holds only what the file says; what depends on other files
 * (which databases exist) is checked on every load. The file name is a quick hash of the key, and the file repeats
 * the key, so a clash of names reads as a miss.
 */
async function readItems<T>(file: string, cacheDir: string | undefined, read: () => Promise<T[]>): Promise<T[]> {
  if (!cacheDir) return read();
  const s = statSync(file);
  const key = `${file}\0${s.size}\0${s.mtimeMs}\0${versionOfReader()}`;
  const cached = path.join(cacheDir, `items-${quickHash(key)}.json`);
  try {
    const entry = JSON.parse(await readFile(cached, "utf8")) as { key?: unknown; items?: unknown };
    if (entry.key === key && Array.isArray(entry.items)) return entry.items as T[];
  } catch {
    // no cache yet, or an unreadable one: read the file
  }
  const items = await read();
  try {
    await mkdir(cacheDir, { recursive: true });
    const temp = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    await writeFile(temp, JSON.stringify({ key, items }));
    await rename(temp, cached); // atomic: readers see no cache or a whole one
  } catch {
    // a read-only data directory only costs speed
  }
  return items;
}

const typeName = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** "item 12: "question" is required" from the first zod issue. */
function describeIssue(issue: z.core.$ZodIssue, data: unknown): string {
  const where = issue.path.length ? issue.path.slice(0, -1) : [];
  const key = issue.path.length ? issue.path[issue.path.length - 1] : undefined;
  let parent: unknown = data;
  for (const p of where) parent = (parent as Record<PropertyKey, unknown>)?.[p as PropertyKey];
  const value = key === undefined ? parent : (parent as Record<PropertyKey, unknown>)?.[key as PropertyKey];
  const index = typeof where[0] === "number" ? where[0] : typeof key === "number" && !where.length ? key : undefined;
  const item = index === undefined ? "" : `item ${index}: `;
  const field = key === undefined || typeof key === "number" ? "" : `"${String(key)}"`;
  if (!field) return `${item}expected an object (got ${typeName(value)})`;
  if (value === undefined) return `${item}${field} is required`;
  if (issue.code === "invalid_type") return `${item}${field} must be ${issue.expected === "number" ? "a number" : `a ${issue.expected}`} (got ${typeName(value)})`;
  if (issue.code === "too_small" && typeof value === "string") return `${item}${field} is empty`;
  return `${item}${field}: ${issue.message}`;
}

/** Offset of the first JSON syntax error in text (text.length for a premature end), or -1 if valid. */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n && " \t\n\r".includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    if (!text.startsWith(word, i)) fail();
    i += word.length;
  };
  const string = () => {
    i++;
    for (;;) {
      if (i >= n) fail();
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) fail();
      if (c === 0x5c) {
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? "")) fail();
      }
      i++;
    }
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ":") fail();
        i++;
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") {
          i++;
          return;
        } else fail();
      }
    } else if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") {
          i++;
          return;
        } else fail();
      }
    } else if (c === '"') string();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else {
      const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
      if (!m) fail();
      i += m![0].length;
    }
  };
  try {
    value();
    ws();
    return i < n ? i : -1;
  } catch (offset) {
    return offset as number;
  }
}

/** "not valid JSON at line 3, column 8 (unexpected 'S')" for a parse failure. */
export function describeJsonError(text: string): string {
  const offset = jsonErrorOffset(text);
  if (offset < 0) return "not valid JSON";
  const before = text.slice(0, offset).split("\n");
  const where = `line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
  const what = offset >= text.length ? "unexpected end of file" : `unexpected ${JSON.stringify(text[offset])}`;
  return `not valid JSON at ${where} (${what})`;
}

/** A text file's contents without a UTF-8 byte-order mark; an unreadable file is a one-line UserError. */
export async function readTextFile(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new UserError(`${file}: cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

async function readJsonArray<T>(file: string, pick: (s: Awaited<ReturnType<typeof schemas>>) => z.ZodType<T>): Promise<T[]> {
  const text = await readTextFile(file);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new UserError(`${file}: ${describeJsonError(text)}`);
  }
  if (!Array.isArray(data)) throw new UserError(`${file}: expected a JSON array of questions (got ${typeName(data)})`);
  const loaded = await schemas();
  const parsed = loaded.z.array(pick(loaded)).safeParse(data);
  if (!parsed.success) throw new UserError(`${file}: ${describeIssue(parsed.error.issues[0]!, data)}`);
  return parsed.data;
}

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();
const isFile = (p: string) => existsSync(p) && statSync(p).isFile();

/** Where a layout keeps each split: its question file and its databases folder. */
const SPLIT_FILES: Record<"spider" | "bird", Partial<Record<Split, { file: string; dbFolder: string }>>> = {
  spider: {
    dev: { file: "dev.json", dbFolder: "database" },
    train: { file: "train_spider.json", dbFolder: "database" },
    test: { file: "test.json", dbFolder: "test_database" },
  },
  bird: {
    dev: { file: "dev.json", dbFolder: "dev_databases" },
    train: { file: "train.json", dbFolder: "train_databases" },
    minidev: { file: "mini_dev_sqlite.json", dbFolder: "dev_databases" },
  },
};

/** The splits of a layout whose question file and databases folder are both there. */
export function splitsPresent(dir: string, layout: "spider" | "bird"): Split[] {
  return (Object.entries(SPLIT_FILES[layout]) as Array<[Split, { file: string; dbFolder: string }]>)
    .filter(([, f]) => isFile(path.join(dir, f.file)) && isDir(path.join(dir, f.dbFolder)))
    .map(([split]) => split);
}

/** Which layout a directory holds, or undefined. */
export function detectLayout(dir: string): "spider" | "bird" | undefined {
  if (splitsPresent(dir, "spider").length) return "spider";
  if (splitsPresent(dir, "bird").length) return "bird";
  return undefined;
}

const LOOKED_FOR =
  "looked for database/ with dev.json or train_spider.json, test_database/ with test.json, " +
  "dev_databases/ with dev.json or mini_dev_sqlite.json, or train_databases/ with train.json";

/** One question as any supported file gives it (Spider, BIRD or own format), before databases are looked up. */
interface AnyItem {
  id?: string;
  db_id: string;
  question: string;
  gold?: string;
  evidence?: string;
  difficulty?: string;
}

/**
 * A question file in any supported format, checked (one-line UserError naming file, item or line, and field):
 * `.jsonl` (an object a line), `.csv` (a header row), otherwise a JSON array. Field names: `question` (Spider-Syn's
 * `SpiderSynQuestion` too), `db_id`, gold as `gold`, `query` (Spider) or `SQL` (BIRD), `evidence`, `difficulty`,
 * id as `id` or `question_id`. Empty optional cells (CSV) count as absent.
 */
async function readAnyQuestions(file: string): Promise<AnyItem[]> {
  const ext = path.extname(file).toLowerCase();
  let records: Array<{ where: string; value: unknown }>;
  if (ext === ".jsonl" || ext === ".ndjson") {
    const text = await readTextFile(file);
    records = [];
    text.split("\n").forEach((line, n) => {
      if (!line.trim()) return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new UserError(`${file}: line ${n + 1}: ${describeJsonError(line).replace(/at line 1, /, "at ")}`);
      }
      records.push({ where: `line ${n + 1}`, value });
    });
  } else if (ext === ".csv") {
    const rows = parseCsv(await readTextFile(file), file);
    const [header, ...body] = rows;
    if (!header) throw new UserError(`${file}: empty CSV file (expected a header row with question,db_id,...)`);
    const names = header.cells.map((h) => h.trim());
    records = body
      .filter((row) => row.cells.some((c) => c.trim()))
      .map((row) => {
        if (row.cells.length !== names.length) {
          throw new UserError(`${file}: line ${row.line}: ${row.cells.length} cells, the header has ${names.length}`);
        }
        const value: Record<string, string> = {};
        names.forEach((name, i) => {
          if (name && row.cells[i]!.trim()) value[name] = row.cells[i]!;
        });
        return { where: `line ${row.line}`, value };
      });
  } else {
    const text = await readTextFile(file);
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new UserError(`${file}: ${describeJsonError(text)}`);
    }
    if (!Array.isArray(data)) throw new UserError(`${file}: expected a JSON array of questions (got ${typeName(data)})`);
    records = data.map((value, i) => ({ where: `item ${i}`, value }));
  }
  if (!records.length) throw new UserError(`${file}: no questions in the file`);
  return records.map(({ where, value }) => normalizeItem(file, where, value));
}

function normalizeItem(file: string, where: string, value: unknown): AnyItem {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UserError(`${file}: ${where}: expected an object (got ${typeName(value)})`);
  }
  const o = value as Record<string, unknown>;
  const text = (key: string, required: boolean): string | undefined => {
    const v = o[key];
    if (v === undefined || v === null) {
      if (required) throw new UserError(`${file}: ${where}: "${key}" is required`);
      return undefined;
    }
    if (typeof v === "number" && (key === "id" || key === "question_id")) return String(v);
    if (typeof v !== "string") throw new UserError(`${file}: ${where}: "${key}" must be a string (got ${typeName(v)})`);
    if (!v.trim()) {
      if (required) throw new UserError(`${file}: ${where}: "${key}" is empty`);
      return undefined;
    }
    return v.trim();
  };
  const question = o.question === undefined && o.SpiderSynQuestion !== undefined ? text("SpiderSynQuestion", true)! : text("question", true)!;
  const db_id = text("db_id", true)!;
  const gold = text("gold", false) ?? text("query", false) ?? text("SQL", false);
  const id = text("id", false) ?? text("question_id", false);
  const evidence = text("evidence", false);
  const difficulty = text("difficulty", false);
  return { db_id, question, ...(id ? { id } : {}), ...(gold ? { gold } : {}), ...(evidence ? { evidence } : {}), ...(difficulty ? { difficulty } : {}) };
}

/** RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks; CRLF or LF. Rows keep their first line number. */
export function parseCsv(text: string, file = "CSV"): Array<{ line: number; cells: string[] }> {
  const rows: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = "";
  let line = 1;
  let rowLine = 1;
  let i = 0;
  let quotedAt = 0;
  const endRow = () => {
    cells.push(cell);
    rows.push({ line: rowLine, cells });
    cells = [];
    cell = "";
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && cell === "") {
      quotedAt = line;
      i++;
      for (;;) {
        if (i >= text.length) throw new UserError(`${file}: line ${quotedAt}: unterminated quoted field`);
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (text[i] === "\n") line++;
        cell += text[i++];
      }
      if (i < text.length && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") {
        throw new UserError(`${file}: line ${line}: text after a closing quote (write a quote inside a quoted field as "")`);
      }
      continue;
    }
    if (c === ",") {
      cells.push(cell);
      cell = "";
      i++;
    } else if (c === "\r" && text[i + 1] === "\n") {
      i++;
    } else if (c === "\n") {
      endRow();
      line++;
      rowLine = line;
      i++;
    } else {
      cell += c;
      i++;
    }
  }
  if (cell !== "" || cells.length) endRow();
  return rows;
}

/** How a question's database file is found. */
type DbLookup = (dbId: string) => { path: string; rel: string; descriptionDir?: string };

/** A layout's databases folder: `<folder>/<db_id>/<db_id>.sqlite`. */
const layoutDbs = (root: string, dbFolder: string, descriptions: boolean): DbLookup => (dbId) => {
  const rel = `${dbFolder}/${dbId}/${dbId}.sqlite`;
  const descriptionDir = path.join(root, dbFolder, dbId, "database_description");
  return { path: path.join(root, rel), rel, ...(descriptions && isDir(descriptionDir) ? { descriptionDir } : {}) };
};

/** A user's folder: `DIR/<db_id>.sqlite`, else `DIR/<db_id>/<db_id>.sqlite`. */
const ownDbs = (dir: string): DbLookup => (dbId) => {
  const flat = path.join(dir, `${dbId}.sqlite`);
  const nested = path.join(dir, dbId, `${dbId}.sqlite`);
  const descriptionDir = path.join(dir, dbId, "database_description");
  const found = isFile(flat) ? flat : nested;
  return { path: found, rel: `${dbId}.sqlite or ${dbId}/${dbId}.sqlite in ${dir}`, ...(isDir(descriptionDir) ? { descriptionDir } : {}) };
};

/** Several roots, searched in order (a set with databases of its own beside a benchmark's): the first that has it. */
const firstOf = (lookups: DbLookup[]): DbLookup => (dbId) => {
  const found = lookups.map((lookup) => lookup(dbId));
  return { ...(found.find((d) => isFile(d.path)) ?? found[0]!), rel: found.map((d) => d.rel).join(", or ") };
};

/**
 * `--db-dir` roots: one folder, or several joined by the path delimiter (":" here; ";" on Windows) and searched in
 * order. A folder whose name holds the delimiter is taken whole.
 */
export function dbRoots(dbDir: string): string[] {
  if (isDir(dbDir) || !dbDir.includes(path.delimiter)) return [path.resolve(dbDir)];
  return dbDir.split(path.delimiter).filter(Boolean).map((d) => path.resolve(d));
}

/**
 * Spider's hardness for the questions with gold and no difficulty (own data or another question file scored with
 * Spider semantics), as the Spider layout computes it. Returns how many got one.
 */
export function addSpiderHardness(bench: Benchmark): number {
  let added = 0;
  for (const q of bench.questions) {
    if (q.difficulty || !q.goldSql) continue;
    q.difficulty = spiderHardness(q.goldSql);
    added++;
  }
  return added;
}

export interface LoadOptions {
  /** Default dev; when the layout has no dev split, its only evaluation split (BIRD mini-dev, Spider test). */
  split?: Split;
  cacheDir?: string;
  /** A question file (Spider, BIRD, JSONL or CSV format) to read instead of the layout's own, over its databases. */
  questions?: string;
}

/** Questions from items, their databases looked up; missing ones skipped with the reason; duplicate ids refused. */
function toQuestions(file: string, items: AnyItem[], lookup: DbLookup, defaultHardness: boolean) {
  const questions: Question[] = [];
  const skipped: SkippedQuestion[] = [];
  const found = new Map<string, ReturnType<DbLookup> & { exists: boolean }>();
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const id = item.id ?? String(index);
    if (seen.has(id)) throw new UserError(`${file}: item ${index}: duplicate ${item.id !== undefined ? "id" : "question_id"} ${id}`);
    seen.add(id);
    let db = found.get(item.db_id);
    if (!db) {
      const d = lookup(item.db_id);
      found.set(item.db_id, (db = { ...d, exists: isFile(d.path) }));
    }
    if (!db.exists) {
      skipped.push({ id, dbId: item.db_id, reason: `database file not found: ${db.rel}`, position: index });
      return;
    }
    const difficulty = item.difficulty ?? (defaultHardness && item.gold ? spiderHardness(item.gold) : undefined);
    questions.push({
      id,
      dbId: item.db_id,
      dbPath: db.path,
      question: item.question,
      evidence: item.evidence ?? "",
      ...(item.gold ? { goldSql: item.gold } : {}),
      ...(difficulty ? { difficulty } : {}),
      ...(db.descriptionDir ? { descriptionDir: db.descriptionDir } : {}),
      position: index,
    });
  });
  return { questions, skipped };
}

/**
 * Reads a Spider or BIRD benchmark directory (layout detected), or with `questions` another question file over that
 * split's databases (Spider variants such as Spider-Syn, -DK, -Realistic). Throws UserError on bad files. With
 * `cacheDir`, the parsed question files are cached there (see readItems) so later loads skip parsing and hardness.
 */
export async function loadBenchmark(dir: string, opts: LoadOptions = {}): Promise<Benchmark> {
  const root = path.resolve(dir);
  if (!isDir(root)) throw new UserError(`${dir}: no such benchmark directory`);
  const layout = detectLayout(root);
  if (!layout) throw new UserError(`${dir}: not a Spider or BIRD benchmark (${LOOKED_FOR})`);
  const present = splitsPresent(root, layout);
  let split: Split = opts.split ?? "dev";
  // A release with one evaluation split and no dev.json (BIRD mini-dev, Spider's test alone) uses it by default.
  if (opts.split === undefined || (split === "dev" && !present.includes("dev"))) {
    const only = present.filter((s) => s !== "train");
    if (!present.includes("dev") && only.length === 1) split = only[0]!;
  }
  const where = SPLIT_FILES[layout][split];
  if (!where) {
    throw new UserError(`${dir}: the ${layout === "spider" ? "Spider" : "BIRD"} layout has no split ${split} (it has ${Object.keys(SPLIT_FILES[layout]).join(", ")})`);
  }
  if (!isDir(path.join(root, where.dbFolder)) || (!opts.questions && !isFile(path.join(root, where.file)))) {
    const name = layout === "spider" ? "Spider" : "BIRD";
    throw new UserError(`${dir}: ${name} layout has no ${opts.questions ? "" : `${where.file} with `}${where.dbFolder}/ for split ${split}`);
  }
  const lookup = layoutDbs(root, where.dbFolder, layout === "bird");
  const base = path.basename(root);
  if (opts.questions) {
    const file = path.resolve(opts.questions);
    if (!isFile(file)) throw new UserError(`${opts.questions}: no such question file`);
    const items = await readItems(file, opts.cacheDir, () => readAnyQuestions(file));
    // Another question file may use any of the layout's databases (Spider's test_database/ holds more than database/).
    const folders = [...new Set([where.dbFolder, ...Object.values(SPLIT_FILES[layout]).map((f) => f!.dbFolder)])].filter((f) => isDir(path.join(root, f)));
    const { questions, skipped } = toQuestions(file, items, firstOf(folders.map((f) => layoutDbs(root, f, layout === "bird"))), layout === "spider");
    return { dir: root, layout, split, name: `${base}/${path.basename(file)}`, questions, skipped, questionsFile: file, dbDir: path.join(root, where.dbFolder), customQuestions: true };
  }
  const file = path.join(root, where.file);
  let items: AnyItem[];
  if (layout === "spider") {
    const spider = await readItems(file, opts.cacheDir, async () =>
      (await readJsonArray(file, (s) => s.spider)).map(
        (item): SpiderItem => ({ db_id: item.db_id, question: item.question, query: item.query, hardness: spiderHardness(item.query) }),
      ),
    );
    items = spider.map((item) => ({ db_id: item.db_id, question: item.question, gold: item.query, difficulty: item.hardness ?? spiderHardness(item.query) }));
  } else {
    const bird = await readItems(file, opts.cacheDir, async () =>
      (await readJsonArray(file, (s) => s.bird)).map(
        (item): BirdItem => ({
          ...(item.question_id !== undefined ? { question_id: item.question_id } : {}),
          db_id: item.db_id,
          question: item.question,
          evidence: item.evidence ?? null,
          SQL: item.SQL,
          difficulty: item.difficulty ?? null,
        }),
      ),
    );
    const seen = new Map<string, number>();
    items = bird.map((item, index) => {
      let id = item.question_id === undefined ? String(index) : String(item.question_id);
      const times = (seen.get(id) ?? 0) + 1;
      seen.set(id, times);
      if (times > 1) {
        // Mini-dev's official scorer pairs by position, so its file may repeat a question_id: the repeat is its own question.
        if (split !== "minidev") throw new UserError(`${file}: item ${index}: duplicate question_id ${id}`);
        id = `${id}_${times}`;
        if (seen.has(id)) throw new UserError(`${file}: item ${index}: question_id ${item.question_id} repeated, and ${id} is taken`);
        seen.set(id, 1);
      }
      return { id, db_id: item.db_id, question: item.question, gold: item.SQL, ...(item.evidence ? { evidence: item.evidence } : {}), ...(item.difficulty ? { difficulty: item.difficulty } : {}) };
    });
  }
  const { questions, skipped } = toQuestions(file, items, lookup, false);
  return { dir: root, layout, split, name: `${base}/${split}`, questions, skipped, questionsFile: file, dbDir: path.join(root, where.dbFolder) };
}

/**
 * Your own data: a question file (`.jsonl`, `.csv` or a JSON array; fields `question`, `db_id`, optional `gold`,
 * `evidence`, `difficulty`, `id`) over a folder of databases, each `DIR/<db_id>.sqlite` or `DIR/<db_id>/<db_id>.sqlite`.
 */
export async function loadQuestionFile(questionsFile: string, dbDir: string, opts: { cacheDir?: string } = {}): Promise<Benchmark> {
  const file = path.resolve(questionsFile);
  const roots = dbRoots(dbDir);
  if (!isFile(file)) throw new UserError(`${questionsFile}: no such question file`);
  const notThere = roots.find((d) => !isDir(d));
  if (notThere) throw new UserError(`${roots.length > 1 ? notThere : dbDir}: no such database directory`);
  const items = await readItems(file, opts.cacheDir, () => readAnyQuestions(file));
  const { questions, skipped } = toQuestions(file, items, roots.length > 1 ? firstOf(roots.map(ownDbs)) : ownDbs(roots[0]!), false);
  const dir = roots[0]!;
  return { dir, layout: "own", split: "dev", name: path.basename(file), questions, skipped, questionsFile: file, dbDir: roots.join(path.delimiter), customQuestions: true };
}

/** Where a run's questions come from (what run.json records, so `--resume` and `merge` read them again). */
export interface BenchmarkSource {
  /** A layout directory (absolute), absent for own data. */
  bench?: string;
  split?: Split;
  questions?: string;
  dbDir?: string;
}

/** Loads what a source names: a layout (maybe with another question file) or own data. */
export async function loadSource(source: BenchmarkSource, opts: { cacheDir?: string } = {}): Promise<Benchmark> {
  if (source.dbDir) {
    if (!source.questions) throw new UserError("--db-dir needs --questions FILE (the questions to run on its databases)");
    return loadQuestionFile(source.questions, source.dbDir, opts);
  }
  if (!source.bench) throw new UserError("no benchmark: give --bench DIR, or --questions FILE --db-dir DIR");
  return loadBenchmark(source.bench, { ...opts, ...(source.split ? { split: source.split } : {}), ...(source.questions ? { questions: source.questions } : {}) });
}

export interface SplitInfo {
  split: Split;
  file: string;
  dbFolder: string;
  questions: number;
  /** Questions whose database is there. */
  runnable: number;
  /** Runnable questions with gold SQL. */
  withGold: number;
  databases: { present: string[]; missing: string[] };
  difficulties: Record<string, number>;
  /** A file that could not be read, as its one-line error. */
  error?: string;
}

/** What a benchmark directory holds, split by split (for `sqlmend bench info`). */
export async function describeBenchmarkDir(dir: string, opts: { cacheDir?: string } = {}): Promise<{ dir: string; layout: "spider" | "bird"; splits: SplitInfo[]; extraFiles: string[] }> {
  const root = path.resolve(dir);
  if (!isDir(root)) throw new UserError(`${dir}: no such benchmark directory`);
  const layout = detectLayout(root);
  if (!layout) throw new UserError(`${dir}: not a Spider or BIRD benchmark (${LOOKED_FOR})`);
  const splits: SplitInfo[] = [];
  for (const split of splitsPresent(root, layout)) {
    const where = SPLIT_FILES[layout][split]!;
    try {
      const b = await loadBenchmark(root, { split, ...(opts.cacheDir ? { cacheDir: opts.cacheDir } : {}) });
      splits.push({ split, file: where.file, dbFolder: where.dbFolder, ...summarizeBenchmark(b) });
    } catch (error) {
      splits.push({ split, file: where.file, dbFolder: where.dbFolder, questions: 0, runnable: 0, withGold: 0, databases: { present: [], missing: [] }, difficulties: {}, error: (error as Error).message });
    }
  }
  const known = ["tables.json", "test_tables.json", "test_gold.sql", "dev_gold.sql", "train_gold.sql", "mini_dev_sqlite_gold.sql", "dev_tables.json", "train_tables.json"];
  return { dir: root, layout, splits, extraFiles: known.filter((f) => isFile(path.join(root, f))) };
}

/** Questions, gold, databases present and missing, and difficulty counts of a loaded benchmark. */
export function summarizeBenchmark(b: Benchmark): Pick<SplitInfo, "questions" | "runnable" | "withGold" | "databases" | "difficulties"> {
  const present = [...new Set(b.questions.map((q) => q.dbId))].sort();
  const missing = [...new Set(b.skipped.map((q) => q.dbId))].sort();
  const difficulties: Record<string, number> = {};
  for (const q of b.questions) difficulties[q.difficulty ?? "unlabelled"] = (difficulties[q.difficulty ?? "unlabelled"] ?? 0) + 1;
  return { questions: b.questions.length + b.skipped.length, runnable: b.questions.length, withGold: b.questions.filter((q) => q.goldSql).length, databases: { present, missing }, difficulties };
}

/**
 * A benchmark directory from a path, or the name `minibench` (the project's own benchmark,
 * built once into dataDir()/minibench and rebuilt when its sources change).
 */
export async function resolveBenchmarkDir(
  nameOrDir: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Promise<string> {
  if (nameOrDir === "minibench") {
    const target = path.join(dataDir(env, cwd), "minibench");
    await ensureMinibench(target);
    return target;
  }
  const dir = path.resolve(cwd, nameOrDir);
  if (!isDir(dir)) throw new UserError(`${nameOrDir}: no such benchmark directory (or use the name 'minibench')`);
  return dir;
}
