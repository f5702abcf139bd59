import { MAGIC_FEEDBACK_OPTIONS, MAGIC_OPTIONS } from "../../nodes/magic/options.ts";
import { defineManifest } from "./manifest.ts";
import { readOptions } from "../../core/options.ts";
import { SHARED_SLOT_INFO as S, STRUCTURED_CALLS } from "./shared.ts";

export const magicManifest = defineManifest({
  name: "magic",
  summary: "corrector: revise the given SQL by walking a MAGIC self-correction guideline (--guideline FILE)",
  kind: "corrector",
  slots: {
    schema: S.schema,
    // The guideline is this node's alone: a run that replaces it takes no --guideline and records none.
    correct: { summary: "ask the guideline's questions of the SQL, then revise it (role: corrector)", requires: ["initialSql"], options: MAGIC_OPTIONS },
    check: { summary: "execute the revision; keep the initial SQL when it does not execute" },
  },
  // correct: one call (a reply without SQL is not asked again); check calls nothing.
  calls: () => ({ min: 1, max: 1, typical: 1 }),
});

export const magicFeedbackManifest = defineManifest({
  name: "magic-feedback",
  summary: "MAGIC training cycle on one failure: feedback agent, correction agent, manager (needs gold SQL; run by 'sqlmend magic guideline')",
  kind: "corrector",
  // It needs the gold SQL, which eval and ask never hand a graph.
  runBy: "sqlmend magic guideline",
  options: MAGIC_FEEDBACK_OPTIONS,
  slots: {
    schema: S.schema,
    feedback: { summary: "explain the incorrect SQL's mistakes against the gold, without writing SQL (role: feedback)" },
    correct: { summary: "revise the incorrect SQL from the feedback, never seeing the gold (role: corrector)" },
    manager: { summary: "execute the revision and judge it against the gold with the scorer", requires: ["rounds", "corrected"] },
    reviseFeedback: { summary: "rewrite the feedback agent's instructions from its last output (role: manager)" },
    reviseCorrection: { summary: "rewrite the correction agent's instructions, never giving the gold away (role: manager)" },
    check: { summary: "no-manager ablation: execute and score the revision for the record", requires: ["rounds"] },
    judge: { summary: "no-manager ablation: the feedback agent judges the revision (role: feedback)", requires: ["judgedCorrect"] },
  },
  // Per iteration: feedback (1 + up to maxLeakRetries re-asks when it gives the gold away), correct (1), manager (no
  // call); then, unless corrected or at maxIter, both revisions in parallel: reviseFeedback (1 + up to
  // maxUnusableRetries), reviseCorrection (1 + up to maxUnusableRetries unusable + maxLeakRetries leaking replies).
  // Without the manager: check (no call), then, before maxIter, judge (one structured ask) decides whether to go on.
  calls: (options: Record<string, unknown>) => {
    const o = readOptions(MAGIC_FEEDBACK_OPTIONS, options);
    const iteration = 2 + o.maxLeakRetries;
    if (o.noManager) return { min: o.maxIter > 1 ? 2 + STRUCTURED_CALLS.min : 2, max: o.maxIter * iteration + (o.maxIter - 1) * STRUCTURED_CALLS.max };
    const revisions = 1 + o.maxUnusableRetries + (1 + o.maxUnusableRetries + o.maxLeakRetries);
    return { min: 2, max: o.maxIter * iteration + (o.maxIter - 1) * revisions };
  },
});

export const magicGuidelineManifest = defineManifest({
  name: "magic-guideline",
  summary: "MAGIC: the manager merges a batch of successful feedbacks into the guideline (run by 'sqlmend magic guideline')",
  kind: "generator",
  runBy: "sqlmend magic guideline",
  slots: { merge: { summary: "merge the batch into the guideline so far (role: manager)", requires: ["guideline"] } },
  // A thread is one merge of a batch, not a question: the manager once, asked again up to maxUnusableRetries times
  // (magic-feedback's option, which 'sqlmend magic guideline' passes to the merge) when the guideline is unusable.
  calls: (options: Record<string, unknown>) => {
    const retries = readOptions(MAGIC_FEEDBACK_OPTIONS, options).maxUnusableRetries;
    return { min: 1, max: 1 + retries, typical: 1, note: "per merge of a batch of successful feedbacks (one thread per batch), not per question" };
  },
});
