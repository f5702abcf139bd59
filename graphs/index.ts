import { baselineSpec } from "./baseline.ts";
import { repairSpec } from "./repair.ts";
import { memoSqlSpec } from "./memo-sql.ts";
import { memoRefineSpec } from "./memo-refine.ts";
import type { GraphSpec } from "./spec.ts";

/** Every graph the launcher can run. A new method adds its spec here and its module to langgraph.json. */
export const graphSpecs: GraphSpec[] = [baselineSpec, repairSpec, memoSqlSpec, memoRefineSpec];

export function findGraph(name: string): GraphSpec | undefined {
  return graphSpecs.find((spec) => spec.name === name);
}

export type { GraphSpec, BuildOptions } from "./spec.ts";
