import { MAGIC_FEEDBACK_OPTIONS, MAGIC_OPTIONS } from "../../nodes/magic/options.ts";
import { defineManifest } from "./manifest.ts";
import { SHARED_SLOT_INFO as S } from "./shared.ts";

export const magicManifest = defineManifest({
  name: "magic",
  summary: "corrector: revise the given SQL by walking a MAGIC self-correction guideline (--guideline FILE)",
  kind: "corrector",
  options: MAGIC_OPTIONS,
  slots: {
    schema: S.schema,
    correct: { summary: "ask the guideline's questions of the SQL, then revise it (role: corrector)", requires: ["initialSql"] },
    check: { summary: "execute the revision; keep the initial SQL when it does not execute" },
  },
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
});

export const magicGuidelineManifest = defineManifest({
  name: "magic-guideline",
  summary: "MAGIC: the manager merges a batch of successful feedbacks into the guideline (run by 'sqlmend magic guideline')",
  kind: "generator",
  runBy: "sqlmend magic guideline",
  slots: { merge: { summary: "merge the batch into the guideline so far (role: manager)", requires: ["guideline"] } },
});
