import { executeSql } from "../execute.ts";
import type { Question } from "../../state/question.ts";
import { addUsage, type Usage, usageOfCalls } from "../../state/usage.ts";
import { sampleSeed } from "../../tools/models/sample-seed.ts";
import { callModel } from "../../tools/models/llm.ts";
import type { NewMemoryEntry } from "../../tools/retrieval/memory-store.ts";
import type { ModelProvider } from "../../tools/models/models.ts";
import { extractSql } from "../../tools/reply.ts";
import { type DbSchema, readSchema, renderSchema } from "../../tools/schema.ts";
import { scoreQuestion, type Semantics } from "../../tools/benchmarks/score.ts";
import type { SqlExecutor } from "../../tools/sqlite/types.ts";
import { labelError } from "./common.ts";
import { samplePrompt } from "./prompts.ts";

/**
 * The offline phase (§3.2, Figure 4): per training question, elicit diverse candidates, keep those that execute but
 * are wrong against the gold (the shared scorer), pick one plausible wrong query, have the labeler classify it and
 * suggest fixes. `sqlmend memo build` runs it per question through the question runner and stores each result in one
 * transaction (entry + "done" mark), so a kill loses at most the questions in flight and `--resume` redoes exactly those.
 */
export interface BuildOptions {
  models: ModelProvider;
  executor: SqlExecutor;
  semantics: Semantics;
  /** Candidates sampled per question (role `sampler`, at its own temperature, each asked from another angle). */
  samples: number;
  timeoutMs?: number;
  /**
   * Where candidates come from instead of sampling (e.g. the memo-sql pipeline's nine candidates, uncorrected):
   * SQL strings and what they cost.
   */
  elicit?: (q: Question) => Promise<{ sqls: string[]; usage: Usage }>;
  /** The schema of a question's database (`schemaCache` reads each database once per build). */
  schemaOf: (q: Question) => Promise<DbSchema>;
}

export type Outcome = "entry" | "all-correct" | "none-executable" | "no-sql" | "gold-fails" | "label-failed";

/** What one training question gave the memory: an entry to store, or why none (the build marks it done either way). */
export interface BuiltQuestion {
  outcome: Outcome;
  usage: Usage;
  entry?: NewMemoryEntry;
  note?: string;
}

/** Reads each database's schema once, however many questions ask for it. */
export function schemaCache(executor: SqlExecutor): (q: Question) => Promise<DbSchema> {
  const schemas = new Map<string, Promise<DbSchema>>();
  return (q) => {
    let schema = schemas.get(q.dbPath);
    if (!schema) schemas.set(q.dbPath, (schema = readSchema(q.dbPath, { descriptionDir: q.descriptionDir, executor })));
    return schema;
  };
}

/** One training question through the offline phase. Throws when the question cannot be built (its schema unreadable, ...). */
export function buildMemoryEntry(q: Question, options: BuildOptions): Promise<BuiltQuestion> {
  return buildOne(q, options);
}

async function buildOne(q: Question, options: BuildOptions): Promise<BuiltQuestion> {
  const schemaText = renderSchema(await options.schemaOf(q), { question: q.question, evidence: q.evidence });
  const context = { schemaText, question: q.question, evidence: q.evidence, linkingText: "" };
  let usage: Usage;
  let raw: (string | null)[];
  let failure: string | undefined;
  if (options.elicit) {
    const elicited = await options.elicit(q);
    usage = elicited.usage;
    raw = elicited.sqls;
  } else {
    // Past five samples the angles repeat: under --seed each sample keeps its own seed (sampleSeed).
    const calls = await Promise.all(
      Array.from({ length: options.samples }, (_, v) => {
        const seed = sampleSeed(options.models, "sampler", v);
        return callModel(options.models, "sampler", samplePrompt(context, v), seed === undefined ? {} : { overrides: { seed } });
      }),
    );
    usage = usageOfCalls(calls.map((c) => c.record));
    raw = calls.map((call) => (call.ok ? extractSql(call.text) : null));
    failure = calls.find((c) => c.record.error)?.record.error;
  }
  const seen = new Set<string>();
  const sqls: string[] = [];
  for (const sql of raw) {
    const norm = sql?.replace(/\s+/g, " ").trim().replace(/;$/, "");
    if (sql && norm && !seen.has(norm)) {
      seen.add(norm);
      sqls.push(sql);
    }
  }
  if (!sqls.length) return { outcome: "no-sql" as const, usage, note: failure };

  const wrong: { sql: string; fingerprint: string; rows: number }[] = [];
  let executable = 0;
  for (const sql of sqls) {
    const execution = await executeSql(options.executor, q.dbPath, sql, { timeoutMs: options.timeoutMs });
    if (!execution.ok) continue;
    executable++;
    const verdict = await scoreQuestion(q, sql, { executor: options.executor, semantics: options.semantics, timeoutMs: options.timeoutMs });
    if (verdict.goldError) return { outcome: "gold-fails" as const, usage, note: verdict.goldError };
    if (!verdict.correct && !verdict.predError) wrong.push({ sql, fingerprint: execution.fingerprint ?? "", rows: execution.preview?.rowCount ?? 0 });
  }
  if (!executable) return { outcome: "none-executable" as const, usage };
  if (!wrong.length) return { outcome: "all-correct" as const, usage };

  // The most plausible wrong query: a non-empty result first, then the result most candidates agree on (the
  // model's most confident mistake), then sampling order.
  const agreement = (w: (typeof wrong)[number]) => wrong.filter((x) => x.fingerprint === w.fingerprint).length;
  const chosen = [...wrong].sort((a, b) => Number(b.rows > 0) - Number(a.rows > 0) || agreement(b) - agreement(a))[0]!;

  const label = await labelError(options.models, { ...context, goldSql: q.goldSql!, wrongSql: chosen.sql });
  usage = addUsage(usage, usageOfCalls(label.records));
  if (!label.ok) return { outcome: "label-failed" as const, usage, note: label.error };
  return {
    outcome: "entry" as const,
    usage,
    entry: {
      sourceId: `${q.dbId}/${q.id}`,
      dbId: q.dbId,
      question: q.question,
      evidence: q.evidence,
      goldSql: q.goldSql!,
      wrongSql: chosen.sql,
      errorTypes: label.errorTypes,
      suggestions: label.suggestions,
    },
  };
}
