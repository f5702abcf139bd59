import { type SlotRule } from "./manifest.ts";
export declare const memoSqlManifest: {
    readonly name: "memo-sql";
    readonly summary: "Memo-SQL: 3 decompositions × ReAct+Reflect × 3 SQL styles, memory-guided critic↔refiner, majority vote";
    readonly kind: "generator";
    readonly stateType: {
        readonly value: "MemoStateValue";
        readonly update: "MemoStateUpdate";
    };
    readonly options: {
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
    readonly needsExamples: (values: Record<string, unknown>) => string | undefined;
    readonly slots: {
        readonly vote: {
            readonly reads: readonly ["candidates"];
            readonly writes: readonly ["sql", "execution", "memoVote"];
            readonly returns: "Command";
            readonly routesTo: readonly ["__end__", "nowhere (goto: []) while candidates are pending"];
            readonly rules: readonly [SlotRule];
            readonly summary: "gate: wait for every candidate to be final, then majority vote over results";
        };
        readonly critic: {
            readonly summary: "memory-guided verdict on a candidate: wrong?, error types, suggestions";
            readonly role: "critic";
            readonly payload: "CandidatePayload";
            readonly reads: readonly ["ctx", "candidate", "round"];
            readonly writes: readonly ["candidates"];
            readonly returns: "Command";
            readonly routesTo: readonly ["refine", "vote"];
            readonly rules: readonly [SlotRule];
        };
        readonly refine: {
            readonly summary: "rewrite a candidate per the critic's verdict, and execute it";
            readonly role: "refiner";
            readonly payload: "CandidatePayload";
            readonly reads: readonly ["ctx", "candidate", "round", "verdict"];
            readonly writes: readonly ["candidates", "rounds"];
            readonly returns: "Command";
            readonly routesTo: readonly ["critic", "vote"];
            readonly rules: readonly [SlotRule];
        };
        readonly link: {
            readonly summary: "find the columns and stored values the question refers to";
            readonly role: "linker";
            readonly reads: readonly ["question", "evidence", "dbPath", "descriptionDir"];
            readonly writes: readonly ["linking"];
        };
        readonly schema: {
            readonly summary: "describe the database for prompts (a given schemaText is left alone)";
            readonly reads: readonly ["dbPath", "descriptionDir", "question", "evidence", "schemaText", "linking"];
            readonly writes: readonly ["schemaText"];
        };
        readonly decompose: {
            readonly summary: "one decomposition per paradigm, or the fallback; then the path's first step";
            readonly role: "decomposer";
            readonly payload: "DecomposePayload";
            readonly reads: readonly ["ctx", "strategy"];
            readonly writes: readonly ["memoPlans"];
            readonly returns: "Command";
            readonly routesTo: readonly ["paths"];
        };
        readonly paths: {
            readonly summary: "gate: wait for every plan; identical plans are solved once, their candidates shared";
            readonly reads: readonly ["memoPlans", "questionId", "dbId", "question", "evidence", "dbPath", "schemaText", "linking"];
            readonly writes: readonly ["memoPlans"];
            readonly returns: "Command";
            readonly routesTo: readonly ["act", "write", "nowhere (goto: []) while plans are pending"];
        };
        readonly act: {
            readonly summary: "reason → sub-SQL → execute for one sub-question";
            readonly role: "solver";
            readonly payload: "PathPayload";
            readonly reads: readonly ["ctx", "strategy", "plan", "index", "steps"];
            readonly writes: readonly ["memoSteps"];
            readonly returns: "Command";
            readonly routesTo: readonly ["act", "reflect", "write"];
        };
        readonly reflect: {
            readonly summary: "check the current sub-SQL against the earlier steps";
            readonly role: "reflector";
            readonly payload: "PathPayload";
            readonly reads: readonly ["ctx", "strategy", "plan", "index", "steps"];
            readonly writes: readonly ["memoSteps"];
            readonly returns: "Command";
            readonly routesTo: readonly ["act", "revise", "write"];
        };
        readonly revise: {
            readonly summary: "rewrite a sub-SQL once after a reflection found a problem";
            readonly role: "solver";
            readonly payload: "PathPayload";
            readonly reads: readonly ["ctx", "strategy", "plan", "index", "steps"];
            readonly writes: readonly ["memoSteps"];
            readonly returns: "Command";
            readonly routesTo: readonly ["act", "write"];
        };
        readonly write: {
            readonly summary: "final SQL of a path in one style, with retrieved exemplars, executed: one candidate";
            readonly role: "writer";
            readonly payload: "WritePayload";
            readonly reads: readonly ["ctx", "strategy", "steps", "style", "order", "plan"];
            readonly writes: readonly ["candidates"];
            readonly returns: "Command";
            readonly routesTo: readonly ["collect"];
        };
        readonly collect: {
            readonly summary: "gate: wait for every candidate, then one critic each";
            readonly reads: readonly ["candidates", "questionId", "dbId", "question", "evidence", "dbPath", "schemaText", "linking"];
            readonly writes: readonly ["candidates"];
            readonly returns: "Command";
            readonly routesTo: readonly ["critic", "vote", "nowhere (goto: []) while candidates are pending"];
            readonly rules: readonly [SlotRule];
        };
    };
    readonly calls: (options: Record<string, unknown>) => {
        min: number;
        max: number;
    };
};
export declare const memoRefineManifest: {
    readonly name: "memo-refine";
    readonly summary: "corrector: Memo-SQL's memory-guided critic↔refiner loop on the given SQL";
    readonly kind: "corrector";
    readonly stateType: {
        readonly value: "MemoStateValue";
        readonly update: "MemoStateUpdate";
    };
    readonly options: {
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
    readonly slots: {
        readonly vote: {
            readonly reads: readonly ["candidates"];
            readonly writes: readonly ["sql", "execution", "memoVote"];
            readonly returns: "Command";
            readonly routesTo: readonly ["__end__", "nowhere (goto: []) while candidates are pending"];
            readonly rules: readonly [SlotRule];
            readonly summary: "the final candidate (the vote over one)";
        };
        readonly critic: {
            readonly summary: "memory-guided verdict on a candidate: wrong?, error types, suggestions";
            readonly role: "critic";
            readonly payload: "CandidatePayload";
            readonly reads: readonly ["ctx", "candidate", "round"];
            readonly writes: readonly ["candidates"];
            readonly returns: "Command";
            readonly routesTo: readonly ["refine", "vote"];
            readonly rules: readonly [SlotRule];
        };
        readonly refine: {
            readonly summary: "rewrite a candidate per the critic's verdict, and execute it";
            readonly role: "refiner";
            readonly payload: "CandidatePayload";
            readonly reads: readonly ["ctx", "candidate", "round", "verdict"];
            readonly writes: readonly ["candidates", "rounds"];
            readonly returns: "Command";
            readonly routesTo: readonly ["critic", "vote"];
            readonly rules: readonly [SlotRule];
        };
        readonly link: {
            readonly summary: "find the columns and stored values the question refers to";
            readonly role: "linker";
            readonly reads: readonly ["question", "evidence", "dbPath", "descriptionDir"];
            readonly writes: readonly ["linking"];
        };
        readonly schema: {
            readonly summary: "describe the database for prompts (a given schemaText is left alone)";
            readonly reads: readonly ["dbPath", "descriptionDir", "question", "evidence", "schemaText", "linking"];
            readonly writes: readonly ["schemaText"];
        };
        readonly seed: {
            readonly summary: "execute the given SQL as the one candidate, or the question's candidates from --candidates";
            readonly reads: readonly ["sql", "questionId", "dbId", "question", "evidence", "dbPath", "schemaText"];
            readonly writes: readonly ["candidates", "execution"];
            readonly returns: "Command";
            readonly routesTo: readonly ["critic", "vote"];
            readonly rules: readonly [SlotRule];
        };
    };
    readonly calls: (options: Record<string, unknown>) => {
        min: number;
        max: number;
    } | {
        note: string;
        min: number;
        max: number;
    };
};
