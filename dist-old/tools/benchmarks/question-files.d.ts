import type { z } from "zod";
import type { SpiderHardness } from "./hardness.ts";
export interface SpiderItem {
    db_id: string;
    question: string;
    query: string;
    /** Spider's hardness of the gold query (computed once, then cached with the item). */
    hardness?: SpiderHardness;
}
export interface BirdItem {
    question_id?: number | string | undefined;
    db_id: string;
    question: string;
    evidence?: string | null | undefined;
    SQL: string;
    difficulty?: string | null | undefined;
}
declare const schemas: () => Promise<{
    z: typeof z;
    spider: z.ZodType<SpiderItem>;
    bird: z.ZodType<BirdItem>;
} | {
    z: typeof z;
    spider: z.ZodObject<{
        db_id: z.ZodString;
        question: z.ZodString;
        query: z.ZodString;
    }, z.core.$loose>;
    bird: z.ZodObject<{
        question_id: z.ZodOptional<z.ZodUnion<readonly [z.ZodNumber, z.ZodString]>>;
        db_id: z.ZodString;
        question: z.ZodString;
        evidence: z.ZodOptional<z.ZodNullable<z.ZodString>>;
        SQL: z.ZodString;
        difficulty: z.ZodOptional<z.ZodNullable<z.ZodString>>;
    }, z.core.$loose>;
}>;
/**
 * The items of a benchmark file, parsed and validated, through a cache in `cacheDir` (when given) keyed by the file's
 * path, size and mtime and this reader's version: Spider's dev.json is 3.6 MB of which a scorer needs a tenth, and its
 * hardness levels take as long again to compute. The cache holds only what the file says; what depends on other files
 * (which databases exist) is checked on every load. The file name is a quick hash of the key, and the file repeats
 * the key, so a clash of names reads as a miss.
 */
export declare function readItems<T>(file: string, cacheDir: string | undefined, read: () => Promise<T[]>): Promise<T[]>;
/** A text file's contents without a UTF-8 byte-order mark; an unreadable file is a one-line UserError. */
export declare function readTextFile(file: string): Promise<string>;
export declare function readJsonArray<T>(file: string, pick: (s: Awaited<ReturnType<typeof schemas>>) => z.ZodType<T>): Promise<T[]>;
/** One question as any supported file gives it (Spider, BIRD or own format), before databases are looked up. */
export interface AnyItem {
    id?: string;
    db_id: string;
    question: string;
    gold?: string;
    evidence?: string;
    difficulty?: string;
}
/**
 * A question file in any supported format, checked (one-line UserError naming file, item or line, and field):
 * `.jsonl` (an object a line), `.csv` (a header row), otherwise a JSON array. Field names: `question` (Spider-Syn's
 * `SpiderSynQuestion` too), `db_id`, gold as `gold`, `query` (Spider) or `SQL` (BIRD), `evidence`, `difficulty`,
 * id as `id` or `question_id`. Empty optional cells (CSV) count as absent.
 */
export declare function readAnyQuestions(file: string): Promise<AnyItem[]>;
export {};
