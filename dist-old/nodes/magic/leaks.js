import { tokenizeSql } from "../../tools/sql-tokens.js";
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
export const LEAK_RUN = 8;
const unquote = (text) => {
    const first = text[0];
    if (first === "[")
        return text.slice(1, -1);
    if (first === '"' || first === "'" || first === "`")
        return text.slice(1, text.endsWith(first) && text.length > 1 ? -1 : undefined);
    return text;
};
/** Comparable tokens of any text (prose included), with their spans in the original. */
function keyedTokens(text) {
    const out = [];
    let at = 0;
    // Backticks are inline-code marks in prose more often than identifier quotes: read them as spaces (same length).
    for (const token of tokenizeSql(text.replace(/`/g, " "))) {
        const start = at;
        at += token.text.length;
        if (token.type === "ws" || token.type === "comment")
            continue;
        // Quoting is ignored: "name", [name] and name are one identifier; 'London' and "London" one value.
        const key = token.type === "string" || token.type === "qident" ? unquote(token.text).toLowerCase() : token.text.toLowerCase();
        out.push({ key, name: token.type === "word" || token.type === "qident", start, end: at });
    }
    return out;
}
/** Aliases erased: a qualifier `x.` before a name and `AS x` go (both sides alike, so only the spelling is lost). */
function canonical(tokens) {
    const out = [];
    for (let i = 0; i < tokens.length; i++) {
        const t = tokens[i];
        if (t.name && tokens[i + 1]?.key === "." && tokens[i + 2]?.name) {
            i++;
            continue;
        }
        if (t.key === "as" && tokens[i + 1]?.name) {
            i++;
            continue;
        }
        out.push(t);
    }
    return out;
}
function sqlKeys(sql) {
    const keys = canonical(keyedTokens(sql)).map((t) => t.key);
    while (keys.length && keys.at(-1) === ";")
        keys.pop();
    return keys;
}
/** Start indices of `needle` in `hay`. */
function occurrences(hay, needle) {
    const found = [];
    if (!needle.length)
        return found;
    for (let i = 0; i + needle.length <= hay.length; i++) {
        let j = 0;
        while (j < needle.length && hay[i + j] === needle[j])
            j++;
        if (j === needle.length)
            found.push(i);
    }
    return found;
}
const windowsOf = (keys, n) => {
    const out = new Set();
    for (let i = 0; i + n <= keys.length; i++)
        out.add(keys.slice(i, i + n).join("\u0001"));
    return out;
};
/**
 * Spans of `text` that give `sql` away: the whole query, or a run of `LEAK_RUN` of its tokens not found in any of
 * `shown`; never inside a quote of one of `shown`.
 */
export function sqlSpans(text, sql, shown = []) {
    const needle = sqlKeys(sql);
    if (!needle.length)
        return [];
    const hay = canonical(keyedTokens(text));
    const keys = hay.map((t) => t.key);
    const quoted = new Array(hay.length).fill(false);
    for (const s of shown) {
        const sKeys = sqlKeys(s);
        for (const i of occurrences(keys, sKeys))
            quoted.fill(true, i, i + sKeys.length);
    }
    const ranges = [];
    const add = (a, b) => {
        for (let k = a; k < b; k++)
            if (!quoted[k])
                return void ranges.push([a, b]);
    };
    for (const i of occurrences(keys, needle))
        add(i, i + needle.length);
    if (needle.length > LEAK_RUN) {
        const known = new Set(shown.flatMap((s) => [...windowsOf(sqlKeys(s), LEAK_RUN)]));
        const gold = windowsOf(needle, LEAK_RUN);
        for (let i = 0; i + LEAK_RUN <= keys.length; i++) {
            const w = keys.slice(i, i + LEAK_RUN).join("\u0001");
            if (gold.has(w) && !known.has(w))
                add(i, i + LEAK_RUN);
        }
    }
    ranges.sort((x, y) => x[0] - y[0]);
    const merged = [];
    for (const r of ranges) {
        const last = merged.at(-1);
        if (last && r[0] <= last[1])
            last[1] = Math.max(last[1], r[1]);
        else
            merged.push([...r]);
    }
    return merged.map(([a, b]) => [hay[a].start, hay[b - 1].end]);
}
export const containsSql = (text, sql, shown = []) => sqlSpans(text, sql, shown).length > 0;
export const REDACTED = "[correct SQL withheld]";
/** `text` with every span that gives `sql` away replaced by a marker (quotes of `shown` left whole). */
export function redactSql(text, sql, shown = []) {
    let out = text;
    for (const [start, end] of sqlSpans(text, sql, shown).reverse())
        out = `${out.slice(0, start)}${REDACTED}${out.slice(end)}`;
    return out;
}
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const hasWord = (lowerText, cell) => new RegExp(`(^|[^\\p{L}\\p{N}_.])${escape(cell)}($|[^\\p{L}\\p{N}_])`, "u").test(lowerText);
/**
 * Does `text` give away a row of the gold result? A row counts as given away when every one of its cells appears in
 * the text as a whole word. Cells shorter than two characters (a count of 3, a flag of 1) match too much ordinary
 * text to be evidence on their own, so a row made only of those is never flagged: a known blind spot. Cells the
 * reader is shown anyway (`known`: the question, evidence, incorrect SQL, feedback) give nothing away: a row made
 * only of those is not flagged either, so instructions may say "filter on 'Lecturer'" when the evidence does.
 */
export function leakedRow(text, rows, known = "") {
    const lower = text.toLowerCase();
    const knownLower = known.toLowerCase();
    for (const row of rows) {
        const cells = row.filter((c) => c !== null && c !== undefined).map((c) => (c instanceof Uint8Array ? "" : String(c).toLowerCase().trim()));
        if (!cells.length || cells.every((c) => c.length < 2))
            continue;
        if (cells.every((c) => c !== "" && hasWord(knownLower, c)))
            continue;
        if (cells.every((c) => c !== "" && hasWord(lower, c)))
            return row;
    }
    return undefined;
}
