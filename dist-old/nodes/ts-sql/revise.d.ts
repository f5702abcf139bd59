import { type TsSqlNodeFactory } from "./common.ts";
/**
 * Slot `test` (Algorithm 1, lines 3-7). Runs the SQL on the test data (the scratch database) and compares its
 * result with the test code's expected result: as a multiset, or in order when order is asked for (`comparisonOf`). Out: testRun, lastRunnableSql, initialSql
 * (first time). When the loop stops without a pass, the answer is the latest SQL that ran on the test data (the
 * paper leaves SQL_res unset then; the initial SQL when none ran). No model call.
 */
export declare const testNode: TsSqlNodeFactory;
/**
 * Slot `revise` (role "reviser", Algorithm 1 lines 9-12, A.2). In: question, evidence, the schema WITHOUT stored
 * values, the test data (synthetic), the test code, its expected result, the SQL and its result or error on the
 * test data. Never a row of the real database. Out: sql, rounds + 1.
 */
export declare const reviseNode: TsSqlNodeFactory;
