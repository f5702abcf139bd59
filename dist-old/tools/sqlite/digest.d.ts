/**
 * Whether the predicted result matches the gold result: resultsMatch's verdict (compare.js), from digests made with
 * the same semantics and orderMatters. Neither may be tooLarge.
 */
/**
 * @param {ResultDigest} pred @param {ResultDigest} gold @param {"bird" | "spider"} semantics
 * @param {{ orderMatters?: boolean }} [opts]
 * @returns {boolean}
 */
export function digestsMatch(pred: ResultDigest, gold: ResultDigest, semantics: "bird" | "spider", opts?: {
    orderMatters?: boolean;
}): boolean;
/** A stable hash equal for two results iff they match under bird semantics (set of row tuples). */
/** @param {Row[]} rows @returns {string} */
export function resultFingerprint(rows: Row[]): string;
/** @typedef {import("./types.ts").Row} Row */
/** Rows per side at most (8 bytes of hash each, 16 with Spider's row checks); past it the verdict is "too large". */
export const MAX_COMPARE_ROWS: 5000000;
/** Cells (rows × columns) per side at most where Spider's column-permutation rule needs a hash of every cell. */
export const MAX_PERMUTATION_CELLS: 4000000;
/**
 * @typedef {object} DigestNeeds
 * @property {"bird" | "spider"} semantics
 * @property {boolean} [orderMatters]
 * @property {boolean} [fingerprint] also keep what resultFingerprint needs (BIRD's set of rows)
 * @property {number | null} [maxRows] a lower row cap than MAX_COMPARE_ROWS (a tighter memory budget; tests)
 * @property {boolean} [unbounded] no cap (rows already held in memory: resultFingerprint)
 */
/** One side's result folded row by row: add() each row (false: past the cap, stop reading). */
export class ResultDigest {
    /** @param {number} ncols @param {DigestNeeds} needs */
    constructor(ncols: number, needs: DigestNeeds);
    ncols: number;
    rows: number;
    /** @type {string | undefined} why the side was not read to its end */
    tooLarge: string | undefined;
    maxRows: number;
    /** rowKey hashes: BIRD's set of rows, and the fingerprint. */
    rowHashes: HashList | null;
    /** unorderedRowKey hashes, in row order (Spider's quick rejection, and its ordered rule). */
    unordered: HashList | null;
    /** Per-column cell hashes (Spider, unordered: the column bags and the permutation search). */
    cells: HashList[] | null;
    /** Per-column sequence hashes: identical column vectors (two words per column). */
    vectors: Uint32Array<ArrayBuffer> | null;
    capReason: string;
    /** @param {Row} row @returns {boolean} */
    add(row: Row): boolean;
    /** The side is read: its lists keep no spare room (the other side is read next, with this one held). */
    seal(): void;
    distinctRows(): Uint32Array<ArrayBufferLike>;
    /** Equal for two results iff they match under bird semantics (set of row tuples); see resultFingerprint. */
    fingerprint(): any;
    /** Column vectors as comparable strings. */
    vectorKeys(): string[];
    #private;
}
export type Row = import("./types.ts").Row;
export type DigestNeeds = {
    semantics: "bird" | "spider";
    orderMatters?: boolean | undefined;
    /**
     * also keep what resultFingerprint needs (BIRD's set of rows)
     */
    fingerprint?: boolean | undefined;
    /**
     * a lower row cap than MAX_COMPARE_ROWS (a tighter memory budget; tests)
     */
    maxRows?: number | null | undefined;
    /**
     * no cap (rows already held in memory: resultFingerprint)
     */
    unbounded?: boolean | undefined;
};
/**
 * A growing list of 64-bit hashes (two Uint32 words each: low, high). Small lists grow by copying and are never
 * viewed through their `.buffer` (V8 keeps small typed arrays on its heap; asking for the buffer moves them out, a
 * cost per list that showed in scoring many small results); a large one moves to a resizable ArrayBuffer reserved for
 * `max` entries, which grows in place (no copies, no garbage: only the pages written count toward the resident size).
 */
declare class HashList {
    /** @param {number} max entries at most (Infinity: grow by copying only) */
    constructor(max: number);
    max: number;
    words: Uint32Array<ArrayBuffer>;
    n: number;
    /** @type {(ArrayBuffer & { resize(n: number): void, maxByteLength: number }) | null} */
    resizable: (ArrayBuffer & {
        resize(n: number): void;
        maxByteLength: number;
    }) | null;
    /** @param {number} h1 @param {number} h2 */
    push(h1: number, h2: number): void;
    grow(): void;
    /** Gives back the room grown for rows that never came. */
    trim(): void;
    /** The words of the first n entries (a view on a large list, a copy of a small one: see the class). */
    pairs(): Uint32Array<ArrayBuffer>;
}
export {};
