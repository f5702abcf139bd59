/** Query results as JSON-safe previews (graph state, prompts) and as plain-text tables. */
import type { PreviewCell, ResultPreview } from "../state/result.ts";
import type { ExecSuccess, SqlValue } from "./sqlite/types.ts";
export interface PreviewOptions {
    /** Rows kept. Default 20. */
    maxRows?: number;
    /** Longer text is cut and ends with "…". Default 200. */
    maxCellChars?: number;
}
/** One cell as a JSON-safe preview value. Returns the value and whether it was shortened. */
export declare function previewCell(value: SqlValue, maxCellChars?: number): [PreviewCell, boolean];
export declare function previewResult(result: ExecSuccess, opts?: PreviewOptions): ResultPreview;
/** 1234567 → "1,234,567"; not toLocaleString, whose first call loads ICU's data (~20 ms of a one-query `exec`). */
export declare const count: (n: number) => string;
/**
 * A compact aligned table:
 *
 *   id | name
 *   ---+------
 *    1 | Alice
 *   (1 row)
 *
 * Numbers are right-aligned, everything else left-aligned.
 */
export declare function formatTable(preview: ResultPreview): string;
