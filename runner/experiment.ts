import { z } from "zod";
import { UserError } from "../core/errors.ts";
import { type EvalRecord, isFailed } from "./report.ts";

/**
 * `sqlmend experiment`'s recipe: named runs, each an eval of a graph (with its options, and for a corrector its
 * initial SQL — another run of the recipe, computed once and shared, or a predictions file — and its `--correct`
 * scenario) or a MAGIC guideline built on the train split. A value `{run:NAME}` in an option stands for NAME's
 * output folder (magic's `guideline: "{run:guideline}/guideline.md"`). The command runs them in dependency order,
 * each in OUT/<run>/ through the eval command's own code, and writes OUT/table.md and OUT/table.json from here.
 */

const OptionValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const RecipeRunSchema = z
  .object({
    kind: z.enum(["eval", "magic-guideline"]).default("eval"),
    /** eval: the graph (a generator, or a corrector with `initial`). */
    graph: z.string().min(1).optional(),
    /** Graph options and shared knobs by flag name, as on the command line: {"max-fix-rounds": 2, "no-react": true}. */
    options: z.record(z.string(), OptionValue).default({}),
    /** Correctors: another run of the recipe (a generator eval) or a predictions file. */
    initial: z.string().min(1).optional(),
    correct: z.enum(["all", "errors", "incorrect"]).optional(),
    /** eval: default dev; magic-guideline: train. */
    split: z.enum(["dev", "train"]).optional(),
  })
  .strict();
export type RecipeRun = z.infer<typeof RecipeRunSchema>;

export const RecipeSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    runs: z.record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "run names are letters, digits, '.', '_' and '-'"), RecipeRunSchema),
  })
  .strict();
export type Recipe = z.infer<typeof RecipeSchema>;

export const CORRECTORS = ["magic", "r3-review", "memo-refine", "ts-sql-refine", "repair"] as const;
export const SCENARIOS = ["all", "errors", "incorrect"] as const;

/** Built-in recipes, by name. */
export const BUILT_IN_RECIPES: Record<string, Recipe> = {
  correctors: {
    name: "correctors",
    description: "every corrector on the same initial SQL (baseline's) under MAGIC's three scenarios (Table 1); MAGIC's guideline learnt on the train split",
    runs: {
      initial: { kind: "eval", graph: "baseline", options: {} },
      guideline: { kind: "magic-guideline", options: {} },
      ...Object.fromEntries(
        CORRECTORS.flatMap((graph) =>
          SCENARIOS.map((scenario) => [
            `${graph}.${scenario}`,
            { kind: "eval" as const, graph, initial: "initial", correct: scenario, options: graph === "magic" ? { guideline: "{run:guideline}/guideline.md" } : {} },
          ]),
        ),
      ),
    },
  },
};

/** Parses a recipe (JSON text); one line naming the first problem. */
export function parseRecipe(text: string, source: string): Recipe {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${source}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = RecipeSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UserError(`${source}: ${issue.path.join(".") || "recipe"}: ${issue.message}`);
  }
  checkRecipe(parsed.data, source);
  return parsed.data;
}

const REF = /\{run:([^}]+)\}/g;

/** The runs a run needs first: its initial run and every `{run:NAME}` in its options. */
export function dependenciesOf(recipe: Recipe, name: string): string[] {
  const run = recipe.runs[name]!;
  const deps = new Set<string>();
  if (run.initial && recipe.runs[run.initial]) deps.add(run.initial);
  for (const value of Object.values(run.options).flat()) for (const m of String(value).matchAll(REF)) deps.add(m[1]!);
  return [...deps];
}

function checkRecipe(recipe: Recipe, source: string) {
  for (const [name, run] of Object.entries(recipe.runs)) {
    if (run.kind === "eval" && !run.graph) throw new UserError(`${source}: runs.${name}: an eval run names its graph`);
    if (run.kind === "magic-guideline" && (run.graph || run.correct)) throw new UserError(`${source}: runs.${name}: a magic-guideline run takes no graph or correct`);
    if (run.correct && !run.initial) throw new UserError(`${source}: runs.${name}: 'correct' needs 'initial'`);
    for (const dep of dependenciesOf(recipe, name)) {
      if (!recipe.runs[dep]) throw new UserError(`${source}: runs.${name}: no run '${dep}' in the recipe`);
    }
    const initial = run.initial && recipe.runs[run.initial];
    if (initial && (initial.kind !== "eval" || initial.initial)) throw new UserError(`${source}: runs.${name}: initial '${run.initial}' must be a generator eval of the recipe`);
  }
  orderRuns(recipe, source);
}

/** The runs in an order where every run comes after those it needs (recipe order otherwise); a cycle is an error. */
export function orderRuns(recipe: Recipe, source = "recipe"): string[] {
  const order: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (name: string, path: string[]) => {
    if (state.get(name) === "done") return;
    if (state.get(name) === "visiting") throw new UserError(`${source}: runs depend on each other: ${[...path, name].join(" → ")}`);
    state.set(name, "visiting");
    for (const dep of dependenciesOf(recipe, name)) visit(dep, [...path, name]);
    state.set(name, "done");
    order.push(name);
  };
  for (const name of Object.keys(recipe.runs)) visit(name, []);
  return order;
}

/** `{run:NAME}` → NAME's output folder. */
export const resolveRefs = (value: string, outOf: (run: string) => string) => value.replace(REF, (_, name: string) => outOf(name));

export interface RunRow {
  run: string;
  graph: string;
  initial: string | null;
  scenario: string | null;
  questions: number;
  correct: number;
  ex: number;
  /** Correctors with gold: EX of the initial SQL on the same questions, and the flips. */
  initialEx: number | null;
  wrongToRight: number | null;
  rightToWrong: number | null;
  correctionsApplied: number | null;
  tokensPerQuestion: number;
  callsPerQuestion: number;
  cachedCalls: number;
  calls: number;
  failed: number;
}

export function rowOf(run: string, spec: RecipeRun, records: EvalRecord[]): RunRow {
  // EX over the answered questions (a failed one has no answer; counted in `failed`), as eval's summary.
  const answered = records.filter((r) => !isFailed(r));
  const n = records.length;
  const correct = answered.filter((r) => r.correct).length;
  const known = records.filter((r) => r.initialCorrect !== undefined);
  const corrector = spec.initial !== undefined;
  const sum = (f: (r: EvalRecord) => number) => records.reduce((a, r) => a + f(r), 0);
  return {
    run,
    graph: spec.graph ?? spec.kind,
    initial: spec.initial ?? null,
    scenario: spec.correct ?? (corrector ? "all" : null),
    questions: n,
    correct,
    ex: answered.length ? (correct / answered.length) * 100 : 0,
    initialEx: corrector && known.length ? (known.filter((r) => r.initialCorrect).length / known.length) * 100 : null,
    wrongToRight: corrector ? known.filter((r) => !r.initialCorrect && r.correct).length : null,
    rightToWrong: corrector ? known.filter((r) => r.initialCorrect && !r.correct).length : null,
    correctionsApplied: corrector ? records.filter((r) => r.correction === "applied").length : null,
    tokensPerQuestion: n ? sum((r) => r.inputTokens + r.outputTokens) / n : 0,
    callsPerQuestion: n ? sum((r) => r.calls) / n : 0,
    cachedCalls: sum((r) => r.cachedCalls ?? 0),
    calls: sum((r) => r.calls),
    failed: records.filter(isFailed).length,
  };
}

const f2 = (n: number | null) => (n === null ? "-" : n.toFixed(2));

/** table.md: every eval run a row, then the correctors × scenarios grid of EX (with wrong→right / right→wrong). */
export function renderTable(recipe: Recipe, rows: RunRow[]): string {
  const lines = [`# sqlmend experiment: ${recipe.name}`, ""];
  if (recipe.description) lines.push(recipe.description, "");
  const correctors = rows.filter((r) => r.initial !== null);
  if (correctors.length) {
    const graphs = [...new Set(correctors.map((r) => r.graph))];
    const scenarios = [...new Set(correctors.map((r) => r.scenario!))];
    lines.push("## Correctors × scenarios: EX % (wrong → right / right → wrong)", "");
    lines.push(`| corrector | ${scenarios.join(" | ")} |`, `|---|${scenarios.map(() => "---:").join("|")}|`);
    for (const g of graphs) {
      const cells = scenarios.map((s) => {
        const r = correctors.find((x) => x.graph === g && x.scenario === s);
        return r ? `${f2(r.ex)} (+${r.wrongToRight ?? 0} / −${r.rightToWrong ?? 0})` : "";
      });
      lines.push(`| ${g} | ${cells.join(" | ")} |`);
    }
    const initials = [...new Set(correctors.map((r) => `${r.initial}: ${f2(r.initialEx)}`))];
    lines.push("", `Initial EX on the same questions: ${initials.join(", ")}`, "");
  }
  lines.push("## Runs", "", "| run | graph | initial | scenario | questions | EX % | initial EX % | wrong→right | right→wrong | corrected | tokens/q | calls/q | cached calls | failed |");
  lines.push("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    lines.push(
      `| ${r.run} | ${r.graph} | ${r.initial ?? ""} | ${r.scenario ?? ""} | ${r.questions} | ${f2(r.ex)} | ${f2(r.initialEx)} | ${r.wrongToRight ?? ""} | ${r.rightToWrong ?? ""} | ${r.correctionsApplied ?? ""} | ${Math.round(r.tokensPerQuestion)} | ${r.callsPerQuestion.toFixed(2)} | ${r.cachedCalls} of ${r.calls} | ${r.failed} |`,
    );
  }
  const calls = rows.reduce((n, r) => n + r.calls, 0);
  const cached = rows.reduce((n, r) => n + r.cachedCalls, 0);
  lines.push("", `Response cache over the eval runs: ${cached} of ${calls} model calls served (${calls ? ((cached / calls) * 100).toFixed(2) : "-"}%)`, "");
  return lines.join("\n");
}
