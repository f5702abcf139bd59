/**
 * Sub-questions of one path at most (a longer decomposition is cut; the graph's step bound and the manifest's call
 * count rely on it).
 */
export declare const MAX_SUB_QUESTIONS = 6;
/** The correction module's knobs (memo-sql and memo-refine): Table 3's variants are `retrieval` values. */
export declare const MEMO_CORRECTION_OPTIONS: {
    readonly memory: {
        readonly type: "string";
        readonly metavar: "FILE";
        readonly help: "error-correction memory (sqlmend memo build); without one the critic works without memory";
    };
    readonly retrieval: {
        readonly type: "choice";
        readonly choices: readonly ["filtered", "top4", "random", "none"];
        readonly default: "filtered";
        readonly help: "memory shown to the critic: top 40 + subsumption filter, top 4 unfiltered, 4 at random, or none (direct correction)";
    };
    readonly refineRounds: {
        readonly type: "int";
        readonly default: 3;
        readonly min: 1;
        readonly max: 10;
        readonly help: "critic↔refiner rounds per candidate";
    };
    readonly noLinking: {
        readonly type: "boolean";
        readonly default: false;
        readonly help: "skip schema and value linking (Table 5: w/o schema linking); memo-refine's critic then sees what memo-sql's does under it";
    };
    readonly allowMemoryOverlap: {
        readonly type: "boolean";
        readonly default: false;
        readonly help: "run even when the memory holds entries made from the evaluated questions (their gold SQL can reach the critic); the report says so";
    };
};
/** memo-refine's knobs: the correction module's, and the candidates to correct (Table 3 corrects the same nine under every variant). */
export declare const MEMO_REFINE_OPTIONS: {
    readonly candidates: {
        readonly type: "string";
        readonly metavar: "FILE";
        readonly file: true;
        readonly help: "correct these candidates per question (sqlmend memo candidates, from a memo-sql run) instead of the initial SQL alone; the vote picks among them";
    };
    readonly memory: {
        readonly type: "string";
        readonly metavar: "FILE";
        readonly help: "error-correction memory (sqlmend memo build); without one the critic works without memory";
    };
    readonly retrieval: {
        readonly type: "choice";
        readonly choices: readonly ["filtered", "top4", "random", "none"];
        readonly default: "filtered";
        readonly help: "memory shown to the critic: top 40 + subsumption filter, top 4 unfiltered, 4 at random, or none (direct correction)";
    };
    readonly refineRounds: {
        readonly type: "int";
        readonly default: 3;
        readonly min: 1;
        readonly max: 10;
        readonly help: "critic↔refiner rounds per candidate";
    };
    readonly noLinking: {
        readonly type: "boolean";
        readonly default: false;
        readonly help: "skip schema and value linking (Table 5: w/o schema linking); memo-refine's critic then sees what memo-sql's does under it";
    };
    readonly allowMemoryOverlap: {
        readonly type: "boolean";
        readonly default: false;
        readonly help: "run even when the memory holds entries made from the evaluated questions (their gold SQL can reach the critic); the report says so";
    };
};
/** memo-sql's knobs; the booleans and `decomposition`/`styles` are Table 5's ablations. */
export declare const MEMO_SQL_OPTIONS: {
    readonly voteEmpty: {
        readonly type: "choice";
        readonly choices: readonly ["keep", "discard"];
        readonly default: "keep";
        readonly help: "empty results in the vote: keep (A.4) or discard (Alpha-SQL's protocol)";
    };
    readonly decomposition: {
        readonly type: "choice";
        readonly choices: readonly ["structured", "random"];
        readonly default: "structured";
        readonly help: "three paradigms, or random decompositions (Table 5)";
    };
    readonly noReact: {
        readonly type: "boolean";
        readonly default: false;
        readonly help: "final SQL from the sub-questions alone: no sub-SQL written, run or reflected on (Table 5: w/o ReAct+Reflect)";
    };
    readonly noReflect: {
        readonly type: "boolean";
        readonly default: false;
        readonly help: "act and observe each sub-question, without reflect/revise (a finer ablation than --no-react)";
    };
    readonly styles: {
        readonly type: "int";
        readonly default: 3;
        readonly min: 1;
        readonly max: 3;
        readonly help: "final SQL styles per path: flat JOIN, CTE, nested (Table 5: 1 = w/o multi-style)";
    };
    readonly noRefine: {
        readonly type: "boolean";
        readonly default: false;
        readonly help: "vote over the candidates as written (Table 5: w/o SQL refinement)";
    };
    readonly noIcl: {
        readonly type: "boolean";
        readonly default: false;
        readonly help: "no exemplars in final SQL generation (Table 5's ICL row)";
    };
    readonly exemplars: {
        readonly type: "int";
        readonly default: 5;
        readonly min: 0;
        readonly max: 20;
        readonly help: "training exemplars retrieved for final SQL generation";
    };
    readonly memory: {
        readonly type: "string";
        readonly metavar: "FILE";
        readonly help: "error-correction memory (sqlmend memo build); without one the critic works without memory";
    };
    readonly retrieval: {
        readonly type: "choice";
        readonly choices: readonly ["filtered", "top4", "random", "none"];
        readonly default: "filtered";
        readonly help: "memory shown to the critic: top 40 + subsumption filter, top 4 unfiltered, 4 at random, or none (direct correction)";
    };
    readonly refineRounds: {
        readonly type: "int";
        readonly default: 3;
        readonly min: 1;
        readonly max: 10;
        readonly help: "critic↔refiner rounds per candidate";
    };
    readonly noLinking: {
        readonly type: "boolean";
        readonly default: false;
        readonly help: "skip schema and value linking (Table 5: w/o schema linking); memo-refine's critic then sees what memo-sql's does under it";
    };
    readonly allowMemoryOverlap: {
        readonly type: "boolean";
        readonly default: false;
        readonly help: "run even when the memory holds entries made from the evaluated questions (their gold SQL can reach the critic); the report says so";
    };
};
