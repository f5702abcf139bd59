import fs from "node:fs";
import path from "node:path";
import { expectedCalls } from "../../graphs/calls.ts";
import { findManifest } from "../../graphs/registry.ts";
import { STRUCTURED_CALLS } from "../../graphs/manifests/shared.ts";
import type { GraphInfo } from "../../graphs/spec.ts";
import { parseMagicRecords } from "../../state/magic-record.ts";
import { type EvalRecord, methodCalls, methodTokens } from "../run/results-record.ts";
import type { Recipe, RecipeRun, RepeatLayout } from "./recipe.ts";
import type { Forwarded } from "./forwarded-options.ts";
import { mean, type Prices } from "./table-rows.ts";

/** `sqlmend experiment --dry-run`: what each run still costs, measured or by its graph's declared calls. */

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
 * A run's calls per question by its graph's declared count (`GraphInfo.calls`), with its recipe options and the typed
 * options every run gets (`forwarded`, which win, as on the command line); a corrector reads its initial SQL from a
 * file, and under `--correct errors|incorrect` may not run at all. A guideline or memory build adds up its steps'
 * counts per training question; undefined for a step that calls no model (memo candidates) or a graph that declares no count.
 */
export function knownCallsOf(spec: RecipeRun, forwarded: Pick<Forwarded, "config" | "steps" | "graphOptions"> = { config: {}, steps: {}, graphOptions: {} }, modules: ReadonlyMap<string, GraphInfo> = new Map()): KnownCalls | undefined {
  // The recipe's options are text by flag name (`max-iter: 3`), read by the graphs' declarations in `expectedCalls`.
  const { maxFixRounds } = forwarded.config;
  const options = { ...camelKeys(spec.options), ...forwarded.graphOptions, ...forwarded.steps, ...(maxFixRounds !== undefined ? { maxFixRounds } : {}) };
  if (spec.kind === "magic-guideline") return guidelineCalls(options);
  if (spec.kind === "memo-build") return memoBuildCalls(options);
  if (spec.kind !== "eval" || !spec.graph) return undefined;
  // A graph module of the user's (`graph: ./mine.ts`) declares its calls as a built-in does.
  const bounds = expectedCalls(modules.get(spec.graph) ?? spec.graph, options, spec.initial ? { correct: spec.correct ?? "all" } : undefined);
  // Under errors|incorrect only some questions are corrected: how many is not known before the initial run.
  if (bounds && (spec.correct === "errors" || spec.correct === "incorrect")) {
    const { typical: _typical, ...rest } = bounds;
    return rest;
  }
  return bounds;
}

/**
 * `magic guideline` per training question, from the graphs it runs: the initial generator (none from a predictions
 * file); for a question it got wrong, the feedback↔correction cycle (magic-feedback); and at most one merge of the
 * guideline (magic-guideline) — a merge serves a batch of corrected questions, so this bound is generous. How many
 * questions fail is not known before the run: no typical count.
 */
function guidelineCalls(options: Record<string, unknown>): KnownCalls | undefined {
  const initial = options.initial;
  const generator = initial === undefined || initial === true ? "baseline" : typeof initial === "string" && findManifest(initial) ? initial : undefined;
  const first = generator ? expectedCalls(generator, options) : { min: 0, max: 0 };
  const cycle = expectedCalls("magic-feedback", options);
  const merge = expectedCalls("magic-guideline", options);
  if (!first || !cycle || !merge) return undefined;
  const from = generator ? `${generator} ${first.min}..${first.max}` : "a predictions file, 0";
  return {
    min: first.min,
    max: first.max + cycle.max + merge.max,
    note: `per training question: the initial SQL (${from}); for a failure, the cycle (${cycle.min}..${cycle.max}) and at most a merge (${merge.min}..${merge.max}, one per batch of corrected questions)`,
  };
}

/**
 * `memo build` per training question: its candidates (--samples sampler calls, default 4; or, with --elicit pipeline,
 * memo-sql's nine without refinement), then, when one is wrong, the labeler's one structured ask (asked again at most
 * twice when its reply is unusable).
 */
function memoBuildCalls(options: Record<string, unknown>): KnownCalls | undefined {
  const pipeline = options.elicit === "pipeline";
  const samples = Number(options.samples ?? 4);
  const candidates = pipeline ? expectedCalls("memo-sql", { ...options, noRefine: true }) : Number.isInteger(samples) && samples > 0 ? { min: samples, max: samples } : undefined;
  if (!candidates) return undefined;
  return {
    min: candidates.min,
    max: candidates.max + STRUCTURED_CALLS.max,
    note: `per training question: ${pipeline ? `memo-sql's candidates (${candidates.min}..${candidates.max})` : `${samples} samples`}; for a wrong one, the labeler (${STRUCTURED_CALLS.min}..${STRUCTURED_CALLS.max})`,
  };
}

const camelKeys = (options: Record<string, unknown>) => Object.fromEntries(Object.entries(options).map(([flag, value]) => [flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()), value]));

/** What a run's finished questions cost, from its folder: eval's results.jsonl, or magic guideline's (usage per role). */
export function questionCostsIn(dir: string, kind: RecipeRun["kind"], recordsIn: (dir: string) => EvalRecord[]): QuestionCost[] {
  if (kind === "eval") return recordsIn(dir).map((r) => ({ calls: methodCalls(r), ...methodTokens(r) }));
  if (kind !== "magic-guideline") return [];
  const file = path.join(dir, "results.jsonl");
  if (!fs.existsSync(file)) return [];
  return parseMagicRecords(fs.readFileSync(file, "utf8")).map((record) => {
    const roles = Object.values(record.usageByRole);
    return {
      calls: roles.reduce((a, t) => a + t.calls, 0),
      input: roles.reduce((a, t) => a + t.inputTokens + (t.savedInputTokens ?? 0), 0),
      output: roles.reduce((a, t) => a + t.outputTokens + (t.savedOutputTokens ?? 0), 0),
    };
  });
}

export interface PlanInput {
  recipe: Recipe;
  order: string[];
  benchDir: string;
  /** The repeats, `--hold`'s held runs and where each repeat's runs live. */
  layout: RepeatLayout;
  seeds: number[];
  prices: Prices | undefined;
  /** Questions per split (after --limit). */
  counts: Map<string, number>;
  splitOf: (run: string) => string;
  blocked: Map<string, string>;
  outDir: string;
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
  const { recipe, order, layout } = p;
  const { repeats, held } = layout;
  const lines = [`sqlmend experiment ${recipe.name}: ${order.length} runs on ${p.benchDir}${repeats > 1 ? `, ${repeats} repeats (seeds ${p.seeds.join(", ")})${held.size ? `, ${[...held].join(", ")} made once and read by every repeat` : ""}` : ""}, in this order`, ...(p.notes?.length ? p.notes.map((n) => `  ${n}`) : []), ""];
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
      const dir = layout.runDir(k, run);
      if (spec.kind === "eval") return p.recordsIn(dir).length;
      // A guideline or memory step is done once it wrote its stats / memory (its own records are not eval's).
      if (spec.kind === "magic-guideline") return fs.existsSync(path.join(dir, "stats.json")) ? questions : 0;
      return fs.existsSync(path.join(dir, "memory.sqlite")) ? questions : 0;
    };
    const isHeld = held.has(run);
    const ks = layout.repeatsOf(run);
    const done = ks.reduce((a, k) => a + Math.min(questions, doneIn(k)), 0);
    const todo = Math.max(0, questions * ks.length - done);
    const own = ks.flatMap((k) => questionCostsIn(layout.runDir(k, run), spec.kind, p.recordsIn));
    const pilot = questionCostsIn(path.join(p.outDir, "pilot", run), spec.kind, p.recordsIn);
    const sameGraph = spec.kind === "eval" ? order.filter((o) => o !== run && p.recipe.runs[o]!.kind === "eval" && p.recipe.runs[o]!.graph === spec.graph).flatMap((o) => questionCostsIn(layout.runDir(1, o), "eval", p.recordsIn)) : [];
    const [measured, source] = own.length ? [own, "measured"] : pilot.length ? [pilot, "measured in the pilot"] : sameGraph.length ? [sameGraph, `measured in another ${spec.graph} run`] : [[], ""];
    const what = spec.kind === "magic-guideline" ? "magic guideline" : spec.kind === "memo-build" ? "memo build" : `${spec.graph}${spec.initial ? ` on ${spec.initial}, --correct ${spec.correct ?? "all"}` : ""}`;
    const head = `  ${label} ${what.padEnd(44)} ${p.splitOf(run)}: ${questions} questions${isHeld ? " once (held)" : repeats > 1 ? ` × ${repeats} repeats` : ""}, ${done} done; `;
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
    const known = p.knownCalls(run);
    if (known) {
      const range = `${known.min}..${known.max}/question by the ${spec.kind === "eval" ? "graph's declared count" : "declared counts of its steps"}${known.note ? `; ${known.note}` : ""}`;
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
