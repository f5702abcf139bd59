/**
 * Dense text embeddings, the contract every consumer codes against (linking, few-shot retrieval, Memo-SQL's memory,
 * TS-SQL's value ranking). An `Embedder` comes in `NodeDeps.embeddings` only when an embedding model is configured;
 * without one, each consumer uses its lexical default and says so.
 */
export interface Embedder {
  /** The embedding model's name, for reports. */
  readonly model: string;
  /** One vector per text, in order. Throws (one line) when the endpoint fails; callers fall back to lexical. */
  embed(texts: string[]): Promise<number[][]>;
}

/** Cosine similarity of two vectors (0 when either is all zeros). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
