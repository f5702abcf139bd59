import { cosine, embedRecorded } from "../models/embeddings.js";
const tokenize = (text) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
/** Okapi BM25 over the examples, indexed once (term postings, document lengths) and queried many times. */
export class Bm25Index {
    k1;
    b;
    postings = new Map();
    lengths;
    averageLength;
    constructor(texts, k1 = 1.2, b = 0.75) {
        this.k1 = k1;
        this.b = b;
        this.lengths = new Float64Array(texts.length);
        texts.forEach((text, doc) => {
            const counts = new Map();
            const terms = tokenize(text);
            this.lengths[doc] = terms.length;
            for (const term of terms)
                counts.set(term, (counts.get(term) ?? 0) + 1);
            for (const [term, tf] of counts) {
                let list = this.postings.get(term);
                if (!list)
                    this.postings.set(term, (list = []));
                list.push([doc, tf]);
            }
        });
        this.averageLength = texts.length ? this.lengths.reduce((a, b) => a + b, 0) / texts.length || 1 : 1;
    }
    /** Scores of the documents sharing a term with the query, best first (ties: earlier document first). */
    search(query) {
        const n = this.lengths.length;
        const scores = new Map();
        for (const term of new Set(tokenize(query))) {
            const list = this.postings.get(term);
            if (!list)
                continue;
            const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
            for (const [doc, tf] of list) {
                const norm = tf + this.k1 * (1 - this.b + (this.b * this.lengths[doc]) / this.averageLength);
                scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (this.k1 + 1)) / norm);
            }
        }
        return [...scores].sort((x, y) => y[1] - x[1] || x[0] - y[0]);
    }
}
export function createExampleStore(questions, leftOut) {
    const examples = questions
        .filter((q) => q.goldSql)
        .map((q) => ({ id: q.id, dbId: q.dbId, question: q.question, evidence: q.evidence, sql: q.goldSql }));
    return storeOf(examples, undefined, leftOut?.count ? leftOut : undefined);
}
function storeOf(examples, embedder, leftOut) {
    const texts = examples.map((e) => `${e.question} ${e.evidence}`.trim());
    let bm25;
    let vectors;
    const lexical = (text, k, excludeIds) => {
        bm25 ??= new Bm25Index(texts);
        const out = [];
        for (const [doc] of bm25.search(text)) {
            const example = examples[doc];
            if (excludeIds.includes(example.id))
                continue;
            out.push(example);
            if (out.length >= k)
                break;
        }
        return out;
    };
    const store = {
        size: examples.length,
        ...(leftOut ? { leftOut } : {}),
        all: () => examples,
        withEmbeddings: (next) => storeOf(examples, next, leftOut),
        async similar(text, k, excludeIds = []) {
            return (await store.similarRanked(text, k, excludeIds)).examples;
        },
        async similarRanked(text, k, excludeIds = []) {
            if (!examples.length || k <= 0)
                return { examples: [], ranking: embedder ? "embeddings" : "lexical", records: [] };
            if (!embedder)
                return { examples: lexical(text, k, excludeIds), ranking: "lexical", records: [] };
            // The examples' vectors once per store (a failure is retried by the next question, after the embedder's pause).
            const pending = (vectors ??= embedRecorded(embedder, texts));
            const documents = await pending;
            // A failure's record goes to every question that fell back for it (a failed call fails each of them).
            if (!documents.ok) {
                vectors = undefined;
                return { examples: lexical(text, k, excludeIds), ranking: "lexical", note: documents.note, records: [...documents.records] };
            }
            const query = await embedRecorded(embedder, [text]);
            if (!query.ok)
                return { examples: lexical(text, k, excludeIds), ranking: "lexical", note: query.note, records: query.records };
            // The documents' own records go to the first question that paid for them.
            const records = [...documents.records.splice(0), ...query.records];
            const q = query.vectors[0];
            const ranked = documents.vectors
                .map((v, doc) => [doc, cosine(q, v)])
                .filter(([doc]) => !excludeIds.includes(examples[doc].id))
                .sort((x, y) => y[1] - x[1] || x[0] - y[0])
                .slice(0, k)
                .map(([doc]) => examples[doc]);
            return { examples: ranked, ranking: "embeddings", records };
        },
    };
    return store;
}
