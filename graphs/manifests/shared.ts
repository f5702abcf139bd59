/** The shared nodes' slots (factories in `graphs/slots.ts`), described once; a graph picks the ones it wires. */
export const SHARED_SLOT_INFO = {
  link: { summary: "find the columns and stored values the question refers to (role: linker)" },
  schema: { summary: "describe the database for prompts" },
  generate: { summary: "write SQL for the question (role: generator)" },
  execute: { summary: "run the SQL read-only", requires: ["execution"] },
  fix: { summary: "repair SQL that failed to execute (role: fixer)", requires: ["fixRounds"] },
} as const;
