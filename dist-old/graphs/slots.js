import { executeNode, fixSqlNode, generateSqlNode, linkNode, loadSchemaNode } from "../nodes/index.js";
import { SHARED_SLOT_INFO } from "./manifests/shared.js";
/** The shared nodes' factories by slot (their summaries: `SHARED_SLOT_INFO` in the manifests); a graph picks the ones it wires. */
export const SHARED_FACTORIES = {
    link: linkNode,
    schema: loadSchemaNode,
    generate: generateSqlNode,
    execute: executeNode,
    fix: fixSqlNode,
};
/** The shared slots whole — contract and default factory — as `defineGraph` takes them: `slots: { schema: SHARED_SLOTS.schema, ... }`. */
export const SHARED_SLOTS = {
    link: { ...SHARED_SLOT_INFO.link, factory: linkNode },
    schema: { ...SHARED_SLOT_INFO.schema, factory: loadSchemaNode },
    generate: { ...SHARED_SLOT_INFO.generate, factory: generateSqlNode },
    execute: { ...SHARED_SLOT_INFO.execute, factory: executeNode },
    fix: { ...SHARED_SLOT_INFO.fix, factory: fixSqlNode },
};
