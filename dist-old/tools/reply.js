/**
 * Model replies are untrusted text. These helpers pull SQL or JSON out of them, or say why they can't.
 */
/** Drops reasoning preambles: `<think>…</think>`, and a dangling `…</think>` whose opening tag a server stripped. */
export function stripThinking(text) {
    let out = text.replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, "");
    const close = out.search(/<\/think(?:ing)?>/i);
    if (close >= 0)
        out = out.slice(out.indexOf(">", close) + 1);
    // An unclosed <think> means the reply was cut off inside its reasoning: nothing usable follows it.
    const open = out.search(/<think(?:ing)?>/i);
    if (open >= 0)
        out = out.slice(0, open);
    return out.trim();
}
const FENCE = /```([A-Za-z0-9_-]*)[^\S\n]*\n([\s\S]*?)```/g;
const SQL_START = /^\s*(WITH|SELECT|VALUES)\b/i;
/** Last fenced block, preferring ```sql blocks; else the reply itself when it reads as bare SQL. */
export function extractSql(reply) {
    const text = stripThinking(reply);
    const blocks = [...text.matchAll(FENCE)].map((m) => ({ lang: (m[1] ?? "").toLowerCase(), body: (m[2] ?? "").trim() }));
    const sqlBlocks = blocks.filter((b) => b.lang === "sql" || b.lang === "sqlite");
    const pick = (sqlBlocks.length ? sqlBlocks : blocks.filter((b) => b.lang === "" && SQL_START.test(b.body))).at(-1);
    if (pick)
        return cleanSql(pick.body);
    // An unterminated ```sql fence (reply cut at max tokens): take what follows it.
    const open = text.match(/```(?:sql|sqlite)\s*\n([\s\S]*)$/i);
    if (open?.[1] && SQL_START.test(open[1]))
        return cleanSql(open[1]);
    // Bare SQL: from the last line that starts a query to the end (or a blank line followed by prose). Other fenced
    // blocks (a PoT reply's ```python program) are code, never part of the query: each becomes a blank line.
    const lines = text.replace(FENCE, "\n\n").split("\n");
    for (let i = lines.length - 1; i >= 0; i--) {
        if (SQL_START.test(lines[i] ?? "")) {
            let end = lines.length;
            for (let j = i + 1; j < lines.length; j++) {
                if ((lines[j] ?? "").trim() === "" && j + 1 < lines.length && /^[A-Z][a-z]/.test(lines[j + 1]?.trim() ?? "")) {
                    end = j;
                    break;
                }
            }
            // Walk back to the first line of this statement: earlier WITH/SELECT lines belong to it when contiguous.
            let start = i;
            while (start > 0 && (lines[start - 1] ?? "").trim() !== "" && !/[.:]\s*$/.test(lines[start - 1] ?? ""))
                start--;
            const candidate = lines.slice(start, end).join("\n");
            // The statement starts at its first line that opens a query; lines of prose glued above it are dropped.
            const from = candidate.search(/^\s*(WITH|SELECT|VALUES)\b/im);
            return cleanSql(candidate.slice(Math.max(0, from)));
        }
    }
    return null;
}
function cleanSql(sql) {
    const out = sql
        .replace(/^\s*sql\s*\n/i, "")
        .trim()
        .replace(/;+\s*$/, "")
        .trim();
    return out.length ? out : null;
}
/** The last balanced top-level JSON object or array in a reply (fenced or not), parsed. */
export function extractJson(reply) {
    const text = stripThinking(reply);
    const fenced = [...text.matchAll(FENCE)].map((m) => (m[2] ?? "").trim()).filter((b) => /^[[{]/.test(b));
    for (const block of fenced.reverse()) {
        try {
            return { ok: true, value: JSON.parse(block) };
        }
        catch {
            // fall through to the scanner
        }
    }
    const candidates = balancedSpans(text);
    for (const span of candidates.reverse()) {
        try {
            return { ok: true, value: JSON.parse(span) };
        }
        catch {
            // try the next one
        }
    }
    return { ok: false, error: candidates.length ? "reply holds no valid JSON object" : "reply holds no JSON object" };
}
function balancedSpans(text) {
    const spans = [];
    let depth = 0;
    let start = -1;
    let inString = false;
    let escaped = false;
    for (let i = 0; i < text.length; i++) {
        const ch = text[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (ch === "\\")
                escaped = true;
            else if (ch === '"')
                inString = false;
            continue;
        }
        if (ch === '"' && depth > 0)
            inString = true;
        else if (ch === "{" || ch === "[") {
            if (depth === 0)
                start = i;
            depth++;
        }
        else if ((ch === "}" || ch === "]") && depth > 0) {
            depth--;
            if (depth === 0 && start >= 0)
                spans.push(text.slice(start, i + 1));
        }
    }
    return spans;
}
