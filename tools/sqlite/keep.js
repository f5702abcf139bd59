/**
 * What a run() keeps of its rows is bounded by bytes as well as by rows (./worker.js): each kept cell is shortened to
 * at most `maxCellBytes`, and rows stop being kept once they would pass `maxBytes` (a text cell counts its UTF-16
 * units, a blob its bytes, other values 8). The rows are still counted and fingerprinted in full; what was cut is
 * returned (`cellsShortened`, `bytesCut`) and said by whoever shows the result. Plain JavaScript: workers run it.
 */

/** A kept cell's size at most (1 MiB): a 100 MB cell comes back as its first MiB. */
export const MAX_CELL_BYTES = 1 << 20;
/** The kept rows' size at most (32 MiB): past it, rows are counted, not kept. */
export const MAX_KEPT_BYTES = 32 << 20;

/**
 * Past this size a value is "huge" (8 MiB): the worker then collects its garbage at once (it runs with --expose-gc), as
 * V8 would keep a few 100 MB strings of past rows alive before collecting on its own. Set by whoever sees the value.
 */
export const HUGE_VALUE = 8 << 20;
export const hugeValue = { seen: false };

/** A plain copy of a cell, shortened to maxCell (a shortened string is copied flat: a slice would hold its whole source). */
/** @param {import("./types.ts").SqlValue} value @param {number} maxCell */
export function keptCell(value, maxCell) {
  if (typeof value === "string") {
    if (value.length <= maxCell) return value;
    let end = maxCell;
    const last = value.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end--; // never half a surrogate pair
    return Buffer.from(value.slice(0, end), "utf16le").toString("utf16le");
  }
  // A plain, exactly sized Uint8Array (Buffers from better-sqlite3 may be views on a larger pool).
  if (value instanceof Uint8Array) return new Uint8Array(value.byteLength <= maxCell ? value : value.subarray(0, maxCell));
  return value;
}

/** @param {import("./types.ts").SqlValue} value */
export function cellBytes(value) {
  const n = typeof value === "string" ? value.length : value instanceof Uint8Array ? value.byteLength : 8;
  if (n > HUGE_VALUE) hugeValue.seen = true;
  return n;
}

/** Collects now if a huge value was seen since the last call (call it once the rows holding it are dropped). */
export function collectAfterHugeValues() {
  if (!hugeValue.seen) return;
  hugeValue.seen = false;
  /** @type {any} */ (globalThis).gc?.();
}

/**
 * The statement wrapped so that SQLite itself shortens text and blob cells to maxCell + 1 (the one more says it was
 * longer): a huge cell never becomes a JavaScript value. Rows and their order are the statement's own.
 */
/** @param {string} sql @param {number} ncols @param {number} maxCell */
export function cellCappedSql(sql, ncols, maxCell) {
  const names = Array.from({ length: ncols }, (_, i) => `sqlmend_c${i}`);
  const cells = names.map((c) => `CASE WHEN typeof(${c}) IN ('text', 'blob') THEN substr(${c}, 1, ${maxCell + 1}) ELSE ${c} END`);
  // A newline before the parenthesis: the statement may end with a -- comment.
  return `WITH sqlmend_q(${names.join(", ")}) AS (${sql.replace(/[\s;]+$/, "")}\n) SELECT ${cells.join(", ")} FROM sqlmend_q`;
}

/** Rows kept under a byte budget: keep(row) until it returns false (the row did not fit; no later row is kept). */
export class KeptRows {
  /** @param {number} maxRows @param {number} maxBytes @param {number} maxCellBytes */
  constructor(maxRows, maxBytes, maxCellBytes) {
    this.maxRows = maxRows;
    this.maxBytes = maxBytes;
    this.maxCellBytes = maxCellBytes;
    /** @type {import("./types.ts").Row[]} */
    this.rows = [];
    this.bytes = 0;
    this.cellsShortened = 0;
    /** Rows were left out because the byte budget was spent. */
    this.bytesCut = false;
  }
  /** @param {import("./types.ts").Row} row */
  add(row) {
    if (this.bytesCut || this.rows.length >= this.maxRows) return;
    let size = 0;
    let shortened = 0;
    for (const value of row) {
      const n = cellBytes(value);
      if (n > this.maxCellBytes) shortened++;
      size += Math.min(n, this.maxCellBytes);
    }
    if (this.bytes + size > this.maxBytes) {
      this.bytesCut = true;
      return;
    }
    this.bytes += size;
    this.cellsShortened += shortened;
    this.rows.push(row.map((value) => keptCell(value, this.maxCellBytes)));
  }
}
