/**
 * The knobs of graph `magic-feedback` (flags of `sqlmend magic guideline`). The scoring semantics is not one of
 * them: the launcher passes the benchmark's as the build option `semantics` (see `semanticsOf`).
 */
export declare const MAGIC_FEEDBACK_OPTIONS: {
    readonly maxIter: {
        readonly type: "int";
        readonly default: 5;
        readonly min: 1;
        readonly max: 100;
        readonly help: "feedback-correction iterations per failure, at most (the paper: 5)";
    };
    readonly noManager: {
        readonly type: "boolean";
        readonly default: false;
        readonly help: "ablation (Table 4): fixed prompts, the feedback agent decides when to stop";
    };
    readonly maxLeakRetries: {
        readonly type: "int";
        readonly default: 2;
        readonly min: 0;
        readonly max: 10;
        readonly help: "re-asks when a feedback or revised prompt gives the gold away";
    };
    readonly maxUnusableRetries: {
        readonly type: "int";
        readonly default: 1;
        readonly min: 0;
        readonly max: 10;
        readonly help: "re-asks when the manager's revised prompt or merged guideline is unusable";
    };
    readonly correctorEvidence: {
        readonly type: "choice";
        readonly choices: readonly ["shown", "hidden"];
        readonly default: "shown";
        readonly help: "whether the correction agent is shown the question's evidence (Figure 6 does not list it)";
    };
};
/** The knobs of graph `magic` (the guideline corrector). */
export declare const MAGIC_OPTIONS: {
    readonly guideline: {
        readonly type: "string";
        readonly metavar: "FILE";
        readonly required: true;
        readonly file: true;
        readonly help: "the self-correction guideline (Markdown), e.g. from 'sqlmend magic guideline'";
    };
    readonly correctorEvidence: {
        readonly type: "choice";
        readonly choices: readonly ["shown", "hidden"];
        readonly default: "shown";
        readonly help: "whether the correction agent is shown the question's evidence (Figure 6 does not list it)";
    };
};
/** The evidence the correction agent is shown under the option `correctorEvidence`. */
export declare const correctorEvidenceOf: (options: Record<string, unknown>, evidence: string) => string;
/** The semantics the manager judges revisions under: the build option the launcher sets from the benchmark. */
export declare const semanticsOf: (options: Record<string, unknown>) => "bird" | "spider";
