import { z } from "zod";
import { type TestData, TestTablesSchema, type TestTablesValue } from "../../state/ts-sql.ts";
import { callModel } from "../../tools/models/llm.ts";
import { extractJson } from "../../tools/reply.ts";
import { quoteIdent } from "../../tools/schema.ts";
import { withCalls } from "../common.ts";
import { ddlText, descriptionLines, isEmptyAnswer, foreignKeyLines, jsonCell, relevantTables, schemaFacts, scratchOf, type TsSqlNodeFactory } from "./common.ts";
import { dataPrompt, showTables } from "./prompts.ts";

const DataReplySchema = z.object({ tables: TestTablesSchema });

/** What goes back to the data agent: the schema violations, or why the candidate SQL found nothing in the data. */
export function dataProblems(data: TestData | null): string {
  if (!data) return "";
  const lines = data.violations.map((v) => `- ${v}`);
  if (data.sqlRan && data.sqlRows === 0 && data.sqlNote) lines.push(`- ${data.sqlNote}`);
  return lines.join("\n");
}

/** Linked columns and values as prompt lines: what the question's keywords point to. */
function relevantLines(linking: { columns: { table: string; column: string; keyword?: string }[]; values: { keyword: string; table: string; column: string; value: string }[] } | null): string {
  if (!linking) return "";
  const columns = linking.columns.map((c) => `- column ${c.table}.${c.column}${c.keyword ? ` (for "${c.keyword}")` : ""}`);
  const values = linking.values.map((v) => `- value ${JSON.stringify(v.value)} in ${v.table}.${v.column} (for "${v.keyword}")`);
  return [...columns, ...values].join("\n");
}

/** A few stored values per column of the relevant tables, as the data agent's examples of formats (A.3's samples). */
function exampleLines(schema: Awaited<ReturnType<typeof schemaFacts>>["schema"], tables: string[]): string {
  return schema.tables
    .filter((t) => tables.includes(t.name))
    .flatMap((t) => t.columns.filter((c) => c.samples.length).map((c) => `- ${t.name}.${c.name}: ${c.samples.map((s) => JSON.stringify(s)).join(", ")}`))
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
  const prompt = dataPrompt({
    schema: ddlText(facts, tables),
    foreignKeys: foreignKeyLines(facts.schema, tables),
    relevant: [
      relevantLines(state.linking),
      descriptionLines(facts.schema, tables) ? `Column descriptions:\n${descriptionLines(facts.schema, tables)}` : "",
      exampleLines(facts.schema, tables) ? `Examples of stored values:\n${exampleLines(facts.schema, tables)}` : "",
    ]
      .filter(Boolean)
      .join("\n"),
    question: state.question,
    evidence: state.evidence,
    feedback: state.testData && problems ? { previous: showTables(state.testData.given ?? state.testData.tables), problems } : undefined,
  });
  const call = await callModel(deps.models, "data", prompt);
  const parsed = call.ok ? extractJson(call.text) : undefined;
  const validated = parsed?.ok ? DataReplySchema.safeParse(parsed.value) : undefined;
  const dataRounds = state.dataRounds + 1;
  if (!validated?.success) {
    const why = call.record.error ?? (parsed && !parsed.ok ? parsed.error : `reply does not match {"tables": {...}}: ${validated?.error.issues[0]?.message ?? "no JSON"}`);
    call.record.error = why;
    return withCalls({ dataRounds, attempts: [{ node: "data", sql: state.sql, ok: false, note: `${why}; kept the previous test data` }] }, [call.record]);
  }
  const testData: TestData = { tables: validated.data.tables, source: "generated", loaded: {}, violations: [], sqlRan: false, sqlRows: 0 };
  return withCalls({ dataRounds, testData, attempts: [{ node: "data", sql: state.sql, ok: true }] }, [call.record]);
};

const SAMPLE_ROWS = 10;

/**
 * Slot `sample` (Table 4, w/o DG): test rows sampled from the real database instead of the data agent, with the
 * rows their foreign keys point to. No model call. Real rows then reach the coder and reviser prompts.
 */
export const sampleDataNode: TsSqlNodeFactory = (deps) => async (state) => {
  const facts = await schemaFacts(deps, state);
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
    const r = await deps.executor.run(state.dbPath, `SELECT * FROM ${quoteIdent(table)} ORDER BY random() LIMIT ${SAMPLE_ROWS}`, { timeoutMs: 10_000 });
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
  const testData: TestData = { tables: out, source: "sampled", loaded: {}, violations: [], sqlRan: false, sqlRows: 0 };
  return { testData, dataRounds: state.dataRounds + 1, attempts: [{ node: "sample", sql: state.sql, ok: Object.keys(out).length > 0 }] };
};

/**
 * Slot `check` (the scratch database). In: testData, sql. Loads the rows into an in-memory database built from
 * the real CREATE statements (constraints enforced, foreign keys on) and runs the candidate SQL on them: schema
 * violations and the non-duality check (the SQL runs without error and returns rows) go into testData, whose `tables`
 * become the rows the database kept (`given` keeps the rows as written when some were refused). No model call.
 */
export const checkDataNode: TsSqlNodeFactory = (deps, options) => async (state) => {
  if (!state.testData) return {};
  const scratch = scratchOf(deps.executor);
  if (!scratch) {
    const loadError = "this executor cannot build scratch databases";
    return { testData: { ...state.testData, sqlRan: false, sqlRows: 0, loadError }, attempts: [{ node: "check", sql: state.sql, ok: false, note: loadError }] };
  }
  const queries = state.sql.trim() ? [state.sql] : [];
  // The kept rows are read back in the same job: the test code must see exactly the rows the SQL sees (a row the
  // schema refused would otherwise count for the expected result and not for the SQL).
  const given = state.testData.given ?? state.testData.tables;
  const names = Object.keys(given);
  const readBack = names.map((name) => `SELECT * FROM ${quoteIdent(name)}`);
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
  // An SQL error does not depend on the rows (SQLite reports it when preparing): new data cannot cure it, the
  // revision loop can. An empty result can be cured by data, and is sent back to the data agent.
  const sqlNote = !queries.length
    ? "there is no SQL to check the data with"
    : !result?.ok
      ? `the SQL fails on this data (${result?.kind}: ${result?.message})`
      : result.rowCount === 0 || isEmptyAnswer(result.rows)
        ? `the SQL returns ${result.rowCount ? "only NULL" : "no rows"} on this data; write rows that satisfy every condition of the question, so the answer is not empty`
        : undefined;
  const testData: TestData = {
    ...state.testData,
    tables: kept,
    ...(out.errors.length ? { given } : { given: undefined }),
    loaded: out.loaded,
    violations: out.errors,
    sqlRan: Boolean(result?.ok),
    sqlRows: result?.ok && !isEmptyAnswer(result.rows) ? result.rowCount : 0,
    ...(sqlNote ? { sqlNote } : { sqlNote: undefined }),
  };
  const note = [out.errors.length ? `${out.errors.length} schema violation(s)` : "", sqlNote ?? ""].filter(Boolean).join("; ");
  return { testData, attempts: [{ node: "check", sql: state.sql, ok: !note, ...(note ? { note } : {}) }] };
};
