/**
 * `memoAdd` (`sqlmend memo add`): one correction (user feedback) labelled by the model's `labeler` role and stored in a
 * memory, where the very next question can retrieve it.
 */
import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { type CliIO, defaultIO } from "../../../core/io.ts";
import { UserError } from "../../../core/errors.ts";
import { type ConfigInput, type ConfigOf, defineConfig, inApiWords, opt, optionUsageError, optionUserError } from "../../../core/config.ts";
import { executeSql } from "../../../nodes/execute.ts";
import { labelError } from "../../../nodes/memo/common.ts";
import { type MemoryEntry, MemoryStore } from "../../../tools/retrieval/memory-store.ts";
import { readSchema, renderSchema } from "../../../tools/schema.ts";
import { getSharedExecutor } from "../../../tools/sqlite/executor.ts";
import { embedKeys, type MemoModelOptions, type MemoModels, memoModels } from "./memo-models.ts";

/** `memo add`'s own options (the model's come with them: `MemoModelOptions`). */
export const MEMO_ADD_CONFIG = defineConfig({
  memory: { type: "string", metavar: "FILE", help: "the memory file (made when missing)" },
  db: { type: "string", metavar: "DB", help: "the SQLite database both queries run on" },
  question: { type: "string", metavar: "Q", help: "the question" },
  evidence: { type: "string", metavar: "E", help: "its evidence (BIRD's hint), if any" },
  wrong: { type: "string", metavar: "SQL", help: "the wrong SQL: it must execute (execution errors are the debug loop's)" },
  correct: { type: "string", metavar: "SQL", help: "the correct SQL" },
  descriptionDir: { type: "string", metavar: "DIR", help: "the database's column descriptions (BIRD's database_description)" },
});

export type MemoAddConfig = ConfigOf<typeof MEMO_ADD_CONFIG>;

/** `memoAdd`'s options: the correction, the memory it goes to, and the model that labels it. */
export type MemoAddOptions = ConfigInput<typeof MEMO_ADD_CONFIG> & MemoModelOptions & { memory: string; db: string; question: string; wrong: string; correct: string };

/** What `memo add` stored. */
export interface MemoAddResult {
  /** The entry as stored: its id, the labeler's error types and suggestions. */
  entry: MemoryEntry;
  /** The memory file and the entries it holds now. */
  file: string;
  entries: number;
  /** Both queries return the same result on the database (stored anyway: the labeler judged the wrong one). */
  sameResult: boolean;
  /** How retrieval will rank the memory's entries, and the line saying so. */
  ranking: "embeddings" | "lexical";
  rankingLine: string;
}

/** Labels one correction and stores it in the memory (made when missing). */
export async function memoAdd(options: MemoAddOptions, io: CliIO = defaultIO()): Promise<MemoAddResult> {
  return inApiWords("memoAdd", async () => {
    const { config, models } = memoModels("memoAdd", MEMO_ADD_CONFIG, options, io);
    return addCorrection(config, models, io);
  });
}

/** The body `memoAdd` and `sqlmend memo add` run; `name` says an option as its caller's user wrote it. */
export async function addCorrection(
  config: MemoAddConfig,
  deps: MemoModels,
  io: CliIO,
): Promise<MemoAddResult> {
  for (const key of ["memory", "db", "question", "wrong", "correct"] as const) if (config[key] === undefined) throw optionUsageError`${opt(key)} is required`;
  const { question, wrong, correct } = config as Required<MemoAddConfig>;
  const dbPath = path.resolve(io.cwd, config.db!);
  if (!fs.existsSync(dbPath)) throw new UserError(`database not found: ${config.db}`);
  const executor = getSharedExecutor();
  const [right, wrongRun] = await Promise.all([executeSql(executor, dbPath, correct), executeSql(executor, dbPath, wrong)]);
  if (!right.ok) throw optionUserError`${opt("correct")} SQL does not execute: ${right.errorKind}: ${right.error}`;
  if (!wrongRun.ok) throw optionUserError`${opt("wrong")} SQL does not execute (${wrongRun.errorKind}: ${wrongRun.error}); the memory keeps semantic mistakes, execution errors are the debug loop's`;
  const models = deps.provider();
  const descriptionDir = config.descriptionDir ? path.resolve(io.cwd, config.descriptionDir) : undefined;
  const schemaText = renderSchema(await readSchema(dbPath, { descriptionDir, executor }), { question, evidence: config.evidence });
  const store = MemoryStore.open(path.resolve(io.cwd, config.memory!), { create: true, embedder: deps.embedder() });
  try {
    const label = await labelError(models, { schemaText, question, evidence: config.evidence ?? "", linkingText: "", goldSql: correct, wrongSql: wrong });
    if (!label.ok) throw new UserError(`the labeler gave no usable label: ${label.error}`);
    const entry = store.add({
      sourceId: `added:${createHash("sha256").update(question).digest("hex").slice(0, 12)}`,
      dbId: path.basename(dbPath).replace(/\.(sqlite3?|db)$/i, ""),
      question,
      evidence: config.evidence ?? "",
      goldSql: correct,
      wrongSql: wrong,
      errorTypes: label.errorTypes,
      suggestions: label.suggestions,
    });
    const ranking = await embedKeys(store, deps.embedder());
    return { entry, file: store.file, entries: store.size, sameResult: right.fingerprint === wrongRun.fingerprint, ranking: ranking.embedded ? "embeddings" : "lexical", rankingLine: ranking.line };
  } finally {
    store.close();
  }
}

