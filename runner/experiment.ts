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
  })
  .strict();
export type RecipeRun = z.infer<typeof RecipeRunSchema>;

export const RecipeSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    /** What it reproduces, for `sqlmend experiment --list`. */
    reproduces: z.string().optional(),
    runs: z.record(z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "run names are letters, digits, '.', '_' and '-'"), RecipeRunSchema),
  })
  .strict();
export type Recipe = z.infer<typeof RecipeSchema>;



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
const SET = /\{set:([^}]+)\}/g;

/** The runs a run needs first: its initial run, its `from` run and every `{run:NAME}` in its options. */
export function dependenciesOf(recipe: Recipe, name: string): string[] {
  const run = recipe.runs[name]!;
  const deps = new Set<string>();
  if (run.initial && recipe.runs[run.initial]) deps.add(run.initial);
  if (run.from) deps.add(run.from);
  for (const value of Object.values(run.options).flat()) for (const m of String(value).matchAll(REF)) deps.add(m[1]!);
  return [...deps];
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

function checkRecipe(recipe: Recipe, source: string) {
  for (const [name, run] of Object.entries(recipe.runs)) {
    if (run.kind === "eval" && !run.graph && !run.needs) throw new UserError(`${source}: runs.${name}: an eval run names its graph`);
    if (run.kind === "magic-guideline" && (run.graph || run.correct)) throw new UserError(`${source}: runs.${name}: a magic-guideline run takes no graph or correct`);
    if (run.correct && !run.initial) throw new UserError(`${source}: runs.${name}: 'correct' needs 'initial'`);
    if ((run.kind === "memo-candidates") !== (run.from !== undefined)) throw new UserError(`${source}: runs.${name}: 'from' (a memo-sql run) is for memo-candidates runs, which need it`);
    if (run.from && recipe.runs[run.from]?.graph !== "memo-sql") throw new UserError(`${source}: runs.${name}: from '${run.from}' must be a memo-sql eval of the recipe`);
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
export const resolveRefs = (value: string, outOf: (run: string) => string, sets: Record<string, string> = {}) =>
  value.replace(REF, (_, name: string) => outOf(name)).replace(SET, (whole, name: string) => sets[name] ?? whole);

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
  /** The paper's figures for this row (from the recipe). */
  paper: Paper | null;
  /** Why the run did not run (a method sqlmend lacks, a `--set` value not given): its row has no figures of ours. */
  notRun: string | null;
  /** magic-guideline runs: stats.json's figures (Table 4's EX after the cycle and AVG_i, Figure 3's corrected within k). */
  guideline: GuidelineFigures | null;
}

export interface GuidelineFigures {
  questions: number;
  failures: number;
  corrected: number;
  exAfter: number;
  avgIterations: number;
  correctedWithin: number[];
  maxIter: number;
  noManager: boolean;
}

/** A row for a run that did not run, or a guideline run (its figures from stats.json): no eval records. */
export function otherRowOf(run: string, spec: RecipeRun, what: { notRun?: string; guideline?: GuidelineFigures }): RunRow {
  return {
    ...rowOf(run, spec, []),
    graph: spec.graph ?? spec.kind,
    questions: what.guideline?.questions ?? 0,
    notRun: what.notRun ?? null,
    guideline: what.guideline ?? null,
  };
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
    paper: spec.paper ?? null,
    notRun: null,
    guideline: null,
  };
}

const figuresText = (p: Paper) => Object.entries(p.figures).map(([k, v]) => `${k} ${v}`).join("; ");

/** Ours beside the paper's: a line per row that has paper figures, ours first (or why it did not run). */
function besidePaper(rows: RunRow[]): string[] {
  const withPaper = rows.filter((r) => r.paper);
  if (!withPaper.length) return [];
  const lines = ["## Ours beside the paper's", "", "| run | paper's row | ours | paper's figures | paper's table, model |", "|---|---|---|---|---|"];
  for (const r of withPaper) {
    const ours = r.notRun
      ? `not run: ${r.notRun}`
      : r.guideline
        ? `EX ${f2(r.guideline.exAfter)} after the cycle; AVG_i ${r.guideline.avgIterations.toFixed(2)}; corrected within k=1..${r.guideline.maxIter}: ${r.guideline.correctedWithin.join(", ")} of ${r.guideline.failures}`
        : `EX ${f2(r.ex)} (${r.correct}/${r.questions - r.failed})${r.failed ? `, ${r.failed} failed` : ""}`;
    lines.push(`| ${r.run} | ${r.paper!.row} | ${ours} | ${figuresText(r.paper!)} | ${r.paper!.source}; ${r.paper!.model}${r.paper!.note ? ` (${r.paper!.note})` : ""} |`);
  }
  lines.push("", "The paper's figures are on its benchmark, model and initial SQL; ours on what this experiment ran (--bench, --model, --limit).", "");
  return lines;
}

const f2 = (n: number | null) => (n === null ? "-" : n.toFixed(2));

/** table.md: every eval run a row, then the correctors × scenarios grid of EX (with wrong→right / right→wrong). */
export function renderTable(recipe: Recipe, rows: RunRow[]): string {
  const lines = [`# sqlmend experiment: ${recipe.name}`, ""];
  if (recipe.description) lines.push(recipe.description, "");
  lines.push(...besidePaper(rows));
  const notRun = rows.filter((r) => r.notRun);
  const guidelines = rows.filter((r) => r.guideline);
  rows = rows.filter((r) => !r.notRun && !r.guideline);
  if (notRun.length) {
    lines.push("## Not run", "", ...notRun.map((r) => `- ${r.run}: ${r.notRun}`), "");
  }
  if (guidelines.length) {
    lines.push("## Guideline runs (train split)", "", "| run | max_i | manager | questions | failures cycled | corrected | EX after % | AVG_i | corrected within k = 1.. |", "|---|---:|---|---:|---:|---:|---:|---:|---|");
    for (const r of guidelines) {
      const g = r.guideline!;
      lines.push(`| ${r.run} | ${g.maxIter} | ${g.noManager ? "no" : "yes"} | ${g.questions} | ${g.failures} | ${g.corrected} | ${f2(g.exAfter)} | ${g.avgIterations.toFixed(2)} | ${g.correctedWithin.join(", ")} |`);
    }
    lines.push("");
  }
  const correctors = rows.filter((r) => r.initial !== null);
  if (correctors.length) {
    // A grid row per method: the run's name without its scenario suffix (magic.errors → magic, human-wang.all → human-wang).
    const methodOf = (r: RunRow) => (r.run.endsWith(`.${r.scenario}`) ? r.run.slice(0, -r.scenario!.length - 1) : r.run);
    const graphs = [...new Set(correctors.map(methodOf))];
    const scenarios = [...new Set(correctors.map((r) => r.scenario!))];
    lines.push("## Correctors × scenarios: EX % (wrong → right / right → wrong)", "");
    lines.push(`| corrector | ${scenarios.join(" | ")} |`, `|---|${scenarios.map(() => "---:").join("|")}|`);
    for (const g of graphs) {
      const cells = scenarios.map((s) => {
        const r = correctors.find((x) => methodOf(x) === g && x.scenario === s);
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
