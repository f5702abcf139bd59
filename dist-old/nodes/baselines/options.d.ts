/** Self-consistency (Wang et al., 2022): N samples of the generation prompt, majority of execution results. */
export declare const SELF_CONSISTENCY_OPTIONS: {
    readonly samples: {
        readonly type: "int";
        readonly default: 20;
        readonly min: 1;
        readonly max: 100;
        readonly help: "SQL samples to vote over (MAGIC's baselines: 20)";
    };
    readonly sampleTemperature: {
        readonly type: "number";
        readonly default: 0.8;
        readonly min: 0;
        readonly max: 2;
        readonly help: "temperature of the sampler role (the paper gives none)";
    };
};
/** Multiple-prompt (Lee et al., 2024): up to N prompts, each with the tables in another order, then the same vote. */
export declare const MULTIPLE_PROMPT_OPTIONS: {
    readonly samples: {
        readonly type: "int";
        readonly default: 20;
        readonly min: 1;
        readonly max: 100;
        readonly help: "SQL samples to vote over (MAGIC's baselines: 20)";
    };
    readonly sampleTemperature: {
        readonly type: "number";
        readonly default: 0.8;
        readonly min: 0;
        readonly max: 2;
        readonly help: "temperature of the sampler role (the paper gives none)";
    };
};
/**
 * Self-debugging (Chen et al., 2023): explain, judge, correct, until the explainer calls the SQL correct. Chen et al.
 * allow up to 10 debugging turns on Spider (most successful runs end within 3).
 */
export declare const SELF_DEBUGGING_OPTIONS: {
    readonly maxTurns: {
        readonly type: "int";
        readonly default: 10;
        readonly min: 1;
        readonly max: 50;
        readonly help: "debugging turns (SQL rewrites) at most (Chen et al.: 10)";
    };
};
