/** Longer values (free text) are left out: a keyword does not name them. */
export declare const MAX_VALUE_CHARS = 200;
/** Normalised edit distance allowed between a keyword and a value (TS-SQL's threshold). */
export declare const MAX_DISTANCE = 0.3;
export type EntryKind = "value" | "table" | "column";
export interface ValueMatch {
    kind: EntryKind;
    table: string;
    /** "" for a table name. */
    column: string;
    /** The stored value (or the table / column name). */
    value: string;
    /** Normalised edit distance between what was looked up and what matched (a word of the value, or all of it). */
    distance: number;
    /** 1 - distance, less a little when only a word of the value (or of the keyword) matched. */
    score: number;
}
export interface IndexStats {
    entries: number;
    keys: number;
    columns: number;
    bytes: number;
    /** Build time, when this process built it. */
    buildMs?: number;
}
interface Header {
    format: number;
    bands: number;
    source: string;
    sha256: string;
    builtAt: string;
    columns: Array<[string, string]>;
    entries: number;
    keys: number;
    sections: Record<string, [number, number]>;
}
export declare class ValueIndex {
    private readonly buffer;
    /** The index file. */
    readonly file: string;
    /** True when an existing file was read, false when this call built it. */
    readonly reused: boolean;
    private readonly columns;
    private readonly entryText;
    private readonly entryColumn;
    private readonly entryKind;
    private readonly keyText;
    private readonly postingStart;
    private readonly postings;
    private readonly bandHash;
    private readonly bandKey;
    private readonly exactHash;
    private readonly keyLength;
    private readonly exactKey;
    private readonly seen;
    private stamp;
    private readonly shortHash;
    private readonly shortKey;
    private readonly queryBands;
    constructor(buffer: Buffer, header: Header, 
    /** The index file. */
    file: string, 
    /** True when an existing file was read, false when this call built it. */
    reused: boolean, buildMs?: number);
    readonly stats: IndexStats;
    private text;
    /**
     * Stored values and schema names near a keyword: LSH candidates, kept when their normalised edit distance is at
     * most `maxDistance` (numbers and dates must match exactly), best first. The keyword is also looked up as an ISO date when it
     * is written as one ("March 4, 2015"), and word by word when it has several words.
     */
    lookup(keyword: string, opts?: {
        maxDistance?: number;
        limit?: number;
    }): ValueMatch[];
    /** Records the entries of a matching key with their score (kept when better than what an entry had). */
    private offer;
    /** The best entries, decoded. */
    private matches;
    /** Keys whose whole-text hash equals the text's (then compared in full by the caller). */
    private exact;
    /** Keys sharing at least one band bucket with the text: 3-gram bands, and 2-gram bands for a short word. */
    private candidates;
    private collect;
}
/** SHA-256 of a file's bytes, remembered per path, size and modification time. */
export declare function contentHash(file: string): Promise<string>;
/** Where the index of a database with this content lives. */
export declare const indexFileFor: (sha256: string, dir: string) => string;
export interface OpenIndexOptions {
    /** The data directory (default $SQLMEND_HOME or ./.sqlmend). */
    dataDir?: string;
}
/**
 * The value index of a database file: read from the data directory when one was built for the same content, else
 * built now (in-process callers share one build). Throws (one line) when the database cannot be read.
 */
export declare function openValueIndex(dbPath: string, opts?: OpenIndexOptions): Promise<ValueIndex>;
/** Forgets the indexes this process has open (tests; a long-lived process that wants memory back). */
export declare function closeValueIndexes(): void;
/**
 * Writes the index atomically: a private temporary file, then a hard link to the final name, which fails when
 * another process got there first (the loser keeps the winner's file). Where hard links are not allowed, an atomic
 * rename (same content either way).
 */
export declare function publish(file: string, write: (fd: number) => void): void;
export {};
