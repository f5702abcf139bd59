import { type CallBounds, type SlotRule } from "./manifest.ts";
/** TS-SQL as a generator: its own initial SQL (A.1), then the test case and Algorithm 1's revision loop. */
export declare const tsSqlManifest: {
    readonly name: "ts-sql";
    readonly summary: "TS-SQL: synthetic test data and voted test code (sandboxed JavaScript) drive SQL revision";
    readonly kind: "generator";
    readonly stateType: {
        readonly value: "TsSqlStateValue";
        readonly update: "TsSqlStateUpdate";
    };
    readonly slots: {
        readonly execute: {
            readonly summary: "run the SQL read-only";
            readonly reads: readonly ["dbPath", "sql"];
            readonly writes: readonly ["execution"];
            readonly requires: readonly ["execution"];
        };
        readonly data: {
            readonly summary: "write synthetic test rows for the relevant tables (the last turn's problems sent back)";
            readonly role: "data";
            readonly reads: readonly ["question", "evidence", "dbPath", "descriptionDir", "linking", "sql", "testData", "dataRounds", "attempts"];
            readonly writes: readonly ["testData", "dataRounds", "lastPrompts", "dataStopReason"];
            readonly requires: readonly ["dataRounds"];
        };
        readonly sample: {
            readonly summary: "ablation --no-data-agent schema|sample: sample test rows from the real database";
            readonly reads: readonly ["questionId", "question", "dbPath", "descriptionDir", "linking", "sql", "dataRounds"];
            readonly writes: readonly ["testData", "dataRounds"];
            readonly requires: readonly ["testData", "dataRounds"];
        };
        readonly check: {
            readonly summary: "load the rows into an in-memory copy of the schema; schema violations, coverage and non-duality gaps";
            readonly reads: readonly ["testData", "dbPath", "descriptionDir", "linking", "sql"];
            readonly writes: readonly ["testData"];
        };
        readonly coder: {
            readonly summary: "one coder model writes JavaScript computing the expected answer (a Send per coder model, with coderTask)";
            readonly role: "coder";
            readonly payload: "TsSqlStateValue";
            readonly reads: readonly ["coderTask", "codeCandidates", "testData", "question", "evidence", "dbId", "dbPath", "descriptionDir"];
            readonly writes: readonly ["codeCandidates"];
            readonly returns: "Command";
            readonly routesTo: readonly ["inspect"];
        };
        readonly inspect: {
            readonly summary: "run the test code in the sandbox; errors and implausible results back to the coder";
            readonly payload: "TsSqlStateValue";
            readonly reads: readonly ["coderTask", "codeCandidates", "testData", "sql"];
            readonly writes: readonly ["codeCandidates"];
            readonly returns: "Command";
            readonly routesTo: readonly ["coder", "vote"];
            readonly rules: readonly [SlotRule];
        };
        readonly vote: {
            readonly summary: "a gate: {} while other coder models are at work; then choose among their test codes (majority or A/B selection) and route to test (execute without usable code) with a Command";
            readonly role: "selector";
            readonly reads: readonly ["codeCandidates", "testData", "question", "evidence", "dbPath", "descriptionDir", "sql"];
            readonly writes: readonly ["testCode"];
            readonly rules: readonly [SlotRule];
        };
        readonly test: {
            readonly summary: "run the SQL on the test data and compare with the expected result (Algorithm 1)";
            readonly reads: readonly ["sql", "initialSql", "dbPath", "testCode", "testData", "rounds", "lastRunnableSql", "stopReason"];
            readonly writes: readonly ["initialSql", "testRun", "lastRunnableSql", "sql"];
            readonly requires: readonly ["testRun", "initialSql"];
        };
        readonly revise: {
            readonly summary: "revise the SQL from the failed test case (never a row of the real database)";
            readonly role: "reviser";
            readonly reads: readonly ["question", "evidence", "dbPath", "descriptionDir", "testRun", "testData", "testCode", "sql", "rounds"];
            readonly writes: readonly ["sql", "rounds", "lastPrompts", "stopReason"];
            readonly requires: readonly ["rounds"];
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
        readonly generate: {
            readonly summary: "write SQL for the question; with --few-shot, similar training questions as examples";
            readonly role: "generator";
            readonly reads: readonly ["question", "evidence", "schemaText", "dbId"];
            readonly writes: readonly ["sql"];
        };
    };
    readonly options: {
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
    readonly calls: (options: Record<string, unknown>) => CallBounds;
};
/** TS-SQL as a corrector (Table 5): builds the test case for the given SQL and revises it. */
export declare const tsSqlRefineManifest: {
    readonly name: "ts-sql-refine";
    readonly summary: "corrector: TS-SQL's test case and revision loop on given SQL (Table 5)";
    readonly kind: "corrector";
    readonly stateType: {
        readonly value: "TsSqlStateValue";
        readonly update: "TsSqlStateUpdate";
    };
    readonly slots: {
        readonly execute: {
            readonly summary: "run the SQL read-only";
            readonly reads: readonly ["dbPath", "sql"];
            readonly writes: readonly ["execution"];
            readonly requires: readonly ["execution"];
        };
        readonly data: {
            readonly summary: "write synthetic test rows for the relevant tables (the last turn's problems sent back)";
            readonly role: "data";
            readonly reads: readonly ["question", "evidence", "dbPath", "descriptionDir", "linking", "sql", "testData", "dataRounds", "attempts"];
            readonly writes: readonly ["testData", "dataRounds", "lastPrompts", "dataStopReason"];
            readonly requires: readonly ["dataRounds"];
        };
        readonly sample: {
            readonly summary: "ablation --no-data-agent schema|sample: sample test rows from the real database";
            readonly reads: readonly ["questionId", "question", "dbPath", "descriptionDir", "linking", "sql", "dataRounds"];
            readonly writes: readonly ["testData", "dataRounds"];
            readonly requires: readonly ["testData", "dataRounds"];
        };
        readonly check: {
            readonly summary: "load the rows into an in-memory copy of the schema; schema violations, coverage and non-duality gaps";
            readonly reads: readonly ["testData", "dbPath", "descriptionDir", "linking", "sql"];
            readonly writes: readonly ["testData"];
        };
        readonly coder: {
            readonly summary: "one coder model writes JavaScript computing the expected answer (a Send per coder model, with coderTask)";
            readonly role: "coder";
            readonly payload: "TsSqlStateValue";
            readonly reads: readonly ["coderTask", "codeCandidates", "testData", "question", "evidence", "dbId", "dbPath", "descriptionDir"];
            readonly writes: readonly ["codeCandidates"];
            readonly returns: "Command";
            readonly routesTo: readonly ["inspect"];
        };
        readonly inspect: {
            readonly summary: "run the test code in the sandbox; errors and implausible results back to the coder";
            readonly payload: "TsSqlStateValue";
            readonly reads: readonly ["coderTask", "codeCandidates", "testData", "sql"];
            readonly writes: readonly ["codeCandidates"];
            readonly returns: "Command";
            readonly routesTo: readonly ["coder", "vote"];
            readonly rules: readonly [SlotRule];
        };
        readonly vote: {
            readonly summary: "a gate: {} while other coder models are at work; then choose among their test codes (majority or A/B selection) and route to test (execute without usable code) with a Command";
            readonly role: "selector";
            readonly reads: readonly ["codeCandidates", "testData", "question", "evidence", "dbPath", "descriptionDir", "sql"];
            readonly writes: readonly ["testCode"];
            readonly rules: readonly [SlotRule];
        };
        readonly test: {
            readonly summary: "run the SQL on the test data and compare with the expected result (Algorithm 1)";
            readonly reads: readonly ["sql", "initialSql", "dbPath", "testCode", "testData", "rounds", "lastRunnableSql", "stopReason"];
            readonly writes: readonly ["initialSql", "testRun", "lastRunnableSql", "sql"];
            readonly requires: readonly ["testRun", "initialSql"];
        };
        readonly revise: {
            readonly summary: "revise the SQL from the failed test case (never a row of the real database)";
            readonly role: "reviser";
            readonly reads: readonly ["question", "evidence", "dbPath", "descriptionDir", "testRun", "testData", "testCode", "sql", "rounds"];
            readonly writes: readonly ["sql", "rounds", "lastPrompts", "stopReason"];
            readonly requires: readonly ["rounds"];
        };
        readonly link: {
            readonly summary: "find the columns and stored values the question refers to";
            readonly role: "linker";
            readonly reads: readonly ["question", "evidence", "dbPath", "descriptionDir"];
            readonly writes: readonly ["linking"];
        };
    };
    readonly options: {
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
    readonly calls: (options: Record<string, unknown>) => CallBounds;
};
