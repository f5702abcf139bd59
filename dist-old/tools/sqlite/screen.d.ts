/**
 * Screening of untrusted statements by their text, before they reach a worker: the first keyword (SELECT, WITH or
 * VALUES only), one statement, no load_extension. The worker screens again by SQLite's own verdict (stmt.readonly,
 * stmt.reader) on a read-only, query_only connection (./worker.js), so this is the cheap first refusal, not the only one.
 */
/** Why the text is refused, or null when it may go to SQLite for the final verdict. */
export declare function screenStatement(sql: string): string | null;
