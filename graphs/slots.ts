import { executeNode, fixSqlNode, generateSqlNode, linkNode, loadSchemaNode } from "../nodes/index.ts";
import { SHARED_SLOT_INFO } from "./manifests/shared.ts";
import type { SlotSpec } from "./spec.ts";

/** The shared nodes as slots (summaries in the manifests' `SHARED_SLOT_INFO`); a graph picks the ones it wires. */
export const SHARED_SLOTS = {
  link: { ...SHARED_SLOT_INFO.link, factory: linkNode },
  schema: { ...SHARED_SLOT_INFO.schema, factory: loadSchemaNode },
  generate: { ...SHARED_SLOT_INFO.generate, factory: generateSqlNode },
  execute: { ...SHARED_SLOT_INFO.execute, factory: executeNode },
  fix: { ...SHARED_SLOT_INFO.fix, factory: fixSqlNode },
} satisfies Record<string, SlotSpec>;

/** The shared nodes' factories by slot, for `specOf`. */
export const SHARED_FACTORIES = {
  link: linkNode,
  schema: loadSchemaNode,
  generate: generateSqlNode,
  execute: executeNode,
  fix: fixSqlNode,
};
