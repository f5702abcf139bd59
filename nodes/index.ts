export { lineSchemaNode, loadSchemaNode } from "./schema.ts";
export { executeNode, executeSql } from "./execute.ts";
export { generateSqlNode } from "./generate.ts";
export { fixSqlNode } from "./fix.ts";
export { linkNode } from "./link.ts";
export { withCalls, writeSqlStep, DEFAULTS } from "./common.ts";
export type { NodeDeps, NodeFactory, GraphOptions, SqlNode } from "./types.ts";
