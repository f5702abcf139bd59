import { cosine, embedRecorded } from "../models/embeddings.js";
import { firstLineOf } from "../../core/errors.js";
import { readSchema, tokens } from "../schema.js";
import { normalize, normalizedEditDistance, STOPWORDS } from "./text.js";
import { openValueIndex } from "./value-index.js";
export const VALUES_PER_KEYWORD = 5;
/** Lexically ranked candidates per keyword that embeddings re-rank. */
const CANDIDATES_PER_KEYWORD = 20;
const COLUMNS_PER_KEYWORD = 3;
const MAX_COLUMNS = 40;
/** Lexical column score needed to count as linked. */
const LEXICAL_COLUMN_MIN = 0.5;
/** Cosine below which a column is not linked, whatever its rank (drops nonsense when nothing fits). */
const EMBEDDING_COLUMN_MIN = 0.3;
export const MAX_KEYWORDS = 40;
/** Keywords cleaned: trimmed, at most 100 characters, no bare stopwords, no duplicates (case-insensitive), at most 40. */
export function cleanKeywords(keywords) {
    const seen = new Set();
    const out = [];
    for (const raw of keywords) {
        const keyword = raw.replace(/\s+/g, " ").trim().replace(/^["'`]+|["'`]+$/g, "").trim();
        const key = normalize(keyword);
        if (!key || keyword.length > 100 || STOPWORDS.has(key) || seen.has(key))
            continue;
        seen.add(key);
        out.push(keyword);
        if (out.length >= MAX_KEYWORDS)
            break;
    }
    return out;
}
/**
 * Keywords without a model: quoted phrases, dates, numbers, runs of capitalised words, and the other content words
 * of the question and evidence. The fallback when the linker's reply is unusable, and `sqlmend link --no-model`.
 */
export function lexicalKeywords(question, evidence = "") {
    const text = `${question}\n${evidence}`;
    const found = [];
    for (const m of text.matchAll(/["“‘`]([^"”’`\n]{2,60})["”’`]|(?:^|\s)'([^'\n]{2,60})'/g))
        found.push(m[1] ?? m[2]);
    for (const m of text.matchAll(/\b(?:\d{4}[-/]\d{1,2}[-/]\d{1,2}|[A-Z][a-z]+\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}|\d{1,2} [A-Z][a-z]+ \d{4})\b/g))
        found.push(m[0]);
    for (const m of text.matchAll(/(?<![\w.-])[-+]?\d+(?:,\d{3})*(?:\.\d+)?(?![\w-])/g))
        found.push(m[0]);
    for (const line of text.split(/\n/)) {
        for (const m of line.matchAll(/(?<!^|[.?!]\s)\b[A-Z][\p{L}\d'&-]*(?:\s+(?:of\s+|de\s+|the\s+)?[A-Z][\p{L}\d'&-]*)*/gu))
            found.push(m[0]);
    }
    for (const word of text.split(/[^\p{L}\p{N}_'-]+/u))
        if (word.length >= 3 && !/^\d+$/.test(word) && !STOPWORDS.has(word.toLowerCase()))
            found.push(word);
    return cleanKeywords(found);
}
function columnsOf(schema) {
    return schema.tables.flatMap((t) => t.columns.map((c) => {
        const readable = c.name.replace(/_/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2");
        const description = [c.description, c.valueDescription].filter(Boolean).join("; ");
        return { table: t.name, column: c.name, nameText: `${t.name} ${readable}`, ...(description ? { descriptionText: `${readable}: ${description}` } : {}) };
    }));
}
/** Words that never carry a column's meaning (a column may well be called "name" or "number", so fewer than STOPWORDS). */
const FILLER = new Set(["a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "with", "and", "or", "is", "are", "was", "were", "what", "which", "who", "how", "many", "much"]);
/**
 * How well a keyword names a column, lexically: its words shared with the column's name (a word shared with the
 * table's name counts half), or a near spelling of the name; or its words found in the column's description.
 */
function lexicalColumnScore(keyword, ref) {
    const wanted = new Set(tokens(keyword).filter((t) => !FILLER.has(t)));
    if (!wanted.size)
        return { score: 0, via: "name" };
    const name = new Set(tokens(ref.column));
    const table = new Set(tokens(ref.table));
    let shared = 0;
    for (const t of wanted)
        shared += name.has(t) ? 1 : table.has(t) ? 0.5 : 0;
    let nameScore = shared / Math.max(wanted.size, name.size);
    const squashed = (s) => normalize(s).replace(/[\s_]+/g, "");
    const distance = normalizedEditDistance(squashed(keyword), squashed(ref.column), 0.3);
    if (distance <= 0.3)
        nameScore = Math.max(nameScore, 1 - distance);
    let descriptionScore = 0;
    if (ref.descriptionText) {
        const content = [...wanted].filter((t) => !STOPWORDS.has(t));
        const described = new Set(tokens(ref.descriptionText));
        const hits = content.filter((t) => described.has(t)).length;
        descriptionScore = content.length ? (0.8 * hits) / content.length : 0;
    }
    return nameScore >= descriptionScore ? { score: nameScore, via: "name" } : { score: descriptionScore, via: "description" };
}
/** Links keywords to values and columns of one database. Never throws for an unreadable database: it says so in `note`. */
export async function linkKeywords(keywordsIn, opts) {
    const keywords = cleanKeywords(keywordsIn);
    const notes = [];
    const records = [];
    // Value candidates per keyword, lexically ranked.
    const candidates = new Map();
    const schemaHits = new Map();
    let indexInfo;
    try {
        const index = await openValueIndex(opts.dbPath, { dataDir: opts.dataDir });
        indexInfo = { file: index.file, reused: index.reused, ...index.stats };
        for (const keyword of keywords) {
            const matches = index.lookup(keyword);
            candidates.set(keyword, matches.filter((m) => m.kind === "value").slice(0, CANDIDATES_PER_KEYWORD));
            schemaHits.set(keyword, matches.filter((m) => m.kind === "column"));
        }
    }
    catch (error) {
        notes.push(`value index: ${firstLineOf(error)}`);
    }
    let columns = [];
    try {
        columns = columnsOf(await readSchema(opts.dbPath, { descriptionDir: opts.descriptionDir || undefined, executor: opts.executor, sampleValues: 0 }));
    }
    catch (error) {
        notes.push(`schema: ${firstLineOf(error)}`);
    }
    // Embeddings: one request for the keywords, the candidate values and the column texts (all cached on disk).
    let vectorOf;
    if (opts.embeddings && keywords.length) {
        const texts = [
            ...new Set([
                ...keywords,
                ...[...candidates.values()].flat().map((m) => m.value),
                ...columns.flatMap((c) => (c.descriptionText ? [c.nameText, c.descriptionText] : [c.nameText])),
            ]),
        ];
        const outcome = await embedRecorded(opts.embeddings, texts);
        // A failure's record too: a failed call, or the fallback the user allowed.
        records.push(...outcome.records);
        if (outcome.ok) {
            const byText = new Map(texts.map((t, i) => [t, outcome.vectors[i]]));
            vectorOf = (text) => byText.get(text) ?? [];
        }
        else
            notes.push(outcome.note);
    }
    else if (!opts.embeddings)
        notes.push("no embedding model configured; ranked lexically");
    const values = [];
    for (const keyword of keywords) {
        const list = candidates.get(keyword) ?? [];
        // Embeddings re-rank; an exact match (distance 0) stays first, since no paraphrase beats the stored spelling.
        const scored = list.map((m) => ({ m, score: vectorOf ? cosine(vectorOf(keyword), vectorOf(m.value)) + (m.distance === 0 ? 1 : 0) : m.score }));
        scored.sort((a, b) => b.score - a.score || a.m.value.length - b.m.value.length);
        for (const { m, score } of scored.slice(0, VALUES_PER_KEYWORD)) {
            values.push({ keyword, table: m.table, column: m.column, value: m.value, score: round(vectorOf ? Math.min(score, 1) : score), distance: round(m.distance) });
        }
    }
    const linked = new Map();
    const offer = (column) => {
        const key = `${column.table}\u0000${column.column}`;
        const previous = linked.get(key);
        if (!previous || previous.score < column.score)
            linked.set(key, { ...column, score: round(column.score) });
    };
    for (const keyword of keywords) {
        const ranked = columns.map((ref) => {
            const lexical = lexicalColumnScore(keyword, ref);
            if (!vectorOf)
                return { ref, ...lexical };
            const byName = cosine(vectorOf(keyword), vectorOf(ref.nameText));
            const byDescription = ref.descriptionText ? cosine(vectorOf(keyword), vectorOf(ref.descriptionText)) : 0;
            // An exact name match is linked whatever the embedding says.
            if (lexical.via === "name" && lexical.score >= 1)
                return { ref, score: 1, via: "name" };
            return byName >= byDescription ? { ref, score: byName, via: "name" } : { ref, score: byDescription, via: "description" };
        });
        ranked.sort((a, b) => b.score - a.score);
        const floor = vectorOf ? EMBEDDING_COLUMN_MIN : LEXICAL_COLUMN_MIN;
        for (const { ref, score, via } of ranked.slice(0, COLUMNS_PER_KEYWORD)) {
            if (score >= floor)
                offer({ table: ref.table, column: ref.column, score, via, keyword });
        }
        // Column names found by the index (Memo-SQL indexes schema names with the values).
        for (const hit of schemaHits.get(keyword) ?? [])
            offer({ table: hit.table, column: hit.column, score: hit.score, via: "name", keyword });
    }
    for (const v of values)
        offer({ table: v.table, column: v.column, score: v.score, via: "value", keyword: v.keyword });
    const linking = {
        keywords,
        columns: [...linked.values()].sort((a, b) => b.score - a.score).slice(0, MAX_COLUMNS),
        values,
        ranking: vectorOf ? "embeddings" : "lexical",
        ...(notes.length ? { note: notes.join("; ") } : {}),
    };
    return { linking, records, ...(indexInfo ? { index: indexInfo } : {}) };
}
const round = (n) => Math.round(n * 1000) / 1000;
