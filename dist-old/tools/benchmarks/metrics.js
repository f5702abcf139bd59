/**
 * Metrics beside EX: BIRD mini-dev's Soft F1, and Spider's test-suite accuracy (a prediction is right only when it
 * matches the gold on every database variant of its db_id).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { valueKey } from "../sqlite/compare.js";
// ---------------------------------------------------------------------------
// Soft F1 (BIRD mini-dev, evaluation_f1.py, as we know it; see docs/benchmarks-and-scoring.md, "Soft F1")
// ---------------------------------------------------------------------------
/**
 * Soft F1 of a predicted result against the gold result, 0..1. Both row lists are de-duplicated keeping first
 * occurrences; row i of the prediction is paired with row i of the gold (result order matters, column order does not:
 * a row is compared as the values it holds). Per pair: matched = predicted values found in the gold row, pred-only =
 * predicted values not in it, gold-only = gold values not in the predicted row, each divided by the gold row's width.
 * Unpaired gold rows add 1 to gold-only, unpaired predicted rows 1 to pred-only. Then
 * precision = tp/(tp+fp), recall = tp/(tp+fn), F1 their harmonic mean; both results empty gives 1.
 * Values compare as Python's == (1 == 1.0, '1' != 1).
 */
export function softF1(pred, gold) {
    if (!pred.length && !gold.length)
        return 1;
    const dedupe = (rows) => {
        const seen = new Set();
        return rows
            .map((r) => r.map(valueKey))
            .filter((keys) => {
            const k = `${keys.length}|${keys.join("")}`;
            if (seen.has(k))
                return false;
            seen.add(k);
            return true;
        });
    };
    const p = dedupe(pred);
    const g = dedupe(gold);
    let tp = 0;
    let fp = 0;
    let fn = 0;
    g.forEach((goldRow, i) => {
        const predRow = p[i];
        if (!predRow) {
            fn += 1;
            return;
        }
        const width = goldRow.length || 1;
        const goldSet = new Set(goldRow);
        const predSet = new Set(predRow);
        tp += predRow.filter((v) => goldSet.has(v)).length / width;
        fp += predRow.filter((v) => !goldSet.has(v)).length / width;
        fn += goldRow.filter((v) => !predSet.has(v)).length / width;
    });
    if (p.length > g.length)
        fp += p.length - g.length;
    const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
    const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
    return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}
// ---------------------------------------------------------------------------
// Test-suite accuracy (Spider, test-suite-sql-eval)
// ---------------------------------------------------------------------------
/**
 * The database variants of a db_id in a test-suite folder: every `*.sqlite` file in `DIR/<db_id>/` or
 * `DIR/database/<db_id>/` (the official release's layout; its exec_eval takes every .sqlite file beside the original).
 */
export function testSuiteVariants(dir, dbId) {
    for (const folder of [path.join(dir, dbId), path.join(dir, "database", dbId)]) {
        if (!existsSync(folder) || !statSync(folder).isDirectory())
            continue;
        const files = readdirSync(folder)
            .filter((f) => f.endsWith(".sqlite"))
            .sort()
            .map((f) => path.join(folder, f));
        if (files.length)
            return files;
    }
    return [];
}
