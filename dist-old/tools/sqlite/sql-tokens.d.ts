/** Splits SQL into tokens; never throws (unterminated strings and comments run to the end). */
/**
 * @param {string} sql
 * @returns {Array<{ type: string, text: string, lower: string }>}
 */
export function tokenizeSql(sql: string): Array<{
    type: string;
    text: string;
    lower: string;
}>;
