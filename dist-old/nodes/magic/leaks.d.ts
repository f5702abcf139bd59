/**
 * Keeping the gold answer away from the correction agent (MAGIC §3.2), judged by meaning rather than characters.
 * Text and SQL are compared as token keys in `normaliseSql`'s spelling (tools/sql-normalise.ts: whitespace and
 * comments gone, words lower-cased, quoting dropped, a trailing semicolon ignored) and, further, with string literals
 * lower-cased and table aliases erased (`T1.name` → `name`, `AS T1` dropped), so a re-spaced, re-cased or re-aliased
 * copy is the same query. A text gives the gold away when it holds the whole gold query, or any run of
 * `LEAK_RUN` consecutive gold tokens that the reader is not shown anyway (`shown`: the SQL under correction, s').
 * Quotes of s' inside the text are never judged nor redacted: when s' already contains the gold (s' = gold +
 * `LIMIT 1`), redacting inside it would point at exactly what to delete.
 */
/** Consecutive gold tokens that count as a copy of it (after normalisation): long enough to be more than a clause. */
export declare const LEAK_RUN = 8;
/**
 * Spans of `text` that give `sql` away: the whole query, or a run of `LEAK_RUN` of its tokens not found in any of
 * `shown`; never inside a quote of one of `shown`.
 */
export declare function sqlSpans(text: string, sql: string, shown?: readonly string[]): Array<[number, number]>;
export declare const containsSql: (text: string, sql: string, shown?: readonly string[]) => boolean;
export declare const REDACTED = "[correct SQL withheld]";
/** `text` with every span that gives `sql` away replaced by a marker (quotes of `shown` left whole). */
export declare function redactSql(text: string, sql: string, shown?: readonly string[]): string;
/**
 * Does `text` give away a row of the gold result? A row counts as given away when every one of its cells appears in
 * the text as a whole word. Cells shorter than two characters (a count of 3, a flag of 1) match too much ordinary
 * text to be evidence on their own, so a row made only of those is never flagged: a known blind spot. Cells the
 * reader is shown anyway (`known`: the question, evidence, incorrect SQL, feedback) give nothing away: a row made
 * only of those is not flagged either, so instructions may say "filter on 'Lecturer'" when the evidence does.
 */
export declare function leakedRow(text: string, rows: ReadonlyArray<ReadonlyArray<unknown>>, known?: string): ReadonlyArray<unknown> | undefined;
