/**
 * SQL in a canonical spelling, for "is this the same query?" (R³'s consensus): white space and comments collapse,
 * words (keywords and identifiers, both case-insensitive in SQLite) are lower-cased, quoting is dropped from
 * identifiers that need none, trailing semicolons go. String literals are kept exactly. Never throws.
 *
 * A double-quoted token is an identifier only when `identifiers` (the schema's table and column names, any case) holds
 * it: SQLite reads `"France"` as a string literal when no column has that name, so its case is the answer's. Without
 * `identifiers` every double-quoted token is kept as written (a needless difference costs a round; a wrong "same"
 * would throw a real fix away). Backticks and brackets always quote identifiers.
 */
export declare function normaliseSql(sql: string, identifiers?: ReadonlySet<string>): string;
/** True when two SQL strings differ only in what `normaliseSql` erases (`identifiers`: the schema's names). */
export declare const sameSql: (a: string, b: string, identifiers?: ReadonlySet<string>) => boolean;
/** The names a double-quoted token may resolve to, lower-cased: every table and column of the schema. */
export declare const schemaIdentifiers: (tables: {
    name: string;
    columns: {
        name: string;
    }[];
}[]) => Set<string>;
