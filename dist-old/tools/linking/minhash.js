/**
 * MinHash signatures over character n-grams (padded at both ends), folded into LSH band hashes. Two families: 3-grams
 * for every key, and 2-grams for short words, whose typos leave few 3-grams in common ("Frnace" and "France" share
 * none; their padded 2-grams meet with probability 0.9). Deterministic (fixed seeds), so an index
 * written by one process is read by another. Written here rather than taken from npm: the one package that exists
 * (`minhash`, 2019 code) draws its permutations from Math.random, so signatures cannot be stored and reread, has no
 * types, and works on arrays of boxed numbers — too slow for a million values.
 */
export const SHINGLE = 3;
/** Rows per band: two minimums must agree for two strings to become candidates. */
export const ROWS = 2;
/** Bands: with 2 rows, strings of 3-gram Jaccard 0.5 meet with probability 0.97, of 0.25 with 0.54. */
export const BANDS = 12;
/** The short-word family: keys of at most SHORT_MAX characters, 2-grams, SHORT_BANDS bands of 2 rows. */
export const SHORT_MAX = 8;
export const SHORT_SHINGLE = 2;
export const SHORT_BANDS = 10;
const PERMUTATIONS = ROWS * Math.max(BANDS, SHORT_BANDS);
const SEEDS = (() => {
    const seeds = new Uint32Array(PERMUTATIONS);
    let x = 0x9e3779b9;
    for (let i = 0; i < PERMUTATIONS; i++) {
        x = fmix32((x + 0x6d2b79f5) >>> 0);
        seeds[i] = x;
    }
    return seeds;
})();
/** MurmurHash3's finaliser: a cheap, well-mixing 32-bit permutation. */
export function fmix32(h) {
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h >>> 0;
}
/** FNV-1a of a whole string, finalised: the exact-match index's key. */
export function textHash(text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++)
        h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return fmix32(h >>> 0);
}
const shingleHashes = new Uint32Array(4096);
const minimums = new Uint32Array(PERMUTATIONS);
/**
 * The `bands` band hashes of a (normalised) string's `shingle`-grams, written to `out` at `out[offset + band * stride]`.
 */
export function bandHashes(raw, out, offset = 0, stride = 1, shingle = SHINGLE, bands = BANDS) {
    // Padded, so the first and last letters weigh as much as the middle ones (short words need it).
    const text = `\u0002${raw}\u0003`;
    let count = 0;
    const last = Math.max(1, text.length - shingle + 1);
    for (let start = 0; start < last && count < shingleHashes.length; start++) {
        // FNV-1a over the shingle's UTF-16 units.
        let h = 0x811c9dc5;
        const end = Math.min(text.length, start + shingle);
        for (let i = start; i < end; i++)
            h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
        shingleHashes[count++] = h >>> 0;
    }
    minimums.fill(0xffffffff);
    for (let p = 0; p < bands * ROWS; p++) {
        const seed = SEEDS[p];
        let min = 0xffffffff;
        for (let s = 0; s < count; s++) {
            const v = fmix32(shingleHashes[s] ^ seed);
            if (v < min)
                min = v;
        }
        minimums[p] = min;
    }
    for (let band = 0; band < bands; band++) {
        let h = Math.imul(band + 1, 0x9e3779b1);
        for (let r = 0; r < ROWS; r++)
            h = fmix32((h ^ minimums[band * ROWS + r]) >>> 0);
        out[offset + band * stride] = h;
    }
}
