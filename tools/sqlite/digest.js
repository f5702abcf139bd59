/**
 * Results compared without holding them (tools/sqlite/worker.js folds rows into a digest as SQLite produces them).
 * A digest keeps a 64-bit hash per row of the keys compare.js compares exactly (rowKey, unorderedRowKey, valueKey;
 * all three hashed from the values, without building the strings: a huge cell is never copied), 8 bytes a row instead of the row, and
 * decides what resultsMatch decides:
 * - bird: set(pred) == set(gold): the sorted, distinct row hashes are equal;
 * - spider, ordered: row by row (values sorted as unorder_row does), then the column vectors as a bag;
 * - spider, unordered: the quick rejection on distinct unordered rows, then the column-permutation search over
 *   per-cell hashes (8 bytes a cell), bags compared by order-free sums of hashes (bagHash).
 * Verdicts equal resultsMatch's unless two different keys share a 64-bit hash (about n²/2^65 for n distinct rows:
 * 1e-7 at 2 million). Past the caps below a side is "too large": the scorer stops reading it and says so.
 * Plain JavaScript (typed by JSDoc) so workers run it under plain node.
 */
import { createRequire } from "node:module";
import { PERMUTATION_BUDGET, pySortKey } from "./compare.js";
import { HUGE_VALUE, hugeValue } from "./keep.js";

/** @typedef {import("./types.ts").Row} Row */

/** Rows per side at most (8 bytes of hash each, 16 with Spider's row checks); past it the verdict is "too large". */
export const MAX_COMPARE_ROWS = 5_000_000;
/** Cells (rows × columns) per side at most where Spider's column-permutation rule needs a hash of every cell. */
export const MAX_PERMUTATION_CELLS = 4_000_000;

// ---------------------------------------------------------------------------
// 64-bit hashes as two 32-bit lanes, returned through H1/H2 (no allocation per row)
// ---------------------------------------------------------------------------

let H1 = 0;
let H2 = 0;

/** cyrb53's two lanes, both kept (64 bits); `seed` tells value types apart. */
/** @param {string} s @param {number} [seed] */
function hashString(s, seed = 0) {
  if (s.length > HUGE_VALUE) hugeValue.seen = true;
  let h1 = 0xdeadbeef ^ s.length ^ seed;
  let h2 = 0x41c6ce57 ^ s.length ^ Math.imul(seed, 0x9e3779b1);
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  H1 = h1 >>> 0;
  H2 = h2 >>> 0;
}

/** One MurmurHash3 round. */
/** @param {number} h @param {number} k */
function round(h, k) {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  h ^= Math.imul(k, 0x1b873593);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}
/** @param {number} h */
function fmix(h) {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
/** The hash of the pair (a, b), in that order: sequences (prefix projections, column vectors). */
/** @param {number} a1 @param {number} a2 @param {number} b1 @param {number} b2 */
function mix(a1, a2, b1, b2) {
  H1 = fmix(round(round(round(round(0x9747b28c, a1), a2), b1), b2) ^ 16);
  H2 = fmix(round(round(round(round(0x5bd1e995, b2), a1), b1), a2) ^ 16);
}

const F64 = new Float64Array(1);
const F64_WORDS = new Uint32Array(F64.buffer);
/**
 * Set when a double past 2^53 was hashed: read as a double (safeIntegers off), an INTEGER that large may have lost
 * digits, so the worker reads that result again as BigInts.
 */
export const unsafeNumber = { seen: false };
const TAG = { null: 0x6e, int: 0x69, float: 0x66, string: 0x73, bytes: 0x62 };

/**
 * The hash of valueKey(v) (compare.js), without building the string: equal for two values iff their keys are equal.
 * Integers (bigint, or integral float: 1n and 1.0 meet) by their value, other floats by their bits (distinct doubles
 * have distinct shortest forms), text and bytes by their units.
 */
/** @param {import("./types.ts").SqlValue} v */
function hashValue(v) {
  if (v === null) return mix(TAG.null, 0, 0, 0);
  switch (typeof v) {
    case "bigint": {
      // Number() is exact for a safe integer, and no larger one converts to a safe integer.
      const x = Number(v);
      if (Number.isSafeInteger(x)) return hashInteger(x);
      return hashString(v.toString(), TAG.int);
    }
    case "number":
      if (Number.isInteger(v)) {
        if (Math.abs(v) <= Number.MAX_SAFE_INTEGER) return hashInteger(v);
        unsafeNumber.seen = true;
        return hashString(BigInt(v).toString(), TAG.int);
      }
      F64[0] = v;
      return mix(TAG.float, 0, F64_WORDS[0], F64_WORDS[1]);
    case "string":
      return hashString(v, TAG.string);
    default: {
      if (v.byteLength > HUGE_VALUE) hugeValue.seen = true;
      let h1 = 0x85ebca6b ^ v.byteLength;
      let h2 = 0xc2b2ae35 ^ v.byteLength;
      for (let i = 0; i < v.byteLength; i++) {
        h1 = Math.imul(h1 ^ v[i], 2654435761);
        h2 = Math.imul(h2 ^ v[i], 1597334677);
      }
      return mix(TAG.bytes, v.byteLength, h1 >>> 0, h2 >>> 0);
    }
  }
}
/** @param {number} x a safe integer */
function hashInteger(x) {
  F64[0] = x + 0; // -0 is 0
  mix(TAG.int, 0, F64_WORDS[0], F64_WORDS[1]);
}

/**
 * Each cell's hash, computed once a row and shared by the row's keys below (two words a cell; grown as rows need).
 * @type {Uint32Array}
 */
let CELL = new Uint32Array(16);
/** @param {import("./types.ts").Row} row */
function hashCells(row) {
  if (CELL.length < 2 * row.length) CELL = new Uint32Array(4 * row.length);
  for (let c = 0; c < row.length; c++) {
    hashValue(row[c] ?? null);
    CELL[2 * c] = H1;
    CELL[2 * c + 1] = H2;
  }
}

/** The hash of rowKey(row) from its cells' hashes (hashCells): its length, then each value's hash in order. */
/** @param {number} n the row's length */
function hashRowOfCells(n) {
  let h1 = n;
  let h2 = 0x27d4eb2f;
  for (let c = 0; c < n; c++) {
    mix(h1, h2, CELL[2 * c], CELL[2 * c + 1]);
    h1 = H1;
    h2 = H2;
  }
  H1 = h1;
  H2 = h2;
}

/**
 * A value's unorder_row sort key (compare.js pySortKey: Python's str(x) + str(type(x))) as head + tail, so that a text
 * cell is compared where it is, never copied into a key (a 100 MB cell stays one string). Kept per column of the
 * current row (no object a cell).
 * @type {string[]}
 */
const HEADS = [];
/** @type {string[]} */
const TAILS = [];
/** @type {number[]} the row's columns in unorder_row's order */
const ORDER = [];
/** @param {string} head @param {string} tail @param {number} i */
const unitAt = (head, tail, i) => (i < head.length ? head.charCodeAt(i) : tail.charCodeAt(i - head.length));
/** The code point at i, as String.prototype.codePointAt reads it. @param {string} head @param {string} tail @param {number} i */
function pointAt(head, tail, i) {
  const u = unitAt(head, tail, i);
  if (u >= 0xd800 && u <= 0xdbff && i + 1 < head.length + tail.length) {
    const low = unitAt(head, tail, i + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return (u - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  }
  return u;
}
/** compare.js cmpCodePoints over the split keys of columns a and b of the current row. @param {number} a @param {number} b */
function cmpSortKeys(a, b) {
  const ha = HEADS[a];
  const ta = TAILS[a];
  const hb = HEADS[b];
  const tb = TAILS[b];
  const la = ha.length + ta.length;
  const lb = hb.length + tb.length;
  const n = Math.min(la, lb);
  for (let i = 0; i < n; i++) {
    const x = unitAt(ha, ta, i);
    const y = unitAt(hb, tb, i);
    if (x === y) continue;
    if ((x >= 0xd800 && x <= 0xdfff) || (y >= 0xd800 && y <= 0xdfff)) {
      const cx = pointAt(ha, ta, i);
      const cy = pointAt(hb, tb, i);
      if (cx !== cy) return cx - cy;
      continue;
    }
    return x - y;
  }
  return la - lb;
}

/**
 * The hash of unorderedRowKey(row) (compare.js) from its cells' hashes (hashCells): the row's length, then its
 * values' hashes in unorder_row's order (stable, by Python's str + type). Equal keys give equal hashes; no key string
 * is built but the non-text values' own.
 */
/** @param {import("./types.ts").Row} row */
function hashUnorderedOfCells(row) {
  const n = row.length;
  let h1 = n ^ 0x5bd1e995;
  let h2 = 0x1b873593;
  ORDER.length = n;
  for (let c = 0; c < n; c++) ORDER[c] = c;
  if (n > 1) {
    for (let c = 0; c < n; c++) {
      const v = row[c] ?? null;
      HEADS[c] = typeof v === "string" ? v : pySortKey(v);
      TAILS[c] = typeof v === "string" ? "<class 'str'>" : "";
    }
    // Insertion sort, stable as Python's sorted(): a row has few columns.
    for (let i = 1; i < n; i++) {
      const c = ORDER[i];
      let j = i - 1;
      for (; j >= 0 && cmpSortKeys(ORDER[j], c) > 0; j--) ORDER[j + 1] = ORDER[j];
      ORDER[j + 1] = c;
    }
  }
  for (let k = 0; k < n; k++) {
    const c = ORDER[k];
    mix(h1, h2, CELL[2 * c], CELL[2 * c + 1]);
    h1 = H1;
    h2 = H2;
  }
  H1 = h1;
  H2 = h2;
  // The keys hold the row's text: let it go with the row.
  if (n > 1) HEADS.fill("", 0, n);
}

/** Entries a list grows to by copying; past it, in place. */
const SMALL_LIST = 65_536;
/** Lists up to this length are sorted here (insertion sort); longer ones by the native BigUint64Array sort. */
const SORT_HERE = 64;

/**
 * A growing list of 64-bit hashes (two Uint32 words each: low, high). Small lists grow by copying and are never
 * viewed through their `.buffer` (V8 keeps small typed arrays on its heap; asking for the buffer moves them out, a
 * cost per list that showed in scoring many small results); a large one moves to a resizable ArrayBuffer reserved for
 * `max` entries, which grows in place (no copies, no garbage: only the pages written count toward the resident size).
 */
class HashList {
  /** @param {number} max entries at most (Infinity: grow by copying only) */
  constructor(max) {
    this.max = max;
    this.words = new Uint32Array(32);
    this.n = 0;
    /** @type {(ArrayBuffer & { resize(n: number): void, maxByteLength: number }) | null} */
    this.resizable = null;
  }
  /** @param {number} h1 @param {number} h2 */
  push(h1, h2) {
    if (2 * this.n === this.words.length) this.grow();
    this.words[2 * this.n] = h1;
    this.words[2 * this.n + 1] = h2;
    this.n++;
  }
  grow() {
    const bytes = 2 * this.words.byteLength;
    if (this.resizable) {
      // A quarter more at a time: growing in place costs no copy, and the room never used stays small.
      const step = Math.ceil((this.words.byteLength * 1.25) / 65_536) * 65_536;
      this.resizable.resize(Math.min(step, this.resizable.maxByteLength));
      return; // the view tracks the buffer's length
    }
    if (this.n < SMALL_LIST || !Number.isFinite(this.max)) {
      const grown = new Uint32Array(bytes / 4);
      grown.set(this.words);
      this.words = grown;
      return;
    }
    const Resizable = /** @type {new (n: number, o: { maxByteLength: number }) => any} */ (ArrayBuffer);
    this.resizable = new Resizable(Math.min(bytes, 8 * this.max), { maxByteLength: 8 * this.max });
    const words = new Uint32Array(/** @type {ArrayBuffer} */ (this.resizable));
    words.set(this.words);
    this.words = words;
  }
  /** Gives back the room grown for rows that never came. */
  trim() {
    this.resizable?.resize(Math.max(8, 8 * this.n));
  }
  /** The words of the first n entries (a view on a large list, a copy of a small one: see the class). */
  pairs() {
    return this.n > SORT_HERE ? new Uint32Array(this.words.buffer, 0, 2 * this.n) : this.words.slice(0, 2 * this.n);
  }
}

/** @param {Uint32Array} a @param {Uint32Array} b */
function sameValues(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The entries sorted as 64-bit numbers (high word, then low), duplicates dropped, as words: in place on a large list
 * (not used in row order afterwards), on a copy of a small one.
 */
/** @param {HashList} list @returns {Uint32Array} */
function sortedDistinct(list) {
  const w = list.pairs();
  const n = w.length / 2;
  if (n > SORT_HERE) new BigUint64Array(w.buffer, w.byteOffset, n).sort();
  else {
    for (let i = 1; i < n; i++) {
      const lo = w[2 * i];
      const hi = w[2 * i + 1];
      let j = i - 1;
      while (j >= 0 && (w[2 * j + 1] > hi || (w[2 * j + 1] === hi && w[2 * j] > lo))) {
        w[2 * j + 2] = w[2 * j];
        w[2 * j + 3] = w[2 * j + 1];
        j--;
      }
      w[2 * j + 2] = lo;
      w[2 * j + 3] = hi;
    }
  }
  let k = 0;
  for (let i = 0; i < n; i++) {
    if (k > 0 && w[2 * i] === w[2 * k - 2] && w[2 * i + 1] === w[2 * k - 1]) continue;
    w[2 * k] = w[2 * i];
    w[2 * k + 1] = w[2 * i + 1];
    k++;
  }
  return n > SORT_HERE ? w.subarray(0, 2 * k) : w.slice(0, 2 * k);
}

/** A prime: bags are sums of element hashes modulo it, so a count's multiplicity cannot cancel out (as mod 2^32). */
const P = 2147483647;

/**
 * A bag's hash, made without sorting or copying: four lanes, each the sum modulo P of a differently salted hash of
 * every element. Two different bags collide in a lane with probability about 1/P, in all four about 2^-124.
 */
/** @param {Uint32Array} words @param {number} n */
function bagHash(words, n) {
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  for (let i = 0; i < n; i++) {
    const w1 = words[2 * i];
    const w2 = words[2 * i + 1];
    mix(w1, w2, 0x243f6a88, 0x85a308d3);
    s1 = (s1 + (H1 % P)) % P;
    s2 = (s2 + (H2 % P)) % P;
    mix(w2, w1, 0x13198a2e, 0x03707344);
    s3 = (s3 + (H1 % P)) % P;
    s4 = (s4 + (H2 % P)) % P;
  }
  return `${n}:${s1}:${s2}:${s3}:${s4}`;
}

// ---------------------------------------------------------------------------
// Digests
// ---------------------------------------------------------------------------

/**
 * @typedef {object} DigestNeeds
 * @property {"bird" | "spider"} semantics
 * @property {boolean} [orderMatters]
 * @property {boolean} [fingerprint] also keep what resultFingerprint needs (BIRD's set of rows)
 * @property {number | null} [maxRows] a lower row cap than MAX_COMPARE_ROWS (a tighter memory budget; tests)
 * @property {boolean} [unbounded] no cap (rows already held in memory: resultFingerprint)
 */

/**
 * Rows a side is read at most past the cap, for the streamed comparison (a few words of state, whatever the count;
 * the time limit bounds the reading too).
 */
export const MAX_STREAMED_ROWS = 200_000_000;

/** One side's result folded row by row: add() each row (false: past what can be read, stop reading). */
export class ResultDigest {
  /** @param {number} ncols @param {DigestNeeds} needs */
  constructor(ncols, needs) {
    const spider = needs.semantics === "spider";
    const permutations = spider && !needs.orderMatters;
    this.ncols = ncols;
    this.rows = 0;
    /** @type {string | undefined} why the side was not read to its end */
    this.tooLarge = undefined;
    const rowCap = needs.unbounded ? Infinity : Math.min(MAX_COMPARE_ROWS, needs.maxRows ?? MAX_COMPARE_ROWS);
    const cellCap = permutations && ncols > 1 && !needs.unbounded ? Math.floor(MAX_PERMUTATION_CELLS / ncols) : Infinity;
    this.maxRows = Math.min(rowCap, cellCap);
    const list = () => new HashList(this.maxRows);
    /** rowKey hashes: BIRD's set of rows, and the fingerprint. */
    this.rowHashes = !spider || needs.fingerprint ? list() : null;
    /** unorderedRowKey hashes, in row order (Spider's quick rejection, and its ordered rule). */
    this.unordered = spider ? list() : null;
    /** Per-column cell hashes (Spider, unordered: the column bags and the permutation search). */
    this.cells = permutations ? Array.from({ length: ncols }, list) : null;
    /** Per-column sequence hashes: identical column vectors (two words per column). */
    this.vectors = spider && ncols > 1 ? new Uint32Array(2 * ncols) : null;
    /**
     * Every row read, past the cap too, folded into a few words: the bag of rows (four lanes modulo P, as bagHash) and
     * their sequence, with the columns in their order. Two sides past the cap compare by these: equal means equal
     * under every rule here (the identity column order is one Spider permutation; an equal bag is an equal set).
     */
    this.seen = 0;
    this.stream = new Uint32Array(6);
    /** More than MAX_STREAMED_ROWS: the stream is not the whole result. */
    this.streamCut = false;
    this.capReason =
      cellCap < rowCap
        ? `more than ${this.maxRows} rows of ${ncols} columns: Spider's column-permutation rule keeps a hash of every cell, ${MAX_PERMUTATION_CELLS} cells at most`
        : `more than ${rowCap} rows (the scorer's cap)`;
  }

  /** @param {Row} row @returns {boolean} */
  add(row) {
    const stored = this.rows < this.maxRows;
    if (!stored) {
      // Past the cap: no more hashes kept, but the stream goes on (identical results past the cap still compare).
      this.tooLarge ??= this.capReason;
      if (this.seen >= MAX_STREAMED_ROWS) {
        this.streamCut = true;
        return false;
      }
    } else this.rows++;
    this.seen++;
    // The row's hash with its columns in order, for the stream.
    let r1 = 0x9e3779b9;
    let r2 = this.ncols;
    let folded = false;
    hashCells(row);
    if (this.rowHashes) {
      hashRowOfCells(row.length);
      if (stored) this.rowHashes.push(H1, H2);
      r1 = H1;
      r2 = H2;
      folded = true;
    }
    if (this.unordered) {
      hashUnorderedOfCells(row);
      if (stored) this.unordered.push(H1, H2);
      // One column: its unordered key is the row's.
      if (!folded && row.length <= 1) {
        r1 = H1;
        r2 = H2;
        folded = true;
      }
    }
    if (this.cells || this.vectors) {
      const vectors = this.vectors;
      for (let c = 0; c < row.length; c++) {
        const h1 = CELL[2 * c];
        const h2 = CELL[2 * c + 1];
        if (stored) this.cells?.[c]?.push(h1, h2);
        if (vectors) {
          mix(vectors[2 * c], vectors[2 * c + 1], h1, h2);
          vectors[2 * c] = H1;
          vectors[2 * c + 1] = H2;
        }
        if (!folded) {
          mix(r1, r2, h1, h2);
          r1 = H1;
          r2 = H2;
        }
      }
    }
    const st = this.stream;
    mix(r1, r2, 0x243f6a88, 0x85a308d3);
    st[0] = (st[0] + (H1 % P)) % P;
    st[1] = (st[1] + (H2 % P)) % P;
    mix(r2, r1, 0x13198a2e, 0x03707344);
    st[2] = (st[2] + (H1 % P)) % P;
    st[3] = (st[3] + (H2 % P)) % P;
    mix(st[4], st[5], r1, r2);
    st[4] = H1;
    st[5] = H2;
    return true;
  }

  /** The side is read: its lists keep no spare room (the other side is read next, with this one held). */
  seal() {
    this.rowHashes?.trim();
    this.unordered?.trim();
    for (const list of this.cells ?? []) list.trim();
  }

  /** @type {Uint32Array | undefined} */
  #distinctRows;
  distinctRows() {
    if (!this.rowHashes) throw new Error("this digest keeps no row hashes");
    return (this.#distinctRows ??= sortedDistinct(this.rowHashes));
  }

  /** Equal for two results iff they match under bird semantics (set of row tuples); see resultFingerprint. */
  fingerprint() {
    const distinct = this.distinctRows();
    const hash = sha256().update("bird");
    // Each entry as its 8 bytes, little-endian (low word first), whatever the machine's byte order.
    const bytes = Buffer.allocUnsafe(4 * distinct.length);
    for (let i = 0; i < distinct.length; i++) bytes.writeUInt32LE(distinct[i], 4 * i);
    hash.update(bytes);
    return hash.digest("hex").slice(0, 32);
  }

  /** Column vectors as comparable strings. */
  vectorKeys() {
    const v = this.vectors;
    if (!v) return [];
    return Array.from({ length: this.ncols }, (_, c) => `${v[2 * c]}:${v[2 * c + 1]}`);
  }
}

/** @type {typeof import("node:crypto").createHash | undefined} */
let createHash;
const sha256 = () => (createHash ??= createRequire(import.meta.url)("node:crypto").createHash)("sha256");

/**
 * Whether the predicted result matches the gold result: resultsMatch's verdict (compare.js), from digests made with
 * the same semantics and orderMatters. Neither may be tooLarge.
 */
/**
 * @param {ResultDigest} pred @param {ResultDigest} gold @param {"bird" | "spider"} semantics
 * @param {{ orderMatters?: boolean }} [opts]
 * @returns {boolean}
 */
export function digestsMatch(pred, gold, semantics, opts = {}) {
  if (semantics !== "spider") return sameValues(pred.distinctRows(), gold.distinctRows());
  if (gold.rows === 0 && pred.rows === 0) return true;
  if (gold.rows !== pred.rows) return false;
  if (pred.ncols !== gold.ncols) return false;
  const ncols = gold.ncols;
  const pu = /** @type {HashList} */ (pred.unordered);
  const gu = /** @type {HashList} */ (gold.unordered);
  if (opts.orderMatters) {
    if (!sameValues(pu.pairs(), gu.pairs())) return false;
    if (ncols === 1) return true; // the one column is the rows themselves, just compared in order
    return sameCounts(gold.vectorKeys(), pred.vectorKeys());
  }
  if (!sameValues(sortedDistinct(pu), sortedDistinct(gu))) return false;
  // Past the quick rejection, equal bags of rows with the columns as they are: the identity is a permutation that
  // exec_eval's search always meets (its column constraints never drop it then) and accepts, so no search is needed.
  if (ncols > 1 && streamsMatch(pred, gold, semantics)) return true;
  const n = gold.rows;
  const gcols = /** @type {HashList[]} */ (gold.cells).map((l) => l.words);
  const pcols = /** @type {HashList[]} */ (pred.cells).map((l) => l.words);
  if (ncols === 1) return bagHash(gcols[0], n) === bagHash(pcols[0], n);

  // As compare.js's search: candidates by column bags, identical pred columns tried in index order only, and
  // partial assignments checked by the bag of projected rows (here: of hashed prefixes).
  const pvec = pred.vectorKeys();
  const gbags = gcols.map((w) => bagHash(w, n));
  const pbags = pcols.map((w) => bagHash(w, n));
  const candidates = gbags.map((g) => pbags.flatMap((p, c) => (p === g ? [c] : [])));
  if (candidates.some((c) => c.length === 0)) return false;
  /** @param {Uint32Array} prefix @param {Uint32Array} cell */
  const extend = (prefix, cell) => {
    const next = new Uint32Array(2 * n);
    for (let i = 0; i < n; i++) {
      mix(prefix[2 * i], prefix[2 * i + 1], cell[2 * i], cell[2 * i + 1]);
      next[2 * i] = H1;
      next[2 * i + 1] = H2;
    }
    return next;
  };
  /** @type {string[]} */
  const gPrefixBags = [];
  let gp = gcols[0];
  gPrefixBags.push(bagHash(gp, n));
  for (let c = 1; c < ncols; c++) {
    gp = extend(gp, gcols[c]);
    gPrefixBags.push(bagHash(gp, n));
  }
  const used = new Array(ncols).fill(false);
  let budget = PERMUTATION_BUDGET;
  /** @param {number} col @param {Uint32Array | null} prefix @returns {boolean} */
  const search = (col, prefix) => {
    if (col === ncols) return true;
    for (const c of candidates[col]) {
      if (used[c]) continue;
      if (candidates[col].some((d) => d < c && !used[d] && pvec[d] === pvec[c])) continue;
      if (--budget < 0) return false;
      const next = prefix ? extend(prefix, pcols[c]) : pcols[c];
      if (bagHash(next, n) !== gPrefixBags[col]) continue;
      used[c] = true;
      if (search(col + 1, next)) return true;
      used[c] = false;
    }
    return false;
  };
  return search(0, null);
}

/**
 * Two sides of which one or both went past the cap, by their streams: true when both were read to their end and hold
 * the same rows (the same bag, or under Spider's ORDER BY rule the same sequence) — equal under any rule here, so
 * right; undefined when that cannot be told (they differ, or a side was cut): the verdict stays "too large".
 */
/**
 * @param {ResultDigest} pred @param {ResultDigest} gold @param {"bird" | "spider"} semantics
 * @param {{ orderMatters?: boolean }} [opts]
 * @returns {true | undefined}
 */
export function streamsMatch(pred, gold, semantics, opts = {}) {
  if (pred.streamCut || gold.streamCut || pred.seen !== gold.seen || pred.ncols !== gold.ncols) return undefined;
  const [a, b] = [pred.stream, gold.stream];
  const ordered = semantics === "spider" && opts.orderMatters;
  const same = ordered ? a[4] === b[4] && a[5] === b[5] : a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
  return same ? true : undefined;
}

/** @param {string[]} a @param {string[]} b */
function sameCounts(a, b) {
  const x = [...a].sort();
  const y = [...b].sort();
  return x.length === y.length && x.every((k, i) => k === y[i]);
}

/** A stable hash equal for two results iff they match under bird semantics (set of row tuples). */
/** @param {Row[]} rows @returns {string} */
export function resultFingerprint(rows) {
  const digest = new ResultDigest(rows[0]?.length ?? 0, { semantics: "bird", unbounded: true });
  for (const row of rows) digest.add(row);
  return digest.fingerprint();
}
