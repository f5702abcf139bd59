import { z } from "zod";
import { type TestData, type TestTablesValue } from "../../state/ts-sql.ts";
import type { DbSchema } from "../../tools/schema.ts";
import type { Linking } from "../../state/linking.ts";
import { callStructured } from "../../tools/models/llm.ts";
import { quoteIdent } from "../../tools/schema.ts";
import { quickHash } from "../../tools/hash.ts";
import { withCalls } from "../common.ts";
import { resultsMatch } from "../../tools/benchmarks/score.ts";
import type { Row } from "../../tools/sqlite/types.ts";
import {
  compactSchema,
  descriptionLines,
  isEmptyAnswer,
  jsonCell,
  neededColumns,
  linkedTables,
  relevantTables,
  schemaFacts,
  promptHash,
  questionValues,
  scratchOf,
  type SqlVariant,
  sqlVariants,
  type TsSqlNodeFactory,
  VARIANT_GAPS,
} from "./common.ts";
import { dataPrompt, showTables } from "./prompts.ts";
import { DATA_MIN_ROWS, DATA_REPLY_ATTEMPTS } from "./options.ts";
import { repairKeys } from "../../tools/key-repair.ts";

/**
 * The data agent's reply schema for one question: its tables by name, each an array of rows, each row an object of
 * exactly the columns asked for (those the prompt shows, `shownColumns`), each a JSON scalar of the column's type
 * (SQLite's affinity: integer, number or string), null allowed unless the column is NOT NULL or a key. Issue 40: a
 * `columns` list the model wrote allowed a repeated or unknown column and rows of any length, which the validator then
 * refused; here the JSON schema sent says all the validator checks — every table required (DATA_MIN_ROWS rows asked,
 * as the prompt asks 3 to 8), every column required, no other property — and is strict-mode ready (every property
 * listed and required, no others), so a server decoding under it (OpenAI structured outputs, vLLM, llama.cpp) can
 * only produce replies that are read. A column's description names the key a foreign-key column references, then
 * offers the stored values the question was linked to, the question's values the column could hold
 * (`questionValues`), then its example values. What a JSON schema cannot say — a key unique across rows, a value some
 * row of another table has — is repaired after parsing instead (`repairKeys`, counted), so every reply the schema
 * allows is read. Parsing is looser than what is asked: a table left out has no rows, names match whatever their case, a column a row leaves
 * out is NULL, a real column not asked for is read as written, a number written as text in a numeric column is read
 * as SQLite stores it, and the older form (`{columns, rows}`) is read too; an unknown column, one named twice, or a
 * row whose length is not its columns', is refused (one line naming it) and asked again.
 */
export function dataReplySchema(schema: DbSchema, tables: string[], shownColumns?: Map<string, string[]>, linked: Linking | null = null, offered?: Map<string, (string | number)[]>) {
  const picked = schema.tables.filter((t) => tables.includes(t.name));
  const byLower = <T extends { name: string }>(items: T[]) => new Map(items.map((x) => [x.name.toLowerCase(), x.name]));
  const renamed = (names: Map<string, string>) => (value: unknown) =>
    value && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [names.get(k.toLowerCase()) ?? k, v])) : value;
  const shape = Object.fromEntries(
    picked.map((t) => {
      // Asked for: the columns the prompt shows (`compactSchema`), in its order.
      const asked = askedColumns(t, shownColumns);
      const columns = asked.map((name) => t.columns.find((c) => c.name === name)!).filter(Boolean);
      // Asked: exactly these columns (additionalProperties false); read: another real column too, as written.
      const row = z.looseObject(Object.fromEntries(columns.map((c) => [c.name, columnValue(t, c, linked, offered?.get(`${t.name}.${c.name}`.toLowerCase()))]))).meta({ additionalProperties: false });
      // The prompt's "3 to 8 rows per table" asked by the schema too (minItems; more where the question names a larger
      // count), not required to parse: a table left with fewer rows keeps them.
      const rows = z.array(row).meta({ description: `${t.name}'s test rows`, minItems: DATA_MIN_ROWS });
      return [t.name, z.preprocess(olderForms(t, asked), rows).optional()];
    }),
  );
  const tablesSchema = z.preprocess(renamed(byLower(picked)), z.strictObject(shape).meta({ required: picked.map((t) => t.name) }));
  return z.strictObject({ tables: tablesSchema });
}

/** The columns a table's rows are asked in: the prompt's (`shownColumns`), else all of the table's. */
export const askedColumns = (table: DbSchema["tables"][number], shownColumns?: Map<string, string[]>): string[] =>
  shownColumns?.get(table.name) ?? table.columns.map((c) => c.name);

type Table = DbSchema["tables"][number];
type Column = Table["columns"][number];

/**
 * A column's values as the scratch database takes them: its type by SQLite's affinity rules (INT: integer; CHAR,
 * CLOB, TEXT: string; REAL, FLOA, DOUB: number; other declared types: number or string; none or BLOB: any scalar),
 * null unless NOT NULL or part of the primary key; described by its example values and linked stored values.
 */
function columnValue(table: Table, column: Column, linking: Linking | null, offered: (string | number)[] = []) {
  const type = column.type.toUpperCase();
  const base = /INT/.test(type)
    ? z.number().int()
    : /CHAR|CLOB|TEXT/.test(type)
      ? z.string()
      : /REAL|FLOA|DOUB/.test(type)
        ? z.number()
        : !type || /BLOB/.test(type)
          ? z.union([z.number(), z.string(), z.boolean()])
          : z.union([z.number(), z.string()]);
  const required = column.notNull || column.primaryKey || table.primaryKey.includes(column.name);
  const stored = (linking?.values ?? []).filter((v) => v.table.toLowerCase() === table.name.toLowerCase() && v.column.toLowerCase() === column.name.toLowerCase()).map((v) => v.value);
  // The question's values this column could hold (`questionValues`: a number and its neighbours), as it stores them.
  const bounds = offered.map((v) => asAffinity(type)(v) as string | number).filter((v) => typeof v === "string" || typeof v === "number");
  const examples = [...new Set([...stored, ...bounds, ...column.samples.slice(0, 3)].map((v) => JSON.stringify(typeof v === "string" && v.length > 40 ? v.slice(0, 40) : v)))];
  // Read as the scratch database would store it: a number written as text in a numeric column, a number in a text one.
  const value = z.preprocess(asAffinity(type), required ? base : z.union([base, z.null()]));
  // A foreign key says which key it holds (a value no row there has is set to one of theirs before loading).
  const fk = table.foreignKeys.find((f) => f.columns.length === 1 && f.columns[0]!.toLowerCase() === column.name.toLowerCase() && f.refColumns[0]);
  const description = [fk ? `a ${fk.refTable}.${fk.refColumns[0]} of a ${fk.refTable} row` : "", examples.length ? `e.g. ${examples.join(", ")}` : ""].filter(Boolean).join("; ");
  return description ? value.meta({ description }) : value;
}

/** A value as SQLite's column affinity stores it (`type` upper-cased): numeric text as a number, a number as text. */
const asAffinity = (type: string) => (value: unknown) => {
  if (typeof value === "boolean" && !/CHAR|CLOB|TEXT/.test(type)) return value ? 1 : 0;
  if (/CHAR|CLOB|TEXT/.test(type)) return typeof value === "number" || typeof value === "boolean" ? String(value) : value;
  if (typeof value === "string" && /INT|REAL|FLOA|DOUB/.test(type) && value.trim() !== "" && Number.isFinite(Number(value))) {
    const n = Number(value);
    return /INT/.test(type) && !Number.isInteger(n) ? value : n;
  }
  return value;
};

/**
 * The older reply form `{columns, rows}` as row objects, and row objects' keys matched to the asked columns whatever
 * their case, a column left out as NULL. What does not fit the asked columns is a validation issue naming it; anything
 * else passes through unchanged.
 */
function olderForms(table: Table, asked: string[]) {
  const real = new Map(table.columns.map((c) => [c.name.toLowerCase(), c.name]));
  const isAsked = new Map(asked.map((c) => [c.toLowerCase(), c]));
  return (value: unknown, ctx: z.RefinementCtx) => {
    let columns: unknown[];
    let rows: unknown[][];
    if (Array.isArray(value) && value.every((r) => r && typeof r === "object" && !Array.isArray(r))) {
      const objects = value as Record<string, unknown>[];
      columns = [...new Set(objects.flatMap((r) => Object.keys(r)))];
      rows = objects.map((r) => columns.map((c) => r[c as string] ?? null));
    } else if (value && typeof value === "object" && !Array.isArray(value) && Array.isArray((value as { columns?: unknown }).columns) && Array.isArray((value as { rows?: unknown }).rows)) {
      ({ columns, rows } = value as { columns: unknown[]; rows: unknown[][] });
    } else return value;
    const names = columns.map((c) => String(c));
    const lower = names.map((c) => c.toLowerCase());
    const problem =
      names.find((c) => !real.has(c.toLowerCase()))?.replace(/^/, `${table.name} has no column `) ??
      names.find((_, i) => lower.indexOf(lower[i]!) !== i)?.replace(/^(.*)$/, "column $1 is named twice");
    if (problem) {
      ctx.addIssue({ code: "custom", message: problem, input: value });
      return value;
    }
    const bad = rows.findIndex((r) => !Array.isArray(r) || r.length !== names.length);
    if (bad >= 0) {
      const r = rows[bad];
      ctx.addIssue({ code: "custom", message: `row ${bad + 1} has ${Array.isArray(r) ? r.length : "no"} values for ${names.length} columns`, path: [bad], input: value });
      return value;
    }
    // The asked columns (NULL where left out), then any other real column as written.
    const others = names.filter((c) => !isAsked.has(c.toLowerCase()));
    return rows.map((r) =>
      Object.fromEntries([
        ...asked.map((c) => [c, r[lower.indexOf(c.toLowerCase())] ?? null]),
        ...others.map((c) => [real.get(c.toLowerCase())!, r[names.indexOf(c)] ?? null]),
      ]),
    );
  };
}

/** A parsed data reply as row objects by table (`TestTablesValue`). */
export function rowsOfReply(tables: Record<string, Record<string, unknown>[] | undefined>): TestTablesValue {
  return Object.fromEntries(Object.entries(tables).flatMap(([t, rows]) => (rows ? [[t, rows]] : []))) as TestTablesValue;
}

/**
 * What goes back to the data agent: the schema violations and the coverage gaps (linked tables without rows, linked
 * values absent, no answer to the question in the rows), then what the key repair changed (so the next rows need
 * less of it). Never what the candidate SQL made of the data: a wrong candidate must not shape the test data.
 */
export function dataProblems(data: TestData | null): string {
  if (!data) return "";
  const problems = [...data.violations, ...(data.gaps ?? [])].map((v) => `- ${v}`);
  if (!problems.length) return "";
  return [...problems, ...(data.keyRepairs?.notes ?? []).map((n) => `- (repaired before loading) ${n}`)].join("\n");
}

/** Why the data agent's last reply could not be used (its last turn made no test data), for the next turn. */
function lastReplyProblem(state: { attempts: { node: string; ok: boolean; note?: string }[] }): string | undefined {
  const last = [...state.attempts].reverse().find((a) => a.node === "data");
  return last && !last.ok ? last.note : undefined;
}

/**
 * Linked columns and values of the shown tables as prompt lines, what the question's keywords point to: a line per
 * column, with the stored values matched in it and the keywords that led there.
 */
function relevantLines(linking: Linking | null, tables: string[]): string {
  if (!linking) return "";
  const shown = new Set(tables.map((t) => t.toLowerCase()));
  const lines = new Map<string, { values: string[]; keywords: string[] }>();
  const add = (table: string, column: string, keyword?: string, value?: string) => {
    if (!shown.has(table.toLowerCase())) return;
    const key = `${table}.${column}`;
    const line = lines.get(key) ?? { values: [], keywords: [] };
    lines.set(key, line);
    if (keyword && !line.keywords.includes(keyword)) line.keywords.push(keyword);
    if (value !== undefined && !line.values.includes(value)) line.values.push(value);
  };
  for (const c of linking.columns) add(c.table, c.column, c.keyword);
  for (const v of linking.values) add(v.table, v.column, v.keyword, v.value);
  return [...lines]
    .map(([column, { values, keywords }]) => {
      const stored = values.length ? `, stored ${values.length > 1 ? "values" : "value"} ${values.map((v) => JSON.stringify(v)).join(", ")}` : "";
      return `- ${column}${stored}${keywords.length ? ` (for ${keywords.map((k) => `"${k}"`).join(", ")})` : ""}`;
    })
    .join("\n");
}

/**
 * Slot `data` (role "data", §3.1.1, A.3). In: question, evidence, linking, sql, testData (the previous attempt and
 * its problems). Out: testData (tables only; `checkData` loads them), dataRounds + 1. A bad reply keeps the previous
 * data and says why.
 */
export const dataNode: TsSqlNodeFactory = (deps) => async (state) => {
  const facts = await schemaFacts(deps, state);
  const tables = relevantTables(facts.schema, state.linking, state.sql);
  const problems = dataProblems(state.testData);
  const replyProblem = lastReplyProblem(state);
  // Only the columns the question needs (§3.1.1's relevant selection: linked, named by the SQL or the evidence; keys
  // and NOT NULL columns always); the prompt says the others exist and are left NULL, the outcome counts them.
  const keep = neededColumns(facts.schema, state.linking, state.sql, state.evidence);
  const shown = compactSchema(facts.schema, tables, { keep, samples: true });
  const notes = descriptionLines(facts.schema, tables, keep);
  const prompt = dataPrompt({
    schema: shown.text,
    relevant: [relevantLines(state.linking, tables), notes ? `Column descriptions:\n${notes}` : ""].filter(Boolean).join("\n"),
    question: state.question,
    evidence: state.evidence,
    feedback:
      replyProblem || (state.testData && problems)
        ? {
            previous: state.testData ? showTables(state.testData.given ?? state.testData.tables) : "(none: no reply could be read as test data yet)",
            problems: [replyProblem ? `- your last reply could not be used: ${replyProblem}` : "", problems].filter(Boolean).join("\n"),
          }
        : undefined,
  });
  // A turn that would send the last turn's prompt again (the same rows, the same problems) would get the same reply:
  // stop the data turns instead, and say why.
  const hash = promptHash(prompt);
  if (state.lastPrompts.data === hash) {
    const why = `data turn ${state.dataRounds + 1} would send turn ${state.dataRounds}'s prompt again (same rows, same problems): stopped`;
    return { dataRounds: state.dataRounds, dataStopReason: why, attempts: [{ node: "data", sql: state.sql, ok: false, note: why }] };
  }
  const lastPrompts = { ...state.lastPrompts, data: hash };
  // Structured output with its fallbacks (JSON schema, function calling, JSON mode, text); an unusable reply is
  // sent back with what was wrong with it, within the call (callStructured's re-asks) and in the next data turn.
  const reply = await callStructured(deps.models, "data", prompt, dataReplySchema(facts.schema, tables, shown.columns, state.linking, questionValues(state.question, state.evidence, facts.schema, shown.columns)), {
    name: "test_data",
    maxAttempts: DATA_REPLY_ATTEMPTS,
    description: "Synthetic test rows by table name: {tables: {<table>: [{<column>: value, ...}, ...]}}, every column listed",
  });
  const dataRounds = state.dataRounds + 1;
  if (!reply.ok) {
    return withCalls({ dataRounds, lastPrompts, attempts: [{ node: "data", sql: state.sql, ok: false, note: `unusable reply: ${reply.error}` }] }, reply.records);
  }
  // The real database's verdict on the candidate's variants carries over (it does not depend on the rows).
  const variants = state.testData?.variants;
  // Keys a JSON schema cannot constrain (unique across rows, naming another table's row) repaired, and counted.
  const repaired = repairKeys(facts.schema, rowsOfReply(reply.value.tables));
  const keyRepairs = repaired.notes.length ? { keyRepairs: { notes: repaired.notes, renumbered: repaired.renumbered, remapped: repaired.remapped, dropped: repaired.dropped } } : {};
  const testData: TestData = { tables: repaired.tables, columnsNotShown: shown.hidden, source: "generated", ...keyRepairs, loaded: {}, violations: [], gaps: [], sqlRan: false, sqlRows: 0, ...(variants ? { variants } : {}) };
  const retries = reply.records.length - 1;
  return withCalls(
    { dataRounds, lastPrompts, testData, attempts: [{ node: "data", sql: state.sql, ok: true, ...(retries ? { note: `usable after ${retries} re-ask(s)` } : {}) }] },
    reply.records,
  );
};

/** Figure 4's share of each table's rows, and our cap per table (the rows go into prompts and the sandbox). */
const SAMPLE_SHARE = 10;
const SAMPLE_CAP = 100;

/**
 * The order rows are sampled in: a scramble of the rowid keyed by the question (and --seed), not ORDER BY random(),
 * so a run samples the same rows again — reproducible, and a rerun is served from the response cache (the rows are
 * in the coder's and reviser's prompts) — while another question or seed draws other rows. Same cost as random():
 * one scan and a top-k sort.
 */
const seededOrder = (seed: number) => `((rowid * 1103515245 + ${seed}) % 2147483647)`;

/**
 * Slot `sample` (`--no-data-agent schema|sample`, the paper's w/o DG set-ups): test rows sampled from the real
 * database instead of the data agent — 1/10 of each relevant table's rows (Figure 4), at most SAMPLE_CAP a table
 * (`cappedOf` says where) — with the rows their foreign keys point to. No model call. Real rows then reach the
 * reviser's prompt, and the coder's under `sample` (under `schema` the coder sees the schema alone, Table 4).
 */
export const sampleDataNode: TsSqlNodeFactory = (deps) => async (state) => {
  const facts = await schemaFacts(deps, state);
  // The run's --seed, so repeats sample other rows (no role is asked: this slot makes no call).
  const described = deps.models.describe().seed;
  const runSeed = typeof described === "number" ? described : undefined;
  const seedOf = (table: string) => Number.parseInt(quickHash(`${state.questionId}\u0000${state.question}\u0000${table}\u0000${runSeed ?? ""}`).slice(0, 8), 16) & 0x7fffffff;
  const firstRowsOnly: string[] = [];
  const cappedTables: string[] = [];
  const tables = relevantTables(facts.schema, state.linking, state.sql);
  const out: TestTablesValue = {};
  const keys = new Set<string>();
  const add = (table: string, columns: string[], rows: unknown[][]) => {
    for (const row of rows) {
      const key = `${table}\u0000${JSON.stringify(row, (_, v) => (typeof v === "bigint" ? v.toString() : v))}`;
      if (keys.has(key)) continue;
      keys.add(key);
      (out[table] ??= []).push(Object.fromEntries(columns.map((c, i) => [c, jsonCell(row[i] as never)])));
    }
  };
  for (const table of tables) {
    const counted = await deps.executor.run(state.dbPath, `SELECT count(*) FROM ${quoteIdent(table)}`, { timeoutMs: 10_000 });
    const total = counted.ok ? Number(counted.rows[0]?.[0] ?? 0) : 0;
    const take = Math.min(SAMPLE_CAP, Math.max(1, Math.ceil(total / SAMPLE_SHARE)));
    if (total > take * SAMPLE_SHARE) cappedTables.push(table);
    let r = await deps.executor.run(state.dbPath, `SELECT * FROM ${quoteIdent(table)} ORDER BY ${seededOrder(seedOf(table))} LIMIT ${take}`, { timeoutMs: 10_000 });
    if (!r.ok && r.kind === "sql" && /rowid/i.test(r.message)) {
      // A WITHOUT ROWID table has no rowid to scramble: its first rows, said in the attempt.
      firstRowsOnly.push(table);
      r = await deps.executor.run(state.dbPath, `SELECT * FROM ${quoteIdent(table)} LIMIT ${take}`, { timeoutMs: 10_000 });
    }
    if (r.ok) add(table, r.columns, r.rows);
  }
  // Parents of the sampled rows, so joins find them (one level, as many as the children name).
  for (const t of facts.schema.tables.filter((t) => out[t.name])) {
    for (const fk of t.foreignKeys) {
      if (fk.columns.length !== 1 || !fk.refColumns[0]) continue;
      const values = [...new Set((out[t.name] ?? []).map((row) => row[fk.columns[0]!]).filter((v) => v !== null && v !== undefined))].slice(0, 50);
      if (!values.length) continue;
      const list = values.map((v) => (typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`)).join(", ");
      const r = await deps.executor.run(state.dbPath, `SELECT * FROM ${quoteIdent(fk.refTable)} WHERE ${quoteIdent(fk.refColumns[0])} IN (${list})`, { timeoutMs: 10_000 });
      if (r.ok) add(fk.refTable, r.columns, r.rows);
    }
  }
  const testData: TestData = { tables: out, source: "sampled", ...(firstRowsOnly.length ? { firstRowsOf: firstRowsOnly } : {}), ...(cappedTables.length ? { cappedOf: cappedTables } : {}), loaded: {}, violations: [], gaps: [], sqlRan: false, sqlRows: 0 };
  const notes = [
    firstRowsOnly.length ? `first rows, not a sample, of ${firstRowsOnly.join(", ")} (no rowid)` : "",
    cappedTables.length ? `${SAMPLE_CAP} rows, less than 1/${SAMPLE_SHARE}, of ${cappedTables.join(", ")}` : "",
  ].filter(Boolean);
  const note = notes.length ? { note: notes.join("; ") } : {};
  return { testData, dataRounds: state.dataRounds + 1, attempts: [{ node: "sample", sql: state.sql, ok: Object.keys(out).length > 0, ...note }] };
};

/** Two results the same, as a test of that variant kind would compare them (order only for a flipped ORDER BY). */
const sameResult = (a: Row[], b: Row[], kind: SqlVariant["kind"]) => resultsMatch(a, b, "spider", { orderMatters: kind === "order" });

/** Table names of `tables` by lower case. */
const byLowerName = (tables: Iterable<string>) => new Map([...tables].map((t) => [t.toLowerCase(), t]));

const sameValue = (a: unknown, b: string) => a !== null && a !== undefined && String(a).trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Coverage gaps of test data (§3.1.1's "high coverage", checked without any SQL): a table the linking points to
 * that has no row, and for each keyword that matched stored values, its best-scored value absent from that column.
 * These depend on the question alone, never on the candidate SQL being right.
 */
export function coverageGaps(linking: Linking | null, schema: DbSchema, kept: TestTablesValue): string[] {
  if (!linking) return [];
  const real = byLowerName(schema.tables.map((t) => t.name));
  const rows = new Map(Object.entries(kept).map(([t, r]) => [t.toLowerCase(), r]));
  const gaps: string[] = [];
  for (const t of linkedTables(schema, linking)) {
    if (!rows.get(t.toLowerCase())?.length) gaps.push(`${t} has no rows, but the question refers to it (linked columns or values): add rows to it`);
  }
  const best = new Map<string, Linking["values"][number]>();
  for (const v of linking.values) if (!best.has(v.keyword) || best.get(v.keyword)!.score < v.score) best.set(v.keyword, v);
  for (const v of best.values()) {
    const table = rows.get(v.table.toLowerCase());
    if (!real.has(v.table.toLowerCase()) || !table?.length) continue; // already reported as an empty table
    const column = Object.keys(table[0] ?? {}).find((c) => c.toLowerCase() === v.column.toLowerCase()) ?? v.column;
    if (!table.some((r) => sameValue(r[column], v.value))) {
      gaps.push(`the question's "${v.keyword}" matches the stored value ${JSON.stringify(v.value)} in ${real.get(v.table.toLowerCase())}.${v.column}, but no test row has it: include rows with it (and rows without it)`);
    }
  }
  return gaps;
}

/**
 * Slot `check` (the scratch database). In: testData, linking, sql. Loads the rows into an in-memory database built
 * from the real CREATE statements (constraints enforced, foreign keys on); the rows the database kept become
 * testData.tables (`given` keeps the rows as written when some were refused). Non-duality without a gold query:
 * the schema violations and the gaps go back to the data agent — coverage (`coverageGaps`: linked tables non-empty,
 * linked values present) and discrimination (the candidate's variants that disagree with it on the real database,
 * `sqlVariants`, must disagree on the test data: which of the two is right does not matter). What the candidate
 * itself finds in the data is only recorded (`sqlRan`, `sqlRows`, `sqlNote`), never a reason to ask for other data:
 * a wrong candidate would otherwise get data shaped to fit it.
 * No model call.
 */
export const checkDataNode: TsSqlNodeFactory = (deps, options) => async (state) => {
  if (!state.testData) return {};
  const scratch = scratchOf(deps.executor);
  if (!scratch) {
    const loadError = "this executor cannot build scratch databases";
    return { testData: { ...state.testData, sqlRan: false, sqlRows: 0, loadError }, attempts: [{ node: "check", sql: state.sql, ok: false, note: loadError }] };
  }
  const queries = state.sql.trim() ? [state.sql] : [];
  const timeoutMs = options.timeoutMs ?? 30_000;
  // The candidate's variants that disagree with it on the real database (`sqlVariants`); each must disagree on the
  // test data too. A variant that fails, or a result cut at the row cap, is left out.
  const known = state.testData.variants;
  const differing: SqlVariant[] = known?.sql === state.sql ? sqlVariants(state.sql).filter((v) => known.differ.includes(v.kind)) : [];
  // The real database's answers depend on the SQL alone: worked out once per candidate, not every data round.
  if (queries.length && known?.sql !== state.sql) {
    const real = await deps.executor.run(state.dbPath, state.sql, { timeoutMs, maxRows: 10_000 });
    const realRows = real.ok && !real.truncated ? real.rows : undefined;
    for (const variant of realRows ? sqlVariants(state.sql) : []) {
      const other = await deps.executor.run(state.dbPath, variant.sql, { timeoutMs, maxRows: 10_000 });
      if (other.ok && !other.truncated && !sameResult(realRows!, other.rows, variant.kind)) differing.push(variant);
    }
  }
  queries.push(...differing.map((v) => v.sql));
  // The kept rows are read back in the same job: the test code must see exactly the rows the SQL sees (a row the
  // schema refused would otherwise count for the expected result and not for the SQL).
  const given = state.testData.given ?? state.testData.tables;
  const names = Object.keys(given);
  // Only the columns the rows were given (the data agent sees only the columns the question needs; the others are
  // NULL and would fill the coder's and reviser's prompts with nothing).
  const readBack = names.map((name) => {
    const columns = [...new Set((given[name] ?? []).flatMap((r) => Object.keys(r)))];
    return `SELECT ${columns.length ? columns.map(quoteIdent).join(", ") : "*"} FROM ${quoteIdent(name)}`;
  });
  const out = await scratch.runScratch(state.dbPath, given, [...queries, ...readBack], { timeoutMs: options.timeoutMs ?? 30_000, maxRows: 10_000 });
  if (!out.ok) {
    return {
      testData: { ...state.testData, violations: [], sqlRan: false, sqlRows: 0, loadError: `the test data could not be loaded: ${out.kind}: ${out.message}` },
      attempts: [{ node: "check", sql: state.sql, ok: false, note: out.message }],
    };
  }
  const result = queries.length ? out.results[0] : undefined;
  const kept: TestTablesValue = {};
  names.forEach((name, i) => {
    const read = out.results[queries.length + i];
    const real = Object.keys(out.loaded).find((t) => t.toLowerCase() === name.toLowerCase());
    if (!real || !read?.ok) return;
    kept[real] = read.rows.map((row) => Object.fromEntries(read.columns.map((c, j) => [c, jsonCell(row[j] as never)])));
  });
  const facts = await schemaFacts(deps, state);
  const gaps = coverageGaps(state.linking, facts.schema, kept);
  differing.forEach((variant, i) => {
    const mine = out.results[1 + i];
    // Both must run on the test data for the comparison to mean anything (an SQL error is the revision loop's).
    if (result?.ok && mine?.ok && sameResult(result.rows, mine.rows, variant.kind)) gaps.push(VARIANT_GAPS[variant.kind]);
  });
  // What the candidate finds in the data: recorded (and shown by inspect), not sent back.
  const sqlNote = !queries.length
    ? "there is no SQL to run on the data"
    : !result?.ok
      ? `the SQL fails on this data (${result?.kind}: ${result?.message})`
      : result.rowCount === 0 || isEmptyAnswer(result.rows)
        ? `the SQL returns ${result.rowCount ? "only NULL" : "no rows"} on this data`
        : undefined;
  const testData: TestData = {
    ...state.testData,
    tables: kept,
    ...(out.errors.length ? { given } : { given: undefined }),
    loaded: out.loaded,
    violations: out.errors,
    gaps,
    variants: { sql: state.sql, differ: differing.map((v) => v.kind) },
    sqlRan: Boolean(result?.ok),
    sqlRows: result?.ok && !isEmptyAnswer(result.rows) ? result.rowCount : 0,
    ...(sqlNote ? { sqlNote } : { sqlNote: undefined }),
  };
  const note = [out.errors.length ? `${out.errors.length} schema violation(s)` : "", gaps.length ? `${gaps.length} coverage gap(s)` : "", sqlNote ?? ""].filter(Boolean).join("; ");
  return { testData, attempts: [{ node: "check", sql: state.sql, ok: !note, ...(note ? { note } : {}) }] };
};
