/**
 * The skeleton of a SQL query: its structure without the parts that tie it to one question and one database.
 * Memo-SQL retrieves memory entries and exemplars by question + skeleton (§3.1, §3.4.1, §3.5.1).
 *
 * - Literals (strings, numbers, parameters) become `?`: values say nothing about the query's shape.
 * - Identifiers (tables, columns, aliases, quoted names) become `_` by default, and `T1.col` becomes one `_`. The
 *   memory is built on training databases and queried for others (BIRD train → dev, or → Spider), so names rarely
 *   coincide; kept, they would make the key match the database instead of the error's shape. The question half of
 *   the key already carries the domain. Type names that are also common column names (date, text) count as names.
 *   `{ identifiers: "keep" }` keeps names (lower-cased) for same-database use.
 * - Keywords are upper-cased, function names lower-cased (kept: COUNT vs SUM vs strftime is structure), comments
 *   dropped, whitespace collapsed.
 */
export interface SkeletonOptions {
    identifiers?: "mask" | "keep";
}
export declare function sqlSkeleton(sql: string, options?: SkeletonOptions): string;
