import { defineOptions } from "../../core/options.js";
/**
 * Whether the correction agent is shown BIRD's evidence. Figures 6 (the cycle's correction agent) do not list it (only
 * the schema, column descriptions, question, predicted SQL and feedback); the feedback agent's Figure 5 does. We show
 * it by default: the evidence defines the question's terms (e.g. "late refers to shipped > due"), and without it a
 * correct feedback may be unusable. `hidden` follows the figure.
 */
const CORRECTOR_EVIDENCE = {
    type: "choice",
    choices: ["shown", "hidden"],
    default: "shown",
    help: "whether the correction agent is shown the question's evidence (Figure 6 does not list it)",
};
/**
 * The knobs of graph `magic-feedback` (flags of `sqlmend magic guideline`). The scoring semantics is not one of
 * them: the launcher passes the benchmark's as the build option `semantics` (see `semanticsOf`).
 */
export const MAGIC_FEEDBACK_OPTIONS = defineOptions({
    maxIter: { type: "int", default: 5, min: 1, max: 100, help: "feedback-correction iterations per failure, at most (the paper: 5)" },
    noManager: { type: "boolean", default: false, help: "ablation (Table 4): fixed prompts, the feedback agent decides when to stop" },
    maxLeakRetries: { type: "int", default: 2, min: 0, max: 10, help: "re-asks when a feedback or revised prompt gives the gold away" },
    maxUnusableRetries: { type: "int", default: 1, min: 0, max: 10, help: "re-asks when the manager's revised prompt or merged guideline is unusable" },
    correctorEvidence: CORRECTOR_EVIDENCE,
});
/** The knobs of graph `magic` (the guideline corrector). */
export const MAGIC_OPTIONS = defineOptions({
    guideline: { type: "string", metavar: "FILE", required: true, file: true, help: "the self-correction guideline (Markdown), e.g. from 'sqlmend magic guideline'" },
    correctorEvidence: CORRECTOR_EVIDENCE,
});
/** The evidence the correction agent is shown under the option `correctorEvidence`. */
export const correctorEvidenceOf = (options, evidence) => (options.correctorEvidence === "hidden" ? "" : evidence);
/** The semantics the manager judges revisions under: the build option the launcher sets from the benchmark. */
export const semanticsOf = (options) => (options.semantics === "spider" ? "spider" : "bird");
