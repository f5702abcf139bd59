/** Where a JSON text first goes wrong, as a line and column a user can look up. */
/** Offset of the first JSON syntax error in text (text.length for a premature end), or -1 if valid. */
export declare function jsonErrorOffset(text: string): number;
/** "not valid JSON at line 3, column 8 (unexpected 'S')" for a parse failure. */
export declare function describeJsonError(text: string): string;
