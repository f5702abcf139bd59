import { DEFAULTS } from "../../nodes/defaults.js";
import { STRUCTURED_MAX_ATTEMPTS } from "../../tools/models/structured-methods.js";
/** The debug loop's bound (the shared `fix` slot), as `routeAfterExecute` reads it: the shared knob or its default. */
export const maxFixRoundsOf = (options) => typeof options.maxFixRounds === "number" ? options.maxFixRounds : DEFAULTS.maxFixRounds;
/** One structured ask (`callStructured`): answered at once, or re-asked up to its attempts. */
export const STRUCTURED_CALLS = { min: 1, max: STRUCTURED_MAX_ATTEMPTS };
/** The shared state's types (`state/sql-state.ts`): the state of the graphs that add no field of their own. */
export const SQL_STATE = { value: "SqlStateValue", update: "SqlStateUpdate" };
/**
 * The shared nodes' slots (factories in `graphs/slots.ts`), described once; a graph picks the ones it wires. They read
 * and write only the shared fields (`sqlStateFields`), which every graph's state spreads.
 */
export const SHARED_SLOT_INFO = {
    link: {
        summary: "find the columns and stored values the question refers to",
        role: "linker",
        reads: ["question", "evidence", "dbPath", "descriptionDir"],
        writes: ["linking"],
    },
    schema: {
        summary: "describe the database for prompts (a given schemaText is left alone)",
        reads: ["dbPath", "descriptionDir", "question", "evidence", "schemaText", "linking"],
        writes: ["schemaText"],
    },
    generate: {
        summary: "write SQL for the question; with --few-shot, similar training questions as examples",
        role: "generator",
        reads: ["question", "evidence", "schemaText", "dbId"],
        writes: ["sql"],
    },
    execute: { summary: "run the SQL read-only", reads: ["dbPath", "sql"], writes: ["execution"], requires: ["execution"] },
    fix: {
        summary: "repair SQL that failed to execute",
        role: "fixer",
        reads: ["question", "evidence", "schemaText", "sql", "execution", "fixRounds"],
        writes: ["sql", "fixRounds"],
        requires: ["fixRounds"],
    },
};
