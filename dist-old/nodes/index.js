export { loadSchemaNode } from "./schema.js";
export { executeNode, executeSql } from "./execute.js";
export { generateSqlNode } from "./generate.js";
export { fixSqlNode } from "./fix.js";
export { linkNode } from "./link.js";
export { withCalls, writeSqlStep, DEFAULTS } from "./common.js";
