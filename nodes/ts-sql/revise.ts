import { readOptions } from "../../core/options.ts";
import type { TestRun } from "../../state/ts-sql.ts";
import { readSchema, renderSchema } from "../../tools/schema.ts";
import { DEFAULTS, writeSqlStep } from "../common.ts";
import { comparisonOf, matchesExpected, promptHash, scratchOf, toTestResult, type TsSqlNodeFactory } from "./common.ts";
import { TS_SQL_OPTIONS } from "./options.ts";
import { revisePrompt } from "./prompts.ts";

/**
 * Slot `test` (Algorithm 1, lines 3-7). Runs the SQL on the test data (the scratch database) and compares its
 * result with the test code's expected result: as a multiset, or in order when order is asked for (`comparisonOf`). Out: testRun, lastRunnableSql, initialSql
 * (first time). When the loop stops without a pass, the answer is the latest SQL that ran on the test data (the
 * paper leaves SQL_res unset then; the initial SQL when none ran). No model call.
 */
export const testNode: TsSqlNodeFactory = (deps, options) => async (state) => {
  const opts = readOptions(TS_SQL_OPTIONS, options);
  const initialSql = state.initialSql || state.sql;
  const scratch = scratchOf(deps.executor);
  if (!scratch || !state.testCode || !state.testData) {
    return { initialSql, testRun: { sql: state.sql, ok: false, match: false, error: "no test case" } };
  }
  if (state.stopReason !== null && state.testRun) {
    // The reviser stopped before asking (its prompt would repeat): the SQL was tested already; keep the answer as
    // when revisions run out.
    const sql = state.lastRunnableSql || initialSql;
    const why = `no SQL passed the test case in ${state.rounds} revision(s) (${state.stopReason}); kept ${sql === state.sql ? "the current SQL" : state.lastRunnableSql ? "the latest SQL that ran on the test data" : "the initial SQL"}`;
    return { initialSql, testRun: state.testRun, sql, attempts: [{ node: "test", sql, ok: false, note: why }] };
  }
  const out = await scratch.runScratch(state.dbPath, state.testData.tables, [state.sql], { timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs, maxRows: 1000 });
  const run = out.ok ? out.results[0] : out;
  const comparison = comparisonOf(state.testCode, opts.noTestCode ? "prediction" : "code", { question: state.question, sql: state.sql });
  let testRun: TestRun;
  if (!run?.ok) testRun = { sql: state.sql, ok: false, match: false, comparison, error: run ? `${run.kind}: ${run.message}` : "no result" };
  else {
    const match = matchesExpected(run.rows, state.testCode.expected, comparison);
    testRun = { sql: state.sql, ok: true, match, comparison, result: toTestResult(run.columns, run.rows.slice(0, 50)) };
  }
  const lastRunnableSql = testRun.ok ? state.sql : state.lastRunnableSql;
  const stop = testRun.match || state.rounds >= opts.maxRevisions;
  const note = testRun.match
    ? `passes the test case (${comparison})`
    : testRun.ok
      ? `result differs from the test case's (compared ${comparison === "ordered" ? "in order: order is asked for and the test code sorts" : "as a multiset: duplicates count"})`
      : `fails on the test data: ${testRun.error}`;
  const attempts = [{ node: "test", sql: state.sql, ok: testRun.match, note }];
  if (stop && !testRun.match) {
    const sql = lastRunnableSql || initialSql;
    const why = `no SQL passed the test case in ${state.rounds} revision(s); kept ${sql === state.sql ? "the current SQL" : lastRunnableSql ? "the latest SQL that ran on the test data" : "the initial SQL"}`;
    return { initialSql, testRun, lastRunnableSql, sql, attempts: [...attempts, { node: "test", sql, ok: false, note: why }] };
  }
  return { initialSql, testRun, lastRunnableSql, attempts };
};

/**
 * Slot `revise` (role "reviser", Algorithm 1 lines 9-12, A.2). In: question, evidence, the schema WITHOUT stored
 * values, the test data (synthetic), the test code, its expected result, the SQL and its result or error on the
 * test data. Never a row of the real database. Out: sql, rounds + 1.
 */
export const reviseNode: TsSqlNodeFactory = (deps, options) => async (state) => {
  const opts = readOptions(TS_SQL_OPTIONS, options);
  const schema = await readSchema(state.dbPath, { descriptionDir: state.descriptionDir || undefined, executor: deps.executor });
  const schemaText = renderSchema(schema, {
    question: state.question,
    evidence: state.evidence,
    maxChars: options.schemaMaxChars ?? DEFAULTS.schemaMaxChars,
    sampleValues: false,
    // A line per table, as the generator's schema (issue 32: the same facts in fewer tokens).
    layout: "lines",
  });
  const run = state.testRun;
  const prompt = revisePrompt({
    schema: schemaText,
    question: state.question,
    evidence: state.evidence,
    tables: state.testData?.tables ?? {},
    code: state.testCode?.code ?? "",
    codeKind: opts.noTestCode ? "prediction" : "code",
    expected: state.testCode?.expected ?? { columns: [], rows: [] },
    sql: state.sql,
    sqlResult: run?.result,
    sqlError: run && !run.ok ? run.error : undefined,
  });
  // The reviser's SQL did not change (or nothing else did): the prompt would be the last one again, and so would
  // its reply. Stop revising instead; the test then keeps the answer as when revisions run out.
  const hash = promptHash(prompt);
  if (state.lastPrompts.revise === hash) {
    const why = `revision ${state.rounds + 1} would send revision ${state.rounds}'s prompt again (the SQL did not change): stopped`;
    return { rounds: state.rounds, stopReason: why, attempts: [{ node: "revise", sql: state.sql, ok: false, note: why }] };
  }
  return writeSqlStep(deps.models, "reviser", prompt, "revise", state, { rounds: state.rounds + 1, lastPrompts: { ...state.lastPrompts, revise: hash } });
};
