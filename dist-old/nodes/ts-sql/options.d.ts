/** Replies one data turn gets at most: the first, and one re-ask with what was wrong (callStructured's maxAttempts). */
export declare const DATA_REPLY_ATTEMPTS = 2;
/** TS-SQL's knobs (Appendix B, Table 4's ablations), declared once; flags, help and report settings come from here. */
export declare const TS_SQL_OPTIONS: {
    readonly maxRevisions: {
        readonly type: "int";
        readonly default: 5;
        readonly min: 0;
        readonly max: 20;
        readonly help: "SQL revisions against the test case at most (Appendix B.4: 5; Algorithm 1's listing says 3)";
        readonly affectsAnswers: true;
    };
    readonly maxDataRounds: {
        readonly type: "int";
        readonly default: 3;
        readonly min: 1;
        readonly max: 10;
        readonly help: "data agent turns at most (the first, then again after schema violations or a failed non-duality check)";
        readonly affectsAnswers: true;
    };
    readonly maxCodeRefinements: {
        readonly type: "int";
        readonly default: 5;
        readonly min: 0;
        readonly max: 10;
        readonly help: "coder turns after failed inspections, per coder model (temperature +0.01 each)";
        readonly affectsAnswers: true;
    };
    readonly coderModels: {
        readonly type: "list";
        readonly default: readonly [];
        readonly metavar: "MODEL,...";
        readonly help: "models that each write test code, then vote (default: the coder role's model alone)";
        readonly affectsAnswers: true;
    };
    readonly codeVote: {
        readonly type: "choice";
        readonly choices: readonly ["majority", "select"];
        readonly default: "majority";
        readonly help: "choose among coder models' codes: the result most agree on (else the first model's), or A/B selection by the selector role";
        readonly affectsAnswers: true;
    };
    readonly noDataAgent: {
        readonly type: "choice";
        readonly choices: readonly ["off", "schema", "sample"];
        readonly default: "off";
        readonly help: "ablation w/o DG: schema — Table 4: the coder writes test code from the schema alone, run on rows sampled from the real database; sample — Figure 4: 1/10 of the relevant tables' rows (at most 100 a table), sampled from the real database, are the test data";
        readonly affectsAnswers: true;
    };
    readonly noInspection: {
        readonly type: "boolean";
        readonly default: false;
        readonly help: "ablation: use the first test code without inspection";
        readonly affectsAnswers: true;
    };
    readonly noTestCode: {
        readonly type: "boolean";
        readonly default: false;
        readonly help: "ablation: the coder predicts the expected result directly, without code";
        readonly affectsAnswers: true;
    };
    readonly sandboxTimeoutMs: {
        readonly type: "int";
        readonly default: 1000;
        readonly min: 10;
        readonly max: 60000;
        readonly help: "CPU time limit of one test-code run, in ms";
    };
};
/** The coders of a run: the listed models, or the coder role's own model (""). Here so the manifest's rules read it. */
export declare const codersOf: (coderModels: readonly string[]) => string[];
