const __worker_url = require("node:url").pathToFileURL(__filename).href;
"use strict";

// tools/sqlite/worker.js
var import_node_fs = require("node:fs");
var import_node_path = require("node:path");
var import_node_perf_hooks = require("node:perf_hooks");
var import_node_worker_threads = require("node:worker_threads");
var import_node_module2 = require("node:module");
var import_node_fs2 = require("node:fs");

// tools/sqlite/digest.js
var import_node_module = require("node:module");

// tools/sqlite/compare.js
var hex = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");
function valueKey(v) {
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
function pyFloatRepr(x) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
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
function pyBytesRepr(b) {
  const hasSingle = b.includes(39);
  const quote = hasSingle && !b.includes(34) ? '"' : "'";
  let out = "b" + quote;
  for (const c of b) {
    if (c === 92) out += "\\\\";
    else if (c === 9) out += "\\t";
    else if (c === 10) out += "\\n";
    else if (c === 13) out += "\\r";
    else if (c === quote.charCodeAt(0)) out += `\\${quote}`;
    else if (c >= 32 && c < 127) out += String.fromCharCode(c);
    else out += `\\x${c.toString(16).padStart(2, "0")}`;
  }
  return out + quote;
}
function pySortKey(v) {
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
function cmpCodePoints(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const surrogate = (c) => c >= 55296 && c <= 57343;
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
function unorderedRowKey(row) {
  const keyed = row.map((v) => ({ sort: pySortKey(v), key: valueKey(v) }));
  keyed.sort((a, b) => cmpCodePoints(a.sort, b.sort));
  let key = `${row.length}|`;
  for (const k of keyed) key += k.key;
  return key;
}
var PERMUTATION_BUDGET = 2e5;

// tools/sqlite/digest.js
var MAX_COMPARE_ROWS = 5e6;
var MAX_PERMUTATION_CELLS = 4e6;
var H1 = 0;
var H2 = 0;
function hashString(s, seed = 0) {
  let h1 = 3735928559 ^ s.length ^ seed;
  let h2 = 1103547991 ^ s.length ^ Math.imul(seed, 2654435761);
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ h1 >>> 16, 2246822507);
  h1 ^= Math.imul(h2 ^ h2 >>> 13, 3266489909);
  h2 = Math.imul(h2 ^ h2 >>> 16, 2246822507);
  h2 ^= Math.imul(h1 ^ h1 >>> 13, 3266489909);
  H1 = h1 >>> 0;
  H2 = h2 >>> 0;
}
function round(h, k) {
  k = Math.imul(k, 3432918353);
  k = k << 15 | k >>> 17;
  h ^= Math.imul(k, 461845907);
  h = h << 13 | h >>> 19;
  return Math.imul(h, 5) + 3864292196 | 0;
}
function fmix(h) {
  h ^= h >>> 16;
  h = Math.imul(h, 2246822507);
  h ^= h >>> 13;
  h = Math.imul(h, 3266489909);
  h ^= h >>> 16;
  return h >>> 0;
}
function mix(a1, a2, b1, b2) {
  H1 = fmix(round(round(round(round(2538058380, a1), a2), b1), b2) ^ 16);
  H2 = fmix(round(round(round(round(1540483477, b2), a1), b1), a2) ^ 16);
}
var F64 = new Float64Array(1);
var F64_WORDS = new Uint32Array(F64.buffer);
var MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
var TAG = { null: 110, int: 105, float: 102, string: 115, bytes: 98 };
function hashValue(v) {
  if (v === null) return mix(TAG.null, 0, 0, 0);
  switch (typeof v) {
    case "bigint":
      if (v <= MAX_SAFE && v >= -MAX_SAFE) return hashInteger(Number(v));
      return hashString(v.toString(), TAG.int);
    case "number":
      if (Number.isInteger(v)) return Math.abs(v) <= Number.MAX_SAFE_INTEGER ? hashInteger(v) : hashString(BigInt(v).toString(), TAG.int);
      F64[0] = v;
      return mix(TAG.float, 0, F64_WORDS[0], F64_WORDS[1]);
    case "string":
      return hashString(v, TAG.string);
    default: {
      let h1 = 2246822507 ^ v.byteLength;
      let h2 = 3266489909 ^ v.byteLength;
      for (let i = 0; i < v.byteLength; i++) {
        h1 = Math.imul(h1 ^ v[i], 2654435761);
        h2 = Math.imul(h2 ^ v[i], 1597334677);
      }
      return mix(TAG.bytes, v.byteLength, h1 >>> 0, h2 >>> 0);
    }
  }
}
function hashInteger(x) {
  F64[0] = x + 0;
  mix(TAG.int, 0, F64_WORDS[0], F64_WORDS[1]);
}
function hashRow(row) {
  let h1 = row.length;
  let h2 = 668265263;
  for (let c = 0; c < row.length; c++) {
    hashValue(row[c] ?? null);
    mix(h1, h2, H1, H2);
    h1 = H1;
    h2 = H2;
  }
}
var SMALL_LIST = 65536;
var SORT_HERE = 64;
var HashList = class {
  /** @param {number} max entries at most (Infinity: grow by copying only) */
  constructor(max) {
    this.max = max;
    this.words = new Uint32Array(32);
    this.n = 0;
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
      const step = Math.ceil(this.words.byteLength * 1.25 / 65536) * 65536;
      this.resizable.resize(Math.min(step, this.resizable.maxByteLength));
      return;
    }
    if (this.n < SMALL_LIST || !Number.isFinite(this.max)) {
      const grown = new Uint32Array(bytes / 4);
      grown.set(this.words);
      this.words = grown;
      return;
    }
    const Resizable = (
      /** @type {new (n: number, o: { maxByteLength: number }) => any} */
      ArrayBuffer
    );
    this.resizable = new Resizable(Math.min(bytes, 8 * this.max), { maxByteLength: 8 * this.max });
    const words = new Uint32Array(
      /** @type {ArrayBuffer} */
      this.resizable
    );
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
};
function sameValues(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
function sortedDistinct(list) {
  const w = list.pairs();
  const n = w.length / 2;
  if (n > SORT_HERE) new BigUint64Array(w.buffer, w.byteOffset, n).sort();
  else {
    for (let i = 1; i < n; i++) {
      const lo = w[2 * i];
      const hi = w[2 * i + 1];
      let j = i - 1;
      while (j >= 0 && (w[2 * j + 1] > hi || w[2 * j + 1] === hi && w[2 * j] > lo)) {
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
var P = 2147483647;
function bagHash(words, n) {
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  for (let i = 0; i < n; i++) {
    const w1 = words[2 * i];
    const w2 = words[2 * i + 1];
    mix(w1, w2, 608135816, 2242054355);
    s1 = (s1 + H1 % P) % P;
    s2 = (s2 + H2 % P) % P;
    mix(w2, w1, 320440878, 57701188);
    s3 = (s3 + H1 % P) % P;
    s4 = (s4 + H2 % P) % P;
  }
  return `${n}:${s1}:${s2}:${s3}:${s4}`;
}
var ResultDigest = class {
  /** @param {number} ncols @param {DigestNeeds} needs */
  constructor(ncols, needs) {
    const spider = needs.semantics === "spider";
    const permutations = spider && !needs.orderMatters;
    this.ncols = ncols;
    this.rows = 0;
    this.tooLarge = void 0;
    const rowCap = needs.unbounded ? Infinity : Math.min(MAX_COMPARE_ROWS, needs.maxRows ?? MAX_COMPARE_ROWS);
    const cellCap = permutations && ncols > 1 && !needs.unbounded ? Math.floor(MAX_PERMUTATION_CELLS / ncols) : Infinity;
    this.maxRows = Math.min(rowCap, cellCap);
    const list = () => new HashList(this.maxRows);
    this.rowHashes = !spider || needs.fingerprint ? list() : null;
    this.unordered = spider ? list() : null;
    this.cells = permutations ? Array.from({ length: ncols }, list) : null;
    this.vectors = spider && ncols > 1 ? new Uint32Array(2 * ncols) : null;
    this.capReason = cellCap < rowCap ? `more than ${this.maxRows} rows of ${ncols} columns: Spider's column-permutation rule keeps a hash of every cell, ${MAX_PERMUTATION_CELLS} cells at most` : `more than ${rowCap} rows (the scorer's cap)`;
  }
  /** @param {Row} row @returns {boolean} */
  add(row) {
    if (this.rows >= this.maxRows) {
      this.tooLarge = this.capReason;
      return false;
    }
    this.rows++;
    if (this.rowHashes) {
      hashRow(row);
      this.rowHashes.push(H1, H2);
    }
    if (this.unordered) {
      hashString(unorderedRowKey(row));
      this.unordered.push(H1, H2);
    }
    if (this.cells || this.vectors) {
      const vectors = this.vectors;
      for (let c = 0; c < row.length; c++) {
        hashValue(row[c] ?? null);
        const h1 = H1;
        const h2 = H2;
        this.cells?.[c]?.push(h1, h2);
        if (vectors) {
          mix(vectors[2 * c], vectors[2 * c + 1], h1, h2);
          vectors[2 * c] = H1;
          vectors[2 * c + 1] = H2;
        }
      }
    }
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
    return this.#distinctRows ??= sortedDistinct(this.rowHashes);
  }
  /** Equal for two results iff they match under bird semantics (set of row tuples); see resultFingerprint. */
  fingerprint() {
    const distinct = this.distinctRows();
    const hash = sha256().update("bird");
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
};
var createHash;
var sha256 = () => (createHash ??= (0, import_node_module.createRequire)(__worker_url)("node:crypto").createHash)("sha256");
function digestsMatch(pred, gold, semantics, opts = {}) {
  if (semantics !== "spider") return sameValues(pred.distinctRows(), gold.distinctRows());
  if (gold.rows === 0 && pred.rows === 0) return true;
  if (gold.rows !== pred.rows) return false;
  if (pred.ncols !== gold.ncols) return false;
  const ncols = gold.ncols;
  const pu = (
    /** @type {HashList} */
    pred.unordered
  );
  const gu = (
    /** @type {HashList} */
    gold.unordered
  );
  if (opts.orderMatters) {
    if (!sameValues(pu.pairs(), gu.pairs())) return false;
    if (ncols === 1) return true;
    return sameCounts(gold.vectorKeys(), pred.vectorKeys());
  }
  if (!sameValues(sortedDistinct(pu), sortedDistinct(gu))) return false;
  const n = gold.rows;
  const gcols = (
    /** @type {HashList[]} */
    gold.cells.map((l) => l.words)
  );
  const pcols = (
    /** @type {HashList[]} */
    pred.cells.map((l) => l.words)
  );
  if (ncols === 1) return bagHash(gcols[0], n) === bagHash(pcols[0], n);
  const pvec = pred.vectorKeys();
  const gbags = gcols.map((w) => bagHash(w, n));
  const pbags = pcols.map((w) => bagHash(w, n));
  const candidates = gbags.map((g) => pbags.flatMap((p, c) => p === g ? [c] : []));
  if (candidates.some((c) => c.length === 0)) return false;
  const extend = (prefix, cell2) => {
    const next = new Uint32Array(2 * n);
    for (let i = 0; i < n; i++) {
      mix(prefix[2 * i], prefix[2 * i + 1], cell2[2 * i], cell2[2 * i + 1]);
      next[2 * i] = H1;
      next[2 * i + 1] = H2;
    }
    return next;
  };
  const gPrefixBags = [];
  let gp = gcols[0];
  gPrefixBags.push(bagHash(gp, n));
  for (let c = 1; c < ncols; c++) {
    gp = extend(gp, gcols[c]);
    gPrefixBags.push(bagHash(gp, n));
  }
  const used = new Array(ncols).fill(false);
  let budget = PERMUTATION_BUDGET;
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
function sameCounts(a, b) {
  const x = [...a].sort();
  const y = [...b].sort();
  return x.length === y.length && x.every((k, i) => k === y[i]);
}

// tools/sqlite/sql-tokens.js
var MULTI_PUNCT = ["||", "<=", ">=", "<>", "!=", "==", "<<", ">>", "->>", "->"];
function tokenizeSql(sql) {
  const out = [];
  const n = sql.length;
  let i = 0;
  const push = (type, end) => {
    const text = sql.slice(i, end);
    out.push({ type, text, lower: type === "word" ? text.toLowerCase() : text });
    i = end;
  };
  const until = (close, from, doubled) => {
    let j = from;
    for (; ; ) {
      const k = sql.indexOf(close, j);
      if (k < 0) return n;
      if (doubled && sql[k + 1] === close) {
        j = k + 2;
        continue;
      }
      return k + 1;
    }
  };
  while (i < n) {
    const c = sql[i];
    if (/\s/.test(c)) {
      let j = i + 1;
      while (j < n && /\s/.test(sql[j])) j++;
      push("ws", j);
    } else if (c === "-" && sql[i + 1] === "-") {
      const k = sql.indexOf("\n", i);
      push("comment", k < 0 ? n : k);
    } else if (c === "/" && sql[i + 1] === "*") {
      const k = sql.indexOf("*/", i + 2);
      push("comment", k < 0 ? n : k + 2);
    } else if (c === "'") {
      push("string", until("'", i + 1, true));
    } else if (c === '"') {
      push("qident", until('"', i + 1, true));
    } else if (c === "`") {
      push("qident", until("`", i + 1, true));
    } else if (c === "[") {
      const k = sql.indexOf("]", i + 1);
      push("qident", k < 0 ? n : k + 1);
    } else if (/[0-9]/.test(c) || c === "." && /[0-9]/.test(sql[i + 1] ?? "")) {
      const m = /^(0[xX][0-9a-fA-F]+|[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+\.(?:[eE][+-]?[0-9]+)?)/.exec(sql.slice(i, i + 400));
      push("number", i + (m?.[0].length || 1));
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[j])) j++;
      push("word", j);
    } else if ((c === "?" || c === ":" || c === "@" || c === "$") && /[A-Za-z0-9_]/.test(sql[i + 1] ?? "")) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_]/.test(sql[j])) j++;
      push("param", j);
    } else {
      const op = MULTI_PUNCT.find((p) => sql.startsWith(p, i));
      push("punct", i + (op?.length ?? 1));
    }
  }
  return out;
}

// tools/sqlite/dqs.js
var DQS_HINT = /no such column: "([\s\S]*)" - should this be a string literal in single-quotes\?/;
var MAX_DQS_FIXES = 16;
function singleQuoteLiteral(sql, value) {
  return tokenizeSql(sql).map(
    (t) => t.type === "qident" && t.text.startsWith('"') && t.text.slice(1, -1).replaceAll('""', '"') === value ? `'${value.replaceAll("'", "''")}'` : t.text
  ).join("");
}
function rewriteForHint(sql, message) {
  const literal = DQS_HINT.exec(message)?.[1];
  if (literal === void 0) return void 0;
  const rewritten = singleQuoteLiteral(sql, literal);
  return rewritten === sql ? void 0 : rewritten;
}

// tools/sqlite/worker.js
var require2 = (0, import_node_module2.createRequire)(__worker_url);
var Database = require2("better-sqlite3");
var ADDON = (() => {
  try {
    const file = (0, import_node_path.join)((0, import_node_path.dirname)(require2.resolve("better-sqlite3/package.json")), "build", "Release", "better_sqlite3.node");
    return (0, import_node_fs.existsSync)(file) ? { nativeBinding: file } : {};
  } catch {
    return {};
  }
})();
var ONLY = "only a single read-only SELECT/WITH/VALUES statement is allowed";
var DATABASE_CODES = /^SQLITE_(NOTADB|CORRUPT|CANTOPEN|IOERR|PERM|AUTH|FULL|PROTOCOL|EMPTY|FORMAT|BUSY|LOCKED)/;
var BUSY_TIMEOUT_MS = /^\d+$/.test(process.env.SQLMEND_BUSY_TIMEOUT_MS ?? "") ? Number(process.env.SQLMEND_BUSY_TIMEOUT_MS) : 5e3;
var CACHE_SIZE = 8;
var handles = /* @__PURE__ */ new Map();
var deadline = new BigInt64Array(new SharedArrayBuffer(8));
if (process.env.SQLMEND_ORPHAN_GUARD === "pdeathsig") {
  if (String(process.ppid) !== process.env.SQLMEND_PARENT_PID) process.exit(1);
} else {
  const watchdog = new import_node_worker_threads.Worker(
    `const { workerData } = require("node:worker_threads");
     const deadline = new BigInt64Array(workerData.buffer);
     setInterval(() => {
       const d = Number(Atomics.load(deadline, 0));
       if (process.ppid !== workerData.ppid || (d > 0 && Date.now() > d)) process.kill(process.pid, "SIGKILL");
     }, 250);`,
    { eval: true, workerData: { buffer: deadline.buffer, ppid: process.ppid } }
  );
  watchdog.unref();
}
var oneLine = (text) => String(text).replace(/\s+/g, " ").trim();
var MARK_FD = Number(process.env.SQLMEND_MARK_FD) || -1;
var MARK = Buffer.alloc(16);
var OUTCOME_AT = 16;
var OUTCOME_MAX = 4096;
function leaveOutcome(id, item, outcome) {
  if (MARK_FD < 0 || id === void 0) return;
  const json = Buffer.from(JSON.stringify(outcome));
  if (json.length > OUTCOME_MAX - 12) return;
  const head = Buffer.allocUnsafe(12);
  head.writeUInt32LE(id >>> 0, 0);
  head.writeUInt32LE(item, 4);
  head.writeUInt32LE(json.length, 8);
  try {
    (0, import_node_fs2.writeSync)(MARK_FD, Buffer.concat([head, json]), 0, 12 + json.length, OUTCOME_AT);
  } catch {
  }
}
var DONE_AT = OUTCOME_AT + OUTCOME_MAX;
var DONE_MAX = 1 << 20;
var doneOffset = 0;
function recordDone(id, item, result) {
  if (MARK_FD < 0 || id === void 0) return;
  const json = Buffer.from(JSON.stringify(result));
  if (doneOffset + 24 + json.length > DONE_MAX) return;
  const record = Buffer.alloc(24 + json.length);
  record.writeUInt32LE(id >>> 0, 0);
  record.writeUInt32LE(item, 4);
  record.writeUInt32LE(json.length, 8);
  json.copy(record, 12);
  try {
    (0, import_node_fs2.writeSync)(MARK_FD, record, 0, record.length, DONE_AT + doneOffset);
    doneOffset += 12 + json.length;
  } catch {
  }
}
var PHASE = { run: 0, gold: 1, pred: 2, compare: 3 };
var WATCHDOG_GRACE_MS = 3e3;
function mark(id, item, phase, timeoutMs) {
  const now = Date.now();
  Atomics.store(deadline, 0, BigInt(Math.ceil(now + (timeoutMs ?? 3e4) + WATCHDOG_GRACE_MS)));
  if (MARK_FD < 0 || id === void 0) return;
  MARK.writeUInt32LE(id >>> 0, 0);
  MARK.writeUInt16LE(item, 4);
  MARK[6] = phase;
  MARK.writeDoubleLE(now, 8);
  try {
    (0, import_node_fs2.writeSync)(MARK_FD, MARK, 0, MARK.length, 0);
  } catch {
  }
}
function databaseMessage(path, error) {
  const code = String(error?.code ?? "");
  if (code === "ENOENT") return `database file not found: ${path}`;
  if (code === "EISDIR") return `not a database file: ${path} (it is a directory)`;
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return `database is locked by another process: ${path}`;
  if (code.startsWith("SQLITE_NOTADB")) return `not a database file: ${path}`;
  if (code.startsWith("SQLITE_CORRUPT")) return `database file is corrupt: ${path} (${oneLine(error.message)})`;
  return `cannot read database ${path}: ${oneLine(error?.message ?? error)}`;
}
var checkedThisBatch = null;
function fileKey(path) {
  const known = checkedThisBatch?.get(path);
  if (known) return known;
  const stat = (0, import_node_fs.statSync)(path);
  if (stat.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
  const key = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  checkedThisBatch?.set(path, key);
  return key;
}
function openEntry(path) {
  const key = fileKey(path);
  const cached = handles.get(path);
  if (cached) {
    handles.delete(path);
    if (cached.key === key) {
      handles.set(path, cached);
      return cached;
    }
    cached.db.close();
  }
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS, ...ADDON });
  try {
    db.pragma("query_only = ON");
    db.pragma("trusted_schema = OFF");
    db.prepare("SELECT count(*) FROM sqlite_master").get();
  } catch (error) {
    db.close();
    throw error;
  }
  const entry = { db, key, statements: /* @__PURE__ */ new Map(), rewrites: /* @__PURE__ */ new Map() };
  handles.set(path, entry);
  while (handles.size > CACHE_SIZE) {
    const [oldest, old] = handles.entries().next().value;
    handles.delete(oldest);
    old.db.close();
  }
  return entry;
}
var STATEMENT_CACHE_SIZE = 64;
function prepareCached(entry, sql) {
  const hit = entry.statements.get(sql);
  if (hit) {
    entry.statements.delete(sql);
    entry.statements.set(sql, hit);
    return hit;
  }
  const stmt = entry.db.prepare(sql);
  remember(entry.statements, sql, stmt);
  return stmt;
}
function remember(map, key, value) {
  map.set(key, value);
  if (map.size > STATEMENT_CACHE_SIZE) map.delete(map.keys().next().value);
}
function cell(value) {
  return value instanceof Uint8Array ? new Uint8Array(value) : value;
}
function classify(error, path, started) {
  const elapsedMs = import_node_perf_hooks.performance.now() - started;
  const code = String(error?.code ?? "");
  if (error instanceof RangeError && /more than one statement/i.test(error.message))
    return { ok: false, kind: "rejected", message: `several statements in one string; ${ONLY}`, elapsedMs };
  if (error instanceof RangeError && /no statements/i.test(error.message))
    return { ok: false, kind: "rejected", message: `no SQL statement given; ${ONLY}`, elapsedMs };
  if (code.startsWith("SQLITE_READONLY"))
    return { ok: false, kind: "rejected", message: `the statement writes to the database; ${ONLY}`, elapsedMs };
  if (DATABASE_CODES.test(code)) return { ok: false, kind: "database", message: databaseMessage(path, error), elapsedMs };
  if (code.startsWith("SQLITE_")) return { ok: false, kind: "sql", message: oneLine(error.message), elapsedMs };
  return { ok: false, kind: "internal", message: oneLine(error?.message ?? error), elapsedMs };
}
function execute({ id, path, sql, maxRows, repeat, fingerprint, timeoutMs }) {
  mark(id, 0, PHASE.run, timeoutMs);
  const started = import_node_perf_hooks.performance.now();
  let entry;
  try {
    entry = openEntry(path);
  } catch (error) {
    return { ok: false, kind: "database", message: databaseMessage(path, error), elapsedMs: import_node_perf_hooks.performance.now() - started };
  }
  try {
    const stmt = prepareCached(entry, sql);
    if (!stmt.readonly) return classify({ code: "SQLITE_READONLY" }, path, started);
    if (!stmt.reader)
      return { ok: false, kind: "rejected", message: `the statement returns no rows; ${ONLY}`, elapsedMs: import_node_perf_hooks.performance.now() - started };
    stmt.safeIntegers(true);
    stmt.raw(true);
    const columns = stmt.columns().map((c) => c.name);
    const rows = [];
    const limit = maxRows ?? Infinity;
    const runTimesMs = [];
    let digest = fingerprint ? new ResultDigest(columns.length, { semantics: "bird", fingerprint: true }) : void 0;
    let rowCount = 0;
    for (let run = 0; run < repeat; run++) {
      const t0 = import_node_perf_hooks.performance.now();
      let count = 0;
      if (run === 0) {
        for (const row of stmt.iterate()) {
          if (count < limit) rows.push(row.map(cell));
          if (digest && !digest.add(row)) digest = void 0;
          count++;
        }
        rowCount = count;
      } else {
        for (const _ of stmt.iterate()) count++;
      }
      runTimesMs.push(import_node_perf_hooks.performance.now() - t0);
    }
    const elapsedMs = runTimesMs.reduce((a, b) => a + b, 0) / runTimesMs.length;
    const result = { ok: true, columns, rows, rowCount, truncated: rowCount > rows.length, elapsedMs };
    if (repeat > 1) result.runTimesMs = runTimesMs;
    if (digest) result.fingerprint = digest.fingerprint();
    return result;
  } catch (error) {
    return classify(error, path, started);
  }
}
var SCHEMA_SQL = "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND type IN ('table', 'index', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, rowid";
var quoteId = (name) => `"${String(name).replace(/"/g, '""')}"`;
function bindable(value) {
  if (value === null || value === void 0) return null;
  if (typeof value === "boolean") return value ? 1n : 0n;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`${value} is not a finite number`);
    return Number.isSafeInteger(value) ? BigInt(value) : value;
  }
  if (typeof value === "string") return value;
  throw new Error("cells must be numbers, strings, booleans or null");
}
function parentsFirst(db, names) {
  const order = [];
  const state = /* @__PURE__ */ new Map();
  const visit = (name) => {
    if (state.get(name)) return;
    state.set(name, 1);
    for (const fk of db.prepare(`SELECT "table" FROM pragma_foreign_key_list(?)`).raw().all(name)) {
      const parent = names.find((n) => n.toLowerCase() === String(fk[0]).toLowerCase());
      if (parent && parent !== name) visit(parent);
    }
    order.push(name);
  };
  for (const name of names) visit(name);
  return order;
}
function queryScratch(db, sql, maxRows) {
  const started = import_node_perf_hooks.performance.now();
  try {
    const stmt = db.prepare(sql);
    if (!stmt.readonly) return { ok: false, kind: "rejected", message: `the statement writes to the database; ${ONLY}`, elapsedMs: import_node_perf_hooks.performance.now() - started };
    if (!stmt.reader) return { ok: false, kind: "rejected", message: `the statement returns no rows; ${ONLY}`, elapsedMs: import_node_perf_hooks.performance.now() - started };
    stmt.safeIntegers(true);
    stmt.raw(true);
    const columns = stmt.columns().map((c) => c.name);
    const rows = [];
    let rowCount = 0;
    const limit = maxRows ?? Infinity;
    for (const row of stmt.iterate()) {
      if (rowCount < limit) rows.push(row.map(cell));
      rowCount++;
    }
    return { ok: true, columns, rows, rowCount, truncated: rowCount > rows.length, elapsedMs: import_node_perf_hooks.performance.now() - started };
  } catch (error) {
    return classify(error, ":memory:", started);
  }
}
function scratch({ path, tables, queries, maxRows }) {
  const started = import_node_perf_hooks.performance.now();
  let statements;
  try {
    statements = openEntry(path).db.prepare(SCHEMA_SQL).raw().all();
  } catch (error) {
    return { ok: false, kind: "database", message: databaseMessage(path, error), elapsedMs: import_node_perf_hooks.performance.now() - started };
  }
  const db = new Database(":memory:", ADDON);
  try {
    db.pragma("foreign_keys = ON");
    db.pragma("trusted_schema = OFF");
    const skipped = [];
    for (const [type, name, sql] of statements) {
      try {
        db.exec(sql);
      } catch (error) {
        skipped.push(`${type} ${name}: ${oneLine(error.message)}`);
      }
    }
    const real = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").raw().all().map((r) => r[0]);
    const byLower = new Map(real.map((n) => [n.toLowerCase(), n]));
    const errors = [];
    const loaded = {};
    const given = /* @__PURE__ */ new Map();
    for (const [name, rows] of Object.entries(tables ?? {})) {
      const table = byLower.get(name.toLowerCase());
      if (!table) errors.push(`table ${name}: no such table in the schema (tables: ${real.join(", ")})`);
      else if (!Array.isArray(rows)) errors.push(`table ${table}: rows must be an array of objects`);
      else given.set(table, rows);
    }
    db.exec("BEGIN");
    db.pragma("defer_foreign_keys = ON");
    const rowIndex = /* @__PURE__ */ new Map();
    for (const table of parentsFirst(db, [...given.keys()])) {
      const columns = new Map(db.prepare("SELECT name FROM pragma_table_info(?)").raw().all(table).map((r) => [String(r[0]).toLowerCase(), r[0]]));
      const rowids = /* @__PURE__ */ new Map();
      rowIndex.set(table, rowids);
      loaded[table] = 0;
      given.get(table).forEach((row, i) => {
        const where = `${table} row ${i + 1}`;
        if (!row || typeof row !== "object" || Array.isArray(row)) return errors.push(`${where}: not an object of column values`);
        const keys = Object.keys(row);
        const unknown = keys.filter((k) => !columns.has(k.toLowerCase()));
        if (unknown.length) return errors.push(`${where}: no such column: ${unknown.join(", ")}`);
        try {
          const values = keys.map((k) => bindable(row[k]));
          const sql = keys.length ? `INSERT INTO ${quoteId(table)} (${keys.map((k) => quoteId(columns.get(k.toLowerCase()))).join(", ")}) VALUES (${keys.map(() => "?").join(", ")})` : `INSERT INTO ${quoteId(table)} DEFAULT VALUES`;
          const info = db.prepare(sql).run(...values);
          rowids.set(String(info.lastInsertRowid), i + 1);
          loaded[table]++;
        } catch (error) {
          errors.push(`${where}: ${oneLine(error.message)}`);
        }
      });
    }
    for (let pass = 0; pass < 20; pass++) {
      const broken = db.prepare("PRAGMA foreign_key_check").raw().all();
      if (!broken.length) break;
      let deleted = 0;
      for (const [table, rowid, parent] of broken) {
        const number = rowIndex.get(table)?.get(String(rowid));
        errors.push(`${table} row ${number ?? `rowid ${rowid}`}: FOREIGN KEY constraint failed (no matching row in ${parent})`);
        if (rowid !== null) {
          try {
            if (db.prepare(`DELETE FROM ${quoteId(table)} WHERE rowid = ?`).run(rowid).changes) {
              loaded[table]--;
              deleted++;
            }
          } catch {
          }
        }
      }
      if (!deleted) break;
    }
    const results = (queries ?? []).map((sql) => queryScratch(db, sql, maxRows));
    return { ok: true, loaded, errors, skipped, results, elapsedMs: import_node_perf_hooks.performance.now() - started };
  } catch (error) {
    return { ok: false, kind: "internal", message: oneLine(error?.message ?? error), elapsedMs: import_node_perf_hooks.performance.now() - started };
  } finally {
    db.close();
  }
}
process.on("message", (msg) => {
  if (msg?.type !== "scratch") return;
  Atomics.store(deadline, 0, BigInt(Math.ceil(Date.now() + msg.deadlineMs)));
  let result;
  try {
    result = scratch(msg);
  } catch (error) {
    result = { ok: false, kind: "internal", message: oneLine(error?.message ?? error), elapsedMs: 0 };
  }
  Atomics.store(deadline, 0, 0n);
  process.send({ type: "result", id: msg.id, result });
});
function runSide(path, sql, needs, at) {
  let entry;
  try {
    entry = openEntry(path);
  } catch (error) {
    return { outcome: { ok: false, kind: "database", message: databaseMessage(path, error), elapsedMs: 0 } };
  }
  let current = entry.rewrites.get(sql) ?? sql;
  let side = runOn(entry, path, current, needs, at);
  for (let fixes = 0; fixes < MAX_DQS_FIXES && !side.outcome.ok && side.outcome.kind === "sql"; fixes++) {
    const rewritten = rewriteForHint(current, side.outcome.message);
    if (rewritten === void 0) break;
    current = rewritten;
    side = runOn(entry, path, current, needs, at);
  }
  if (current !== sql) remember(entry.rewrites, sql, current);
  if (current !== sql) side.outcome.sql = current;
  return side;
}
function runOn(entry, path, sql, needs, at) {
  mark(at.id, at.item, at.phase, at.timeoutMs);
  const started = import_node_perf_hooks.performance.now();
  try {
    const stmt = prepareCached(entry, sql);
    if (!stmt.readonly) return { outcome: classify({ code: "SQLITE_READONLY" }, path, started) };
    if (!stmt.reader)
      return { outcome: { ok: false, kind: "rejected", message: `the statement returns no rows; ${ONLY}`, elapsedMs: import_node_perf_hooks.performance.now() - started } };
    stmt.safeIntegers(true);
    stmt.raw(true);
    const columns = stmt.columns().map((c) => c.name);
    const t0 = import_node_perf_hooks.performance.now();
    const digest = new ResultDigest(columns.length, needs);
    for (const row of stmt.iterate()) if (!digest.add(row)) break;
    digest.seal();
    const rowCount = digest.tooLarge ? digest.rows + 1 : digest.rows;
    return { outcome: { ok: true, columns, rowCount, truncated: Boolean(digest.tooLarge), elapsedMs: import_node_perf_hooks.performance.now() - t0 }, digest };
  } catch (error) {
    return { outcome: classify(error, path, started) };
  }
}
function compare({ path, pred, gold, semantics, orderMatters, fingerprint, timeoutMs, maxRows }, id, item = 0) {
  const at = (phase) => ({ id, item, phase, timeoutMs });
  const g = runSide(path, gold, { semantics, orderMatters, maxRows }, at(PHASE.gold));
  leaveOutcome(id, item, g.outcome);
  const p = runSide(path, pred, { semantics, orderMatters, fingerprint, maxRows }, at(PHASE.pred));
  const result = { pred: p.outcome, gold: g.outcome, correct: false };
  if (g.digest && p.digest) {
    const tooLarge = [g.digest.tooLarge && `gold: ${g.digest.tooLarge}`, p.digest.tooLarge && `prediction: ${p.digest.tooLarge}`].filter(Boolean);
    if (tooLarge.length) result.tooLarge = tooLarge.join("; ");
    else {
      mark(id, item, PHASE.compare, timeoutMs);
      result.correct = digestsMatch(p.digest, g.digest, semantics, { orderMatters });
    }
  }
  if (fingerprint && p.digest && !p.digest.tooLarge) result.fingerprint = p.digest.fingerprint();
  return result;
}
function timeQueries({ id, path, queries, iterations, timeoutMs }) {
  try {
    fileKey(path);
  } catch (error) {
    return { ok: false, kind: "database", message: databaseMessage(path, error), elapsedMs: 0 };
  }
  const timesMs = queries.map(() => []);
  for (let round2 = -1; round2 < iterations; round2++) {
    for (let q = 0; q < queries.length; q++) {
      mark(id, q, PHASE.run, timeoutMs);
      const started = import_node_perf_hooks.performance.now();
      let db;
      try {
        db = new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS, ...ADDON });
        db.pragma("query_only = ON");
        const stmt = db.prepare(queries[q]);
        if (!stmt.readonly) return classify({ code: "SQLITE_READONLY" }, path, started);
        if (!stmt.reader) return { ok: false, kind: "rejected", message: `the statement returns no rows; ${ONLY}`, elapsedMs: 0 };
        stmt.raw(true);
        for (const _ of stmt.iterate()) ;
      } catch (error) {
        return classify(error, path, started);
      } finally {
        db?.close();
      }
      if (round2 >= 0) timesMs[q].push(import_node_perf_hooks.performance.now() - started);
    }
  }
  return { ok: true, timesMs };
}
var PROGRESS_AFTER_MS = 500;
function compareBatch(msg) {
  let lastSent = import_node_perf_hooks.performance.now();
  let sent = 0;
  checkedThisBatch = /* @__PURE__ */ new Map();
  doneOffset = 0;
  try {
    const results = [];
    msg.items.forEach((item, i) => {
      results.push(compare(item, msg.id, i));
      recordDone(msg.id, i, results[i]);
      const now = import_node_perf_hooks.performance.now();
      if (now - lastSent > PROGRESS_AFTER_MS && i + 1 < msg.items.length) {
        lastSent = now;
        process.send({ type: "progress", id: msg.id, from: sent, results: results.slice(sent) });
        sent = results.length;
      }
    });
    return results;
  } finally {
    checkedThisBatch = null;
  }
}
process.on("message", (msg) => {
  if (msg?.type !== "run" && msg?.type !== "compare" && msg?.type !== "batch" && msg?.type !== "time") return;
  Atomics.store(deadline, 0, BigInt(Math.ceil(Date.now() + msg.deadlineMs)));
  let result;
  try {
    if (msg.type === "batch") result = { results: compareBatch(msg) };
    else if (msg.type === "time") result = timeQueries(msg);
    else result = msg.type === "compare" ? compare(msg, msg.id) : execute(msg);
  } catch (error) {
    result = { ok: false, kind: "internal", message: oneLine(error?.message ?? error), elapsedMs: 0 };
  }
  Atomics.store(deadline, 0, 0n);
  process.send({ type: "result", id: msg.id, result });
});
process.on("disconnect", () => process.exit(0));
process.send({ type: "ready" });
