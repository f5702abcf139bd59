import { defineOptions } from "../../graphs/options.ts";

/** The knobs of graph `magic-feedback` (flags of `sqlmend magic guideline`). */
export const MAGIC_FEEDBACK_OPTIONS = defineOptions({
  maxIter: { type: "int", default: 5, min: 1, max: 50, help: "feedback-correction iterations per failure, at most (the paper: 5)" },
  noManager: { type: "boolean", default: false, help: "ablation (Table 4): fixed prompts, the feedback agent decides when to stop" },
  semantics: { type: "choice", choices: ["bird", "spider"], default: "bird", help: "how the manager compares a revision with the gold (the launcher passes the benchmark's)" },
  maxLeakRetries: { type: "int", default: 2, min: 0, max: 10, help: "re-asks when a feedback or revised prompt gives the gold away" },
});

/** The knobs of graph `magic` (the guideline corrector). */
export const MAGIC_OPTIONS = defineOptions({
  guideline: { type: "string", metavar: "FILE", required: true, file: true, help: "the self-correction guideline (Markdown), e.g. from 'sqlmend magic guideline'" },
});
