import { z } from "zod";
import type { Execution } from "../../state/sql-state.ts";
import type { Linking } from "../../state/linking.ts";
import type { ModelCallRecord } from "../../state/usage.ts";
import type { Example, ExampleStore } from "../../tools/retrieval/examples.ts";
import { denseTopK, keyText, LexicalKeyIndex } from "../../tools/retrieval/key-index.ts";
import { type EmbedOutcome, type Embedder, embedRecorded } from "../../tools/models/embeddings.ts";
import { callStructured } from "../../tools/models/llm.ts";
import { type ErrorType, ErrorTypeSchema } from "../../tools/retrieval/memory-store.ts";
import type { ModelProvider } from "../../tools/models/models.ts";
import { sqlSkeleton } from "../../tools/sql-skeleton.ts";
import { labelPrompt, type PromptContext } from "./prompts.ts";

/** What every Memo-SQL branch carries (a `Send` payload holds only this, not the whole state). */
export interface MemoContext extends PromptContext {
  questionId: string;
  dbId: string;
  dbPath: string;
}

export function contextOf(state: { questionId: string; dbId: string; question: string; evidence: string; dbPath: string; schemaText: string; linking: Linking | null }, useLinking = true): MemoContext {
  return {
    questionId: state.questionId,
    dbId: state.dbId,
    question: state.question,
    evidence: state.evidence,
    dbPath: state.dbPath,
    schemaText: state.schemaText,
    linkingText: useLinking ? renderLinking(state.linking) : "",
  };
}

/** Linked columns and values as a prompt block (A.2: matched schema items as grounded context). */
export function renderLinking(linking: Linking | null): string {
  if (!linking) return "";
  const columns = [...new Set(linking.columns.map((c) => `${c.table}.${c.column}`))].slice(0, 30);
  const values = linking.values.slice(0, 20).map((v) => `${v.table}.${v.column} = '${v.value}'`);
  const parts = [];
  if (columns.length) parts.push(`Columns the question likely refers to: ${columns.join(", ")}`);
  if (values.length) parts.push(`Stored values matching the question: ${values.join("; ")}`);
  return parts.join("\n");
}

/** An execution as one line for prompts: the first rows, or the error. */
export function observe(execution: Execution): string {
  if (!execution.ok) return `error (${execution.errorKind}): ${execution.error}`;
  const p = execution.preview;
  if (!p) return "ran";
  if (p.rowCount === 0) return `0 rows (columns: ${p.columns.join(", ")})`;
  const rows = p.rows.slice(0, 5).map((r) => `(${r.map((c) => (c === null ? "NULL" : String(c))).join(", ")})`);
  return `${p.rowCount} row(s), columns ${p.columns.join(", ")}: ${rows.join(" ")}${p.rowCount > rows.length ? " ..." : ""}`;
}

export const LabelSchema = z.object({
  errorTypes: z.array(ErrorTypeSchema).min(1).max(9),
  // No string length (strict structured-output modes take none): an empty suggestion is kept as such.
  suggestions: z.string(),
});

/**
 * The labeler (role `labeler`): error types from the taxonomy and correction suggestions for a wrong query. Types
 * outside the taxonomy fail validation and are sent back (callStructured re-asks with the error) up to 3 times.
 */
export async function labelError(
  models: ModelProvider,
  args: PromptContext & { goldSql: string; wrongSql: string },
): Promise<{ ok: true; errorTypes: ErrorType[]; suggestions: string; records: ModelCallRecord[] } | { ok: false; error: string; records: ModelCallRecord[] }> {
  const reply = await callStructured(models, "labeler", labelPrompt(args), LabelSchema, { name: "error_label", maxAttempts: 3 });
  if (!reply.ok) return reply;
  return { ok: true, errorTypes: [...new Set(reply.value.errorTypes as ErrorType[])], suggestions: reply.value.suggestions.trim(), records: reply.records };
}

const exampleIndexes = new WeakMap<ExampleStore, { index: LexicalKeyIndex; list: Example[]; vectors: Map<string, Promise<EmbedOutcome>> }>();

/**
 * The k training examples closest to question + skeleton of the latest sub-SQL (§3.4.1), over the same kind of key
 * as the memory (question + skeleton of the gold SQL): dense with the shared embedder when there is one (all keys
 * embedded once per process), else BM25 built once per example store. Never the question itself (same id or text).
 */
export async function exemplarsFor(
  examples: ExampleStore,
  embedder: Embedder | undefined,
  question: string,
  sql: string,
  k: number,
  exclude: { id: string; dbId: string; question: string },
): Promise<{ examples: Example[]; ranking: string; records: ModelCallRecord[] }> {
  let built = exampleIndexes.get(examples);
  if (!built) {
    const list = examples.all();
    const index = new LexicalKeyIndex();
    for (const e of list) index.add({ question: e.question, skeleton: sqlSkeleton(e.sql) });
    exampleIndexes.set(examples, (built = { index, list, vectors: new Map() }));
  }
  const { index, list, vectors } = built;
  const same = exclude.question.toLowerCase().trim();
  // The question's own example: same id on the same database (train and dev both number from 0, on other databases),
  // or the same text.
  const keep = (i: number) => !(list[i]!.id === exclude.id && list[i]!.dbId === exclude.dbId) && list[i]!.question.toLowerCase().trim() !== same;
  const key = { question, skeleton: sqlSkeleton(sql) };
  const records: ModelCallRecord[] = [];
  let note = "";
  if (embedder) {
    let all = vectors.get(embedder.model);
    let started = false;
    if (!all) {
      // One run per process and model: the nine writers of a question ask at once.
      all = embedAll(embedder, list.map((e) => keyText({ question: e.question, skeleton: sqlSkeleton(e.sql) })));
      vectors.set(embedder.model, all);
      started = true;
    }
    const keys = await all;
    if (started) records.push(...keys.records);
    if (!keys.ok) {
      vectors.delete(embedder.model);
      note = ` (${keys.note})`;
    } else {
      const query = await embedRecorded(embedder, [keyText(key)]);
      records.push(...query.records);
      if (query.ok && query.vectors[0]?.length) return { examples: denseTopK(query.vectors[0], keys.vectors, k, keep).map((h) => list[h.index]!), ranking: "embeddings", records };
      note = ` (${query.ok ? "the embedder returned no vector" : query.note})`;
    }
  }
  return { examples: index.search(key, k, keep).map((h) => list[h.index]!), ranking: `lexical${note}`, records };
}

async function embedAll(embedder: Embedder, texts: string[]): Promise<EmbedOutcome> {
  const vectors: number[][] = [];
  const records: ModelCallRecord[] = [];
  for (let i = 0; i < texts.length; i += 64) {
    const out = await embedRecorded(embedder, texts.slice(i, i + 64));
    records.push(...out.records);
    if (!out.ok) return { ...out, records };
    vectors.push(...out.vectors);
  }
  if (vectors.length !== texts.length) return { ok: false, note: `the embedder returned ${vectors.length} vectors for ${texts.length} texts`, records };
  return { ok: true, vectors, records };
}
