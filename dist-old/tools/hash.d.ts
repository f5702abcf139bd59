/** node:crypto on first use: loading it costs ~10 ms of start-up, which a command that never hashes should not pay. */
export declare const lazyCrypto: () => typeof import("node:crypto");
/**
 * A 64-bit FNV-1a of a string's UTF-16 units, as 16 hex digits: for cache file names, where loading node:crypto
 * would cost more than the whole lookup. Not for anything an adversary chooses; callers verify what they read.
 */
export declare function quickHash(text: string): string;
/** The sha256 of a file's bytes, in hex (throws when it cannot be read). */
export declare function sha256OfFile(file: string): string;
