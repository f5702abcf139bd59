import { defineOptions } from "../../core/options.ts";

/** Replies one data turn gets at most: the first, and one re-ask with what was wrong (callStructured's maxAttempts). */
export const DATA_REPLY_ATTEMPTS = 2;

/** Rows a table the data agent is asked for at least (the prompt's "3 to 8 rows per table"; the reply schema's minItems). */
export const DATA_MIN_ROWS = 3;

/** TS-SQL's knobs (Appendix B, Table 4's ablations), declared once; flags, help and report settings come from here. */
export const TS_SQL_OPTIONS = defineOptions({
  maxRevisions: {
    type: "int",
    default: 5,
    min: 0,
    max: 20,
    // Appendix B.4 (the experiments' settings): "the maximum revision number is set to 5"; Algorithm 1's listing
    // writes max_iteration = 3. We follow the settings the reported numbers were measured with.
    help: "SQL revisions against the test case at most (Appendix B.4: 5; Algorithm 1's listing says 3)",
    affectsAnswers: true,
  },
  maxDataRounds: {
    type: "int",
    default: 3,
    min: 1,
    max: 10,
    help: "data agent turns at most (the first, then again after schema violations or a failed non-duality check)",
    affectsAnswers: true,
  },
  maxCodeRefinements: {
    type: "int",
    default: 5,
    min: 0,
    max: 10,
    help: "coder turns after failed inspections, per coder model (temperature +0.01 each)",
    affectsAnswers: true,
  },
  coderModels: {
    type: "list",
    default: [],
    metavar: "MODEL,...",
    help: "models that each write test code, then vote (default: the coder role's model alone)",
    affectsAnswers: true,
  },
  codeVote: {
    type: "choice",
    choices: ["majority", "select"],
    default: "majority",
    help: "choose among coder models' codes: the result most agree on (else the first model's), or A/B selection by the selector role",
    affectsAnswers: true,
  },
  noDataAgent: {
    type: "choice",
    choices: ["off", "schema", "sample"],
    default: "off",
    // The paper's two set-ups without the data agent: Table 4's w/o DG ("the original database schema as input" to
    // test code generation) and Figure 4's (the test data replaced by 1/10 of the values sampled from the database).
    help: "ablation w/o DG: schema — Table 4: the coder writes test code from the schema alone, run on rows sampled from the real database; sample — Figure 4: 1/10 of the relevant tables' rows (at most 100 a table), sampled from the real database, are the test data",
    affectsAnswers: true,
  },
  noInspection: { type: "boolean", default: false, help: "ablation: use the first test code without inspection", affectsAnswers: true },
  noTestCode: { type: "boolean", default: false, help: "ablation: the coder predicts the expected result directly, without code", affectsAnswers: true },
  sandboxTimeoutMs: { type: "int", default: 1000, min: 10, max: 60_000, help: "CPU time limit of one test-code run, in ms" },
});

/** The coders of a run: the listed models, or the coder role's own model (""). Here so the manifest's rules read it. */
export const codersOf = (coderModels: readonly string[]): string[] => (coderModels.length ? [...new Set(coderModels)] : [""]);
