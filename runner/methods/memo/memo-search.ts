/** `memoSearch` (`sqlmend memo search`): what retrieval returns from a memory for a question and its SQL. */
import path from "node:path";
import { type CliIO, defaultIO } from "../../../core/io.ts";
import { type ConfigInput, type ConfigOf, defineConfig, inApiWords, opt, optionUsageError } from "../../../core/config.ts";
import { MemoryStore, type Retrieval } from "../../../tools/retrieval/memory-store.ts";
import { type MemoModelOptions, type MemoModels, memoModels } from "./memo-models.ts";

/** `memo search`'s own options (the model's come with them: an embedding model ranks by embeddings). */
export const MEMO_SEARCH_CONFIG = defineConfig({
  memory: { type: "string", metavar: "FILE", help: "the memory file" },
  question: { type: "string", metavar: "Q", help: "the question retrieval is for" },
  sql: { type: "string", metavar: "SQL", help: "the SQL under review (its skeleton is half the key)" },
  retrieval: { type: "string", choices: ["filtered", "top4", "random"], help: "filtered (default: the top 40, subsumed error types dropped), top4 or random" },
  excludeId: { type: "string", metavar: "ID", help: "never return entries made from this question id" },
});

export type MemoSearchConfig = ConfigOf<typeof MEMO_SEARCH_CONFIG>;
export type MemoSearchOptions = ConfigInput<typeof MEMO_SEARCH_CONFIG> & MemoModelOptions & { memory: string; question: string };

/**
 * What retrieval returned: the key, every ranked entry with its score and the filter's decision (`ranked`), the
 * entries a model would be shown (`entries`), the embedding requests made, and the time it took.
 */
export interface MemoSearchResult extends Retrieval {
  ms: number;
  /** The embedding model that ranked, when the ranking is embeddings. */
  embeddingModel?: string;
}

/** What retrieval returns for a question and SQL; the question's own entries are never among them. */
export async function memoSearch(options: MemoSearchOptions, io: CliIO = defaultIO()): Promise<MemoSearchResult> {
  return inApiWords("memoSearch", async () => {
    const { config, models } = memoModels("memoSearch", MEMO_SEARCH_CONFIG, options, io);
    return searchMemory(config, models, io);
  });
}

/** The body `memoSearch` and `sqlmend memo search` run. */
export async function searchMemory(config: MemoSearchConfig, deps: Pick<MemoModels, "embedder">, io: CliIO): Promise<MemoSearchResult> {
  for (const key of ["memory", "question"] as const) if (config[key] === undefined) throw optionUsageError`${opt(key)} is required`;
  const embedder = deps.embedder();
  const store = MemoryStore.open(path.resolve(io.cwd, config.memory!), { embedder });
  try {
    const question = config.question!;
    const started = performance.now();
    const found = await store.retrieve({ question, sql: config.sql ?? "", exclude: { ids: config.excludeId ? [config.excludeId] : [], question } }, { mode: config.retrieval ?? "filtered" });
    const ms = performance.now() - started;
    return { ...found, ms, ...(found.ranking === "embeddings" && embedder ? { embeddingModel: embedder.model } : {}) };
  } finally {
    store.close();
  }
}
