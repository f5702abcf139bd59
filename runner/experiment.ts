import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { isMap, isScalar, LineCounter, parseDocument } from "yaml";
import { UserError } from "../core/errors.ts";
import { type EvalRecord, isFailed, methodTokens } from "./report.ts";
import { exByDifficulty } from "../tools/benchmarks/score.ts";
import { summarizeOutcomes } from "../graphs/outcome.ts";
import { expectedCalls } from "../graphs/calls.ts";

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

/**
 * The table to print first (table.md's "Table"): which runs as rows (default every eval run, recipe order) and which
 * columns: ex, initial-ex, wrong-to-right, right-to-wrong, tokens, calls, cost, failed, difficulty:NAME (EX on that
 * difficulty, e.g. difficulty:simple) or paper:FIGURE (the paper's figure of that name for the row).
 */
export const TableSpecSchema = z
  .object({
    title: z.string().min(1).optional(),
    rows: z.array(z.string().min(1)).min(1).optional(),
    columns: z.array(z.string().regex(/^(ex|initial-ex|wrong-to-right|right-to-wrong|tokens|calls|cost|failed|difficulty:.+|paper:.+)$/, "a column is ex, initial-ex, wrong-to-right, right-to-wrong, tokens, calls, cost, failed, difficulty:NAME or paper:FIGURE")).min(1).optional(),
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

export interface Prices {
  /** USD per million input tokens. */
  input: number;
  /** USD per million output tokens. */
  output: number;
}

/** A run's figures over its repeats (`--repeats N`): each repeat a full replication with its own seed. */
export interface RepeatFigures {
  seeds: number[];
  /** EX of each repeat, in seed order; null for a repeat that answered no question (all failed): left out of the mean. */
  ex: (number | null)[];
  mean: number;
  /** Sample standard deviation (n − 1); 0 for one repeat. */
  sd: number;
  /** Questions answered in every repeat, and those among them right in some repeats and wrong in others. */
  compared: number;
  flips: number;
}

export interface RunRow {
  run: string;
  graph: string;
  initial: string | null;
  scenario: string | null;
  questions: number;
  correct: number;
  /** EX % over the answered questions (a failed question has no answer; counted in `failed`). Mean over repeats. */
  ex: number;
  /** EX per difficulty over the answered questions (mean over repeats). */
  byDifficulty: { difficulty: string; count: number; ex: number }[];
  /** EX per database over the answered questions (MAGIC Figure 4; mean over repeats). */
  byDatabase: { db: string; count: number; ex: number }[];
  /** Correctors with gold: EX of the initial SQL on the same questions, and the flips. */
  initialEx: number | null;
  wrongToRight: number | null;
  rightToWrong: number | null;
  correctionsApplied: number | null;
  /** The method's tokens per question: spent plus those the response cache served (the same on a cached rerun). */
  tokensPerQuestion: number;
  inputTokensPerQuestion: number;
  outputTokensPerQuestion: number;
  /** Tokens spent by this run (not served by the cache). */
  spentTokens: number;
  /** USD per question for the method's tokens at the given prices; null without prices. */
  costPerQuestion: number | null;
  callsPerQuestion: number;
  cachedCalls: number;
  calls: number;
  failed: number;
  /** The graph's outcome summary lines over the run's questions (what they went through: fallbacks, limits hit...). */
  outcomes: string[];
  /** The paper's figures for this row (from the recipe). */
  paper: Paper | null;
  /** Why the run did not run (a method sqlmend lacks, a `--set` value not given): its row has no figures of ours. */
  notRun: string | null;
  /** magic-guideline runs: stats.json's figures (Table 4's EX after the cycle and AVG_i, Figure 3's corrected within k). */
  guideline: GuidelineFigures | null;
  /** `--repeats N` (N > 1): the figures per repeat; the numbers above are means over them. */
  repeats: RepeatFigures | null;
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

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const sampleSd = (xs: number[]) => (xs.length < 2 ? 0 : Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1)));

export function rowOf(run: string, spec: RecipeRun, records: EvalRecord[], prices?: Prices): RunRow {
  const answered = records.filter((r) => !isFailed(r));
  const n = records.length;
  const correct = answered.filter((r) => r.correct).length;
  const known = records.filter((r) => r.initialCorrect !== undefined);
  const corrector = spec.initial !== undefined;
  const sum = (f: (r: EvalRecord) => number) => records.reduce((a, r) => a + f(r), 0);
  const inTok = n ? sum((r) => methodTokens(r).input) / n : 0;
  const outTok = n ? sum((r) => methodTokens(r).output) / n : 0;
  return {
    run,
    graph: spec.graph ?? spec.kind,
    initial: spec.initial ?? null,
    scenario: spec.correct ?? (corrector ? "all" : null),
    questions: n,
    correct,
    ex: answered.length ? (correct / answered.length) * 100 : 0,
    byDifficulty: exByDifficulty(answered).map(({ difficulty, count, ex }) => ({ difficulty, count, ex })),
    byDatabase: [...new Set(answered.map((r) => r.dbId))].sort().map((db) => {
      const at = answered.filter((r) => r.dbId === db);
      return { db, count: at.length, ex: (at.filter((r) => r.correct).length / at.length) * 100 };
    }),
    initialEx: corrector && known.length ? (known.filter((r) => r.initialCorrect).length / known.length) * 100 : null,
    wrongToRight: corrector ? known.filter((r) => !r.initialCorrect && r.correct).length : null,
    rightToWrong: corrector ? known.filter((r) => r.initialCorrect && !r.correct).length : null,
    correctionsApplied: corrector ? records.filter((r) => r.correction === "applied").length : null,
    tokensPerQuestion: inTok + outTok,
    inputTokensPerQuestion: inTok,
    outputTokensPerQuestion: outTok,
    spentTokens: sum((r) => r.inputTokens + r.outputTokens),
    costPerQuestion: prices ? (inTok * prices.input + outTok * prices.output) / 1e6 : null,
    callsPerQuestion: n ? sum((r) => r.calls) / n : 0,
    cachedCalls: sum((r) => r.cachedCalls ?? 0),
    calls: sum((r) => r.calls),
    failed: records.filter(isFailed).length,
    outcomes: summarizeOutcomes(records.map((r) => r.outcome)),
    paper: spec.paper ?? null,
    notRun: null,
    guideline: null,
    repeats: null,
  };
}

/**
 * One row over a run's repeats (records per repeat, seed order): EX and costs are means; EX's sample sd and the
 * questions whose verdict changes between repeats (among those every repeat answered) say how stable the figure is.
 */
export function repeatedRowOf(run: string, spec: RecipeRun, perRepeat: EvalRecord[][], seeds: number[], prices?: Prices): RunRow {
  const all = perRepeat.map((records) => rowOf(run, spec, records, prices));
  if (all.length < 2) return all[0]!;
  // A repeat with no answered question has no EX (its failures are counted); the means are over the others.
  const answered = (r: RunRow) => r.questions - r.failed > 0;
  const rows = all.some(answered) ? all.filter(answered) : all;
  const first = rows[0]!;
  const avg = (f: (r: RunRow) => number) => mean(rows.map(f));
  const avgOrNull = (f: (r: RunRow) => number | null) => (rows.every((r) => f(r) !== null) ? avg((r) => f(r)!) : null);
  // Flips among the repeats that answered: a question answered by each of them, right in some and wrong in others.
  const verdicts = perRepeat.filter((_, i) => rows.includes(all[i]!)).map((records) => new Map(records.filter((r) => !isFailed(r)).map((r) => [r.id, r.correct])));
  const ids = [...verdicts[0]!.keys()].filter((id) => verdicts.every((v) => v.has(id)));
  const flips = ids.filter((id) => new Set(verdicts.map((v) => v.get(id))).size > 1).length;
  const difficulties = [...new Set(rows.flatMap((r) => r.byDifficulty.map((d) => d.difficulty)))];
  return {
    ...first,
    correct: avg((r) => r.correct),
    ex: avg((r) => r.ex),
    byDifficulty: difficulties.map((difficulty) => {
      const at = rows.map((r) => r.byDifficulty.find((d) => d.difficulty === difficulty)).filter((d) => d !== undefined);
      return { difficulty, count: at[0]!.count, ex: mean(at.map((d) => d.ex)) };
    }),
    byDatabase: [...new Set(rows.flatMap((r) => r.byDatabase.map((d) => d.db)))].sort().map((db) => {
      const at = rows.map((r) => r.byDatabase.find((d) => d.db === db)).filter((d) => d !== undefined);
      return { db, count: at[0]!.count, ex: mean(at.map((d) => d.ex)) };
    }),
    initialEx: avgOrNull((r) => r.initialEx),
    wrongToRight: avgOrNull((r) => r.wrongToRight),
    rightToWrong: avgOrNull((r) => r.rightToWrong),
    correctionsApplied: avgOrNull((r) => r.correctionsApplied),
    tokensPerQuestion: avg((r) => r.tokensPerQuestion),
    inputTokensPerQuestion: avg((r) => r.inputTokensPerQuestion),
    outputTokensPerQuestion: avg((r) => r.outputTokensPerQuestion),
    spentTokens: all.reduce((a, r) => a + r.spentTokens, 0),
    costPerQuestion: avgOrNull((r) => r.costPerQuestion),
    callsPerQuestion: avg((r) => r.callsPerQuestion),
    cachedCalls: all.reduce((a, r) => a + r.cachedCalls, 0),
    calls: all.reduce((a, r) => a + r.calls, 0),
    failed: all.reduce((a, r) => a + r.failed, 0),
    outcomes: summarizeOutcomes(perRepeat.flat().map((r) => r.outcome)),
    repeats: { seeds, ex: all.map((r) => (answered(r) ? r.ex : null)), mean: avg((r) => r.ex), sd: sampleSd(rows.map((r) => r.ex)), compared: ids.length, flips },
  };
}

const figuresText = (p: Paper) => Object.entries(p.figures).map(([k, v]) => `${k} ${v}`).join("; ");
const f2 = (n: number | null) => (n === null ? "-" : n.toFixed(2));
/** EX as printed: "58.33", or "58.33 ± 2.41" over repeats. */
const exText = (r: RunRow) => (r.repeats ? `${f2(r.ex)} ± ${f2(r.repeats.sd)}` : f2(r.ex));
const countText = (n: number | null) => (n === null ? "" : Number.isInteger(n) ? String(n) : n.toFixed(1));
const usd = (n: number | null) => (n === null ? "-" : `$${n < 0.01 ? n.toFixed(5) : n.toFixed(4)}`);

/** Ours beside the paper's: a line per row that has paper figures, ours first (or why it did not run). */
function besidePaper(rows: RunRow[]): string[] {
  const withPaper = rows.filter((r) => r.paper);
  if (!withPaper.length) return [];
  const lines = ["## Ours beside the paper's", "", "| run | paper's row | ours | paper's figures | paper's table, model |", "|---|---|---|---|---|"];
  for (const r of withPaper) {
    const difficulties = r.byDifficulty.length > 1 ? `; ${r.byDifficulty.map((d) => `${d.difficulty} ${f2(d.ex)}`).join(", ")}` : "";
    const ours = r.notRun
      ? `not run: ${r.notRun}`
      : r.guideline
        ? `EX ${f2(r.guideline.exAfter)} after the cycle; AVG_i ${r.guideline.avgIterations.toFixed(2)}; corrected within k=1..${r.guideline.maxIter}: ${r.guideline.correctedWithin.join(", ")} of ${r.guideline.failures}`
        : r.repeats
          ? `EX ${exText(r)} over ${r.repeats.ex.filter((x) => x !== null).length} repeats${difficulties}${r.failed ? `, ${r.failed} failed` : ""}`
          : `EX ${f2(r.ex)} (${r.correct}/${r.questions - r.failed})${difficulties}${r.failed ? `, ${r.failed} failed` : ""}`;
    lines.push(`| ${r.run} | ${r.paper!.row} | ${ours} | ${figuresText(r.paper!)} | ${r.paper!.source}; ${r.paper!.model}${r.paper!.note ? ` (${r.paper!.note})` : ""} |`);
  }
  lines.push("", "The paper's figures are on its benchmark, model and initial SQL; ours on what this experiment ran (--bench, --model, --limit).", "");
  return lines;
}

const COLUMN_TITLES: Record<string, string> = {
  ex: "EX %",
  "initial-ex": "initial EX %",
  "wrong-to-right": "wrong→right",
  "right-to-wrong": "right→wrong",
  tokens: "tokens/q",
  calls: "calls/q",
  cost: "cost/q",
  failed: "failed",
};

function cell(r: RunRow, column: string): string {
  if (r.notRun) return column === "ex" ? `not run: ${r.notRun}` : "";
  if (column.startsWith("difficulty:")) {
    const d = r.byDifficulty.find((x) => x.difficulty === column.slice("difficulty:".length));
    return d ? f2(d.ex) : "";
  }
  if (column.startsWith("paper:")) return String(r.paper?.figures[column.slice("paper:".length)] ?? "");
  switch (column) {
    case "ex":
      return r.guideline ? `${f2(r.guideline.exAfter)} (after the cycle)` : exText(r);
    case "initial-ex":
      return f2(r.initialEx);
    case "wrong-to-right":
      return countText(r.wrongToRight);
    case "right-to-wrong":
      return countText(r.rightToWrong);
    case "tokens":
      return String(Math.round(r.tokensPerQuestion));
    case "calls":
      return r.callsPerQuestion.toFixed(2);
    case "cost":
      return usd(r.costPerQuestion);
    default:
      return String(r.failed);
  }
}

/** The recipe's own table (`table`: rows and columns), first in table.md. */
function recipeTable(spec: TableSpec, rows: RunRow[]): string[] {
  const chosen = spec.rows ? spec.rows.map((name) => rows.find((r) => r.run === name)).filter((r) => r !== undefined) : rows.filter((r) => !r.guideline);
  const columns = spec.columns ?? ["ex", "tokens", "calls", "failed"];
  const title = (c: string) => COLUMN_TITLES[c] ?? (c.startsWith("difficulty:") ? `${c.slice(11)} EX %` : `paper ${c.slice(6)}`);
  return [
    `## ${spec.title ?? "Table"}`,
    "",
    `| run | ${columns.map(title).join(" | ")} |`,
    `|---|${columns.map(() => "---:").join("|")}|`,
    ...chosen.map((r) => `| ${r.run} | ${columns.map((c) => cell(r, c)).join(" | ")} |`),
    "",
  ];
}

/**
 * table.md: the recipe's table when it has one, ours beside the paper's, rows not run, guideline runs, the
 * correctors × scenarios grid, every eval run (with cost at --price-in/--price-out), EX by difficulty, the spread
 * over repeats, and each run's outcome summary.
 */
export function renderTable(recipe: Recipe, rows: RunRow[], opts: { prices?: Prices; repeats?: number } = {}): string {
  const lines = [`# sqlmend experiment: ${recipe.name}`, ""];
  if (recipe.description) lines.push(recipe.description, "");
  if (opts.repeats && opts.repeats > 1) lines.push(`Every figure of ours is the mean over ${opts.repeats} repeats (each a full replication with its own seed); ± is the sample standard deviation.`, "");
  if (recipe.table) lines.push(...recipeTable(recipe.table, rows));
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
        return r ? `${exText(r)} (+${countText(r.wrongToRight ?? 0)} / −${countText(r.rightToWrong ?? 0)})` : "";
      });
      lines.push(`| ${g} | ${cells.join(" | ")} |`);
    }
    const initials = [...new Set(correctors.map((r) => `${r.initial}: ${f2(r.initialEx)}`))];
    lines.push("", `Initial EX on the same questions: ${initials.join(", ")}`, "");
  }
  const priced = opts.prices !== undefined;
  lines.push(
    "## Runs",
    "",
    `| run | graph | initial | scenario | questions | EX % | initial EX % | wrong→right | right→wrong | corrected | tokens/q | calls/q |${priced ? " cost/q |" : ""} cached calls | failed |`,
    `|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|${priced ? "---:|" : ""}---:|---:|`,
  );
  for (const r of rows) {
    lines.push(
      `| ${r.run} | ${r.graph} | ${r.initial ?? ""} | ${r.scenario ?? ""} | ${r.questions} | ${exText(r)} | ${f2(r.initialEx)} | ${countText(r.wrongToRight)} | ${countText(r.rightToWrong)} | ${countText(r.correctionsApplied)} | ${Math.round(r.tokensPerQuestion)} | ${r.callsPerQuestion.toFixed(2)} |${priced ? ` ${usd(r.costPerQuestion)} |` : ""} ${r.cachedCalls} of ${r.calls} | ${r.failed} |`,
    );
  }
  lines.push("", "tokens/q are the method's chat-model tokens per question, those the response cache served included (a cached rerun costs the method the same); embedding requests are left out (the vector cache shares them across questions and runs).");
  if (opts.prices) {
    const total = rows.reduce((a, r) => a + (r.costPerQuestion ?? 0) * r.questions * (r.repeats?.ex.length ?? 1), 0);
    const spent = rows.reduce((a, r) => a + r.spentTokens, 0);
    lines.push(`Cost at $${opts.prices.input} / $${opts.prices.output} per million input / output tokens: ${usd(total)} for the methods' tokens; ${spent} tokens were spent by this experiment (the rest came from the response cache).`);
  }
  const calls = rows.reduce((n, r) => n + r.calls, 0);
  const cached = rows.reduce((n, r) => n + r.cachedCalls, 0);
  lines.push("", `Response cache over the eval runs: ${cached} of ${calls} model calls served (${calls ? ((cached / calls) * 100).toFixed(2) : "-"}%)`, "");
  const difficulties = [...new Set(rows.flatMap((r) => r.byDifficulty.map((d) => d.difficulty)))];
  if (difficulties.length > 1 || (difficulties.length === 1 && difficulties[0] !== "unknown")) {
    lines.push("## EX by difficulty (%)", "", `| run | ${difficulties.map((d) => `${d} (n)`).join(" | ")} | all |`, `|---|${difficulties.map(() => "---:").join("|")}|---:|`);
    for (const r of rows) {
      const at = (d: string) => r.byDifficulty.find((x) => x.difficulty === d);
      lines.push(`| ${r.run} | ${difficulties.map((d) => (at(d) ? `${f2(at(d)!.ex)} (${at(d)!.count})` : "")).join(" | ")} | ${exText(r)} |`);
    }
    lines.push("");
  }
  const databases = [...new Set(rows.flatMap((r) => r.byDatabase.map((d) => d.db)))].sort();
  if (databases.length > 1) {
    lines.push("## EX per database (%)", "", `| database | ${rows.map((r) => r.run).join(" | ")} |`, `|---|${rows.map(() => "---:").join("|")}|`);
    for (const db of databases) lines.push(`| ${db} | ${rows.map((r) => { const d = r.byDatabase.find((x) => x.db === db); return d ? `${f2(d.ex)} (${d.count})` : ""; }).join(" | ")} |`);
    lines.push("");
  }
  const repeated = rows.filter((r) => r.repeats);
  if (repeated.length) {
    lines.push("## Repeats", "", "| run | seeds | EX % per repeat | mean ± sd | questions that flip |", "|---|---|---|---:|---:|");
    for (const r of repeated) {
      const x = r.repeats!;
      lines.push(`| ${r.run} | ${x.seeds.join(", ")} | ${x.ex.map(f2).join(", ")} | ${f2(x.mean)} ± ${f2(x.sd)} | ${x.flips} of ${x.compared} |`);
    }
    lines.push("", "A question flips when some repeats got it right and others wrong (among the questions every repeat answered).", "");
  }
  const withOutcomes = rows.filter((r) => r.outcomes.length);
  if (withOutcomes.length) {
    lines.push("## What the questions went through (each graph's outcome summary)", "");
    for (const r of withOutcomes) lines.push(`- **${r.run}** (${r.graph}): ${r.outcomes.join("; ")}`);
    lines.push("");
  }
  return lines.join("\n");
}

/** Per question: model calls and the method's tokens (spent + served by the cache). */
export interface QuestionCost {
  calls: number;
  input: number;
  output: number;
}

/** A graph's own call count per question (graphs/calls.ts), for runs nothing has measured yet. */
export interface KnownCalls {
  min: number;
  max: number;
  typical?: number;
  note?: string;
}

/**
 * A run's calls per question by its graph's declared count (`GraphInfo.calls`), with its recipe options and the flags
 * every run gets (`forwarded`, which win, as on the command line); a corrector reads its initial SQL from a file, and
 * under `--correct errors|incorrect` may not run at all. Undefined for a step that is not an eval of a graph.
 */
export function knownCallsOf(spec: RecipeRun, forwarded: Record<string, unknown>): KnownCalls | undefined {
  if (spec.kind !== "eval" || !spec.graph) return undefined;
  const bounds = expectedCalls(spec.graph, { ...spec.options, ...forwarded }, spec.initial ? { correct: spec.correct ?? "all" } : undefined);
  // Under errors|incorrect only some questions are corrected: how many is not known before the initial run.
  if (bounds && (spec.correct === "errors" || spec.correct === "incorrect")) {
    const { typical: _typical, ...rest } = bounds;
    return rest;
  }
  return bounds;
}

/** `--flag value` / `--flag=value` / `--flag` pairs of a command line, by flag name (a bare flag is true). */
export function flagPairs(argv: string[], isBoolean: (flag: string) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) continue;
    const eq = arg.indexOf("=");
    if (eq > 0) out[arg.slice(2, eq)] = arg.slice(eq + 1);
    else if (!isBoolean(arg) && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("--")) out[arg.slice(2)] = argv[++i];
    else out[arg.slice(2)] = true;
  }
  return out;
}

/** What a run's finished questions cost, from its folder: eval's results.jsonl, or magic guideline's (usage per role). */
export function questionCostsIn(dir: string, kind: RecipeRun["kind"], recordsIn: (dir: string) => EvalRecord[]): QuestionCost[] {
  if (kind === "eval") return recordsIn(dir).map((r) => ({ calls: r.calls, ...methodTokens(r) }));
  if (kind !== "magic-guideline") return [];
  const file = path.join(dir, "results.jsonl");
  if (!fs.existsSync(file)) return [];
  const costs: QuestionCost[] = [];
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    let record: { usageByRole?: Record<string, { calls?: number; inputTokens?: number; outputTokens?: number; savedInputTokens?: number; savedOutputTokens?: number }> };
    try {
      record = JSON.parse(line);
    } catch {
      continue; // blank, or half-written by a kill
    }
    const roles = Object.values(record.usageByRole ?? {});
    costs.push({
      calls: roles.reduce((a, t) => a + (t.calls ?? 0), 0),
      input: roles.reduce((a, t) => a + (t.inputTokens ?? 0) + (t.savedInputTokens ?? 0), 0),
      output: roles.reduce((a, t) => a + (t.outputTokens ?? 0) + (t.savedOutputTokens ?? 0), 0),
    });
  }
  return costs;
}

export interface PlanInput {
  recipe: Recipe;
  order: string[];
  benchDir: string;
  repeats: number;
  seeds: number[];
  prices: Prices | undefined;
  /** Questions per split (after --limit). */
  counts: Map<string, number>;
  splitOf: (run: string) => string;
  blocked: Map<string, string>;
  outDir: string;
  repeatDir: (k: number) => string;
  recordsIn: (dir: string) => EvalRecord[];
  knownCalls: (run: string) => KnownCalls | undefined;
  /** Lines said under the heading (questions the benchmark skips). */
  notes?: string[];
}

/**
 * `--dry-run`: the runs in order with their questions, those done, and the calls, tokens and price still expected.
 * A run's cost per question is measured where it can be — its own finished questions, a pilot's (OUT/pilot), another
 * run of the same graph — else its calls come from the graph's own count and its tokens stay unknown (said).
 */
export function renderPlan(p: PlanInput): string {
  const { recipe, order, repeats } = p;
  const lines = [`sqlmend experiment ${recipe.name}: ${order.length} runs on ${p.benchDir}${repeats > 1 ? `, ${repeats} repeats (seeds ${p.seeds.join(", ")})` : ""}, in this order`, ...(p.notes?.length ? p.notes.map((n) => `  ${n}`) : []), ""];
  const ks = Array.from({ length: repeats }, (_, i) => i + 1);
  let calls = 0;
  // Calls by the graphs' declared bounds, for runs nothing measured and that declare no typical count.
  let boundedLow = 0;
  let boundedHigh = 0;
  let input = 0;
  let output = 0;
  let callsUnknown = 0;
  let tokensUnknown = 0;
  const perQuestion = (costs: QuestionCost[]) => ({ calls: mean(costs.map((c) => c.calls)), input: mean(costs.map((c) => c.input)), output: mean(costs.map((c) => c.output)) });
  for (const run of order) {
    const spec = p.recipe.runs[run]!;
    const questions = p.counts.get(p.splitOf(run))!;
    const reason = p.blocked.get(run);
    const label = run.padEnd(24);
    if (reason) {
      lines.push(`  ${label} ${(spec.graph ?? spec.paper?.row ?? spec.kind).padEnd(44)} not run: ${reason}`);
      continue;
    }
    if (spec.kind === "memo-candidates") {
      lines.push(`  ${label} ${`memo candidates of ${spec.from}`.padEnd(44)} no model calls (read from ${spec.from}'s checkpoints)`);
      continue;
    }
    const doneIn = (k: number) => {
      const dir = path.join(p.repeatDir(k), run);
      if (spec.kind === "eval") return p.recordsIn(dir).length;
      // A guideline or memory step is done once it wrote its stats / memory (its own records are not eval's).
      if (spec.kind === "magic-guideline") return fs.existsSync(path.join(dir, "stats.json")) ? questions : 0;
      return fs.existsSync(path.join(dir, "memory.sqlite")) ? questions : 0;
    };
    const done = ks.reduce((a, k) => a + Math.min(questions, doneIn(k)), 0);
    const todo = Math.max(0, questions * repeats - done);
    const own = ks.flatMap((k) => questionCostsIn(path.join(p.repeatDir(k), run), spec.kind, p.recordsIn));
    const pilot = questionCostsIn(path.join(p.outDir, "pilot", run), spec.kind, p.recordsIn);
    const sameGraph = spec.kind === "eval" ? order.filter((o) => o !== run && p.recipe.runs[o]!.kind === "eval" && p.recipe.runs[o]!.graph === spec.graph).flatMap((o) => questionCostsIn(path.join(p.repeatDir(1), o), "eval", p.recordsIn)) : [];
    const [measured, source] = own.length ? [own, "measured"] : pilot.length ? [pilot, "measured in the pilot"] : sameGraph.length ? [sameGraph, `measured in another ${spec.graph} run`] : [[], ""];
    const what = spec.kind === "magic-guideline" ? "magic guideline" : spec.kind === "memo-build" ? "memo build" : `${spec.graph}${spec.initial ? ` on ${spec.initial}, --correct ${spec.correct ?? "all"}` : ""}`;
    const head = `  ${label} ${what.padEnd(44)} ${p.splitOf(run)}: ${questions} questions${repeats > 1 ? ` × ${repeats} repeats` : ""}, ${done} done; `;
    if (!todo) {
      lines.push(`${head}0 calls (done)`);
      continue;
    }
    if (measured.length) {
      const q = perQuestion(measured);
      calls += q.calls * todo;
      input += q.input * todo;
      output += q.output * todo;
      const cost = p.prices ? `, ~$${(((q.input * p.prices.input + q.output * p.prices.output) * todo) / 1e6).toFixed(2)}` : "";
      lines.push(`${head}~${Math.round(q.calls * todo)} calls, ~${Math.round((q.input + q.output) * todo)} tokens${cost} (${q.calls.toFixed(1)} calls, ${Math.round(q.input + q.output)} tokens /question ${source})`);
      continue;
    }
    tokensUnknown++;
    const known = spec.kind === "eval" ? p.knownCalls(run) : undefined;
    if (known) {
      const range = `${known.min}..${known.max}/question by the graph's declared count${known.note ? `; ${known.note}` : ""}`;
      if (known.typical !== undefined) {
        calls += known.typical * todo;
        lines.push(`${head}~${Math.round(known.typical * todo)} calls (typically ${known.typical}, ${range}), tokens unknown until measured (--pilot N)`);
      } else {
        boundedLow += known.min * todo;
        boundedHigh += known.max * todo;
        lines.push(`${head}${known.min * todo}..${known.max * todo} calls (${range}), tokens unknown until measured (--pilot N)`);
      }
    } else {
      callsUnknown++;
      lines.push(`${head}calls and tokens unknown until measured (--pilot N)`);
    }
  }
  if (p.blocked.size) lines.push("", `${p.blocked.size} run${p.blocked.size === 1 ? "" : "s"} not run (the table prints their rows with the reason)`);
  const plural = (n: number) => `${n} run${n === 1 ? "" : "s"}`;
  const bounded = boundedHigh > 0 ? ` plus ${Math.round(boundedLow)}..${Math.round(boundedHigh)} by the graphs' declared bounds` : "";
  lines.push("", `Expected calls: ~${Math.round(calls)}${bounded}${callsUnknown ? ` plus those of ${plural(callsUnknown)} not measured yet` : ""} (the response cache may serve many of them)`);
  // Nothing measured yet: "unknown", rather than a 0 that reads like an estimate.
  const measuredAny = input + output > 0 || tokensUnknown === 0;
  lines.push(measuredAny ? `Expected tokens: ~${Math.round(input + output)} (${Math.round(input)} in, ${Math.round(output)} out)${tokensUnknown ? ` plus those of ${plural(tokensUnknown)} not measured yet (--pilot N measures them)` : ""}` : "Expected tokens: unknown until some run is measured (--pilot N)");
  if (p.prices) lines.push(measuredAny ? `Expected price: ~$${((input * p.prices.input + output * p.prices.output) / 1e6).toFixed(2)} at $${p.prices.input} / $${p.prices.output} per million input / output tokens${tokensUnknown ? `, plus ${plural(tokensUnknown)} not priced yet` : ""}` : "Expected price: unknown until some run is measured (--pilot N)");
  return lines.join("\n");
}
