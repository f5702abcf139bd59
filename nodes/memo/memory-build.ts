import { executeSql } from "../execute.ts";
import type { Question } from "../../state/question.ts";
import { addUsage, emptyUsage, type Usage, usageOfCalls } from "../../state/usage.ts";
import { firstLineOf } from "../../core/errors.ts";
import { callModel } from "../../tools/models/llm.ts";
import type { MemoryStore } from "../../tools/retrieval/memory-store.ts";
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
 * suggest fixes, and store the entry. Each question ends in one transaction (entry + "done" mark), so a kill loses
 * at most the questions in flight and `--resume` redoes exactly those.
 */
export interface BuildOptions {
  models: ModelProvider;
  executor: SqlExecutor;
  store: MemoryStore;
  semantics: Semantics;
  /** Candidates sampled per question (role `sampler`, at its own temperature, each asked from another angle). */
  samples: number;
  concurrency: number;
  timeoutMs?: number;
  /**
   * Where candidates come from instead of sampling (e.g. the memo-sql pipeline's nine candidates, uncorrected):
   * SQL strings and what they cost.
   */
  elicit?: (q: Question) => Promise<{ sqls: string[]; usage: Usage }>;
  onQuestion?: (q: Question, outcome: string) => void;
  shouldStop?: () => boolean;
}

export type Outcome = "entry" | "all-correct" | "none-executable" | "no-sql" | "gold-fails" | "label-failed" | "failed";

export async function buildMemory(questions: Question[], options: BuildOptions): Promise<{ usage: Usage; outcomes: Record<string, number> }> {
  let usage = emptyUsage();
  const outcomes: Record<string, number> = {};
  const schemas = new Map<string, Promise<DbSchema>>();
  const schemaOf = (q: Question) => {
    let s = schemas.get(q.dbPath);
    if (!s) schemas.set(q.dbPath, (s = readSchema(q.dbPath, { descriptionDir: q.descriptionDir, executor: options.executor })));
    return s;
  };
  let next = 0;
  const worker = async () => {
    while (next < questions.length && !options.shouldStop?.()) {
      const q = questions[next++]!;
      let outcome: Outcome;
      try {
        const result = await buildOne(q, options, schemaOf);
        usage = addUsage(usage, result.usage);
        outcome = result.outcome;
        if (outcome === "entry") {
          options.store.add(result.entry!, { id: q.id, outcome });
        } else {
          options.store.markDone(q.id, outcome, result.note);
        }
      } catch (error) {
        // Not marked done: a rerun with --resume tries it again.
        outcome = "failed";
        options.onQuestion?.(q, `failed: ${firstLineOf(error)}`);
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        continue;
      }
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      options.onQuestion?.(q, outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, questions.length)) }, worker));
  return { usage, outcomes };
}

async function buildOne(q: Question, options: BuildOptions, schemaOf: (q: Question) => Promise<DbSchema>) {
  const schemaText = renderSchema(await schemaOf(q), { question: q.question, evidence: q.evidence });
  const context = { schemaText, question: q.question, evidence: q.evidence, linkingText: "" };
  let usage: Usage;
  let raw: (string | null)[];
  let failure: string | undefined;
  if (options.elicit) {
    const elicited = await options.elicit(q);
    usage = elicited.usage;
    raw = elicited.sqls;
  } else {
    const calls = await Promise.all(Array.from({ length: options.samples }, (_, v) => callModel(options.models, "sampler", samplePrompt(context, v))));
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
