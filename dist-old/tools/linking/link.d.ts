/**
 * Schema and value linking for a question's keywords: the stored values they name (value index lookup, normalised
 * edit distance ≤ 0.3, top 5 per keyword) and the columns they point to (by name, by BIRD description, and through
 * the values found). Ranked by embedding similarity when an embedder is given and answers, lexically otherwise; the
 * result says which, and why when it fell back.
 */
import type { Linking } from "../../state/linking.ts";
import type { ModelCallRecord } from "../../state/usage.ts";
import { type Embedder } from "../models/embeddings.ts";
import type { SqlExecutor } from "../sqlite/types.ts";
export declare const VALUES_PER_KEYWORD = 5;
export declare const MAX_KEYWORDS = 40;
export interface LinkOptions {
    dbPath: string;
    descriptionDir?: string;
    executor?: SqlExecutor;
    embeddings?: Embedder;
    /** Where value indexes live (default: the data directory). */
    dataDir?: string;
}
export interface LinkResult {
    linking: Linking;
    /** Embedding requests made (role `embedder`), for the node's calls and usage. */
    records: ModelCallRecord[];
    /** The value index used: its file, whether it was reused or built now, its size. */
    index?: {
        file: string;
        reused: boolean;
        entries: number;
        keys: number;
        bytes: number;
        buildMs?: number;
    };
}
/** Keywords cleaned: trimmed, at most 100 characters, no bare stopwords, no duplicates (case-insensitive), at most 40. */
export declare function cleanKeywords(keywords: string[]): string[];
/**
 * Keywords without a model: quoted phrases, dates, numbers, runs of capitalised words, and the other content words
 * of the question and evidence. The fallback when the linker's reply is unusable, and `sqlmend link --no-model`.
 */
export declare function lexicalKeywords(question: string, evidence?: string): string[];
/** Links keywords to values and columns of one database. Never throws for an unreadable database: it says so in `note`. */
export declare function linkKeywords(keywordsIn: string[], opts: LinkOptions): Promise<LinkResult>;
