// The summary a guideline run prints at its end, from its figures.
import path from "node:path";
import { compactNumber } from "../../run/progress.ts";
import type { MagicStats } from "./guideline-stats.ts";

/** The lines `sqlmend magic guideline` prints when it ends; `failed`: questions not run to the end (they hold back batches). */
export function renderSummary(s: MagicStats, outDir: string, hasGuideline: boolean, failed: number): string {
  const held = failed ? `; batches after the first failed question wait for it: --resume runs the ${failed} failed again` : "";
  const pct = (n: number, d: number) => (d ? `${((n / d) * 100).toFixed(1)}%` : "-");
  const notCycled = Object.entries(s.notCycled).map(([why, n]) => `${n} ${why}`).join(", ");
  const roles = Object.entries(s.tokensByRole)
    .map(([role, t]) => `${role} ${compactNumber(t.inputTokens)} in / ${compactNumber(t.outputTokens)} out (${t.calls} calls)`)
    .join("; ");
  return (
    `Failures: ${s.failures} through the cycle of ${s.questions} questions (${s.initiallyCorrect} initially correct${notCycled ? `; not cycled: ${notCycled}` : ""}${s.errors ? `; ${s.errors} run errors` : ""})\n` +
    `Corrected: ${s.corrected} (${pct(s.corrected, s.failures)}); AVG_i ${s.avgIterations.toFixed(2)} (max ${s.maxIter}${s.noManager ? ", no manager" : ""})\n` +
    `Corrected with --max-iter 1..${s.maxIter}: ${s.correctedWithin.join(", ")}\n` +
    `EX on the split after correction: ${s.exAfter.toFixed(2)}% (${s.initiallyCorrect} + ${s.corrected} of ${s.answered} answered${s.errors ? `; ${s.errors} run errors left out` : ""})\n` +
    `Outcomes: ${s.leakRefusals} leak refusals (${s.redactions} redacted); prompt revisions ${s.promptRevisions.feedback} feedback, ${s.promptRevisions.correction} correction; ` +
    `${s.failedRevisions} failed revisions (${s.unusableManagerReplies} unusable manager replies); ${s.failedMerges} failed merges (${s.unusableMergeReplies} unusable merge replies); ` +
    `${s.strippedMergeLines} lines outside the numbered reminders dropped from ${s.strippedMergeReplies} merge replies\n` +
    `Tokens by role: ${roles || "none"}\n` +
    (hasGuideline
      ? `Guideline: ${path.join(outDir, "guideline.md")} (${s.batchesMerged} batch${s.batchesMerged === 1 ? "" : "es"} merged${s.mergeFailure ? `; ${s.mergeFailure}: --resume retries it` : ""}${held})\n`
      : `Guideline: none written (${s.mergeFailure ? `${s.mergeFailure}: --resume retries it` : failed ? held.slice(2) : "no successful feedback yet"})\n`)
  );
}
