/**
 * The value index of one database file (Memo-SQL A.2, TS-SQL §3.1.1): the distinct text values of every column, and
 * the table and column names, under MinHash LSH over character n-grams (minhash.ts). Built once per database
 * content (keyed by its SHA-256), stored in the data directory as one binary file, reused by every later run and
 * process, rebuilt when the file changes. The database is opened read-only and never written.
 *
 * What is indexed ("keys", each pointing to the entries it came from): a value's whole normalised text and, for
 * values of at most six words, each word — so "Jetblu" finds 'JetBlue Airways' through its word "jetblue". Numeric
 * columns are indexed too when they hold at most 1,000 distinct numbers (years, codes), since questions name those.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { firstLineOf } from "../../core/errors.js";
import { dataDir as defaultDataDir } from "../paths.js";
import { BANDS, bandHashes, SHORT_BANDS, SHORT_MAX, SHORT_SHINGLE, textHash } from "./minhash.js";
import { isNumber, isoDate, normalize, normalizedEditDistance, plainNumber, STOPWORDS, wordsOf } from "./text.js";
const MAGIC = "SQLMLSH1";
const FORMAT = 4;
/** Longer values (free text) are left out: a keyword does not name them. */
export const MAX_VALUE_CHARS = 200;
/** Values of at most this many words are indexed word by word too. */
const MAX_WORDS = 6;
/** A numeric column is indexed when it has at most this many distinct numbers. */
const MAX_NUMERIC_DISTINCT = 1000;
/** Values indexed per database at most (memory stays bounded on a huge database; schema names always go in). */
const MAX_VALUES = 5_000_000;
/** Normalised edit distance allowed between a keyword and a value (TS-SQL's threshold). */
export const MAX_DISTANCE = 0.3;
/** Entries read from one LSH bucket, and in all: a huge bucket holds near-duplicates (timestamps, addresses). */
const BUCKET_CAP = 500;
const CANDIDATE_CAP = 4000;
const POSTINGS_CAP = 50;
const KINDS = ["value", "table", "column"];
/** Growable Uint32 array (the build appends millions of numbers). */
class U32List {
    data = new Uint32Array(1024);
    length = 0;
    push(value) {
        if (this.length === this.data.length) {
            const bigger = new Uint32Array(this.data.length * 2);
            bigger.set(this.data);
            this.data = bigger;
        }
        this.data[this.length++] = value;
    }
    view() {
        return this.data.subarray(0, this.length);
    }
}
export class ValueIndex {
    buffer;
    file;
    reused;
    columns;
    entryText;
    entryColumn;
    entryKind;
    keyText;
    postingStart;
    postings;
    bandHash = [];
    bandKey = [];
    exactHash;
    keyLength;
    exactKey;
    seen;
    stamp = 0;
    shortHash = [];
    shortKey = [];
    queryBands = new Uint32Array(Math.max(BANDS, SHORT_BANDS));
    constructor(buffer, header, 
    /** The index file. */
    file, 
    /** True when an existing file was read, false when this call built it. */
    reused, buildMs) {
        this.buffer = buffer;
        this.file = file;
        this.reused = reused;
        const u32 = (name) => {
            const [offset, length] = header.sections[name];
            return new Uint32Array(buffer.buffer, buffer.byteOffset + offset, length / 4);
        };
        this.columns = header.columns;
        this.entryText = u32("entryText");
        this.entryColumn = u32("entryColumn");
        const [kindOffset, kindLength] = header.sections.entryKind;
        this.entryKind = new Uint8Array(buffer.buffer, buffer.byteOffset + kindOffset, kindLength);
        this.keyText = u32("keyText");
        this.postingStart = u32("postingStart");
        this.postings = u32("postings");
        for (let b = 0; b < header.bands; b++) {
            this.bandHash.push(u32(`bandHash${b}`));
            this.bandKey.push(u32(`bandKey${b}`));
        }
        for (let b = 0; b < SHORT_BANDS; b++) {
            this.shortHash.push(u32(`shortHash${b}`));
            this.shortKey.push(u32(`shortKey${b}`));
        }
        this.exactHash = u32("exactHash");
        const [lengthOffset, lengthBytes] = header.sections.keyLength;
        this.keyLength = new Uint8Array(buffer.buffer, buffer.byteOffset + lengthOffset, lengthBytes);
        this.exactKey = u32("exactKey");
        this.seen = new Uint32Array(header.keys);
        this.stats = { entries: header.entries, keys: header.keys, columns: header.columns.length, bytes: buffer.byteLength, ...(buildMs !== undefined ? { buildMs } : {}) };
    }
    stats;
    text(offsets, i) {
        return this.buffer.toString("utf8", offsets[i], offsets[i + 1]);
    }
    /**
     * Stored values and schema names near a keyword: LSH candidates, kept when their normalised edit distance is at
     * most `maxDistance` (numbers and dates must match exactly), best first. The keyword is also looked up as an ISO date when it
     * is written as one ("March 4, 2015"), and word by word when it has several words.
     */
    lookup(keyword, opts = {}) {
        const maxDistance = opts.maxDistance ?? MAX_DISTANCE;
        const whole = normalize(keyword);
        if (!whole)
            return [];
        const queries = [{ text: plainNumber(whole), partial: false }];
        const date = isoDate(whole);
        if (date)
            queries.push({ text: date, partial: false });
        const words = wordsOf(whole);
        if (words.length > 1) {
            for (const word of words)
                if ((word.length >= 3 && !STOPWORDS.has(word)) || isNumber(word))
                    queries.push({ text: plainNumber(word), partial: true });
        }
        // Entry → its best (score, distance); entries are decoded only for the results returned.
        const best = new Map();
        // A keyword stored verbatim needs no fuzzy search: its exact matches are the answer (and the common case is fast).
        const verbatim = queries.filter((q) => !q.partial);
        for (const query of verbatim)
            for (const key of this.exact(query.text))
                if (this.text(this.keyText, key) === query.text)
                    this.offer(best, key, 0, false);
        if (best.size)
            return this.matches(best, opts.limit);
        for (const query of queries) {
            // Numbers, dates and times match exactly: 2024-03-04 is not "nearly" 2024-03-05.
            // So do words under five letters: one edit away is another word ("land" is not "and").
            const allowed = isNumber(query.text) || /^[\d\s.,:/+-]+$/.test(query.text) || query.text.length < 5 ? 0 : maxDistance;
            const length = query.text.length;
            for (const key of allowed === 0 ? this.exact(query.text) : this.candidates(query.text)) {
                // Lengths first (stored, capped at 255): most candidates end here, undecoded.
                const keyLength = this.keyLength[key];
                if (keyLength < 255 && Math.abs(keyLength - length) > Math.floor(allowed * Math.max(keyLength, length) + 1e-9))
                    continue;
                const distance = normalizedEditDistance(query.text, this.text(this.keyText, key), allowed);
                if (distance > allowed)
                    continue;
                this.offer(best, key, distance, query.partial);
            }
        }
        return this.matches(best, opts.limit);
    }
    /** Records the entries of a matching key with their score (kept when better than what an entry had). */
    offer(best, key, distance, partialQuery) {
        const end = Math.min(this.postingStart[key + 1], this.postingStart[key] + POSTINGS_CAP);
        for (let p = this.postingStart[key]; p < end; p++) {
            const posting = this.postings[p];
            const entry = posting & 0x7fffffff;
            // High bit: the key is a word (or the readable form) of the entry, not all of it.
            const partial = partialQuery || posting >>> 31 === 1;
            const score = 1 - distance - (partialQuery ? 0.1 : 0) - (partial ? 0.05 : 0);
            const previous = best.get(entry);
            if (!previous || previous.score < score)
                best.set(entry, { score, distance });
        }
    }
    /** The best entries, decoded. */
    matches(best, limit = 50) {
        const bytes = (entry) => this.entryText[entry + 1] - this.entryText[entry];
        return [...best]
            .sort((a, b) => b[1].score - a[1].score || bytes(a[0]) - bytes(b[0]) || a[0] - b[0])
            .slice(0, limit)
            .map(([entry, { score, distance }]) => {
            const [table, column] = this.columns[this.entryColumn[entry]];
            return { kind: KINDS[this.entryKind[entry]], table, column, value: this.text(this.entryText, entry), distance, score };
        });
    }
    /** Keys whose whole-text hash equals the text's (then compared in full by the caller). */
    exact(text) {
        const wanted = textHash(text);
        const hashes = this.exactHash;
        let lo = 0;
        let hi = hashes.length;
        while (lo < hi) {
            const mid = (lo + hi) >>> 1;
            if (hashes[mid] < wanted)
                lo = mid + 1;
            else
                hi = mid;
        }
        const out = [];
        for (let i = lo; i < hashes.length && hashes[i] === wanted; i++)
            out.push(this.exactKey[i]);
        return out;
    }
    /** Keys sharing at least one band bucket with the text: 3-gram bands, and 2-gram bands for a short word. */
    candidates(text) {
        if (++this.stamp === 0xffffffff) {
            this.seen.fill(0);
            this.stamp = 1;
        }
        const out = [];
        bandHashes(text, this.queryBands);
        this.collect(this.bandHash, this.bandKey, out);
        // One letter more than the short keys: a deletion typo of a short word is still short.
        if (text.length <= SHORT_MAX + 1) {
            bandHashes(text, this.queryBands, 0, 1, SHORT_SHINGLE, SHORT_BANDS);
            this.collect(this.shortHash, this.shortKey, out);
        }
        return out;
    }
    collect(bandHash, bandKey, out) {
        const cap = out.length + CANDIDATE_CAP;
        for (let b = 0; b < bandHash.length && out.length < cap; b++) {
            const hashes = bandHash[b];
            const keys = bandKey[b];
            const wanted = this.queryBands[b];
            let lo = 0;
            let hi = hashes.length;
            while (lo < hi) {
                const mid = (lo + hi) >>> 1;
                if (hashes[mid] < wanted)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            for (let i = lo, n = 0; i < hashes.length && hashes[i] === wanted && n < BUCKET_CAP; i++, n++) {
                const key = keys[i];
                if (this.seen[key] === this.stamp)
                    continue;
                this.seen[key] = this.stamp;
                out.push(key);
            }
        }
    }
}
// ---------------------------------------------------------------------------------------------
// Opening: reuse, or build once per content
const contentHashes = new Map();
/** Indexes kept in memory per process. */
const MAX_OPEN_INDEXES = 4;
const openIndexes = new Map();
/** SHA-256 of a file's bytes, remembered per path, size and modification time. */
export function contentHash(file) {
    const info = fs.statSync(file);
    const key = JSON.stringify([file, info.size, info.mtimeMs]);
    let pending = contentHashes.get(key);
    if (!pending) {
        pending = new Promise((resolve, reject) => {
            const hash = createHash("sha256");
            fs.createReadStream(file)
                .on("data", (chunk) => hash.update(chunk))
                .on("error", reject)
                .on("end", () => resolve(hash.digest("hex")));
        });
        contentHashes.set(key, pending);
        pending.catch(() => contentHashes.delete(key));
    }
    return pending;
}
/** Where the index of a database with this content lives. */
export const indexFileFor = (sha256, dir) => path.join(dir, "linking", `${sha256.slice(0, 40)}.v${FORMAT}.lsh`);
/**
 * The value index of a database file: read from the data directory when one was built for the same content, else
 * built now (in-process callers share one build). Throws (one line) when the database cannot be read.
 */
export async function openValueIndex(dbPath, opts = {}) {
    const source = path.resolve(dbPath);
    if (!fs.existsSync(source))
        throw new Error(`cannot index values: database file not found: ${source}`);
    const sha256 = await contentHash(source);
    const file = indexFileFor(sha256, opts.dataDir ?? defaultDataDir());
    let pending = openIndexes.get(file);
    if (pending) {
        // Most recently used last: the least recently used index is the one let go.
        openIndexes.delete(file);
        openIndexes.set(file, pending);
    }
    else {
        pending = Promise.resolve().then(async () => {
            const existing = readIndex(file, true);
            if (existing)
                return existing;
            const buildMs = await buildIndex(source, sha256, file);
            // Whichever process won the race, read what is on disk now (the same content either way). The build's own
            // arrays are garbage by now, so memory holds one copy.
            const built = readIndex(file, false, buildMs);
            if (!built)
                throw new Error(`cannot read the value index just written: ${file}`);
            return built;
        });
        openIndexes.set(file, pending);
        pending.catch(() => openIndexes.delete(file));
        // A run over many databases keeps only the last few indexes in memory (a big one is hundreds of MiB).
        while (openIndexes.size > MAX_OPEN_INDEXES)
            openIndexes.delete(openIndexes.keys().next().value);
    }
    return pending;
}
/** Forgets the indexes this process has open (tests; a long-lived process that wants memory back). */
export function closeValueIndexes() {
    openIndexes.clear();
    contentHashes.clear();
}
function readIndex(file, reused, buildMs) {
    let bytes;
    try {
        bytes = fs.readFileSync(file);
    }
    catch {
        return undefined;
    }
    try {
        if (bytes.toString("latin1", 0, 8) !== MAGIC)
            return undefined;
        const headerLength = bytes.readUInt32LE(8);
        const header = JSON.parse(bytes.toString("utf8", 12, 12 + headerLength));
        if (header.format !== FORMAT || header.bands !== BANDS)
            return undefined;
        for (const [offset, length] of Object.values(header.sections))
            if (offset % 4 || offset + length > bytes.length)
                return undefined;
        // Typed-array views need 4-byte alignment of the buffer itself.
        if (bytes.byteOffset % 4)
            bytes = Buffer.from(bytes);
        return new ValueIndex(bytes, header, file, reused, buildMs);
    }
    catch {
        return undefined; // unreadable: rebuilt and replaced
    }
}
const quote = (name) => `"${name.replace(/"/g, '""')}"`;
/** The distinct values of every column and the schema names, as (kind, column, text) entries. */
function* readEntries(source, columns) {
    let db;
    try {
        db = new Database(source, { readonly: true, fileMustExist: true });
    }
    catch (error) {
        throw new Error(`cannot index values of ${source}: ${firstLineOf(error)}`);
    }
    try {
        let tables;
        try {
            tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid`).pluck().all();
        }
        catch (error) {
            throw new Error(`cannot index values of ${source}: ${firstLineOf(error)}`);
        }
        for (const table of tables) {
            let names;
            try {
                names = db.prepare(`SELECT name FROM pragma_table_info(?) ORDER BY cid`).pluck().all(table);
            }
            catch {
                continue; // e.g. a virtual table whose module is missing
            }
            columns.push([table, ""]);
            yield [1, columns.length - 1, table];
            for (const name of names) {
                columns.push([table, name]);
                const at = columns.length - 1;
                yield [2, at, name];
                const col = quote(name);
                try {
                    const texts = db.prepare(`SELECT DISTINCT ${col} FROM ${quote(table)} WHERE typeof(${col}) = 'text' AND length(${col}) <= ${MAX_VALUE_CHARS}`).pluck();
                    for (const value of texts.iterate())
                        if (typeof value === "string" && value.trim())
                            yield [0, at, value];
                    const numbers = db
                        .prepare(`SELECT DISTINCT CAST(${col} AS TEXT) FROM ${quote(table)} WHERE typeof(${col}) IN ('integer', 'real') LIMIT ${MAX_NUMERIC_DISTINCT + 1}`)
                        .pluck()
                        .all();
                    if (numbers.length <= MAX_NUMERIC_DISTINCT)
                        for (const value of numbers)
                            yield [0, at, value];
                }
                catch {
                    // An unreadable column (virtual table, odd collation) just has no values.
                }
            }
        }
    }
    finally {
        db.close();
    }
}
/** Sorts (hash, id) pairs by hash: two 16-bit LSD radix passes (stable, linear). */
function radixSort(hashes) {
    const n = hashes.length;
    let h = Uint32Array.from(hashes);
    let k = new Uint32Array(n);
    for (let i = 0; i < n; i++)
        k[i] = i;
    let h2 = new Uint32Array(n);
    let k2 = new Uint32Array(n);
    const counts = new Uint32Array(65537);
    for (const shift of [0, 16]) {
        counts.fill(0);
        for (let i = 0; i < n; i++)
            counts[((h[i] >>> shift) & 0xffff) + 1]++;
        for (let i = 1; i <= 65536; i++)
            counts[i] += counts[i - 1];
        for (let i = 0; i < n; i++) {
            const at = counts[(h[i] >>> shift) & 0xffff]++;
            h2[at] = h[i];
            k2[at] = k[i];
        }
        [h, h2] = [h2, h];
        [k, k2] = [k2, k];
    }
    return { hashes: h, keys: k };
}
/** Lets other work of the process (model calls, queries of other questions) run during a long build. */
const pause = () => new Promise((resolve) => setImmediate(resolve));
const PAUSE_EVERY = 20_000;
async function buildIndex(source, sha256, file) {
    const started = performance.now();
    const columns = [];
    const entryStrings = [];
    const entryColumn = new U32List();
    const entryKind = new U32List();
    const keyIds = new Map();
    const keyStrings = [];
    const pairKey = new U32List();
    const pairEntry = new U32List();
    const addKey = (text, entry, partial) => {
        let id = keyIds.get(text);
        if (id === undefined) {
            id = keyStrings.length;
            keyIds.set(text, id);
            keyStrings.push(text);
        }
        pairKey.push(id);
        pairEntry.push(partial ? (entry | 0x80000000) >>> 0 : entry);
    };
    let values = 0;
    let read = 0;
    for (const [kind, column, value] of readEntries(source, columns)) {
        if (++read % PAUSE_EVERY === 0)
            await pause();
        if (kind === 0 && ++values > MAX_VALUES)
            continue;
        const entry = entryStrings.length;
        entryStrings.push(value);
        entryColumn.push(column);
        entryKind.push(kind);
        const whole = normalize(value);
        const keys = new Set([whole]);
        // Names are looked up as written and as words: customer_id → "customer id".
        const readable = kind === 0 ? whole : normalize(value.replace(/_/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2"));
        keys.add(readable);
        const words = wordsOf(readable);
        if (words.length > 1 && words.length <= MAX_WORDS)
            for (const word of words)
                if (word.length >= 2 || isNumber(word))
                    keys.add(word);
        for (const key of keys)
            if (key)
                addKey(key, entry, key !== whole);
    }
    const nKeys = keyStrings.length;
    const nEntries = entryStrings.length;
    keyIds.clear();
    // CSR postings: entries of each key.
    const postingStart = new Uint32Array(nKeys + 1);
    const pk = pairKey.view();
    const pe = pairEntry.view();
    for (let i = 0; i < pk.length; i++)
        postingStart[pk[i] + 1]++;
    for (let i = 0; i < nKeys; i++)
        postingStart[i + 1] += postingStart[i];
    const postings = new Uint32Array(pk.length);
    const fill = postingStart.slice(0, nKeys);
    for (let i = 0; i < pk.length; i++)
        postings[fill[pk[i]]++] = pe[i];
    pairKey.data = pairEntry.data = new Uint32Array(0);
    const bandsAll = new Uint32Array(BANDS * nKeys);
    for (let k = 0; k < nKeys; k++) {
        bandHashes(keyStrings[k], bandsAll, k, nKeys);
        if (k % PAUSE_EVERY === 0)
            await pause();
    }
    // The short-word family: 2-gram bands of the short keys only (key ids, not positions).
    const shortIds = new U32List();
    for (let k = 0; k < nKeys; k++)
        if (keyStrings[k].length <= SHORT_MAX)
            shortIds.push(k);
    const nShort = shortIds.length;
    const shortAll = new Uint32Array(SHORT_BANDS * nShort);
    for (let i = 0; i < nShort; i++)
        bandHashes(keyStrings[shortIds.data[i]], shortAll, i, nShort, SHORT_SHINGLE, SHORT_BANDS);
    const shortBand = (b) => {
        const sortedBand = radixSort(shortAll.subarray(b * nShort, (b + 1) * nShort));
        for (let i = 0; i < nShort; i++)
            sortedBand.keys[i] = shortIds.data[sortedBand.keys[i]];
        return sortedBand;
    };
    const exactAll = new Uint32Array(nKeys);
    for (let k = 0; k < nKeys; k++)
        exactAll[k] = textHash(keyStrings[k]);
    const exact = radixSort(exactAll);
    const keyLength = new Uint8Array(nKeys);
    for (let k = 0; k < nKeys; k++)
        keyLength[k] = Math.min(255, keyStrings[k].length);
    // Text blobs: UTF-8 strings back to back with their offsets.
    const blob = (strings) => {
        const offsets = new Uint32Array(strings.length + 1);
        const parts = [];
        let at = 0;
        for (let i = 0; i < strings.length; i++) {
            const bytes = Buffer.from(strings[i], "utf8");
            parts.push(bytes);
            at += bytes.length;
            offsets[i + 1] = at;
        }
        strings.length = 0;
        return { bytes: Buffer.concat(parts, at), offsets };
    };
    const entryBlob = blob(entryStrings);
    const keyBlob = blob(keyStrings);
    const u32 = (count) => count * 4;
    const sorted = { band: -1 };
    const band = (b) => {
        if (sorted.band !== b)
            Object.assign(sorted, { band: b, value: radixSort(bandsAll.subarray(b * nKeys, (b + 1) * nKeys)) });
        return sorted.value;
    };
    const sections = [
        { name: "entryBytes", bytes: entryBlob.bytes.byteLength, data: () => entryBlob.bytes },
        { name: "keyBytes", bytes: keyBlob.bytes.byteLength, data: () => keyBlob.bytes },
        { name: "entryText", bytes: u32(nEntries + 1), data: () => entryBlob.offsets },
        { name: "entryColumn", bytes: u32(nEntries), data: () => entryColumn.view() },
        { name: "keyText", bytes: u32(nKeys + 1), data: () => keyBlob.offsets },
        { name: "postingStart", bytes: u32(nKeys + 1), data: () => postingStart },
        { name: "postings", bytes: u32(postings.length), data: () => postings },
        ...Array.from({ length: BANDS }, (_, b) => [
            { name: `bandHash${b}`, bytes: u32(nKeys), data: () => band(b).hashes },
            { name: `bandKey${b}`, bytes: u32(nKeys), data: () => band(b).keys },
        ]).flat(),
        ...Array.from({ length: SHORT_BANDS }, (_, b) => {
            let sortedBand;
            return [
                { name: `shortHash${b}`, bytes: u32(nShort), data: () => (sortedBand = shortBand(b)).hashes },
                { name: `shortKey${b}`, bytes: u32(nShort), data: () => sortedBand.keys },
            ];
        }).flat(),
        { name: "exactHash", bytes: u32(nKeys), data: () => exact.hashes },
        { name: "exactKey", bytes: u32(nKeys), data: () => exact.keys },
        { name: "keyLength", bytes: nKeys, data: () => keyLength },
        { name: "entryKind", bytes: nEntries, data: () => Uint8Array.from(entryKind.view()) },
    ];
    const header = {
        format: FORMAT,
        bands: BANDS,
        source: path.basename(source),
        sha256,
        builtAt: new Date().toISOString(),
        columns,
        entries: nEntries,
        keys: nKeys,
        sections: {},
    };
    // Offsets depend on the header's length, which depends on the offsets: lay out with room to spare.
    let headerLength = 1024;
    for (;;) {
        let at = align(12 + headerLength);
        for (const section of sections) {
            header.sections[section.name] = [at, section.bytes];
            at = align(at + section.bytes);
        }
        if (Buffer.byteLength(JSON.stringify(header)) <= headerLength)
            break;
        headerLength *= 2;
    }
    // String offsets become file offsets.
    for (const [offsets, base] of [
        [entryBlob.offsets, "entryBytes"],
        [keyBlob.offsets, "keyBytes"],
    ]) {
        const start = header.sections[base][0];
        for (let i = 0; i < offsets.length; i++)
            offsets[i] += start;
    }
    const prefix = Buffer.alloc(12 + headerLength);
    prefix.write(MAGIC, 0, "latin1");
    prefix.writeUInt32LE(headerLength, 8);
    prefix.write(JSON.stringify(header).padEnd(headerLength, " "), 12, "utf8");
    publish(file, (fd) => {
        fs.writeSync(fd, prefix, 0, prefix.length, 0);
        for (const section of sections) {
            const view = section.data();
            fs.writeSync(fd, new Uint8Array(view.buffer, view.byteOffset, view.byteLength), 0, view.byteLength, header.sections[section.name][0]);
        }
    });
    return performance.now() - started;
}
const align = (n) => (n + 3) & ~3;
/**
 * Writes the index atomically: a private temporary file, then a hard link to the final name, which fails when
 * another process got there first (the loser keeps the winner's file). Where hard links are not allowed, an atomic
 * rename (same content either way).
 */
export function publish(file, write) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    const fd = fs.openSync(temp, "w");
    try {
        write(fd);
        fs.fsyncSync(fd);
    }
    catch (error) {
        fs.closeSync(fd);
        fs.rmSync(temp, { force: true });
        throw error;
    }
    fs.closeSync(fd);
    try {
        fs.linkSync(temp, file);
    }
    catch (error) {
        const code = error.code;
        if (code !== "EEXIST") {
            fs.renameSync(temp, file);
            return;
        }
        // EEXIST: a finished index of the same content is already there, unless it is an unreadable leftover.
        if (!readIndex(file, true)) {
            fs.renameSync(temp, file);
            return;
        }
    }
    fs.rmSync(temp, { force: true });
}
