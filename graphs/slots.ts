import { executeNode, fixSqlNode, generateSqlNode, linkNode, loadSchemaNode } from "../nodes/index.ts";
import type { SlotSpec } from "./spec.ts";

/** The shared nodes as slots, described once; a graph picks the ones it wires. */
export const SHARED_SLOTS = {
  link: { summary: "find the columns and stored values the question refers to (role: linker)", factory: linkNode },
  schema: { summary: "describe the database for prompts", factory: loadSchemaNode },
  generate: { summary: "write SQL for the question (role: generator)", factory: generateSqlNode },
  execute: { summary: "run the SQL read-only", factory: executeNode },
  fix: { summary: "repair SQL that failed to execute (role: fixer)", factory: fixSqlNode },
} satisfies Record<string, SlotSpec>;
