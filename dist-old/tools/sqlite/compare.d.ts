/**
 * A string equal for two values iff Python's == holds between them (and so their hashes agree).
 * Integral floats take the integer's form, so 1.0 and 1n meet; length prefixes keep it unambiguous.
 */
/** @param {SqlValue} v @returns {string} */
export function valueKey(v: SqlValue): string;
/** Python's repr of a float: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
/** @param {number} x @returns {string} */
export function pyFloatRepr(x: number): string;
/** str(x) + str(type(x)) in Python: the sort key test-suite-sql-eval's unorder_row uses. */
/** @param {SqlValue} v @returns {string} */
export function pySortKey(v: SqlValue): string;
/** unorder_row: the row's values sorted by their Python str + type (stable), as one key. */
/** @param {Row} row */
export function unorderedRowKey(row: Row): string;
/**
 * Whether a predicted result matches the gold result.
 * - bird: BIRD's evaluation.py, set(pred) == set(gold): row order and duplicates ignored, column order matters.
 * - spider: test-suite-sql-eval's result_eq: row bags (lists when orderMatters), columns may be permuted.
 */
/**
 * @param {Row[]} pred @param {Row[]} gold @param {"bird" | "spider"} semantics
 * @param {{ orderMatters?: boolean }} [opts]
 * @returns {boolean}
 */
export function resultsMatch(pred: Row[], gold: Row[], semantics: "bird" | "spider", opts?: {
    orderMatters?: boolean;
}): boolean;
export function rowKey(row: Row): string;
/** Budget for the column-permutation search (the official search is unbounded). */
export const PERMUTATION_BUDGET: 200000;
export type SqlValue = import("./types.ts").SqlValue;
export type Row = import("./types.ts").Row;
