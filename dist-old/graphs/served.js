// Written by `npm run served` (scripts/served-graphs.js) from graphs/registry.ts: one factory per registered graph,
// as langgraph.json names them. Do not edit: register a graph in graphs/registry.ts and run `npm run served`.
import { servedGraph } from "./serve.js";
export const baseline = servedGraph("baseline");
export const repair = servedGraph("repair");
export const asGiven = servedGraph("as-given");
export const magic = servedGraph("magic");
export const magicFeedback = servedGraph("magic-feedback");
export const magicGuideline = servedGraph("magic-guideline");
export const r3 = servedGraph("r3");
export const r3Review = servedGraph("r3-review");
export const memoSql = servedGraph("memo-sql");
export const memoRefine = servedGraph("memo-refine");
export const tsSql = servedGraph("ts-sql");
export const tsSqlRefine = servedGraph("ts-sql-refine");
export const selfDebugging = servedGraph("self-debugging");
export const selfConsistency = servedGraph("self-consistency");
export const multiplePrompt = servedGraph("multiple-prompt");
