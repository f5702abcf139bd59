import { createHash } from "node:crypto";
import { readSchema, showIdent } from "../../tools/schema.js";
import { resultsMatch } from "../../tools/benchmarks/score.js";
import { tokenizeSql } from "../../tools/sql-tokens.js";
/** A prompt's fingerprint (sha256 of its messages), to tell a retry that would send the same prompt again. */
export const promptHash = (messages) => createHash("sha256").update(JSON.stringify(messages)).digest("hex");
/** The database's structure (no rows): described tables and their CREATE statements. */
export async function schemaFacts(deps, state) {
    const schema = await readSchema(state.dbPath, { descriptionDir: state.descriptionDir || undefined, executor: deps.executor });
    const ddl = new Map();
    const result = await deps.executor.run(state.dbPath, "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL", { timeoutMs: 10_000 });
    if (result.ok)
        for (const [name, sql] of result.rows)
            ddl.set(String(name), String(sql));
    return { schema, ddl };
}
/**
 * The tables a test case needs: those the linking found, those the candidate SQL names, and the tables their
 * foreign keys point to (rows must have parents). All tables when nothing points anywhere.
 */
export function relevantTables(schema, linking, sql) {
    const byLower = new Map(schema.tables.map((t) => [t.name.toLowerCase(), t.name]));
    const picked = new Set();
    for (const c of linking?.columns ?? [])
        if (byLower.has(c.table.toLowerCase()))
            picked.add(byLower.get(c.table.toLowerCase()));
    for (const v of linking?.values ?? [])
        if (byLower.has(v.table.toLowerCase()))
            picked.add(byLower.get(v.table.toLowerCase()));
    for (const token of sql ? safeTokens(sql) : []) {
        const name = token.replace(/^["`[]|["`\]]$/g, "").toLowerCase();
        if (byLower.has(name))
            picked.add(byLower.get(name));
    }
    if (!picked.size)
        return schema.tables.map((t) => t.name);
    const queue = [...picked];
    while (queue.length) {
        // Popped once, outside the search: a pop inside `find`'s callback emptied the queue on the first table.
        const name = queue.pop();
        const table = schema.tables.find((t) => t.name === name);
        for (const fk of table?.foreignKeys ?? []) {
            const parent = byLower.get(fk.refTable.toLowerCase());
            if (parent && !picked.has(parent)) {
                picked.add(parent);
                queue.push(parent);
            }
        }
    }
    return schema.tables.map((t) => t.name).filter((n) => picked.has(n));
}
function safeTokens(sql) {
    try {
        return tokenizeSql(sql).map((t) => t.text);
    }
    catch {
        return sql.split(/[^A-Za-z0-9_"`[\]]+/);
    }
}
export function foreignKeyLines(schema, tables) {
    return schema.tables
        .filter((t) => tables.includes(t.name))
        .flatMap((t) => t.foreignKeys.map((fk) => `${showIdent(t.name)}(${fk.columns.map(showIdent).join(", ")}) -> ${showIdent(fk.refTable)}(${fk.refColumns.map(showIdent).join(", ")})`))
        .join("\n");
}
/** CREATE statements of some tables: structure only, never a value. */
export function ddlText(facts, tables) {
    return tables.map((t) => facts.ddl.get(t) ?? `CREATE TABLE ${showIdent(t)} (...)`).join("\n\n");
}
/** A cell as a JSON scalar (64-bit integers beyond 2^53 as strings, blobs as hex). */
export function jsonCell(value) {
    if (typeof value === "bigint")
        return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
    if (value instanceof Uint8Array)
        return Buffer.from(value).toString("hex");
    return value;
}
export const toTestResult = (columns, rows) => ({ columns, rows: rows.map((r) => r.map(jsonCell)) });
/**
 * Floats computed in JavaScript and in SQLite may differ in the last bits (summation order); both sides are rounded
 * to 10 significant digits before the shared scorer compares them. Booleans count as SQLite's 1 and 0.
 */
function comparable(rows) {
    return rows.map((row) => row.map((v) => {
        if (typeof v === "boolean")
            return v ? 1 : 0;
        if (typeof v === "number" && !Number.isInteger(v))
            return Number(v.toPrecision(10));
        return v;
    }));
}
/** Whether test code sorts (`.sort(` / `.toSorted(` outside comments and strings): its row order is then deliberate. */
export function codeOrders(code) {
    const bare = code
        .replace(/\/\*[\s\S]*?\*\//g, " ")
        .replace(/\/\/[^\n]*/g, " ")
        .replace(/(["'`])(?:\\.|(?!\1)[^\\])*\1/g, '""');
    return /\.\s*(sort|toSorted)\s*\(/.test(bare);
}
/** Wording that asks for an order of the rows ("in descending order", "sorted by", "alphabetically", "from highest to"). */
const ORDER_WORDS = /\b(?:in\s+(?:\w+\s+){0,2}order|order(?:ed)?\s+(?:them\s+)?by|sort(?:ed)?|ascending(?:ly)?|descending(?:ly)?|alphabetical(?:ly)?|from\s+(?:the\s+)?(?:highest|lowest|largest|smallest|most|least|biggest|oldest|youngest|newest|latest|earliest|best|worst)\s+to)\b/i;
export const questionOrders = (question) => ORDER_WORDS.test(question);
/** Whether an SQL orders its rows: a top-level ORDER BY whose LIMIT is not 1 (one row has no order). */
export function sqlOrders(sql) {
    const tokens = safeTokenize(sql);
    if (!tokens)
        return false;
    let depth = 0;
    const top = [];
    for (const t of tokens) {
        if (t.type === "punct" && t.text === "(")
            depth++;
        else if (t.type === "punct" && t.text === ")")
            depth--;
        else if (depth === 0 && t.type !== "ws" && t.type !== "comment")
            top.push(t);
    }
    const order = top.findIndex((t, i) => t.lower === "order" && top[i + 1]?.lower === "by");
    if (order < 0)
        return false;
    const limit = top.findIndex((t, i) => i > order && t.lower === "limit");
    // `LIMIT 1` (or `LIMIT 1 OFFSET n`), not `LIMIT 1, n` (SQLite's offset, count).
    const limitOne = limit >= 0 && top[limit + 1]?.lower === "1" && top[limit + 2]?.text !== ",";
    return !limitOne;
}
/**
 * The comparison of one test run: ordered when order is asked for (`questionOrders`, `sqlOrders`) and the test code
 * sorts; a multiset otherwise, and always for a predicted result (no code).
 */
export const comparisonOf = (testCode, kind, asked) => kind === "code" && testCode && codeOrders(testCode.code) && (questionOrders(asked.question) || sqlOrders(asked.sql)) ? "ordered" : "multiset";
/** The SQL's result against the expected one: Spider's multiset comparison (column order free), ordered when asked. */
export function matchesExpected(sqlRows, expected, comparison = "multiset") {
    return resultsMatch(comparable(sqlRows), comparable(expected.rows), "spider", { orderMatters: comparison === "ordered" });
}
/**
 * No answer at all: no rows, or only NULLs (an aggregate over no matching rows returns one row of NULL). Test data
 * on which the question's answer is that says nothing about the SQL, so non-duality and inspection both refuse it.
 */
export const isEmptyAnswer = (rows) => rows.every((row) => row.every((v) => v === null));
/** The scratch-database executor, or why this run has none. */
export function scratchOf(executor) {
    const candidate = executor;
    return typeof candidate.runScratch === "function" ? candidate : undefined;
}
export { codersOf } from "./options.js";
export const coderLabel = (model) => model || "coder";
/** BIRD's column descriptions of some tables (documentation, not rows), a line each. */
export function descriptionLines(schema, tables) {
    return schema.tables
        .filter((t) => tables.includes(t.name))
        .flatMap((t) => t.columns
        .filter((c) => c.description || c.valueDescription)
        .map((c) => `- ${t.name}.${c.name}: ${[c.description, c.valueDescription].filter(Boolean).join("; ")}`))
        .join("\n");
}
/**
 * Variants of the candidate that differ from it in one way a test compares: DISTINCT toggled on the outer SELECT, the
 * outer LIMIT dropped, the outer ORDER BY's directions flipped. When the candidate and a variant disagree on the real
 * database, the test data must tell them apart too — whichever of the two is right (non-duality in the paper's sense:
 * one result per reading of the question). Never used to make the candidate's own answer non-empty.
 */
export function sqlVariants(sql) {
    const tokens = safeTokenize(sql);
    if (!tokens)
        return [];
    let depth = 0;
    const top = []; // indexes of depth-0 words
    tokens.forEach((t, i) => {
        if (t.type === "punct" && t.text === "(")
            depth++;
        else if (t.type === "punct" && t.text === ")")
            depth--;
        else if (depth === 0 && t.type === "word")
            top.push(i);
    });
    const text = (parts) => parts.join("").trim();
    const at = (word) => top.find((i) => tokens[i].lower === word);
    const out = [];
    const select = at("select");
    if (select !== undefined) {
        const next = top.find((i) => i > select);
        const parts = tokens.map((t) => t.text);
        if (next !== undefined && tokens[next].lower === "distinct" && tokens.slice(select + 1, next).every((t) => t.type === "ws" || t.type === "comment"))
            parts[next] = "";
        else
            parts[select] = `${tokens[select].text} DISTINCT`;
        out.push({ kind: "distinct", sql: text(parts) });
    }
    const limit = [...top].reverse().find((i) => tokens[i].lower === "limit");
    if (limit !== undefined)
        out.push({ kind: "limit", sql: text(tokens.slice(0, limit).map((t) => t.text)).replace(/;\s*$/, "") });
    const order = top.find((i) => tokens[i].lower === "order" && tokens[top[top.indexOf(i) + 1] ?? -1]?.lower === "by");
    if (order !== undefined) {
        const end = top.find((i) => i > order && ["limit", "offset"].includes(tokens[i].lower)) ?? tokens.length;
        const directions = top.filter((i) => i > order && i < end && ["asc", "desc"].includes(tokens[i].lower));
        const parts = tokens.map((t) => t.text);
        if (directions.length)
            for (const i of directions)
                parts[i] = tokens[i].lower === "asc" ? "DESC" : "ASC";
        else {
            // No direction written: the first key becomes DESC (before the first top-level comma, or the clause's end).
            let d = 0;
            let cut = end;
            for (let i = order + 1; i < end; i++) {
                const t = tokens[i];
                if (t.type === "punct" && t.text === "(")
                    d++;
                else if (t.type === "punct" && t.text === ")")
                    d--;
                else if (d === 0 && t.type === "punct" && (t.text === "," || t.text === ";")) {
                    cut = i;
                    break;
                }
            }
            let last = cut - 1;
            while (last > order && (tokens[last].type === "ws" || tokens[last].type === "comment"))
                last--;
            parts[last] = `${parts[last]} DESC`;
        }
        out.push({ kind: "order", sql: text(parts) });
    }
    return out;
}
function safeTokenize(sql) {
    try {
        return tokenizeSql(sql);
    }
    catch {
        return undefined;
    }
}
/** What the data agent is told when its rows cannot tell a variant from the candidate (never the SQL itself). */
export const VARIANT_GAPS = {
    distinct: "in the real database the answer repeats rows (the same values more than once), but in the test data it does not: add rows that give the same answer values twice, so keeping or dropping duplicates shows",
    limit: "in the real database more rows satisfy the question than a top-N answer keeps, but in the test data they do not: add more rows that satisfy every condition, so the cut matters",
    order: "in the real database the answer's order depends on the sort direction, but in the test data it does not: give the qualifying rows different values in what the question ranks by",
};
