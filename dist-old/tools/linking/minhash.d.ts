/**
 * MinHash signatures over character n-grams (padded at both ends), folded into LSH band hashes. Two families: 3-grams
 * for every key, and 2-grams for short words, whose typos leave few 3-grams in common ("Frnace" and "France" share
 * none; their padded 2-grams meet with probability 0.9). Deterministic (fixed seeds), so an index
 * written by one process is read by another. Written here rather than taken from npm: the one package that exists
 * (`minhash`, 2019 code) draws its permutations from Math.random, so signatures cannot be stored and reread, has no
 * types, and works on arrays of boxed numbers — too slow for a million values.
 */
export declare const SHINGLE = 3;
/** Rows per band: two minimums must agree for two strings to become candidates. */
export declare const ROWS = 2;
/** Bands: with 2 rows, strings of 3-gram Jaccard 0.5 meet with probability 0.97, of 0.25 with 0.54. */
export declare const BANDS = 12;
/** The short-word family: keys of at most SHORT_MAX characters, 2-grams, SHORT_BANDS bands of 2 rows. */
export declare const SHORT_MAX = 8;
export declare const SHORT_SHINGLE = 2;
export declare const SHORT_BANDS = 10;
/** MurmurHash3's finaliser: a cheap, well-mixing 32-bit permutation. */
export declare function fmix32(h: number): number;
/** FNV-1a of a whole string, finalised: the exact-match index's key. */
export declare function textHash(text: string): number;
/**
 * The `bands` band hashes of a (normalised) string's `shingle`-grams, written to `out` at `out[offset + band * stride]`.
 */
export declare function bandHashes(raw: string, out: Uint32Array, offset?: number, stride?: number, shingle?: number, bands?: number): void;
