/**
 * Spider's hardness (easy / medium / hard / extra) of a gold query, as Spider's eval_hardness counts it, and
 * `addSpiderHardness` for questions that carry gold but no difficulty.
 */
import type { Benchmark } from "../../state/question.ts";
export type SpiderHardness = "easy" | "medium" | "hard" | "extra";
/** The three counts Spider's eval_hardness combines. */
export interface HardnessCounts {
    component1: number;
    component2: number;
    others: number;
}
/** Spider's eval_hardness thresholds over the three counts. */
export declare function hardnessFromCounts({ component1: c1, component2: c2, others: o }: HardnessCounts): SpiderHardness;
/** Spider's three hardness counts from the SQL text (tokenizer-based; see spiderHardness). */
export declare function spiderHardnessCounts(sql: string): HardnessCounts;
/**
 * Spider's hardness (easy / medium / hard / extra) of a gold query, computed from tokens the way
 * Spider's evaluation.py counts components of its own parse (count_component1/2, count_others),
 * quirks included: a NOT condition in WHERE and every AND/OR in HAVING count as aggregations, an
 * OR after a column-valued comparison is not seen. Agrees with the official script on all 972 Spider
 * dev and 6,903 train queries it can parse. Where it may differ: queries Spider's parser rejects
 * (parenthesised boolean groups, IS NOT NULL, subqueries in SELECT, comma joins) get a sensible
 * count here instead of a crash; aggregates are recognised by name followed by "(".
 */
export declare function spiderHardness(sql: string): SpiderHardness;
/**
 * Spider's hardness for the questions with gold and no difficulty (own data or another question file scored with
 * Spider semantics), as the Spider layout computes it. Returns how many got one.
 */
export declare function addSpiderHardness(bench: Benchmark): number;
