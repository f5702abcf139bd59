import { executeNode, fixSqlNode, generateSqlNode, linkNode, loadSchemaNode } from "../nodes/index.ts";

/** The shared nodes' factories by slot (their summaries: `SHARED_SLOT_INFO` in the manifests); a graph picks the ones it wires. */
export const SHARED_FACTORIES = {
  link: linkNode,
  schema: loadSchemaNode,
  generate: generateSqlNode,
  execute: executeNode,
  fix: fixSqlNode,
};
