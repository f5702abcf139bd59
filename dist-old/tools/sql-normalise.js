import { tokenizeSql } from "./sql-tokens.js";
const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]*$/;
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
export function normaliseSql(sql, identifiers) {
    const parts = [];
    for (const token of tokenizeSql(sql)) {
        if (token.type === "ws" || token.type === "comment")
            continue;
        if (token.type === "qident") {
            const inner = unquote(token.text);
            const identifier = !token.text.startsWith('"') || (inner !== undefined && !!identifiers?.has(inner.toLowerCase()));
            parts.push(identifier && inner !== undefined && PLAIN_IDENTIFIER.test(inner) ? inner.toLowerCase() : token.text);
            continue;
        }
        parts.push(token.type === "word" ? token.lower : token.text);
    }
    while (parts.at(-1) === ";")
        parts.pop();
    return parts.join(" ");
}
/** True when two SQL strings differ only in what `normaliseSql` erases (`identifiers`: the schema's names). */
export const sameSql = (a, b, identifiers) => normaliseSql(a, identifiers) === normaliseSql(b, identifiers);
/** The names a double-quoted token may resolve to, lower-cased: every table and column of the schema. */
export const schemaIdentifiers = (tables) => new Set(tables.flatMap((t) => [t.name, ...t.columns.map((c) => c.name)]).map((name) => name.toLowerCase()));
function unquote(text) {
    const open = text[0];
    const close = open === "[" ? "]" : open;
    if (text.length < 2 || text.at(-1) !== close)
        return undefined;
    const inner = text.slice(1, -1);
    return open === "[" ? inner : inner.split(`${open}${open}`).join(open);
}
