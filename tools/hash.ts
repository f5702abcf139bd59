import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

let loaded: typeof import("node:crypto") | undefined;

/** node:crypto on first use: loading it costs ~10 ms of start-up, which a command that never hashes should not pay. */
export const lazyCrypto = (): typeof import("node:crypto") =>
  (loaded ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto"));

/**
 * A 64-bit FNV-1a of a string's UTF-16 units, as 16 hex digits: for cache file names, where loading node:crypto
 * would cost more than the whole lookup. Not for anything an adversary chooses; callers verify what they read.
 */
export function quickHash(text: string): string {
  // Two 32-bit lanes of FNV-1a with different offsets make up the 64 bits.
  let a = 0x811c9dc5;
  let b = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/** The sha256 of a file's bytes, in hex (throws when it cannot be read). */
export function sha256OfFile(file: string): string {
  return lazyCrypto().createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** A small seeded generator (mulberry32) of numbers in [0, 1): the same seed, the same sequence (bootstraps, sample orders, stand-ins). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
