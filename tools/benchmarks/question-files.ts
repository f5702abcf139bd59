/**
 * Reading question files into items, checked (a one-line UserError naming file, item or line, and field): Spider's and
 * BIRD's JSON arrays, and any supported file (JSON array, JSONL, CSV) for `--questions` and own data; parsed items are
 * cached by file (`readItems`).
 */
import { statSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { z } from "zod";
import { UserError } from "../../core/errors.ts";
import { quickHash } from "../hash.ts";
import { parseCsv } from "./csv.ts";
import type { SpiderHardness } from "./hardness.ts";
import { describeJsonError } from "./json-errors.ts";

export interface SpiderItem {
  db_id: string;
  question: string;
  query: string;
  /** Spider's hardness of the gold query (computed once, then cached with the item). */
  hardness?: SpiderHardness;
}
export interface BirdItem {
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

/** The modules whose code decides what the cache holds: this reader, the CSV reader, Spider hardness and the loader. */
const READER_MODULES = ["question-files", "csv", "hardness", "benchmark"];

/**
 * The reader's modules' files (size and mtime: a rebuild or an edit changes them, and reading no text keeps a load
 * cheap): a cache written by another version of the reader (or of spiderHardness) is not used.
 */
let readerVersion: string | undefined;
const versionOfReader = () => {
  if (readerVersion === undefined) {
    const self = fileURLToPath(import.meta.url);
    readerVersion = READER_MODULES.map((name) => {
      const s = statSync(path.join(path.dirname(self), `${name}${path.extname(self)}`));
      return `${s.size}:${s.mtimeMs}`;
    }).join(",");
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
export async function readItems<T>(file: string, cacheDir: string | undefined, read: () => Promise<T[]>): Promise<T[]> {
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

/** A question file's JSON array; a file that is not JSON, or not an array, is a one-line UserError. */
async function readQuestionArray(file: string): Promise<unknown[]> {
  const text = await readTextFile(file);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new UserError(`${file}: ${describeJsonError(text)}`);
  }
  if (!Array.isArray(data)) throw new UserError(`${file}: expected a JSON array of questions (got ${typeName(data)})`);
  return data;
}

export async function readJsonArray<T>(file: string, pick: (s: Awaited<ReturnType<typeof schemas>>) => z.ZodType<T>): Promise<T[]> {
  const data = await readQuestionArray(file);
  const loaded = await schemas();
  const parsed = loaded.z.array(pick(loaded)).safeParse(data);
  if (!parsed.success) throw new UserError(`${file}: ${describeIssue(parsed.error.issues[0]!, data)}`);
  return parsed.data;
}

/** One question as any supported file gives it (Spider, BIRD or own format), before databases are looked up. */
export interface AnyItem {
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
export async function readAnyQuestions(file: string): Promise<AnyItem[]> {
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
    records = (await readQuestionArray(file)).map((value, i) => ({ where: `item ${i}`, value }));
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
