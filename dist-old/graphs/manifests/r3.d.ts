import { type CallBounds } from "./manifest.ts";
export declare const r3Manifest: {
    readonly name: "r3";
    readonly summary: "R³: a SQL writer with memory and n generated reviewer personas review, rebut and revise until consensus";
    readonly kind: "generator";
    readonly stateType: {
        readonly value: "R3StateValue";
        readonly update: "R3StateUpdate";
    };
    readonly slots: {
        readonly execute: {
            readonly summary: "run the SQL read-only";
            readonly reads: readonly ["dbPath", "sql"];
            readonly writes: readonly ["execution"];
            readonly requires: readonly ["execution"];
        };
        readonly debug: {
            readonly summary: "the writer rewrites SQL that failed to execute, the error appended to its history";
            readonly role: "writer";
            readonly reads: readonly ["question", "evidence", "schemaText", "shots", "history", "sql", "rounds", "writerReasks", "execution", "fixRounds", "roundDebugTurns"];
            readonly writes: readonly ["history", "sql", "fixRounds", "roundDebugTurns", "writerReasks"];
            readonly requires: readonly ["fixRounds", "roundDebugTurns"];
        };
        readonly persona: {
            readonly summary: "n reviewer professions suited to the schema and SQL, once per question";
            readonly role: "persona";
            readonly reads: readonly ["schemaText", "question", "evidence", "sql"];
            readonly writes: readonly ["personas", "personasStandby", "personasDropped"];
            readonly requires: readonly ["personas"];
        };
        readonly review: {
            readonly summary: "one reviewer, in its persona, reviews the SQL and its result table; n run in parallel (a Send each)";
            readonly role: "reviewer";
            readonly payload: "ReviewPayload";
            readonly reads: readonly ["reviewerIndex", "personas", "rounds", "schemaText", "question", "evidence", "sql", "execution"];
            readonly writes: readonly ["reviews"];
            readonly requires: readonly ["reviews"];
        };
        readonly revise: {
            readonly summary: "the writer reads the round's reviews and revises, or rebuts and keeps its SQL";
            readonly role: "writer";
            readonly reads: readonly ["question", "evidence", "schemaText", "shots", "history", "sql", "rounds", "writerReasks", "reviews", "dbPath", "descriptionDir"];
            readonly writes: readonly ["roundLog", "consensus", "sql", "rounds", "roundDebugTurns", "writerReasks", "history"];
            readonly requires: readonly ["rounds", "roundLog"];
        };
        readonly finish: {
            readonly summary: "records why the loop stopped";
            readonly reads: readonly ["roundLog", "rounds", "sql"];
            readonly writes: readonly ["stopReason", "stopKind"];
            readonly requires: readonly ["stopReason"];
        };
        readonly schema: {
            readonly summary: "describe the database for prompts (a given schemaText is left alone)";
            readonly reads: readonly ["dbPath", "descriptionDir", "question", "evidence", "schemaText", "linking"];
            readonly writes: readonly ["schemaText"];
        };
        readonly write: {
            readonly summary: "the writer's first SQL, with k similar training examples";
            readonly role: "writer";
            readonly reads: readonly ["question", "evidence", "dbId", "schemaText", "history", "sql", "rounds", "writerReasks"];
            readonly writes: readonly ["shots", "shotsRanking", "shotsPool", "history", "writerReasks", "sql"];
        };
    };
    readonly options: {
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
    readonly needsExamples: (options: Record<string, unknown>) => string | undefined;
    readonly calls: (options: Record<string, unknown>) => CallBounds;
};
export declare const r3ReviewManifest: {
    readonly name: "r3-review";
    readonly summary: "corrector: R³'s review loop (debug, personas, n reviewers, rebuttal or revision) on the given SQL";
    readonly kind: "corrector";
    readonly stateType: {
        readonly value: "R3StateValue";
        readonly update: "R3StateUpdate";
    };
    readonly slots: {
        readonly execute: {
            readonly summary: "run the SQL read-only";
            readonly reads: readonly ["dbPath", "sql"];
            readonly writes: readonly ["execution"];
            readonly requires: readonly ["execution"];
        };
        readonly debug: {
            readonly summary: "the writer rewrites SQL that failed to execute, the error appended to its history";
            readonly role: "writer";
            readonly reads: readonly ["question", "evidence", "schemaText", "shots", "history", "sql", "rounds", "writerReasks", "execution", "fixRounds", "roundDebugTurns"];
            readonly writes: readonly ["history", "sql", "fixRounds", "roundDebugTurns", "writerReasks"];
            readonly requires: readonly ["fixRounds", "roundDebugTurns"];
        };
        readonly persona: {
            readonly summary: "n reviewer professions suited to the schema and SQL, once per question";
            readonly role: "persona";
            readonly reads: readonly ["schemaText", "question", "evidence", "sql"];
            readonly writes: readonly ["personas", "personasStandby", "personasDropped"];
            readonly requires: readonly ["personas"];
        };
        readonly review: {
            readonly summary: "one reviewer, in its persona, reviews the SQL and its result table; n run in parallel (a Send each)";
            readonly role: "reviewer";
            readonly payload: "ReviewPayload";
            readonly reads: readonly ["reviewerIndex", "personas", "rounds", "schemaText", "question", "evidence", "sql", "execution"];
            readonly writes: readonly ["reviews"];
            readonly requires: readonly ["reviews"];
        };
        readonly revise: {
            readonly summary: "the writer reads the round's reviews and revises, or rebuts and keeps its SQL";
            readonly role: "writer";
            readonly reads: readonly ["question", "evidence", "schemaText", "shots", "history", "sql", "rounds", "writerReasks", "reviews", "dbPath", "descriptionDir"];
            readonly writes: readonly ["roundLog", "consensus", "sql", "rounds", "roundDebugTurns", "writerReasks", "history"];
            readonly requires: readonly ["rounds", "roundLog"];
        };
        readonly finish: {
            readonly summary: "records why the loop stopped";
            readonly reads: readonly ["roundLog", "rounds", "sql"];
            readonly writes: readonly ["stopReason", "stopKind"];
            readonly requires: readonly ["stopReason"];
        };
        readonly schema: {
            readonly summary: "describe the database for prompts (a given schemaText is left alone)";
            readonly reads: readonly ["dbPath", "descriptionDir", "question", "evidence", "schemaText", "linking"];
            readonly writes: readonly ["schemaText"];
        };
    };
    readonly options: {
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
    readonly calls: (options: Record<string, unknown>) => CallBounds;
};
