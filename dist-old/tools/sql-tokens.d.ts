export type SqlTokenType = "ws" | "comment" | "string" | "qident" | "number" | "word" | "param" | "punct";
export interface SqlToken {
    type: SqlTokenType;
    text: string;
    /** Lower-cased text for words, the text otherwise. */
    lower: string;
}
/** Splits SQL into tokens; never throws (unterminated strings and comments run to the end). */
export declare const tokenizeSql: (sql: string) => SqlToken[];
