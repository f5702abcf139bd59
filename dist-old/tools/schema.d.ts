import type { SqlExecutor } from "./sqlite/types.ts";
import type { Linking } from "../state/linking.ts";
export type SampleValue = string | number;
export interface ColumnSchema {
    name: string;
    /** Declared type as written in CREATE TABLE ("" when none). */
    type: string;
    /** Member of the table's primary key. */
    primaryKey: boolean;
    notNull: boolean;
    /** A few distinct non-null values (text cut to 100 characters; blobs left out). */
    samples: SampleValue[];
    /** From BIRD's database_description CSV. */
    description?: string;
    valueDescription?: string;
}
export interface ForeignKeySchema {
    columns: string[];
    /** The referenced table, spelled as in its CREATE TABLE when it exists. */
    refTable: string;
    /** The referenced columns (the referenced table's primary key when the FK names none). */
    refColumns: string[];
}
export interface TableSchema {
    name: string;
    columns: ColumnSchema[];
    /** Primary key columns in key order. */
    primaryKey: string[];
    foreignKeys: ForeignKeySchema[];
}
export interface DbSchema {
    /** Absolute path of the database file. */
    path: string;
    tables: TableSchema[];
}
export interface ReadSchemaOptions {
    /**
     * Folder of BIRD `<table>.csv` description files. Default: `database_description` next to the
     * database file, when it exists.
     */
    descriptionDir?: string;
    /** Distinct sample values per column. Default 3; 0 skips them. */
    sampleValues?: number;
    executor?: SqlExecutor;
    /** Time limit of each sample-value query. Default 2000 ms. */
    sampleTimeoutMs?: number;
}
/** Always-quoted identifier, for the queries we send. */
export declare const quoteIdent: (name: string) => string;
/** String literal. */
export declare const quoteText: (text: string) => string;
/** Identifier quoted only when it needs to be, for prompts. */
export declare function showIdent(name: string): string;
/** RFC 4180 with leniency: quoted fields may hold commas, quotes ("") and newlines; blank lines are skipped. */
export declare function parseCsv(text: string): string[][];
/** UTF-8 (with or without BOM), UTF-16 with BOM, else Windows-1252 / latin-1. */
export declare function decodeText(bytes: Uint8Array): string;
/**
 * Describes a SQLite database. Results are cached by path, modification time and size.
 * Throws (one-line message) when the file is missing or not a readable database.
 */
export declare function readSchema(dbPath: string, opts?: ReadSchemaOptions): Promise<DbSchema>;
export interface RenderOptions {
    /** With evidence, decides which tables and columns are most relevant under a budget. */
    question?: string;
    evidence?: string;
    /** Size budget in characters; omitted parts are counted in a trailing comment. */
    maxChars?: number;
    /** Show sample values. Default true. */
    sampleValues?: boolean;
    /**
     * What linking found (slot `link`): its columns rank first under the budget (kept longest), and the stored values
     * that matched the question are shown beside their columns.
     */
    linking?: Pick<Linking, "columns" | "values"> | null;
}
/** Lower-case word tokens; camelCase and snake_case split; plurals folded. */
export declare function tokens(textIn: string): string[];
/**
 * CREATE TABLE text for prompts. Without maxChars everything is shown. With it, parts are dropped
 * in this order until the text fits: sample values, then descriptions, of columns unrelated to the
 * question; unrelated non-key columns; unrelated tables; then the same for related ones, least
 * related first. Primary and foreign keys of the tables shown are always kept.
 */
export declare function renderSchema(schema: DbSchema, opts?: RenderOptions): string;
