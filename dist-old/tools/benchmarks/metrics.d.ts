import type { Row } from "../sqlite/types.ts";
/**
 * Soft F1 of a predicted result against the gold result, 0..1. Both row lists are de-duplicated keeping first
 * occurrences; row i of the prediction is paired with row i of the gold (result order matters, column order does not:
 * a row is compared as the values it holds). Per pair: matched = predicted values found in the gold row, pred-only =
 * predicted values not in it, gold-only = gold values not in the predicted row, each divided by the gold row's width.
 * Unpaired gold rows add 1 to gold-only, unpaired predicted rows 1 to pred-only. Then
 * precision = tp/(tp+fp), recall = tp/(tp+fn), F1 their harmonic mean; both results empty gives 1.
 * Values compare as Python's == (1 == 1.0, '1' != 1).
 */
export declare function softF1(pred: Row[], gold: Row[]): number;
/**
 * The database variants of a db_id in a test-suite folder: every `*.sqlite` file in `DIR/<db_id>/` or
 * `DIR/database/<db_id>/` (the official release's layout; its exec_eval takes every .sqlite file beside the original).
 */
export declare function testSuiteVariants(dir: string, dbId: string): string[];
