/** The shared nodes' factories by slot (their summaries: `SHARED_SLOT_INFO` in the manifests); a graph picks the ones it wires. */
export declare const SHARED_FACTORIES: {
    link: import("../nodes/types.ts").NodeFactory;
    schema: import("../nodes/types.ts").NodeFactory;
    generate: import("../nodes/types.ts").NodeFactory;
    execute: import("../nodes/types.ts").NodeFactory;
    fix: import("../nodes/types.ts").NodeFactory;
};
/** The shared slots whole — contract and default factory — as `defineGraph` takes them: `slots: { schema: SHARED_SLOTS.schema, ... }`. */
export declare const SHARED_SLOTS: {
    link: {
        factory: import("../nodes/types.ts").NodeFactory;
        summary: "find the columns and stored values the question refers to";
        role: "linker";
        reads: readonly ["question", "evidence", "dbPath", "descriptionDir"];
        writes: readonly ["linking"];
    };
    schema: {
        factory: import("../nodes/types.ts").NodeFactory;
        summary: "describe the database for prompts (a given schemaText is left alone)";
        reads: readonly ["dbPath", "descriptionDir", "question", "evidence", "schemaText", "linking"];
        writes: readonly ["schemaText"];
    };
    generate: {
        factory: import("../nodes/types.ts").NodeFactory;
        summary: "write SQL for the question; with --few-shot, similar training questions as examples";
        role: "generator";
        reads: readonly ["question", "evidence", "schemaText", "dbId"];
        writes: readonly ["sql"];
    };
    execute: {
        factory: import("../nodes/types.ts").NodeFactory;
        summary: "run the SQL read-only";
        reads: readonly ["dbPath", "sql"];
        writes: readonly ["execution"];
        requires: readonly ["execution"];
    };
    fix: {
        factory: import("../nodes/types.ts").NodeFactory;
        summary: "repair SQL that failed to execute";
        role: "fixer";
        reads: readonly ["question", "evidence", "schemaText", "sql", "execution", "fixRounds"];
        writes: readonly ["sql", "fixRounds"];
        requires: readonly ["fixRounds"];
    };
};
