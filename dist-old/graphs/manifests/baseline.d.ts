/** The baseline's own knobs (flags `--link`, ...). */
export declare const baselineOptions: {
    readonly link: {
        readonly type: "boolean";
        readonly default: false;
        readonly help: "link the question to columns and stored values first (slot link, role linker); the schema shows the matches";
    };
};
export declare const baselineManifest: {
    readonly name: "baseline";
    readonly summary: "generate SQL (zero- or few-shot), execute, fix execution errors up to N times";
    readonly kind: "generator";
    readonly stateType: {
        readonly value: "SqlStateValue";
        readonly update: "SqlStateUpdate";
    };
    readonly options: {
        readonly link: {
            readonly type: "boolean";
            readonly default: false;
            readonly help: "link the question to columns and stored values first (slot link, role linker); the schema shows the matches";
        };
    };
    readonly slots: {
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
        readonly execute: {
            readonly summary: "run the SQL read-only";
            readonly reads: readonly ["dbPath", "sql"];
            readonly writes: readonly ["execution"];
            readonly requires: readonly ["execution"];
        };
        readonly fix: {
            readonly summary: "repair SQL that failed to execute";
            readonly role: "fixer";
            readonly reads: readonly ["question", "evidence", "schemaText", "sql", "execution", "fixRounds"];
            readonly writes: readonly ["sql", "fixRounds"];
            readonly requires: readonly ["fixRounds"];
        };
    };
    readonly calls: (options: Record<string, unknown>) => {
        min: number;
        max: number;
        typical: number;
    };
};
export declare const repairManifest: {
    readonly name: "repair";
    readonly summary: "corrector: execute the given SQL and fix execution errors up to N times";
    readonly kind: "corrector";
    readonly stateType: {
        readonly value: "SqlStateValue";
        readonly update: "SqlStateUpdate";
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
        readonly fix: {
            readonly summary: "repair SQL that failed to execute";
            readonly role: "fixer";
            readonly reads: readonly ["question", "evidence", "schemaText", "sql", "execution", "fixRounds"];
            readonly writes: readonly ["sql", "fixRounds"];
            readonly requires: readonly ["fixRounds"];
        };
    };
    readonly calls: (options: Record<string, unknown>) => {
        min: number;
        max: number;
    };
};
export declare const asGivenManifest: {
    readonly name: "as-given";
    readonly summary: "corrector that changes nothing: executes the given SQL, so another system's predictions are scored, reported and compared like any run";
    readonly kind: "corrector";
    readonly stateType: {
        readonly value: "SqlStateValue";
        readonly update: "SqlStateUpdate";
    };
    readonly slots: {
        readonly execute: {
            readonly summary: "run the SQL read-only";
            readonly reads: readonly ["dbPath", "sql"];
            readonly writes: readonly ["execution"];
            readonly requires: readonly ["execution"];
        };
    };
    readonly calls: () => {
        min: number;
        max: number;
        typical: number;
    };
};
