import { baselineSpec } from "./baseline.ts";
import { multiplePromptSpec, selfConsistencySpec, selfDebuggingSpec } from "./correction-baselines.ts";
import { asGivenSpec, repairSpec } from "./repair.ts";
import { magicSpec } from "./magic.ts";
import { magicFeedbackSpec } from "./magic-feedback.ts";
import { magicGuidelineSpec } from "./magic-guideline.ts";
import { memoRefineSpec } from "./memo-refine.ts";
import { memoSqlSpec } from "./memo-sql.ts";
import { r3ReviewSpec, r3Spec } from "./r3.ts";
import { tsSqlRefineSpec, tsSqlSpec } from "./ts-sql.ts";
import type { GraphSpec } from "./spec.ts";

/** Every graph the launcher can run. A new method adds its spec here and its module to langgraph.json. */
export const graphSpecs: GraphSpec[] = [
  baselineSpec,
  repairSpec,
  asGivenSpec,
  magicSpec,
  magicFeedbackSpec,
  magicGuidelineSpec,
  r3Spec,
  r3ReviewSpec,
  memoSqlSpec,
  memoRefineSpec,
  tsSqlSpec,
  tsSqlRefineSpec,
  selfDebuggingSpec,
  selfConsistencySpec,
  multiplePromptSpec,
];

export function findGraph(name: string): GraphSpec | undefined {
  return graphSpecs.find((spec) => spec.name === name);
}

export type { GraphSpec, BuildOptions } from "./spec.ts";
