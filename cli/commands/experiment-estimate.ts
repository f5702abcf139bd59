import type { KnownCalls, RecipeRun } from "../../runner/experiment.ts";

/** A run's calls per question by its graph's structure (filled in from the graphs' declared counts). */
export function expectedCallsOf(_run: RecipeRun): KnownCalls | undefined {
  return undefined;
}
