/**
 * A lossless SQL tokenizer: joining every token's text gives the input back. Never throws. Plain JavaScript so the
 * executor's worker processes (./worker.js) use it under plain node; typed for TypeScript by tools/sql-tokens.ts.
 */
const MULTI_PUNCT = ["||", "<=", ">=", "<>", "!=", "==", "<<", ">>", "->>", "->"];
/** Splits SQL into tokens; never throws (unterminated strings and comments run to the end). */
/**
 * @param {string} sql
 * @returns {Array<{ type: string, text: string, lower: string }>}
 */
export function tokenizeSql(sql) {
    /** @type {Array<{ type: string, text: string, lower: string }>} */
    const out = [];
    const n = sql.length;
    let i = 0;
    const push = (/** @type {string} */ type, /** @type {number} */ end) => {
        const text = sql.slice(i, end);
        out.push({ type, text, lower: type === "word" ? text.toLowerCase() : text });
        i = end;
    };
    const until = (/** @type {string} */ close, /** @type {number} */ from, /** @type {boolean} */ doubled) => {
        let j = from;
        for (;;) {
            const k = sql.indexOf(close, j);
            if (k < 0)
                return n;
            if (doubled && sql[k + 1] === close) {
                j = k + 2;
                continue;
            }
            return k + 1;
        }
    };
    while (i < n) {
        const c = sql[i];
        if (/\s/.test(c)) {
            let j = i + 1;
            while (j < n && /\s/.test(sql[j]))
                j++;
            push("ws", j);
        }
        else if (c === "-" && sql[i + 1] === "-") {
            const k = sql.indexOf("\n", i);
            push("comment", k < 0 ? n : k);
        }
        else if (c === "/" && sql[i + 1] === "*") {
            const k = sql.indexOf("*/", i + 2);
            push("comment", k < 0 ? n : k + 2);
        }
        else if (c === "'") {
            push("string", until("'", i + 1, true));
        }
        else if (c === '"') {
            push("qident", until('"', i + 1, true));
        }
        else if (c === "`") {
            push("qident", until("`", i + 1, true));
        }
        else if (c === "[") {
            const k = sql.indexOf("]", i + 1);
            push("qident", k < 0 ? n : k + 1);
        }
        else if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(sql[i + 1] ?? ""))) {
            const m = /^(0[xX][0-9a-fA-F]+|[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+\.(?:[eE][+-]?[0-9]+)?)/.exec(sql.slice(i, i + 400));
            push("number", i + (m?.[0].length || 1));
        }
        else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
            let j = i + 1;
            while (j < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[j]))
                j++;
            push("word", j);
        }
        else if ((c === "?" || c === ":" || c === "@" || c === "$") && /[A-Za-z0-9_]/.test(sql[i + 1] ?? "")) {
            let j = i + 1;
            while (j < n && /[A-Za-z0-9_]/.test(sql[j]))
                j++;
            push("param", j);
        }
        else {
            const op = MULTI_PUNCT.find((p) => sql.startsWith(p, i));
            push("punct", i + (op?.length ?? 1));
        }
    }
    return out;
}
