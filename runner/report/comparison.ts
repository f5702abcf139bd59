import { exByDifficulty, type DifficultyScore, NO_GOLD } from "../../tools/benchmarks/score.ts";
import { type EvalRecord, isFailed, methodCalls, methodTokens } from "../run/results-record.ts";
import { type Interval, servedSummary, wilsonInterval } from "./eval-report.ts";
import { holm, mcnemarP } from "./statistics.ts";
import { type Outcome, summarizeOutcomes } from "../../graphs/outcome.ts";
import { UserError } from "../../core/errors.ts";

/**
 * N eval runs side by side on the questions all of them answered (a failed question has no answer to compare: it is
 * left out and counted per run): EX overall and per difficulty, cost per question, and
 * per pair the questions only one got right with an exact McNemar test, Holm-corrected over the pairs. `sqlmend
 * compare`, experiments' table and report.html read it.
 */

export interface CompareInput {
  /** A, B, C, ... */
  key: string;
  label: string;
  dir: string;
  records: Map<string, EvalRecord>;
  run: Record<string, unknown>;
  /** The run's graph's summary of outcomes (`GraphSpec.outcome.summarize`); default `summarizeOutcomes`. */
  summarizeOutcomes?: (outcomes: Outcome[]) => string[];
}

export interface RunSummary {
  key: string;
  label: string;
  dir: string;
  /** Over the common questions with gold SQL. */
  correct: number;
  /** The model the run asked for (run.json's) and the served versions that answered it; null when neither is known. */
  model: string | null;
  /** EX's 95 % interval (Wilson over the questions compared); null without them or without gold. */
  exInterval: Interval | null;
  /** False for a run whose records hold no gold SQL (own data without it): no EX of its own, the others keep theirs. */
  scored: boolean;
  /** Common questions whose prediction failed to run (any, gold or not). */
  predErrors: number;
  ex: number;
  byDifficulty: DifficultyScore[];
  tokensPerQuestion: number;
  inputTokensPerQuestion: number;
  outputTokensPerQuestion: number;
  callsPerQuestion: number;
  latencyMsPerQuestion: number;
  /** USD per question at the given prices (per million input / output tokens), or null without prices. */
  costPerQuestion: number | null;
  /** Calls the response cache served (not spent), per question. */
  cachedCallsPerQuestion: number;
  /** Questions of this run outside the common set. */
  notCommon: number;
  /** Ids of this run's failed questions (left out of the comparison; --resume retries them). */
  failed: string[];
  /**
   * What the common questions went through (results.jsonl's `outcome`, summed as the run's report.md sums them), a
   * line each; over `outcomesOf` questions (those of the common ones that have an outcome).
   */
  outcomes: string[];
  outcomesOf: number;
  /** Per common question, whether it was right, and its tokens (for charts). */
  perQuestion: { id: string; dbId: string; difficulty?: string; correct: boolean; tokens: number; initialCorrect?: boolean }[];
}

export interface PairComparison {
  a: string;
  b: string;
  bothCorrect: number;
  neitherCorrect: number;
  onlyACorrect: string[];
  onlyBCorrect: string[];
  /** Common questions (gold or not) where both runs gave the same SQL (whitespace aside). */
  sameSql: number;
  mcnemarP: number;
  /** Holm-adjusted over the pairs tested. */
  holmP: number;
  /** Why the pair has no test (a run without gold SQL): it is left out of the Holm family. */
  notTested?: string;
}

export interface Comparison {
  /** Questions all runs answered (what is compared). */
  common: number;
  /** Questions all runs hold a record of, failed ones included. */
  inAll: number;
  /** Common questions without gold SQL (own data): compared on SQL and cost, never counted as wrong. */
  noGold: number;
  runs: RunSummary[];
  pairs: PairComparison[];
  warnings: string[];
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export function compareRuns(inputs: CompareInput[], prices?: { input: number; output: number }): Comparison {
  const warnings: string[] = [];
  for (const key of ["bench", "split", "semantics"]) {
    const seen = [...new Set(inputs.map((r) => r.run[key]).filter((v) => v !== undefined).map(String))];
    if (seen.length > 1) warnings.push(`the runs differ in ${key}: ${seen.join(" vs ")}`);
  }
  const [first, ...rest] = inputs;
  const inAll = first ? [...first.records.keys()].filter((id) => rest.every((r) => r.records.has(id))) : [];
  const answered = inAll.filter((id) => inputs.every((r) => !isFailed(r.records.get(id)!)));
  // A question without gold has no verdict: EX, flips and McNemar are over the others. A run that holds no gold at all
  // (own data without it) gets no EX, and does not take the others' away.
  const hasGold = (r: CompareInput, id: string) => r.records.get(id)!.goldError !== NO_GOLD;
  const graded = inputs.filter((r) => answered.some((id) => hasGold(r, id)));
  const ids = graded.length ? answered.filter((id) => graded.every((r) => hasGold(r, id))) : [];
  const runs = inputs.map((r): RunSummary => {
    const records = ids.map((id) => r.records.get(id)!);
    const all = answered.map((id) => r.records.get(id)!);
    const correct = records.filter((x) => x.correct).length;
    // The method's tokens (spent + served by the response cache): a rerun from the cache costs the method the same.
    const inTok = mean(all.map((x) => methodTokens(x).input));
    const outTok = mean(all.map((x) => methodTokens(x).output));
    const outcomes = all.flatMap((x) => (x.outcome ? [x.outcome] : []));
    return {
      key: r.key,
      label: r.label,
      dir: r.dir,
      correct,
      scored: graded.includes(r),
      model: modelOf(r),
      exInterval: graded.includes(r) ? wilsonInterval(correct, records.length) : null,
      ex: records.length ? (correct / records.length) * 100 : 0,
      predErrors: all.filter((x) => x.predError !== undefined).length,
      byDifficulty: exByDifficulty(records),
      tokensPerQuestion: inTok + outTok,
      inputTokensPerQuestion: inTok,
      outputTokensPerQuestion: outTok,
      callsPerQuestion: mean(all.map(methodCalls)),
      latencyMsPerQuestion: mean(all.map((x) => x.latencyMs)),
      costPerQuestion: prices ? (inTok * prices.input + outTok * prices.output) / 1e6 : null,
      cachedCallsPerQuestion: mean(all.map((x) => x.cachedCalls ?? 0)),
      notCommon: r.records.size - inAll.length,
      failed: [...r.records.values()].filter(isFailed).map((x) => x.id),
      outcomes: outcomes.length ? (r.summarizeOutcomes ?? summarizeOutcomes)(outcomes) : [],
      outcomesOf: outcomes.length,
      perQuestion: records.map((x) => ({
        id: x.id,
        dbId: x.dbId,
        ...(x.difficulty !== undefined ? { difficulty: x.difficulty } : {}),
        correct: x.correct,
        tokens: methodTokens(x).input + methodTokens(x).output,
        ...(x.initialCorrect !== undefined ? { initialCorrect: x.initialCorrect } : {}),
      })),
    };
  });
  const raw: Omit<PairComparison, "holmP">[] = [];
  for (let i = 0; i < inputs.length; i++) {
    for (let j = i + 1; j < inputs.length; j++) {
      const a = inputs[i]!;
      const b = inputs[j]!;
      const onlyA = ids.filter((id) => a.records.get(id)!.correct && !b.records.get(id)!.correct);
      const onlyB = ids.filter((id) => !a.records.get(id)!.correct && b.records.get(id)!.correct);
      const both = ids.filter((id) => a.records.get(id)!.correct && b.records.get(id)!.correct).length;
      const sameSql = answered.filter((id) => sameQuery(a.records.get(id)!.sql, b.records.get(id)!.sql)).length;
      const ungraded = [a, b].filter((r) => !graded.includes(r));
      if (ungraded.length) {
        raw.push({ a: a.key, b: b.key, bothCorrect: 0, neitherCorrect: 0, onlyACorrect: [], onlyBCorrect: [], sameSql, mcnemarP: 1, notTested: `${ungraded.map((r) => r.key).join(" and ")} ${ungraded.length > 1 ? "hold" : "holds"} no gold SQL` });
        continue;
      }
      raw.push({ a: a.key, b: b.key, bothCorrect: both, neitherCorrect: ids.length - both - onlyA.length - onlyB.length, onlyACorrect: onlyA, onlyBCorrect: onlyB, sameSql, mcnemarP: mcnemarP(onlyA.length, onlyB.length) });
    }
  }
  // Holm over the pairs tested; an untested pair is no member of the family.
  const tested = raw.filter((p) => !p.notTested);
  const adjusted = holm(tested.map((p) => p.mcnemarP));
  return { common: answered.length, inAll: inAll.length, noGold: answered.length - ids.length, runs, pairs: raw.map((p) => ({ ...p, holmP: p.notTested ? 1 : adjusted[tested.indexOf(p)]! })), warnings };
}

/**
 * Refuses runs that hold different questions under the same id (another benchmark, split or version): their records'
 * question and database differ, or their run.json's question hashes do (evidence or gold SQL changed) where both runs
 * hold gold. Pairing them would test nothing; said in one line before any result.
 */
export function checkSameQuestions(runs: { key: string; dir: string; records: Map<string, EvalRecord>; run: Record<string, unknown> }[]): void {
  const hashesOf = (r: { run: Record<string, unknown> }) => (r.run.questionHashes && typeof r.run.questionHashes === "object" ? (r.run.questionHashes as Record<string, string>) : undefined);
  const [first, ...rest] = runs;
  for (const other of rest) {
    const shared = [...first!.records.keys()].filter((id) => other.records.has(id));
    const differ = shared.filter((id) => {
      const a = first!.records.get(id)!;
      const b = other.records.get(id)!;
      if (a.question !== b.question || a.dbId !== b.dbId) return true;
      const [ha, hb] = [hashesOf(first!)?.[id], hashesOf(other)?.[id]];
      return ha !== undefined && hb !== undefined && ha !== hb && a.goldError !== NO_GOLD && b.goldError !== NO_GOLD;
    });
    if (differ.length) {
      const id = differ[0]!;
      throw new UserError(
        `${first!.key} (${first!.dir}) and ${other.key} (${other.dir}) hold different questions under the same ids (${differ.length} of ${shared.length} shared ids, first: ${id}, on ${first!.records.get(id)!.dbId} vs ${other.records.get(id)!.dbId}): runs of different benchmarks, splits or question versions are not compared`,
      );
    }
  }
}

/** "gpt-4o (served: gpt-4o-2024-08-06 fp_x)": the run's model and the versions that answered (more than one said). */
function modelOf(r: CompareInput): string | null {
  const models = r.run.models as { model?: unknown } | undefined;
  const asked = typeof models?.model === "string" ? models.model : null;
  const served = servedSummary([...r.records.values()]);
  if (!served) return asked;
  return `${asked ?? "?"} (served: ${served.versions.join(", ")}${served.versions.length > 1 ? ` — ${served.versions.length} served versions` : ""})`;
}

const sameQuery = (a: string | undefined, b: string | undefined) => (a ?? "").replace(/\s+/g, " ").trim() === (b ?? "").replace(/\s+/g, " ").trim();

/** The comparison as plain text: one table of the runs, then per pair the flips and the test. */
export function renderComparison(c: Comparison, show: number): string {
  const width = Math.max(...c.runs.map((r) => r.label.length + 2), 12);
  const notCommon = c.runs.map((r) => `${r.notCommon} only in ${r.key}`).join(", ");
  const anyFailed = c.runs.some((r) => r.failed.length);
  const failedNote = anyFailed ? `; left out, failed: ${c.runs.map((r) => `${r.failed.length} in ${r.key}`).join(", ")} — --resume retries them` : "";
  const answered = c.runs.length === 2 ? "answered by both" : "answered by all";
  const lines = [`${c.common} questions in common, ${answered} (${notCommon}${failedNote})`];
  const scored = c.common - c.noGold;
  if (c.noGold) lines.push(scored ? `${c.noGold} of them without gold SQL: not scored (EX and the test are over the other ${scored})` : "no question has gold SQL: no EX; compared on SQL, errors and cost");
  lines.push("");
  const levels = scored ? [...new Set(c.runs.flatMap((r) => r.byDifficulty.map((d) => d.difficulty)))] : [];
  const withCost = c.runs.some((r) => r.costPerQuestion !== null);
  lines.push(
    `${"".padEnd(width)}  ${scored ? `${"EX %".padStart(7)}  ${"95 % interval".padStart(16)}  ` : ""}${levels.map((l) => `${l.padStart(11)}  `).join("")}${"errors".padStart(6)}  ${"tokens/q".padStart(9)}  ${"calls/q".padStart(7)}  ${"s/q".padStart(6)}${withCost ? `  ${"$/q".padStart(9)}` : ""}`,
  );
  for (const r of c.runs) {
    const perLevel = levels.map((l) => `${((r.scored && r.byDifficulty.find((d) => d.difficulty === l)?.ex.toFixed(2)) || "-").padStart(11)}  `);
    const label = `${r.key} ${r.label}`;
    lines.push(
      `${label.padEnd(width).slice(0, width)}  ${scored ? `${(r.scored ? r.ex.toFixed(2) : "-").padStart(7)}  ${(r.exInterval ? `[${r.exInterval.low.toFixed(2)}, ${r.exInterval.high.toFixed(2)}]` : "-").padStart(16)}  ` : ""}${perLevel.join("")}${String(r.predErrors).padStart(6)}  ${Math.round(r.tokensPerQuestion).toString().padStart(9)}  ${r.callsPerQuestion.toFixed(2).padStart(7)}  ${(r.latencyMsPerQuestion / 1000).toFixed(2).padStart(6)}${withCost ? `  ${(r.costPerQuestion ?? 0).toFixed(5).padStart(9)}` : ""}`,
    );
  }
  if (scored) lines.push(`95 % interval: Wilson score interval over the ${scored} questions scored.`);
  if (c.runs.some((r) => r.model)) lines.push(`Models: ${c.runs.map((r) => `${r.key} ${r.model ?? "unknown"}`).join("; ")}`);
  if (c.runs.some((r) => r.outcomes.length)) {
    lines.push("", `What the questions went through (of the ${c.common} in common):`);
    for (const r of c.runs) {
      lines.push(`${r.key} ${r.label}${r.outcomes.length && r.outcomesOf < c.common ? ` (${r.outcomesOf} questions with an outcome)` : ""}:`);
      lines.push(...(r.outcomes.length ? r.outcomes.map((line) => `  ${line}`) : ["  no outcome recorded"]));
    }
  }
  const list = (xs: string[]) => (xs.length ? `: ${xs.slice(0, show).join(", ")}${xs.length > show ? ", ..." : ""}` : "");
  const family = c.pairs.filter((p) => !p.notTested).length;
  for (const p of c.pairs) {
    const header = c.pairs.length > 1 ? [`${p.a} vs ${p.b}`] : [];
    const same = `same SQL on ${p.sameSql} of ${c.common}`;
    if (!scored || p.notTested) {
      lines.push("", ...header, ...(p.notTested && scored ? [`not tested: ${p.notTested}`] : []), same);
      continue;
    }
    lines.push(
      "",
      ...header,
      `both right ${p.bothCorrect}, both wrong ${p.neitherCorrect}`,
      `only ${p.a} right ${p.onlyACorrect.length}${list(p.onlyACorrect)}`,
      `only ${p.b} right ${p.onlyBCorrect.length}${list(p.onlyBCorrect)}`,
      `McNemar exact p = ${p.mcnemarP.toPrecision(3)}${family > 1 ? `, Holm-adjusted over ${family} pairs p = ${p.holmP.toPrecision(3)}` : ""}${p.holmP < 0.05 ? " (the EX difference is significant at 0.05)" : ""}`,
      same,
    );
  }
  for (const w of c.warnings) lines.push(`warning: ${w}`);
  return `${lines.join("\n")}\n`;
}
