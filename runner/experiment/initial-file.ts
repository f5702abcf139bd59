import { opt, optionUsageError } from "../../core/config.ts";
import path from "node:path";
import { BASELINE_INITIAL } from "./built-in-recipes.ts";
import type { Recipe, RecipeRun } from "./recipe.ts";

/**
 * `--set initial=FILE` (for a recipe without its own {set:initial}): the recipe's run `initial`, whose SQL its
 * correctors correct, is replaced by FILE scored as given (as-given) — the paper's own initial SQL, e.g. DIN-SQL's —
 * and the correctors read FILE. The table's description says so.
 */
export function withInitialFile(recipe: Recipe, sets: Record<string, string>, cwd: string, setsOf: (run: RecipeRun) => string[]): { recipe: Recipe; initialFile?: string } {
  const value = sets.initial;
  if (value === undefined || Object.values(recipe.runs).some((r) => setsOf(r).includes("initial"))) return { recipe };
  const run = recipe.runs.initial;
  const readers = Object.entries(recipe.runs).filter(([, r]) => r.initial === "initial").map(([name]) => name);
  if (!run || run.kind !== "eval" || run.needs || !readers.length) throw optionUsageError`${opt("set")} initial=FILE: recipe ${recipe.name} has no run 'initial' whose SQL its correctors read (nor a {set:initial})`;
  const file = path.resolve(cwd, value);
  const said = `The initial SQL is ${value} (--set initial), scored as given: run initial did not run ${run.graph}, and ${readers.length} correctors read the file.`;
  // The file scored as given: no corrector, and no reference (it would be tested against itself).
  const replaced: RecipeRun = { kind: "eval", graph: "as-given", options: {}, initial: file, correct: "all", reference: false, ...(run.paper ? { paper: run.paper } : {}) };
  // A row that said its initial SQL was the baseline's now names the file instead (the initial row too).
  const named = (r: RecipeRun): RecipeRun => (r.paper?.differs?.includes(BASELINE_INITIAL) ? { ...r, paper: { ...r.paper, differs: r.paper.differs.replace(BASELINE_INITIAL, `${value} (--set initial)`) } } : r);
  const runs = Object.fromEntries(Object.entries(recipe.runs).map(([name, r]) => [name, named(name === "initial" ? replaced : r)]));
  return { recipe: { ...recipe, description: recipe.description ? `${recipe.description} ${said}` : said, runs }, initialFile: file };
}
