/**
 * Model replies are untrusted text. These helpers pull SQL or JSON out of them, or say why they can't.
 */
/** Drops reasoning preambles: `<think>…</think>`, and a dangling `…</think>` whose opening tag a server stripped. */
export declare function stripThinking(text: string): string;
/** Last fenced block, preferring ```sql blocks; else the reply itself when it reads as bare SQL. */
export declare function extractSql(reply: string): string | null;
/** The last balanced top-level JSON object or array in a reply (fenced or not), parsed. */
export declare function extractJson(reply: string): {
    ok: true;
    value: unknown;
} | {
    ok: false;
    error: string;
};
