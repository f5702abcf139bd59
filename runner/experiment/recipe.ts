import { opt, optionUsageError } from "../../core/config.ts";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { isMap, isScalar, LineCounter, parseDocument } from "yaml";
import { firstLineOf, UserError } from "../../core/errors.ts";

/**
 * `sqlmend experiment`'s recipe: named runs, each an eval of a graph (with its options, and for a corrector its
 * initial SQL — another run of the recipe, computed once and shared, or a predictions file — and its `--correct`
 * scenario) or a MAGIC guideline built on the train split. A value `{run:NAME}` in an option stands for NAME's
 * output folder (magic's `guideline: "{run:guideline}/guideline.md"`). The command runs them in dependency order,
 * each in OUT/<run>/ through the eval command's own code; its rows and table.md come from experiment-table.ts, the
 * --dry-run estimate from experiment-plan.ts.
 */

const OptionValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

/** The paper's reported figures for a run's row: where from (table, benchmark), with which model, and the numbers. */
export const PaperSchema = z
  .object({
    /** e.g. "MAGIC Table 1, BIRD dev, T column". */
    source: z.string().min(1),
    /** The paper's model name(s), as the paper writes them. */
    model: z.string().min(1),
    /** The paper's row name. */
    row: z.string().min(1),
    /** The reported figures by name ("EX", "GPT-4 Spider", "VES", ...). */
    figures: z.record(z.string(), z.number()).default({}),
    note: z.string().optional(),
    /** How this row's set-up differs from the paper row's, beyond the model, benchmark and --limit every row shares:
     * printed in the row itself (table.md, table.json). */
    differs: z.string().min(1).optional(),
  })
  .strict();
export type Paper = z.infer<typeof PaperSchema>;

export const RecipeRunSchema = z
  .object({
    /**
     * eval; magic-guideline (`sqlmend magic guideline`, train split); memo-build (`sqlmend memo build` on the train
     * split into OUT/<run>/memory.sqlite); memo-candidates (`sqlmend memo candidates` of the memo-sql run `from` into
     * OUT/<run>/candidates.json).
     */
    kind: z.enum(["eval", "magic-guideline", "memo-build", "memo-candidates"]).default("eval"),
    /** eval: the graph (a generator, or a corrector with `initial`). */
    graph: z.string().min(1).optional(),
    /** Graph options and shared knobs by flag name, as on the command line: {"max-fix-rounds": 2, "no-react": true}. */
    options: z.record(z.string(), OptionValue).default({}),
    /** Correctors: another run of the recipe (a generator eval) or a predictions file. */
    initial: z.string().min(1).optional(),
    correct: z.enum(["all", "errors", "incorrect"]).optional(),
    /** eval: default dev; magic-guideline: train. */
    split: z.enum(["dev", "train"]).optional(),
    /** memo-candidates: the memo-sql eval run whose candidates are exported. */
    from: z.string().min(1).optional(),
    /** What the run needs that sqlmend does not have (a method): never run, its row printed with this reason. */
    needs: z.string().min(1).optional(),
    paper: PaperSchema.optional(),
    /**
     * The row this run's EX is tested against (a planned comparison: exact McNemar, Holm over the recipe's planned
     * ones): another eval run of the recipe (an ablation against the full method); by default a corrector's own
     * initial SQL; false for none (another system's predictions scored as they are).
     */
    reference: z.union([z.string().min(1), z.literal(false)]).optional(),
    /**
     * Metrics beyond EX the paper reports for this row, computed on the run's predictions after it ran (as `sqlmend
     * score --metrics` does): ves, r-ves, soft-f1, ts (test-suite accuracy: needs the experiment's --ts-dir). A metric
     * whose data is not given is printed "not computed", with what it needs.
     */
    metrics: z.array(z.enum(["ves", "r-ves", "soft-f1", "ts"])).min(1).optional(),
  })
  .strict();
export type RecipeRun = z.infer<typeof RecipeRunSchema>;

/**
 * The table to print first (table.md's "Table"): which runs as rows (default every eval run, recipe order) and which
 * columns: ex, initial-ex, wrong-to-right, right-to-wrong, tokens, calls, cost, failed, difficulty:NAME (EX on that
 * difficulty, e.g. difficulty:simple), paper:FIGURE (the paper's figure of that name for the row), metric:NAME (a
 * metric of the run's `metrics`) or differs (how the row's set-up differs from the paper's).
 */
export const TableSpecSchema = z
  .object({
    title: z.string().min(1).optional(),
    rows: z.array(z.string().min(1)).min(1).optional(),
    columns: z.array(z.string().regex(/^(ex|initial-ex|wrong-to-right|right-to-wrong|tokens|calls|cost|failed|differs|difficulty:.+|paper:.+|metric:(ves|r-ves|soft-f1|ts))$/, "a column is ex, initial-ex, wrong-to-right, right-to-wrong, tokens, calls, cost, failed, differs, difficulty:NAME, paper:FIGURE or metric:ves|r-ves|soft-f1|ts")).min(1).optional(),
  })
  .strict();
export type TableSpec = z.infer<typeof TableSpecSchema>;

export const RecipeSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    table: TableSpecSchema.optional(),
    /** What it reproduces, for `sqlmend experiment --list`. */
    reproduces: z.string().optional(),
    runs: z.record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "run names are letters, digits, '.', '_' and '-'"), RecipeRunSchema),
  })
  .strict();
export type Recipe = z.infer<typeof RecipeSchema>;



/**
 * Parses a recipe file, YAML or JSON (JSON is YAML): one line naming the file, the line and the field of the first
 * problem (`recipe.yaml:7: runs.a.correct: ...`).
 */
export const parseRecipe = (text: string, source: string): Recipe => readRecipe(text, source).recipe;

/** parseRecipe, with where each run is in the file (`:LINE`, for later checks' messages). */
export function readRecipe(text: string, source: string): { recipe: Recipe; lineOf: (at: PropertyKey[], key?: string) => string } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length) {
    const error = doc.errors[0]!;
    const at = lines.linePos(error.pos[0]);
    throw new UserError(`${source}:${at.line}: not YAML or JSON (${error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")})`);
  }
  // The line of the node at a path, or of its nearest ancestor present (a missing field names its run's line).
  const lineOf = (at: PropertyKey[]): string => {
    for (let n = at.length; n >= 0; n--) {
      const node = doc.getIn(at.slice(0, n) as unknown[], true) as { range?: [number, number, number] } | undefined;
      if (node && typeof node === "object" && node.range) return `:${lines.linePos(node.range[0]).line}`;
    }
    return "";
  };
  const keyLine = (at: PropertyKey[], key: string): string => {
    const map = doc.getIn(at as unknown[], true);
    const pair = isMap(map) ? map.items.find((p) => isScalar(p.key) && p.key.value === key) : undefined;
    const range = pair && isScalar(pair.key) ? pair.key.range : undefined;
    return range ? `:${lines.linePos(range[0]).line}` : lineOf(at);
  };
  const where = (at: PropertyKey[], key?: string) => (key === undefined ? lineOf(at) : keyLine(at, key));
  return { recipe: validateRecipe(doc.toJS(), source, where), lineOf: where };
}

/** Checks a recipe object (a built-in, or a parsed file with `lineOf` naming where a path is). */
export function validateRecipe(raw: unknown, source: string, lineOf: (at: PropertyKey[], key?: string) => string = () => ""): Recipe {
  const parsed = RecipeSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const unknownKey = issue.code === "unrecognized_keys" ? issue.keys[0] : undefined;
    const field = [...issue.path, ...(unknownKey ? [unknownKey] : [])].join(".") || "recipe";
    throw new UserError(`${source}${lineOf(issue.path, unknownKey)}: ${field}: ${issue.message}`);
  }
  checkRecipe(parsed.data, source, (run) => lineOf(["runs"], run));
  return parsed.data;
}

const REF = /\{run:([^}]+)\}/g;
const SET = /\{set:([^}]+)\}/g;

/**
 * What a run's row is tested against (its planned comparison): its `reference` run, else a corrector's initial SQL
 * (its records' initial verdicts), else nothing.
 */
export function referenceOf(run: RecipeRun): { run: string } | { initial: string } | null {
  if (run.reference === false) return null;
  if (run.reference) return { run: run.reference };
  return run.initial ? { initial: run.initial } : null;
}

/** The runs a run needs first: its initial run, its `from` run and every `{run:NAME}` in its options. */
export function dependenciesOf(recipe: Recipe, name: string): string[] {
  const run = recipe.runs[name]!;
  const deps = new Set<string>();
  if (run.initial && recipe.runs[run.initial]) deps.add(run.initial);
  if (run.from) deps.add(run.from);
  for (const value of Object.values(run.options).flat()) for (const m of String(value).matchAll(REF)) deps.add(m[1]!);
  return [...deps];
}

/**
 * `--hold RUN,...`: the runs made once (in repeat 1) and read by every repeat, e.g. the initial SQL, so the spread
 * of the others is theirs alone. What a held run reads must be held too: a held run never sees a repeat's output.
 */
export function heldRuns(recipe: Recipe, names: readonly string[]): Set<string> {
  if (!names.length) throw optionUsageError`${opt("hold")} takes run names, comma-separated (the runs every repeat shares)`;
  for (const n of names) if (!recipe.runs[n]) throw optionUsageError`${opt("hold")} ${n}: recipe ${recipe.name} has no run '${n}' (its runs: ${Object.keys(recipe.runs).join(", ")})`;
  const held = new Set(names);
  for (const n of names) {
    const loose = dependenciesOf(recipe, n).filter((d) => !held.has(d));
    if (loose.length) throw optionUsageError`${opt("hold")} ${n}: it reads run ${loose.join(", ")}, which would differ per repeat; hold ${loose.length > 1 ? "them" : "it"} too (${opt("hold")} ${[...names, ...loose].join(",")})`;
  }
  return held;
}

/** Where each repeat's runs live: `OUT/<run>` for one repeat, `OUT/repeat-k/<run>` for several; a held run in repeat 1 only. */
export interface RepeatLayout {
  repeats: number;
  held: Set<string>;
  /** Repeat k's folder. */
  dirOf(k: number): string;
  /** Where repeat k finds run `run` (a held run: repeat 1's). */
  runDir(k: number, run: string): string;
  /** The repeats that make `run`: all of them, or [1] for a held run. */
  repeatsOf(run: string): number[];
}

export function repeatLayout(outDir: string, repeats: number, held: Set<string> = new Set()): RepeatLayout {
  const dirOf = (k: number) => (repeats > 1 ? path.join(outDir, `repeat-${k}`) : outDir);
  const all = Array.from({ length: repeats }, (_, i) => i + 1);
  return {
    repeats,
    held,
    dirOf,
    runDir: (k, run) => path.join(dirOf(held.has(run) ? 1 : k), run),
    repeatsOf: (run) => (held.has(run) ? [1] : all),
  };
}

/** The `{set:NAME}` values a run needs (`--set NAME=VALUE`), in its options and its initial. */
export function setsOf(run: RecipeRun): string[] {
  const names = new Set<string>();
  for (const value of [...Object.values(run.options).flat(), run.initial ?? ""]) for (const m of String(value).matchAll(SET)) names.add(m[1]!);
  return [...names];
}

/**
 * Why a run will not run with these `--set` values, or undefined: a method sqlmend lacks (`needs`), a `--set` value
 * not given, or a run it needs that will not run either. Such a run is listed, and its row printed with the reason.
 */
export function blockedReason(recipe: Recipe, name: string, sets: Record<string, string>): string | undefined {
  const run = recipe.runs[name]!;
  if (run.needs) return run.needs;
  const missing = setsOf(run).filter((s) => sets[s] === undefined);
  if (missing.length) return missing.map((s) => `--set ${s}=VALUE`).join(", ") + (run.paper?.note ? ` (${run.paper.note})` : "");
  for (const dep of dependenciesOf(recipe, name)) if (blockedReason(recipe, dep, sets)) return `run ${dep} does not run: ${blockedReason(recipe, dep, sets)}`;
  return undefined;
}

function checkRecipe(recipe: Recipe, source: string, lineOfRun: (run: string) => string) {
  for (const [name, run] of Object.entries(recipe.runs)) {
    const at = `${source}${lineOfRun(name)}`;
    if (run.kind === "eval" && !run.graph && !run.needs) throw new UserError(`${at}: runs.${name}: an eval run names its graph`);
    if (run.kind === "magic-guideline" && (run.graph || run.correct)) throw new UserError(`${at}: runs.${name}: a magic-guideline run takes no graph or correct`);
    if (run.correct && !run.initial) throw new UserError(`${at}: runs.${name}: 'correct' needs 'initial'`);
    if ((run.kind === "memo-candidates") !== (run.from !== undefined)) throw new UserError(`${at}: runs.${name}: 'from' (a memo-sql run) is for memo-candidates runs, which need it`);
    if (run.from && recipe.runs[run.from]?.graph !== "memo-sql") throw new UserError(`${at}: runs.${name}: from '${run.from}' must be a memo-sql eval of the recipe`);
    for (const dep of dependenciesOf(recipe, name)) {
      if (!recipe.runs[dep]) throw new UserError(`${at}: runs.${name}: no run '${dep}' in the recipe`);
    }
    if (typeof run.reference === "string") {
      const ref = recipe.runs[run.reference];
      if (!ref || ref.kind !== "eval" || run.reference === name) throw new UserError(`${at}: runs.${name}: reference '${run.reference}' must be another eval run of the recipe`);
    }
    const initial = run.initial && recipe.runs[run.initial];
    if (initial && (initial.kind !== "eval" || initial.initial)) throw new UserError(`${at}: runs.${name}: initial '${run.initial}' must be a generator eval of the recipe`);
  }
  for (const row of recipe.table?.rows ?? []) {
    if (!recipe.runs[row]) throw new UserError(`${source}: table.rows: no run '${row}' in the recipe`);
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
export const resolveRefs = (value: string, outOf: (run: string) => string, sets: Record<string, string> = {}) =>
  value.replace(REF, (_, name: string) => outOf(name)).replace(SET, (whole, name: string) => sets[name] ?? whole);

/** A recipe file's text; unreadable is one line. */
export function readRecipeFile(file: string, name: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new UserError(`${name}: cannot read (${firstLineOf(error)})`);
  }
}
