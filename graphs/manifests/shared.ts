import { DEFAULTS } from "../../nodes/defaults.ts";
import { STRUCTURED_MAX_ATTEMPTS } from "../../tools/models/structured-methods.ts";

/** The debug loop's bound (the shared `fix` slot), as `routeAfterExecute` reads it: the shared knob or its default. */
export const maxFixRoundsOf = (options: { maxFixRounds?: unknown }): number =>
  typeof options.maxFixRounds === "number" ? options.maxFixRounds : DEFAULTS.maxFixRounds;

/** One structured ask (`callStructured`): answered at once, or re-asked up to its attempts. */
export const STRUCTURED_CALLS = { min: 1, max: STRUCTURED_MAX_ATTEMPTS } as const;

/** The shared nodes' slots (factories in `graphs/slots.ts`), described once; a graph picks the ones it wires. */
export const SHARED_SLOT_INFO = {
  link: { summary: "find the columns and stored values the question refers to (role: linker)" },
  schema: { summary: "describe the database for prompts" },
  generate: { summary: "write SQL for the question (role: generator)" },
  execute: { summary: "run the SQL read-only", requires: ["execution"] },
  fix: { summary: "repair SQL that failed to execute (role: fixer)", requires: ["fixRounds"] },
} as const;
