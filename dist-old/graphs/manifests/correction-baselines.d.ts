export declare const selfConsistencyManifest: {
    readonly name: "self-consistency";
    readonly summary: "corrector: N samples of the generation prompt, executed; the SQL of the most frequent result (Wang et al., 2022)";
    readonly kind: "corrector";
    readonly stateType: {
        readonly value: "VotingStateValue";
        readonly update: "VotingStateUpdate";
    };
    readonly options: {
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
    readonly slots: {
        readonly sample: {
            readonly summary: "write one SQL sample from the generation prompt and execute it: one candidate (a Send per sample)";
            readonly role: "sampler";
            readonly payload: "SamplePayload";
            readonly reads: readonly ["index", "question", "evidence", "dbPath", "schemaText", "tableOrder"];
            readonly writes: readonly ["candidates"];
            readonly requires: readonly ["candidates"];
        };
        readonly vote: {
            readonly summary: "the SQL of the most frequent execution result; fastest SQL on a tie; the initial SQL when no sample executes";
            readonly reads: readonly ["candidates", "initialSql"];
            readonly writes: readonly ["sql", "sampleVote"];
            readonly requires: readonly ["sql", "sampleVote"];
        };
        readonly execute: {
            readonly summary: "run the SQL read-only";
            readonly reads: readonly ["dbPath", "sql"];
            readonly writes: readonly ["execution"];
            readonly requires: readonly ["execution"];
        };
        readonly schema: {
            readonly summary: "describe the database for prompts (a given schemaText is left alone)";
            readonly reads: readonly ["dbPath", "descriptionDir", "question", "evidence", "schemaText", "linking"];
            readonly writes: readonly ["schemaText"];
        };
        readonly prompts: {
            readonly summary: "N samples of one generation prompt, one Send each";
            readonly reads: readonly ["sql", "question", "evidence", "dbPath", "schemaText"];
            readonly writes: readonly ["initialSql"];
            readonly returns: "Command";
            readonly routesTo: readonly ["sample"];
            readonly requires: readonly ["initialSql"];
        };
    };
    readonly calls: (options: Record<string, unknown>) => {
        min: number;
        max: number;
        typical: number;
    };
};
export declare const multiplePromptManifest: {
    readonly name: "multiple-prompt";
    readonly summary: "corrector: up to N prompts with the tables in different orders, executed; the SQL of the most frequent result (Lee et al., 2024)";
    readonly kind: "corrector";
    readonly stateType: {
        readonly value: "VotingStateValue";
        readonly update: "VotingStateUpdate";
    };
    readonly options: {
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
    readonly slots: {
        readonly sample: {
            readonly summary: "write one SQL sample from the generation prompt and execute it: one candidate (a Send per sample)";
            readonly role: "sampler";
            readonly payload: "SamplePayload";
            readonly reads: readonly ["index", "question", "evidence", "dbPath", "schemaText", "tableOrder"];
            readonly writes: readonly ["candidates"];
            readonly requires: readonly ["candidates"];
        };
        readonly vote: {
            readonly summary: "the SQL of the most frequent execution result; fastest SQL on a tie; the initial SQL when no sample executes";
            readonly reads: readonly ["candidates", "initialSql"];
            readonly writes: readonly ["sql", "sampleVote"];
            readonly requires: readonly ["sql", "sampleVote"];
        };
        readonly execute: {
            readonly summary: "run the SQL read-only";
            readonly reads: readonly ["dbPath", "sql"];
            readonly writes: readonly ["execution"];
            readonly requires: readonly ["execution"];
        };
        readonly prompts: {
            readonly summary: "the schema with its tables in up to N distinct orders, one prompt and one Send each";
            readonly reads: readonly ["sql", "question", "evidence", "dbId", "questionId", "dbPath", "descriptionDir"];
            readonly writes: readonly ["initialSql"];
            readonly returns: "Command";
            readonly routesTo: readonly ["sample"];
            readonly requires: readonly ["initialSql"];
        };
    };
    readonly calls: (options: Record<string, unknown>) => {
        min: number;
        max: number;
        typical: number;
        note: string;
    };
};
export declare const selfDebuggingManifest: {
    readonly name: "self-debugging";
    readonly summary: "corrector: explain the SQL and its execution, judge it, correct it from the explanation until judged correct (Chen et al., 2023)";
    readonly kind: "corrector";
    readonly stateType: {
        readonly value: "SelfDebuggingStateValue";
        readonly update: "SelfDebuggingStateUpdate";
    };
    readonly options: {
        readonly maxTurns: {
            readonly type: "int";
            readonly default: 10;
            readonly min: 1;
            readonly max: 50;
            readonly help: "debugging turns (SQL rewrites) at most (Chen et al.: 10)";
        };
    };
    readonly slots: {
        readonly schema: {
            readonly summary: "describe the database for prompts (a given schemaText is left alone)";
            readonly reads: readonly ["dbPath", "descriptionDir", "question", "evidence", "schemaText", "linking"];
            readonly writes: readonly ["schemaText"];
        };
        readonly execute: {
            readonly summary: "run the SQL read-only";
            readonly reads: readonly ["dbPath", "sql"];
            readonly writes: readonly ["execution"];
            readonly requires: readonly ["execution"];
        };
        readonly explain: {
            readonly summary: "explain the question and the SQL with its execution feedback; verdict correct or wrong";
            readonly role: "explainer";
            readonly reads: readonly ["schemaText", "question", "evidence", "sql", "execution", "rounds", "explanations"];
            readonly writes: readonly ["initialSql", "explanations", "verdict", "stopReason"];
            readonly requires: readonly ["verdict", "stopReason"];
        };
        readonly debug: {
            readonly summary: "correct the SQL from the explanation";
            readonly role: "debugger";
            readonly reads: readonly ["schemaText", "question", "evidence", "sql", "execution", "explanations", "rounds"];
            readonly writes: readonly ["sql", "rounds"];
            readonly requires: readonly ["rounds"];
        };
    };
    readonly calls: (options: Record<string, unknown>) => {
        min: number;
        max: number;
    };
};
