// A guideline run's figures (stats.json): the cycle's results over the training questions, Figure 3's curve,
// Table 4's EX, the merges and the outcomes, and the tokens by role.
import type { MagicRecord } from "../../../state/magic-record.ts";
import type { Usage } from "../../../state/usage.ts";

export interface MagicStats {
  questions: number;
  initiallyCorrect: number;
  /** Failures put through the cycle (finished without a run error). */
  failures: number;
  corrected: number;
  /** AVG_i: mean iterations until a stopping rule fired, over the failures. */
  avgIterations: number;
  /**
   * Figure 3: failures corrected had --max-iter been k, k = 1..maxIter: the verdict on the revision the cycle would
   * have ended with, iteration min(k, where it stopped). With the manager that is "corrected within k iterations";
   * without it the feedback agent may go past a correct revision, so the curve need not rise.
   */
  correctedWithin: number[];
  /** Table 4's EX on the split: initially correct plus corrected, over the questions answered (run errors left out, as everywhere). */
  exAfter: number;
  /** The questions exAfter is over: run without a run error. */
  answered: number;
  maxIter: number;
  noManager: boolean;
  /** Failures not put through the cycle, with the reason; questions whose run failed. */
  notCycled: Record<string, number>;
  errors: number;
  skippedQuestions: number;
  batchesMerged: number;
  /** Why the next batch's merge failed, when it did (a resumed run retries it). */
  mergeFailure?: string;
  /** Merges that failed this run (0 or 1: later batches wait for it), and merge replies refused as unusable. */
  failedMerges: number;
  unusableMergeReplies: number;
  /** Merges whose reply held lines outside its numbered reminders, and those lines: dropped from the guideline. */
  strippedMergeReplies: number;
  strippedMergeLines: number;
  /** The cycles' outcomes summed (results.jsonl's `outcome`), over the failures that entered the cycle. */
  leakRefusals: number;
  redactions: number;
  promptRevisions: { feedback: number; correction: number };
  /** Revisions that kept the previous prompt (after the re-asks), and manager replies refused as unusable. */
  failedRevisions: number;
  unusableManagerReplies: number;
  tokensByRole: Record<string, { calls: number; inputTokens: number; outputTokens: number }>;
}

export function computeStats(
  records: MagicRecord[],
  ctx: { maxIter: number; noManager: boolean; batches: number; mergeFailure?: string; mergeUsage: Usage; unusableMergeReplies?: number; stripped?: { merges: number; lines: number }; skipped: number },
): MagicStats {
  const sum = (key: string) => records.reduce((n, r) => n + (typeof r.outcome?.[key] === "number" ? (r.outcome[key] as number) : 0), 0);
  const cycled = records.filter((r) => r.corrected !== undefined);
  const corrected = cycled.filter((r) => r.corrected);
  const notCycled: Record<string, number> = {};
  for (const r of records) if (r.skipped) notCycled[r.skipped.replace(/ \(.*\)$/, "")] = (notCycled[r.skipped.replace(/ \(.*\)$/, "")] ?? 0) + 1;
  const tokensByRole: MagicStats["tokensByRole"] = {};
  const add = (byRole: Record<string, { calls: number; inputTokens: number; outputTokens: number }>) => {
    for (const [role, t] of Object.entries(byRole)) {
      const acc = (tokensByRole[role] ??= { calls: 0, inputTokens: 0, outputTokens: 0 });
      acc.calls += t.calls;
      acc.inputTokens += t.inputTokens;
      acc.outputTokens += t.outputTokens;
    }
  };
  for (const r of records) add(r.usageByRole);
  add(ctx.mergeUsage.byRole);
  // A question whose run failed has no answer of the method's: EX is over the others (the failed are `errors`).
  const answered = records.filter((r) => r.error === undefined);
  const initiallyCorrect = answered.filter((r) => r.initialCorrect).length;
  return {
    questions: records.length,
    initiallyCorrect,
    failures: cycled.length,
    corrected: corrected.length,
    avgIterations: cycled.length ? cycled.reduce((n, r) => n + (r.iterations ?? 0), 0) / cycled.length : 0,
    correctedWithin: Array.from({ length: ctx.maxIter }, (_, k) => cycled.filter((r) => correctedAtCap(r, k + 1)).length),
    exAfter: answered.length ? ((initiallyCorrect + corrected.length) / answered.length) * 100 : 0,
    answered: answered.length,
    maxIter: ctx.maxIter,
    noManager: ctx.noManager,
    notCycled,
    errors: records.filter((r) => r.error).length,
    skippedQuestions: ctx.skipped,
    batchesMerged: ctx.batches,
    ...(ctx.mergeFailure ? { mergeFailure: ctx.mergeFailure } : {}),
    failedMerges: ctx.mergeFailure ? 1 : 0,
    unusableMergeReplies: ctx.unusableMergeReplies ?? 0,
    strippedMergeReplies: ctx.stripped?.merges ?? 0,
    strippedMergeLines: ctx.stripped?.lines ?? 0,
    leakRefusals: sum("leakRefusals"),
    redactions: sum("redactions"),
    promptRevisions: { feedback: sum("feedbackRevisions"), correction: sum("correctionRevisions") },
    failedRevisions: sum("failedRevisions"),
    unusableManagerReplies: sum("unusableManagerReplies"),
    tokensByRole,
  };
}

/** Would this failure have ended corrected with the cycle capped at `cap` iterations? */
function correctedAtCap(r: MagicRecord, cap: number): boolean {
  const stoppedAt = r.iterations ?? 0;
  if (!r.verdicts?.length) return !!r.corrected && stoppedAt <= cap; // a record written before verdicts were kept
  return r.verdicts[Math.min(cap, r.verdicts.length) - 1] === true;
}
