/**
 * Values and result comparison under BIRD's and Spider's (test-suite-sql-eval) semantics, shared by the scorer
 * (tools/score.ts) and the executor's worker processes (./worker.js), which compare results where they are so that
 * only verdicts cross the process boundary. Plain JavaScript (typed by JSDoc) so workers run under plain node.
 *
 * Values are compared the way the official Python scorers compare what sqlite3 returns: int and float compare
 * numerically (1 == 1.0, exactly, also beyond 2^53), str never equals a number ('1' != 1), None == None, bytes
 * never equal str.
 */

/** @typedef {import("./types.ts").SqlValue} SqlValue */
/** @typedef {import("./types.ts").Row} Row */

// ---------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------

/** Hex of the bytes. */
/** @param {Uint8Array} b */
const hex = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");

/**
 * A string equal for two values iff Python's == holds between them (and so their hashes agree).
 * Integral floats take the integer's form, so 1.0 and 1n meet; length prefixes keep it unambiguous.
 */
/** @param {SqlValue} v @returns {string} */
export function valueKey(v) {
  if (v === null) return "n;";
  switch (typeof v) {
    case "bigint":
      return `i${v.toString()};`;
    case "number": {
      if (Number.isInteger(v)) return `i${BigInt(v).toString()};`;
      return `f${String(v)};`;
    }
    case "string":
      return `s${v.length}:${v}`;
    default:
      return `b${v.byteLength}:${hex(v)}`;
  }
}

/** @param {Row} row */
export const rowKey = (row) => {
  let key = `${row.length}|`;
  for (const v of row) key += valueKey(v);
  return key;
};

// Python's str() of a value and of its type, for test-suite-sql-eval's row sorting (unorder_row).

/** Python's repr of a float: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
/** @param {number} x @returns {string} */
export function pyFloatRepr(x) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  // Where both write plain decimals (JS from 1e-7 to 1e21, Python from 1e-4 to 1e16) they write the same shortest
  // round-trip digits; Python adds ".0" to an integral value. No exponent form to rebuild (a cell's sort key, per row).
  const abs = Math.abs(x);
  if (abs >= 1e-4 && abs < 1e16) return Number.isInteger(x) ? `${x}.0` : String(x);
  const sign = x < 0 ? "-" : "";
  const [mantissa, expText] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp).toString().padStart(2, "0");
    return `${sign}${m}e${exp < 0 ? "-" : "+"}${e}`;
  }
  if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
  const frac = digits.slice(exp + 1);
  return `${sign}${intPart}.${frac || "0"}`;
}

/** @param {Uint8Array} b */
function pyBytesRepr(b) {
  const hasSingle = b.includes(0x27);
  const quote = hasSingle && !b.includes(0x22) ? '"' : "'";
  let out = "b" + quote;
  for (const c of b) {
    if (c === 0x5c) out += "\\\\";
    else if (c === 0x09) out += "\\t";
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x0d) out += "\\r";
    else if (c === quote.charCodeAt(0)) out += `\\${quote}`;
    else if (c >= 0x20 && c < 0x7f) out += String.fromCharCode(c);
    else out += `\\x${c.toString(16).padStart(2, "0")}`;
  }
  return out + quote;
}

/** str(x) + str(type(x)) in Python: the sort key test-suite-sql-eval's unorder_row uses. */
/** @param {SqlValue} v @returns {string} */
export function pySortKey(v) {
  if (v === null) return "None<class 'NoneType'>";
  switch (typeof v) {
    case "bigint":
      return `${v.toString()}<class 'int'>`;
    case "number":
      return `${pyFloatRepr(v)}<class 'float'>`;
    case "string":
      return `${v}<class 'str'>`;
    default:
      return `${pyBytesRepr(v)}<class 'bytes'>`;
  }
}

/** Compares strings by code point, as Python does (JS compares UTF-16 units). */
/** @param {string} a @param {string} b */
function cmpCodePoints(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const surrogate = (/** @type {number} */ c) => c >= 0xd800 && c <= 0xdfff;
    if (surrogate(x) || surrogate(y)) {
      const cx = a.codePointAt(i);
      const cy = b.codePointAt(i);
      if (cx !== cy) return cx - cy;
      continue;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** unorder_row: the row's values sorted by their Python str + type (stable), as one key. */
/** @param {Row} row */
export function unorderedRowKey(row) {
  const keyed = row.map((v) => ({ sort: pySortKey(v), key: valueKey(v) }));
  keyed.sort((a, b) => cmpCodePoints(a.sort, b.sort));
  let key = `${row.length}|`;
  for (const k of keyed) key += k.key;
  return key;
}

/** @param {string[]} keys */
const countKeys = (keys) => {
  /** @type {Map<string, number>} */
  const m = new Map();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
};
/** @param {Map<string, number>} a @param {Map<string, number>} b */
const sameCounts = (a, b) => {
  if (a.size !== b.size) return false;
  for (const [k, n] of a) if (b.get(k) !== n) return false;
  return true;
};
/** @param {Iterable<string>} a @param {Iterable<string>} b */
const sameSet = (a, b) => {
  const sa = new Set(a);
  const sb = new Set(b);
  if (sa.size !== sb.size) return false;
  for (const k of sa) if (!sb.has(k)) return false;
  return true;
};

// ---------------------------------------------------------------------------
// Result comparison
// ---------------------------------------------------------------------------

/** Budget for the column-permutation search (the official search is unbounded). */
export const PERMUTATION_BUDGET = 200_000;

/**
 * test-suite-sql-eval's result_eq(gold, pred, order_matters): both empty → equal; otherwise the
 * same row count, the same column count (of the first rows), the quick rejection by rows with
 * their values sorted by Python str (a quirk: 1 and 1.0 sort differently next to strings), then
 * some column permutation of pred that makes the row bags (or, with order, the row lists) equal.
 * The official code enumerates permutations; we search the same space with pruning that never
 * drops a valid permutation (per-column value bags, growing projections).
 */
/** @param {Row[]} gold @param {Row[]} pred @param {boolean} orderMatters @returns {boolean} */
function spiderResultEq(gold, pred, orderMatters) {
  if (gold.length === 0 && pred.length === 0) return true;
  if (gold.length !== pred.length) return false;
  const ncols = gold[0].length;
  if (pred[0].length !== ncols) return false;

  const gu = gold.map(unorderedRowKey);
  const pu = pred.map(unorderedRowKey);
  if (orderMatters ? gu.some((k, i) => k !== pu[i]) : !sameSet(gu, pu)) return false;

  const gk = gold.map((r) => r.map(valueKey));
  const pk = pred.map((r) => r.map(valueKey));
  /** @param {string[][]} rows @param {number} c */
  const column = (rows, c) => rows.map((r) => r[c]);

  if (orderMatters) {
    // Rows must align exactly: every gold column must equal some distinct pred column as a vector.
    const vec = (/** @type {string[][]} */ rows, /** @type {number} */ c) => JSON.stringify(column(rows, c));
    return sameCounts(
      countKeys(Array.from({ length: ncols }, (_, c) => vec(gk, c))),
      countKeys(Array.from({ length: ncols }, (_, c) => vec(pk, c))),
    );
  }
  if (ncols === 1) return sameCounts(countKeys(gk.map((r) => r[0])), countKeys(pk.map((r) => r[0])));

  // Pred columns that are identical vectors are interchangeable: try them in index order only.
  const pvec = Array.from({ length: ncols }, (_, c) => JSON.stringify(column(pk, c)));
  const bag = (/** @type {string[][]} */ rows, /** @type {number} */ c) => JSON.stringify([...column(rows, c)].sort());
  const gbags = Array.from({ length: ncols }, (_, c) => bag(gk, c));
  const pbags = Array.from({ length: ncols }, (_, c) => bag(pk, c));
  const candidates = gbags.map((g) => pbags.flatMap((p, c) => (p === g ? [c] : [])));
  if (candidates.some((c) => c.length === 0)) return false;

  const used = new Array(ncols).fill(false);
  let budget = PERMUTATION_BUDGET;
  /** @type {string[][]} */
  const gPrefix = [gk.map((r) => `${r[0]}`)];
  for (let c = 1; c < ncols; c++) gPrefix.push(gk.map((r, i) => gPrefix[c - 1][i] + r[c]));
  const gCounts = gPrefix.map(countKeys);

  /** @param {number} col @param {string[] | null} prefix @returns {boolean} */
  const search = (col, prefix) => {
    if (col === ncols) return true;
    for (const c of candidates[col]) {
      if (used[c]) continue;
      // Symmetry: an identical, lower-indexed, unused column would give the same result.
      if (candidates[col].some((d) => d < c && !used[d] && pvec[d] === pvec[c])) continue;
      if (--budget < 0) return false;
      const next = pk.map((r, i) => (prefix ? prefix[i] : "") + r[c]);
      if (!sameCounts(countKeys(next), gCounts[col])) continue;
      used[c] = true;
      if (search(col + 1, next)) return true;
      used[c] = false;
    }
    return false;
  };
  return search(0, null);
}

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
export function resultsMatch(pred, gold, semantics, opts = {}) {
  if (semantics === "spider") return spiderResultEq(gold, pred, opts.orderMatters ?? false);
  return sameSet(pred.map(rowKey), gold.map(rowKey));
}

