import { type EvalRecord } from "./report.ts";
import type { Recipe, RecipeRun, RepeatLayout } from "./experiment.ts";
import { type Prices } from "./experiment-table.ts";
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
 * A run's calls per question by its graph's declared count (`GraphInfo.calls`), with its recipe options and the flags
 * every run gets (`forwarded`, which win, as on the command line); a corrector reads its initial SQL from a file, and
 * under `--correct errors|incorrect` may not run at all. A guideline or memory build adds up its steps' counts per
 * training question; undefined for a step that calls no model (memo candidates) or a graph that declares no count.
 */
export declare function knownCallsOf(spec: RecipeRun, forwarded: Record<string, unknown>): KnownCalls | undefined;
/** What a run's finished questions cost, from its folder: eval's results.jsonl, or magic guideline's (usage per role). */
export declare function questionCostsIn(dir: string, kind: RecipeRun["kind"], recordsIn: (dir: string) => EvalRecord[]): QuestionCost[];
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
export declare function renderPlan(p: PlanInput): string;
