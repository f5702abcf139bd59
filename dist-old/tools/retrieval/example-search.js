/**
 * The examples that are this very question (same database, same wording), to keep out of its own prompt. Not by id:
 * a dev question's id also names an unrelated training question (both splits count from 0).
 */
export function sameQuestionIds(store, question) {
    const text = question.question.trim();
    return store
        .all()
        .filter((e) => e.dbId === question.dbId && e.question.trim() === text)
        .map((e) => e.id);
}
/**
 * The embedding-ranked view of a store, made once per (store, embedder): the view holds the examples' vectors, so
 * questions of a run (several in flight at once) share one embedding of the training split rather than each paying
 * for their own.
 */
const rankedViews = new WeakMap();
function embeddingView(store, embedder) {
    if (!store.withEmbeddings)
        return store;
    let byEmbedder = rankedViews.get(store);
    if (!byEmbedder)
        rankedViews.set(store, (byEmbedder = new WeakMap()));
    let view = byEmbedder.get(embedder);
    if (!view)
        byEmbedder.set(embedder, (view = store.withEmbeddings(embedder)));
    return view;
}
/**
 * The k training examples most similar to a question: by dense embeddings when an embedder is given (the store's own
 * ranked search, vectors computed once per store and embedder), by BM25 otherwise or when the embedder fails. Says
 * which ranked.
 */
export async function searchExamples(store, text, k, excludeIds, embedder) {
    if (k <= 0 || !store.size)
        return { examples: [], ranking: "none", records: [] };
    const ranked = embedder ? embeddingView(store, embedder) : store;
    if (!ranked.similarRanked)
        return { examples: await ranked.similar(text, k, excludeIds), ranking: "bm25", records: [] };
    const found = await ranked.similarRanked(text, k, excludeIds);
    const ranking = found.ranking === "embeddings" ? `embeddings (${embedder?.model ?? "configured"})` : embedder ? `bm25 (embeddings failed: ${found.note ?? "unavailable"})` : "bm25";
    return { examples: found.examples, ranking, records: found.records };
}
