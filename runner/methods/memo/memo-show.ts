/** `memoShow` (`sqlmend memo show`): what a memory holds — its identity, counts, error types and latest entries. */
import path from "node:path";
import { type CliIO, defaultIO } from "../../../core/io.ts";
import { type ConfigInput, type ConfigOf, defineConfig, inApiWords, opt, optionUsageError } from "../../../core/config.ts";
import { type ErrorType, type MemoryEntry, type MemoryIdentity, MemoryStore } from "../../../tools/retrieval/memory-store.ts";
import { type MemoModelOptions, type MemoModels, memoModels } from "./memo-models.ts";

/** `memo show`'s own options (the model's come with them: an embedding model says how retrieval would rank). */
export const MEMO_SHOW_CONFIG = defineConfig({
  memory: { type: "string", metavar: "FILE", help: "the memory file" },
  entries: { type: "int", min: 0, help: "the latest entries to show (default 3)" },
});

export type MemoShowConfig = ConfigOf<typeof MEMO_SHOW_CONFIG>;
export type MemoShowOptions = ConfigInput<typeof MEMO_SHOW_CONFIG> & MemoModelOptions & { memory: string };

/** What a memory holds (`memo show --json` prints it). */
export interface MemoShowResult extends MemoryIdentity {
  /** Entries by error type. */
  histogram: Record<ErrorType, number>;
  /** Questions the builds went through, by outcome (entry, all-correct, ...). */
  done: Record<string, number>;
  /** Entry keys embedded, by embedding model. */
  vectors: Record<string, number>;
  /** How retrieval would rank with the options given; the embedding model when it is embeddings. */
  ranking: "embeddings" | "lexical";
  embeddingModel?: string;
  /** Keys embedded by that model (the rest are embedded at the first retrieval). */
  embeddedKeys?: number;
  /** The latest entries, oldest first. */
  recent: MemoryEntry[];
}

/** A memory's identity, counts, error types and latest entries. */
export async function memoShow(options: MemoShowOptions, io: CliIO = defaultIO()): Promise<MemoShowResult> {
  return inApiWords("memoShow", async () => {
    const { config, models } = memoModels("memoShow", MEMO_SHOW_CONFIG, options, io);
    return showMemory(config, models, io);
  });
}

/** The body `memoShow` and `sqlmend memo show` run. */
export async function showMemory(config: MemoShowConfig, deps: Pick<MemoModels, "embedder">, io: CliIO): Promise<MemoShowResult> {
  for (const key of ["memory"] as const) if (config[key] === undefined) throw optionUsageError`${opt(key)} is required`;
  const embedder = deps.embedder();
  const store = MemoryStore.open(path.resolve(io.cwd, config.memory!), { embedder });
  try {
    const stats = store.stats();
    return {
      ...store.identity(),
      histogram: stats.histogram,
      done: stats.done,
      vectors: store.vectorModels(),
      ranking: embedder ? "embeddings" : "lexical",
      ...(embedder ? { embeddingModel: embedder.model, embeddedKeys: store.embeddedCount } : {}),
      recent: config.entries === 0 ? [] : store.entries().slice(-(config.entries ?? 3)),
    };
  } finally {
    store.close();
  }
}
