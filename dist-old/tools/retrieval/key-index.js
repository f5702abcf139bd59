import { cosine } from "../models/embeddings.js";
/** The text an embedder sees for a key. */
export const keyText = (key) => `${key.question}\n${key.skeleton}`;
const STOP = new Set("a an the of to in on for and or is are was were be by with what which who how many much list give show me all that this those these do does did from as at".split(" "));
/** Index terms of a key: question words (q:), skeleton tokens (s:) and skeleton bigrams (b:) for structure. */
export function keyTerms(key) {
    const words = key.question.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
    const terms = words.filter((w) => !STOP.has(w)).map((w) => `q:${w}`);
    const sk = key.skeleton.match(/[A-Za-z_]+|\?|[^\sA-Za-z_?]+/g) ?? [];
    for (let i = 0; i < sk.length; i++) {
        terms.push(`s:${sk[i]}`);
        if (i + 1 < sk.length)
            terms.push(`b:${sk[i]} ${sk[i + 1]}`);
    }
    return terms;
}
const K1 = 1.2;
const B = 0.75;
export class LexicalKeyIndex {
    postings = new Map();
    lengths = [];
    totalLength = 0;
    scores = new Float64Array(1024);
    get size() {
        return this.lengths.length;
    }
    /** Adds the next document (its index is the current size). */
    add(key) {
        const index = this.lengths.length;
        const counts = new Map();
        const terms = keyTerms(key);
        for (const term of terms)
            counts.set(term, (counts.get(term) ?? 0) + 1);
        for (const [term, tf] of counts) {
            let list = this.postings.get(term);
            if (!list)
                this.postings.set(term, (list = { docs: [], tfs: [] }));
            list.docs.push(index);
            list.tfs.push(tf);
        }
        this.lengths.push(terms.length);
        this.totalLength += terms.length;
        if (this.scores.length < this.lengths.length) {
            const grown = new Float64Array(this.scores.length * 2);
            this.scores = grown;
        }
        return index;
    }
    /** The k best documents by BM25 that `keep` accepts, best first (ties: lower `tieRank` first, default the earlier document). */
    search(key, k, keep = () => true, tieRank) {
        const n = this.lengths.length;
        if (!n || k <= 0)
            return [];
        const scores = this.scores;
        const touched = [];
        const avg = this.totalLength / n || 1;
        const queryTerms = new Map();
        for (const term of keyTerms(key))
            queryTerms.set(term, (queryTerms.get(term) ?? 0) + 1);
        for (const [term, qtf] of queryTerms) {
            const list = this.postings.get(term);
            if (!list)
                continue;
            const df = list.docs.length;
            const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5)) * qtf;
            const { docs, tfs } = list;
            for (let i = 0; i < docs.length; i++) {
                const d = docs[i];
                const tf = tfs[i];
                if (scores[d] === 0)
                    touched.push(d);
                scores[d] = scores[d] + (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.lengths[d]) / avg)) + 1e-12;
            }
        }
        const hits = topK(touched, (d) => scores[d], k, keep, tieRank);
        for (const d of touched)
            scores[d] = 0;
        return hits;
    }
}
/**
 * The k best of `items` by score, best first; ties go to the lower `tieRank` (default: the lower index). A bounded
 * heap: O(n log k).
 */
export function topK(items, scoreOf, k, keep, tieRank = (i) => i) {
    const heap = []; // min-heap by (score, -tieRank)
    const worse = (a, b) => a.score < b.score || (a.score === b.score && tieRank(a.index) > tieRank(b.index));
    const up = (i) => {
        while (i > 0) {
            const p = (i - 1) >> 1;
            if (!worse(heap[i], heap[p]))
                break;
            [heap[i], heap[p]] = [heap[p], heap[i]];
            i = p;
        }
    };
    const down = (i) => {
        for (;;) {
            const l = 2 * i + 1;
            const r = l + 1;
            let m = i;
            if (l < heap.length && worse(heap[l], heap[m]))
                m = l;
            if (r < heap.length && worse(heap[r], heap[m]))
                m = r;
            if (m === i)
                return;
            [heap[i], heap[m]] = [heap[m], heap[i]];
            i = m;
        }
    };
    for (const index of items) {
        const hit = { index, score: scoreOf(index) };
        if (heap.length < k) {
            if (!keep(index))
                continue;
            heap.push(hit);
            up(heap.length - 1);
        }
        else if (worse(heap[0], hit) && keep(index)) {
            heap[0] = hit;
            down(0);
        }
    }
    return heap.sort((a, b) => b.score - a.score || tieRank(a.index) - tieRank(b.index));
}
/** Dense top-k: cosine of the query vector with each stored vector. */
export function denseTopK(query, vectors, k, keep) {
    const scores = vectors.map((v) => (v ? cosine(query, v) : -Infinity));
    return topK(scores.keys(), (i) => scores[i], k, (i) => scores[i] !== -Infinity && keep(i));
}
/**
 * Key vectors for dense ranking, one row per document, unit length, in one contiguous Float32Array: a query costs one
 * dot product per row (no norms recomputed, no per-row arrays), which keeps top-k over 10 000 × 768 within a few ms.
 * The first vector fixes the dimension; a vector of another size is refused (the document stays unranked).
 */
export class DenseKeyIndex {
    dim = 0;
    data = new Float32Array(0);
    present = new Uint8Array(0);
    count = 0;
    /** Documents with a vector. */
    get size() {
        return this.count;
    }
    has(index) {
        return this.present[index] === 1;
    }
    /** Stores the vector of document `index`; false when its dimension differs from the others' or it is all zeros. */
    set(index, vector) {
        if (!this.dim)
            this.dim = vector.length;
        if (vector.length !== this.dim || !vector.length)
            return false;
        let norm = 0;
        for (let i = 0; i < vector.length; i++)
            norm += vector[i] * vector[i];
        if (!norm)
            return false;
        if ((index + 1) * this.dim > this.data.length) {
            const rows = Math.max(index + 1, (this.data.length / this.dim) * 2, 64);
            const grown = new Float32Array(rows * this.dim);
            grown.set(this.data);
            this.data = grown;
            const flags = new Uint8Array(rows);
            flags.set(this.present);
            this.present = flags;
        }
        const scale = 1 / Math.sqrt(norm);
        const offset = index * this.dim;
        for (let i = 0; i < this.dim; i++)
            this.data[offset + i] = vector[i] * scale;
        if (!this.present[index])
            this.count++;
        this.present[index] = 1;
        return true;
    }
    /** The k documents of `0..n-1` most similar (cosine) to the query that `keep` accepts, best first. */
    search(query, n, k, keep, tieRank) {
        if (query.length !== this.dim || !this.count)
            return [];
        let norm = 0;
        for (let i = 0; i < query.length; i++)
            norm += query[i] * query[i];
        if (!norm)
            return [];
        const q = Float32Array.from(query, (x) => x / Math.sqrt(norm));
        const rows = Math.min(n, this.present.length);
        const scores = new Float64Array(rows);
        const dim = this.dim;
        const data = this.data;
        const whole = dim - (dim % 4);
        for (let r = 0; r < rows; r++) {
            if (!this.present[r])
                continue;
            // Four accumulators: about a third faster in V8 than one (the loop is the whole cost of a dense query).
            let d0 = 0;
            let d1 = 0;
            let d2 = 0;
            let d3 = 0;
            const offset = r * dim;
            let i = 0;
            for (; i < whole; i += 4) {
                d0 += q[i] * data[offset + i];
                d1 += q[i + 1] * data[offset + i + 1];
                d2 += q[i + 2] * data[offset + i + 2];
                d3 += q[i + 3] * data[offset + i + 3];
            }
            for (; i < dim; i++)
                d0 += q[i] * data[offset + i];
            scores[r] = d0 + d1 + d2 + d3;
        }
        return topK(Array.from({ length: rows }, (_, r) => r), (r) => scores[r], k, (r) => this.present[r] === 1 && keep(r), tieRank);
    }
}
