import { cosine, type Embedder } from "./embeddings.ts";
import type { Example, ExampleStore } from "./examples.ts";
import { firstLineOf } from "./errors.ts";

export interface ExampleSearch {
  examples: Example[];
  /** "embeddings (MODEL)", "bm25", or "bm25 (embeddings failed: ...)". */
  ranking: string;
}

// One embedding pass over a store's examples per embedder, shared by every question of a run.
const vectorCache = new WeakMap<ExampleStore, Map<Embedder, Promise<number[][]>>>();

/**
 * The k training examples most similar to a question: by cosine of dense embeddings when an embedder is given, by
 * BM25 (the store's own search) otherwise or when the embedder fails. Says which ranking was used.
 */
export async function searchExamples(store: ExampleStore, text: string, k: number, excludeIds: string[], embedder?: Embedder): Promise<ExampleSearch> {
  if (k <= 0 || !store.size) return { examples: [], ranking: "none" };
  if (embedder) {
    try {
      let perEmbedder = vectorCache.get(store);
      if (!perEmbedder) vectorCache.set(store, (perEmbedder = new Map()));
      let vectors = perEmbedder.get(embedder);
      if (!vectors) {
        vectors = embedder.embed(store.all().map((e) => `${e.question} ${e.evidence}`.trim()));
        perEmbedder.set(embedder, vectors);
        vectors.catch(() => perEmbedder.delete(embedder)); // a failed pass is retried by the next question
      }
      const [all, [query]] = await Promise.all([vectors, embedder.embed([text])]);
      const ranked = store
        .all()
        .map((example, i) => ({ example, score: cosine(query ?? [], all[i] ?? []) }))
        .filter((r) => !excludeIds.includes(r.example.id))
        .sort((a, b) => b.score - a.score)
        .slice(0, k)
        .map((r) => r.example);
      return { examples: ranked, ranking: `embeddings (${embedder.model})` };
    } catch (error) {
      return { examples: await store.similar(text, k, excludeIds), ranking: `bm25 (embeddings failed: ${firstLineOf(error)})` };
    }
  }
  return { examples: await store.similar(text, k, excludeIds), ranking: "bm25" };
}
