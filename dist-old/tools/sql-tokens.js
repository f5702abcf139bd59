/** A lossless SQL tokenizer (tools/sqlite/sql-tokens.js, plain JavaScript so worker processes share it), typed. */
import { tokenizeSql as tokenize } from "./sqlite/sql-tokens.js";
/** Splits SQL into tokens; never throws (unterminated strings and comments run to the end). */
export const tokenizeSql = tokenize;
