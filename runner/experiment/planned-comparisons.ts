import { emptyInitial } from "../report/eval-report.ts";
import { type EvalRecord, isFailed } from "../run/results-record.ts";
import { NO_GOLD } from "../../tools/benchmarks/score.ts";
import { holm, mcnemarP, pairedDifference } from "../report/statistics.ts";
import { type Recipe, referenceOf } from "./recipe.ts";
import { mean, type PlannedTest, type RunRow } from "./table-rows.ts";

/**
 * Planned comparisons: each row with a reference (its `reference` run; by default a corrector's own initial SQL,
 * from its records' initial verdicts) gets an exact McNemar test on the questions both answered with gold and the EX
 * difference with its paired 95 % interval, per repeat, Holm-adjusted over the experiment's planned comparisons (those
 * of the same repeat) — the family is the comparisons the recipe declares, not every pair of rows. With repeats, a
 * pooled test over them: per question the row's share of right answers across repeats against the reference's, an
 * exact sign test on the questions where they differ, Holm-adjusted over the pooled tests (the family that counts).
 * A comparison with no pair is not tested and no member of any family. Sets each row's `versus`.
 */
export function plannedComparisons(recipe: Recipe, rows: RunRow[], recordsOf: (run: string, repeat: number) => EvalRecord[], opts: { seeds: number[]; held: Set<string> }): void {
  const repeats = Math.max(1, opts.seeds.length);
  type Raw = Omit<PlannedTest, "holmP" | "family">;
  const tests: { row: RunRow; k: number; test: Raw }[] = [];
  const pooled: { row: RunRow; test: Raw }[] = [];
  const scoredOf = (records: EvalRecord[]) => new Map(records.filter((r) => !isFailed(r) && r.goldError !== NO_GOLD).map((r) => [r.id, r.correct]));
  for (const row of rows) {
    const spec = recipe.runs[row.run];
    const ref = spec && !row.notRun && !row.guideline ? referenceOf(spec) : null;
    if (!ref) continue;
    const reference = "run" in ref ? ref.run : `initial SQL (${ref.initial})`;
    const refRow = "run" in ref ? rows.find((r) => r.run === ref.run) : undefined;
    if ("run" in ref && (!refRow || refRow.notRun)) {
      row.versus = { reference, tests: [], pooled: null, notTested: `run ${ref.run} did not run${refRow?.notRun ? `: ${refRow.notRun}` : ""}` };
      continue;
    }
    row.versus = { reference, tests: [], pooled: null, notTested: null };
    const once = opts.held.has(row.run) && ("initial" in ref || opts.held.has(ref.run));
    // Per repeat, the pairs: question → [row right, reference right], on the questions both answered with gold.
    const perRepeat: Map<string, [boolean, boolean]>[] = [];
    for (let k = 1; k <= (once ? 1 : repeats); k++) {
      const records = recordsOf(row.run, k);
      const pairs = new Map<string, [boolean, boolean]>();
      if ("initial" in ref) {
        for (const r of records) if (!isFailed(r) && r.initialCorrect !== undefined && r.goldError !== NO_GOLD && !emptyInitial(r)) pairs.set(r.id, [r.correct, r.initialCorrect]);
      } else {
        const mine = scoredOf(records);
        const theirs = scoredOf(recordsOf(ref.run, k));
        for (const [id, right] of mine) if (theirs.has(id)) pairs.set(id, [right, theirs.get(id)!]);
      }
      perRepeat.push(pairs);
      // No pair: nothing was tested, and an untested comparison is no member of the Holm family.
      if (pairs.size) tests.push({ row, k, test: testOf([...pairs.values()].map(([a, b]) => [Number(a), Number(b)]), repeats > 1 ? opts.seeds[k - 1]! : null) });
    }
    if (!tests.some((t) => t.row === row)) row.versus.notTested = "no question both answered with gold: nothing to pair";
    else if (perRepeat.length > 1) {
      // Pooled: the questions paired in every repeat, each its share of right answers over the repeats.
      const ids = [...perRepeat[0]!.keys()].filter((id) => perRepeat.every((p) => p.has(id)));
      const shares = ids.map((id): [number, number] => [mean(perRepeat.map((p) => Number(p.get(id)![0]))), mean(perRepeat.map((p) => Number(p.get(id)![1])))]);
      if (shares.length) pooled.push({ row, test: testOf(shares, null) });
    }
  }
  for (let k = 1; k <= repeats; k++) {
    const family = tests.filter((t) => t.k === k);
    const adjusted = holm(family.map((t) => t.test.p));
    family.forEach((t, i) => t.row.versus!.tests.push({ ...t.test, holmP: adjusted[i]!, family: family.length }));
  }
  const adjusted = holm(pooled.map((t) => t.test.p));
  pooled.forEach((t, i) => (t.row.versus!.pooled = { ...t.test, holmP: adjusted[i]!, family: pooled.length }));
}

/**
 * One planned test over paired verdicts ([row, reference] per question: 0/1, or shares of right answers over
 * repeats): the exact sign test on the questions where they differ (McNemar's, for one repeat), and the EX difference
 * with Newcombe's paired 95 % interval (for shares, on the table of mean counts).
 */
function testOf(pairs: [number, number][], seed: number | null): Omit<PlannedTest, "holmP" | "family"> {
  const onlyRow = pairs.filter(([a, b]) => a > b).length;
  const onlyReference = pairs.filter(([a, b]) => a < b).length;
  // The 2×2 table's cells as mean counts: a share 2/3 vs 1/3 is right in both 1/3 of the time, only in the row 1/3...
  const both = pairs.reduce((x, [a, b]) => x + Math.min(a, b), 0);
  const rowOnly = pairs.reduce((x, [a, b]) => x + Math.max(0, a - b), 0);
  const refOnly = pairs.reduce((x, [a, b]) => x + Math.max(0, b - a), 0);
  const d = pairedDifference(both, rowOnly, refOnly, pairs.length - both - rowOnly - refOnly)!;
  return { seed, compared: pairs.length, onlyRow, onlyReference, p: mcnemarP(onlyRow, onlyReference), difference: d.difference, differenceInterval: { low: d.low, high: d.high } };
}
