import type { Recipe } from "./experiment.ts";
export declare const CORRECTORS: readonly ["magic", "r3-review", "memo-refine", "ts-sql-refine", "repair"];
export declare const ALL_SCENARIOS: readonly ["all", "errors", "incorrect"];
/** Built-in recipes, by name. */
export declare const BUILT_IN_RECIPES: Record<string, Recipe>;
