/** A lossless SQL tokenizer (tools/sqlite/sql-tokens.js, plain JavaScript so worker processes share it), typed. */
import { tokenizeSql as tokenize } from "./sqlite/sql-tokens.js";

export type SqlTokenType = "ws" | "comment" | "string" | "qident" | "number" | "word" | "param" | "punct";
export interface SqlToken {
  type: SqlTokenType;
  text: string;
  /** Lower-cased text for words, the text otherwise. */
  lower: string;
}

/** Splits SQL into tokens; never throws (unterminated strings and comments run to the end). */
export const tokenizeSql = tokenize as (sql: string) => SqlToken[];
