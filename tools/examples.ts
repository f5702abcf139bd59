import { Document } from "@langchain/core/documents";
import { BM25Retriever } from "@langchain/community/retrievers/bm25";
import type { Question } from "../state/question.ts";

export interface Example {
  id: string;
  dbId: string;
  question: string;
  evidence: string;
  sql: string;
}

/** Training questions with gold SQL, searchable by question similarity (BM25). */
export interface ExampleStore {
  readonly size: number;
  /** The k most similar examples; `excludeIds` keeps a question from being its own example. */
  similar(text: string, k: number, excludeIds?: string[]): Promise<Example[]>;
  all(): Example[];
}

export function createExampleStore(questions: Question[]): ExampleStore {
  const examples: Example[] = questions
    .filter((q) => q.goldSql)
    .map((q) => ({ id: q.id, dbId: q.dbId, question: q.question, evidence: q.evidence, sql: q.goldSql! }));
  const docs = examples.map((e, index) => new Document({ pageContent: `${e.question} ${e.evidence}`, metadata: { index } }));
  return {
    size: examples.length,
    all: () => examples,
    async similar(text, k, excludeIds = []) {
      if (!examples.length || k <= 0) return [];
      const retriever = BM25Retriever.fromDocuments(docs, { k: k + excludeIds.length });
      const hits = await retriever.invoke(text);
      return hits
        .map((doc) => examples[doc.metadata.index as number]!)
        .filter((e) => !excludeIds.includes(e.id))
        .slice(0, k);
    },
  };
}
