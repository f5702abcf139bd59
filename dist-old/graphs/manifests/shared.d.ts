/** The debug loop's bound (the shared `fix` slot), as `routeAfterExecute` reads it: the shared knob or its default. */
export declare const maxFixRoundsOf: (options: {
    maxFixRounds?: unknown;
}) => number;
/** One structured ask (`callStructured`): answered at once, or re-asked up to its attempts. */
export declare const STRUCTURED_CALLS: {
    readonly min: 1;
    readonly max: 3;
};
/** The shared state's types (`state/sql-state.ts`): the state of the graphs that add no field of their own. */
export declare const SQL_STATE: {
    readonly value: "SqlStateValue";
    readonly update: "SqlStateUpdate";
};
/**
 * The shared nodes' slots (factories in `graphs/slots.ts`), described once; a graph picks the ones it wires. They read
 * and write only the shared fields (`sqlStateFields`), which every graph's state spreads.
 */
export declare const SHARED_SLOT_INFO: {
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
