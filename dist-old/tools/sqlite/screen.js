/**
 * Screening of untrusted statements by their text, before they reach a worker: the first keyword (SELECT, WITH or
 * VALUES only), one statement, no load_extension. The worker screens again by SQLite's own verdict (stmt.readonly,
 * stmt.reader) on a read-only, query_only connection (./worker.js), so this is the cheap first refusal, not the only one.
 */
const ONLY = "only a single read-only SELECT/WITH/VALUES statement is allowed";
const WRITES = new Set([
    "INSERT", "UPDATE", "DELETE", "REPLACE", "UPSERT", "CREATE", "DROP", "ALTER", "REINDEX", "ANALYZE",
]);
const TRANSACTION = new Set(["BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE"]);
/** /\s/ without a regex for the common characters (scan() looks at every character). */
const isSpaceCode = (c) => c === 32 || c === 10 || c === 9 || c === 13 || ((c > 126 || c < 32) && /\s/.test(String.fromCharCode(c)));
/** Characters scan() treats one by one; runs of any others are skipped at once once the first keyword is known. */
const PLAIN_RUN = /[^\s;'"`[\-/]+/y;
/** Walks the text once, skipping string literals, quoted identifiers and comments. */
function scan(sql) {
    let keyword = "";
    let several = false;
    let afterSemicolon = false;
    // The text outside '...' literals and comments, kept only when load_extension appears at all (rare).
    const keepCode = /load_extension/i.test(sql);
    const code = [];
    let i = 0;
    const n = sql.length;
    while (i < n) {
        const c = sql.charCodeAt(i);
        const next = sql.charCodeAt(i + 1);
        if (c === 45 /* - */ && next === 45) {
            const end = sql.indexOf("\n", i);
            i = end < 0 ? n : end + 1;
            if (keepCode)
                code.push(" ");
            continue;
        }
        if (c === 47 /* / */ && next === 42 /* * */) {
            const end = sql.indexOf("*/", i + 2);
            i = end < 0 ? n : end + 2;
            if (keepCode)
                code.push(" ");
            continue;
        }
        if (isSpaceCode(c)) {
            if (keepCode)
                code.push(" ");
            i++;
            continue;
        }
        if (afterSemicolon && c !== 59 /* ; */)
            several = true;
        if (c === 59) {
            afterSemicolon = true;
            if (keepCode)
                code.push(" ");
            i++;
            continue;
        }
        if (c === 39 /* ' */ || c === 34 /* " */ || c === 96 /* ` */ || c === 91 /* [ */) {
            const close = c === 91 ? "]" : sql[i];
            let j = i + 1;
            for (;;) {
                const k = sql.indexOf(close, j);
                if (k < 0) {
                    j = n;
                    break;
                }
                // A doubled quote is an escaped quote (not for [...]).
                if (close !== "]" && sql[k + 1] === close) {
                    j = k + 2;
                    continue;
                }
                j = k + 1;
                break;
            }
            // Quoted identifiers stay in `code`: "load_extension"(...) is still a call.
            if (keepCode)
                code.push(c === 39 ? " '' " : sql.slice(i, j));
            i = j;
            continue;
        }
        if (!keyword) {
            const m = /^[A-Za-z_]+/.exec(sql.slice(i, i + 32));
            keyword = m ? m[0].toUpperCase() : sql[i]; // a statement starting with punctuation, e.g. "("
        }
        if (keepCode) {
            code.push(sql[i]);
            i++;
            continue;
        }
        // Names, numbers and operators: nothing in them changes the verdict.
        PLAIN_RUN.lastIndex = i;
        i = PLAIN_RUN.test(sql) ? PLAIN_RUN.lastIndex : i + 1;
    }
    return { keyword, several, loadExtension: keepCode && /load_extension/i.test(code.join("")) };
}
/** Why the text is refused, or null when it may go to SQLite for the final verdict. */
export function screenStatement(sql) {
    const { keyword, several, loadExtension } = scan(sql);
    if (!keyword)
        return `no SQL statement given; ${ONLY}`;
    if (keyword !== "SELECT" && keyword !== "WITH" && keyword !== "VALUES") {
        if (WRITES.has(keyword))
            return `${keyword} writes to the database; ${ONLY}`;
        if (keyword === "VACUUM")
            return `VACUUM rewrites the database or writes a copy (VACUUM INTO); ${ONLY}`;
        if (keyword === "ATTACH" || keyword === "DETACH")
            return `${keyword} opens or closes other database files; ${ONLY}`;
        if (keyword === "PRAGMA")
            return `PRAGMA can change the connection or the database; ${ONLY}`;
        if (TRANSACTION.has(keyword))
            return `${keyword} is transaction control; ${ONLY}`;
        if (/^[A-Z_]+$/.test(keyword))
            return `${keyword} is not a query; ${ONLY}`;
        return `the statement does not start with SELECT, WITH or VALUES; ${ONLY}`;
    }
    if (several)
        return `several statements in one string; ${ONLY}`;
    if (loadExtension)
        return `load_extension() would load native code; ${ONLY}`;
    return null;
}
