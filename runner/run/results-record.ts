import { z } from "zod";
import { EMBEDDER_ROLE } from "../../tools/models/embedder-role.ts";

/** Where an eval run keeps its records, one JSON line a question. */
export const EVAL_RESULTS = "results.jsonl";

/** One line of an eval's results.jsonl: everything known about one question's run. */
export const EvalRecordSchema = z.object({
  id: z.string(),
  dbId: z.string(),
  difficulty: z.string().optional(),
  question: z.string(),
  sql: z.string(),
  initialSql: z.string().optional(),
  correction: z.string().optional(),
  correct: z.boolean(),
  /** Correctors with gold: was the initial SQL already correct? (how many corrections helped or hurt) */
  initialCorrect: z.boolean().optional(),
  predError: z.string().optional(),
  goldError: z.string().optional(),
  /** What the scorer changed or ruled as the official scorer would (an empty prediction, statements dropped). */
  scoreNote: z.string().optional(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  calls: z.number(),
  latencyMs: z.number(),
  iterations: z.number(),
  usageByRole: z.record(z.string(), z.object({ calls: z.number(), inputTokens: z.number(), outputTokens: z.number(), latencyMs: z.number() })),
  /** Model calls that got no reply (the graph went on without them), and the first one's error. */
  failedCalls: z.number().optional(),
  callFailure: z.string().optional(),
  /** Calls the response cache answered (their tokens are not in inputTokens/outputTokens), and the tokens they saved. */
  cachedCalls: z.number().optional(),
  /** Calls answered live by served version (the model the server named, with its fingerprint), and cached ones by the version that made them. */
  served: z.record(z.string(), z.number()).optional(),
  servedCached: z.record(z.string(), z.number()).optional(),
  savedTokens: z.number().optional(),
  savedInputTokens: z.number().optional(),
  savedOutputTokens: z.number().optional(),
  /** One line, when the graph could not finish the question (naming the slot that threw). */
  error: z.string().optional(),
  /** The thrown error in full: the slot, the error's class, message and stack (the user module's frames first; `at` the first). */
  errorDetail: z.object({ slot: z.string().optional(), errorClass: z.string(), message: z.string(), stack: z.string().optional(), at: z.string().optional() }).optional(),
  /**
   * Set when the question is failed, not answered (`isFailed`): why, one line. Not scored, left out of EX, run again by
   * `--resume`. The rule (runner/eval/eval-question.ts): the graph could not finish, or a model call got no reply after the
   * client's retries — its answer is then not the method's answer.
   */
  failure: z.string().optional(),
  /** `--initial FILE`: the prediction was not plain SQL; its SQL was extracted from the text, or it held none. */
  initialExtraction: z.enum(["extracted", "none"]).optional(),
  /** Damaged checkpoints found for this question's threads, and what was done (deleted, restarted from scratch). */
  checkpointRestart: z.string().optional(),
  /** What the question went through, as its graph declares it (graphs/outcome.ts): flat values. */
  outcome: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  /**
   * `sqlmend replay`: the recorded thread this answer forked from, at which step, and what its prefix (kept as recorded,
   * not in the counts above, which are the suffix's) had cost.
   */
  replay: z
    .object({ from: z.string(), originalThread: z.string(), checkpointId: z.string(), prefixSteps: z.number(), prefixCalls: z.number(), prefixInputTokens: z.number(), prefixOutputTokens: z.number(), originalCorrect: z.boolean().optional() })
    .optional(),
  /** `--node SLOT=FILE` runs: the swapped slots that ran for this question (in this process; graphs/slot-runs.ts). */
  swappedRan: z.array(z.string()).optional(),
  /** LangSmith: the question's root run, and whether the verdict reached it as feedback ("sent", or why not). */
  trace: z.object({ runId: z.string(), feedback: z.string() }).optional(),
  thread: z.string(),
});
export type EvalRecord = z.infer<typeof EvalRecordSchema>;

/**
 * The chat-model tokens the method used for a question: those spent now plus those the response cache served, so a
 * method's tokens and cost are the same on a rerun served from the cache. Embedding requests are left out: the vector
 * cache shares vectors across questions and runs, so what they cost depends on what ran before. (Records from before
 * the saved-token split count all saved tokens as input.)
 */
export function methodTokens(r: EvalRecord): { input: number; output: number } {
  const split = r.savedInputTokens !== undefined || r.savedOutputTokens !== undefined;
  const embedding = r.usageByRole?.[EMBEDDER_ROLE];
  return {
    input: r.inputTokens - (embedding?.inputTokens ?? 0) + (split ? (r.savedInputTokens ?? 0) : (r.savedTokens ?? 0)),
    output: r.outputTokens - (embedding?.outputTokens ?? 0) + (split ? (r.savedOutputTokens ?? 0) : 0),
  };
}

/** The chat-model calls the method made for a question, cache-served ones included; embedding requests left out (as in `methodTokens`). */
export const methodCalls = (r: EvalRecord): number => r.calls - (r.usageByRole?.[EMBEDDER_ROLE]?.calls ?? 0);

/** results.jsonl → records by id (a later line for an id wins); unreadable lines are counted, not fatal. */
export function parseResults(text: string): { records: Map<string, EvalRecord>; dropped: number } {
  const records = new Map<string, EvalRecord>();
  let dropped = 0;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const parsed = EvalRecordSchema.safeParse(JSON.parse(line));
      if (parsed.success) records.set(parsed.data.id, parsed.data);
      else dropped++;
    } catch {
      dropped++;
    }
  }
  return { records, dropped };
}


/** A failed question: no answer of the method's, so not scored (records before `failure` existed: `error`). */
export const isFailed = (record: EvalRecord): boolean => record.failure !== undefined || record.error !== undefined;

/** Why a failed record failed. */
export const failureOf = (record: EvalRecord): string | undefined => record.failure ?? record.error;

