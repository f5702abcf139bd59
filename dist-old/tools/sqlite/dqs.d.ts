/**
 * Rewrites each "value" token (a double-quoted identifier SQLite could not resolve) as 'value'.
 * @param {string} sql @param {string} value @returns {string}
 */
export function singleQuoteLiteral(sql: string, value: string): string;
/**
 * The rewritten statement for an error that names a double-quoted literal, or undefined when there is nothing to do.
 * @param {string} sql @param {string} message @returns {string | undefined}
 */
export function rewriteForHint(sql: string, message: string): string | undefined;
export const DQS_HINT: RegExp;
export const MAX_DQS_FIXES: 16;
