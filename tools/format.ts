/** Query results as JSON-safe previews (graph state, prompts) and as plain-text tables. */
import type { PreviewCell, ResultPreview } from "../state/result.ts";
import type { ExecSuccess, SqlValue } from "./sqlite/types.ts";
import { MAX_CELL_BYTES, MAX_KEPT_BYTES } from "./sqlite/keep.js";

export interface PreviewOptions {
  /** Rows kept. Default 20. */
  maxRows?: number;
  /** Longer text is cut and ends with "…". Default 200. */
  maxCellChars?: number;
}

/** One cell as a JSON-safe preview value. Returns the value and whether it was shortened. */
export function previewCell(value: SqlValue, maxCellChars = 200): [PreviewCell, boolean] {
  if (value === null) return [null, false];
  if (typeof value === "bigint") {
    const safe = value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER);
    return [safe ? Number(value) : value.toString(), false];
  }
  if (typeof value === "number") return [Number.isFinite(value) ? value : String(value), false];
  if (typeof value === "string") {
    // Count code points, so a cut never splits a surrogate pair; walk only as far as the cut (a cell may be huge).
    if (value.length <= maxCellChars) return [value, false];
    const step = (at: number) => at + ((value.codePointAt(at) ?? 0) > 0xffff ? 2 : 1);
    let keep = 0;
    for (let p = 0; p < maxCellChars - 1 && keep < value.length; p++) keep = step(keep);
    // One more code point ends the string: it fits whole.
    if (keep >= value.length || step(keep) >= value.length) return [value, false];
    return [`${value.slice(0, keep)}…`, true];
  }
  return [`<blob ${value.byteLength} bytes>`, false];
}

const mib = (bytes: number) => (bytes % (1 << 20) === 0 ? `${bytes / (1 << 20)} MiB` : `${count(bytes)} bytes`);

/**
 * What the worker's byte budget cut from a result (tools/sqlite/keep.js), as one line, or undefined when nothing was:
 * "2 cells longer than 1 MiB shortened to 1 MiB; rows past 32 MiB not kept (320 of 10,000 kept)".
 */
export function describeCut(
  result: Pick<ExecSuccess, "cellsShortened" | "bytesCut" | "rows" | "rowCount">,
  limits: { maxBytes?: number; maxCellBytes?: number } = {},
): string | undefined {
  const parts: string[] = [];
  const cell = mib(limits.maxCellBytes ?? MAX_CELL_BYTES);
  if (result.cellsShortened) parts.push(`${count(result.cellsShortened)} ${result.cellsShortened === 1 ? "cell" : "cells"} longer than ${cell} shortened to ${cell}`);
  if (result.bytesCut) parts.push(`rows past ${mib(limits.maxBytes ?? MAX_KEPT_BYTES)} not kept (${count(result.rows.length)} of ${count(result.rowCount)} kept)`);
  return parts.length ? parts.join("; ") : undefined;
}

export function previewResult(result: ExecSuccess, opts: PreviewOptions = {}): ResultPreview {
  const maxRows = opts.maxRows ?? 20;
  const maxCellChars = opts.maxCellChars ?? 200;
  let cut = false;
  const rows = result.rows.slice(0, maxRows).map((row) =>
    row.map((value) => {
      const [cell, shortened] = previewCell(value, maxCellChars);
      cut ||= shortened;
      return cell;
    }),
  );
  return {
    columns: [...result.columns],
    rows,
    rowCount: result.rowCount,
    truncated: cut || rows.length < result.rowCount,
  };
}

/** 1234567 → "1,234,567"; not toLocaleString, whose first call loads ICU's data (~20 ms of a one-query `exec`). */
export const count = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** A cell as table text: one line, NULL spelled out. */
function cellText(cell: PreviewCell): string {
  if (cell === null) return "NULL";
  if (typeof cell === "number") return String(cell);
  return cell.replace(/\r\n|\r|\n/g, "\\n").replace(/\t/g, " ");
}

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
export function formatTable(preview: ResultPreview): string {
  const header = preview.columns.map((c) => cellText(c));
  const body = preview.rows.map((row) => row.map(cellText));
  const numeric = preview.columns.map((_, i) => preview.rows.some((r) => typeof r[i] === "number"));
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[], alignRight: (i: number) => boolean) =>
    cells
      .map((c, i) => (alignRight(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join(" | ")
      .trimEnd();
  const lines: string[] = [];
  if (header.length > 0) {
    lines.push(line(header, () => false));
    lines.push(widths.map((w) => "-".repeat(w)).join("-+-"));
    for (let r = 0; r < body.length; r++) {
      const raw = preview.rows[r]!;
      lines.push(line(body[r]!, (i) => numeric[i]! && (typeof raw[i] === "number" || raw[i] === null)));
    }
  }
  const shown = preview.rows.length;
  const total = preview.rowCount;
  if (shown < total) lines.push(`(${count(shown)} of ${count(total)} rows shown)`);
  else lines.push(`(${count(total)} ${total === 1 ? "row" : "rows"})`);
  return lines.join("\n");
}
