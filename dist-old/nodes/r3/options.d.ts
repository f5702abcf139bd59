/**
 * A writer reply that holds no SQL is sent back this many times at most, in the same dialogue, before the node gives
 * up: a missing fence costs one short call, not a whole review round. (Here, not in writer.ts: the manifest counts
 * calls with it and loads no model code.)
 */
export declare const MAX_SQL_REASKS = 2;
/** The review loop's knobs, shared by `r3` and `r3-review` (Table 3's ablations and Algorithm 1's limits). */
export declare const R3_LOOP_OPTIONS: {
    readonly reviewers: {
        readonly type: "int";
        readonly default: 3;
        readonly min: 0;
        readonly max: 16;
        readonly help: "reviewer agents per round (0: writer and debug loop only; Table 3's CoT / PoT rows also take `--max-debug-turns 0`: the writer alone, one call)";
    };
    readonly reasoning: {
        readonly type: "choice";
        readonly choices: readonly ["cot", "pot"];
        readonly default: "pot";
        readonly help: "writer reasoning: chain of thought, or a short program of thought before the SQL";
    };
    readonly maxDebugTurns: {
        readonly type: "int";
        readonly default: 3;
        readonly min: 0;
        readonly max: 20;
        readonly help: "execution-error rewrites per review round (3 is sqlmend's choice: the paper gives no value)";
    };
    readonly maxReviewTurns: {
        readonly type: "int";
        readonly default: 5;
        readonly min: 1;
        readonly max: 100;
        readonly help: "review rounds before stopping without consensus (5 is sqlmend's choice: the paper gives no value)";
    };
    readonly historyTokens: {
        readonly type: "int";
        readonly default: 12000;
        readonly min: 500;
        readonly help: "token budget of the writer's prompt; oldest turns are cut first, never the question and schema";
    };
    readonly resultRows: {
        readonly type: "int";
        readonly default: 10;
        readonly min: 1;
        readonly max: 200;
        readonly help: "result rows shown to reviewers";
    };
};
export declare const R3_OPTIONS: {
    readonly kShot: {
        readonly type: "int";
        readonly default: 5;
        readonly min: 0;
        readonly max: 50;
        readonly help: "training examples most similar to the question in the writer's first prompt (0: zero-shot)";
    };
    readonly reviewers: {
        readonly type: "int";
        readonly default: 3;
        readonly min: 0;
        readonly max: 16;
        readonly help: "reviewer agents per round (0: writer and debug loop only; Table 3's CoT / PoT rows also take `--max-debug-turns 0`: the writer alone, one call)";
    };
    readonly reasoning: {
        readonly type: "choice";
        readonly choices: readonly ["cot", "pot"];
        readonly default: "pot";
        readonly help: "writer reasoning: chain of thought, or a short program of thought before the SQL";
    };
    readonly maxDebugTurns: {
        readonly type: "int";
        readonly default: 3;
        readonly min: 0;
        readonly max: 20;
        readonly help: "execution-error rewrites per review round (3 is sqlmend's choice: the paper gives no value)";
    };
    readonly maxReviewTurns: {
        readonly type: "int";
        readonly default: 5;
        readonly min: 1;
        readonly max: 100;
        readonly help: "review rounds before stopping without consensus (5 is sqlmend's choice: the paper gives no value)";
    };
    readonly historyTokens: {
        readonly type: "int";
        readonly default: 12000;
        readonly min: 500;
        readonly help: "token budget of the writer's prompt; oldest turns are cut first, never the question and schema";
    };
    readonly resultRows: {
        readonly type: "int";
        readonly default: 10;
        readonly min: 1;
        readonly max: 200;
        readonly help: "result rows shown to reviewers";
    };
};
