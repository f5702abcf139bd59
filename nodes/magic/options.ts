import { defineOptions } from "../../core/options.ts";

/**
 * The knobs of graph `magic-feedback` (flags of `sqlmend magic guideline`). The scoring semantics is not one of
 * them: the launcher passes the benchmark's as the build option `semantics` (see `semanticsOf`).
 */
export const MAGIC_FEEDBACK_OPTIONS = defineOptions({
  maxIter: { type: "int", default: 5, min: 1, max: 50, help: "feedback-correction iterations per failure, at most (the paper: 5)" },
  noManager: { type: "boolean", default: false, help: "ablation (Table 4): fixed prompts, the feedback agent decides when to stop" },
  maxLeakRetries: { type: "int", default: 2, min: 0, max: 10, help: "re-asks when a feedback or revised prompt gives the gold away" },
});

/** The knobs of graph `magic` (the guideline corrector). */
export const MAGIC_OPTIONS = defineOptions({
  guideline: { type: "string", metavar: "FILE", required: true, file: true, help: "the self-correction guideline (Markdown), e.g. from 'sqlmend magic guideline'" },
});

/** The semantics the manager judges revisions under: the build option the launcher sets from the benchmark. */
export const semanticsOf = (options: Record<string, unknown>): "bird" | "spider" => (options.semantics === "spider" ? "spider" : "bird");
