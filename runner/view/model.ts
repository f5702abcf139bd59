/**
 * What the run explorer shows, computed from the trace API's values (RunView, RunQuestion) and nothing else: the
 * table's compact rows, EX per difficulty and per database with intervals, and the comparison of runs of the same
 * questions (fixed, broken, both wrong, both right; a replay's fork). Pure functions: the server and the export
 * share them, and tests give them hand-made values.
 */
import type { RunQuestion, RunView, Verdict } from "../trace/trace-types.ts";
import { mcnemarP } from "../report/statistics.ts";
import { wilsonInterval } from "../report/eval-report.ts";

/** One row of the run page's question table (short keys: 10,000 rows are embedded in the page). */
export interface TableRow {
  id: string;
  db: string;
  diff: string;
  v: Verdict;
  q: string;
  sql: string;
  init: string;
  /** Tokens (input + output), calls, latency ms, rounds (iterations). */
  tok: number;
  calls: number;
  lat: number;
  rounds: number;
  out: Record<string, string | number | boolean | null>;
  fail: string;
}

/** The row as the page embeds it: an array in `ROW_FIELDS` order (keys are not repeated 10,000 times). */
export const ROW_FIELDS = ["id", "db", "diff", "v", "q", "sql", "init", "tok", "calls", "lat", "rounds", "out", "fail"] as const;
export const packRow = (r: TableRow): unknown[] => ROW_FIELDS.map((k) => r[k]);

/** Cap on each text cell embedded per row (the question page shows the whole text). */
export const ROW_TEXT_MAX = 2000;
const cut = (s: string | undefined) => (s === undefined ? "" : s.length > ROW_TEXT_MAX ? `${s.slice(0, ROW_TEXT_MAX)}…` : s);

export function tableRow(q: RunQuestion): TableRow {
  return {
    id: q.id,
    db: q.dbId,
    diff: q.difficulty ?? "",
    v: q.verdict,
    q: cut(q.question),
    sql: cut(q.sql),
    init: cut(q.initialSql),
    tok: q.cost.inputTokens + q.cost.outputTokens,
    calls: q.cost.calls,
    lat: Math.round(q.cost.latencyMs),
    rounds: q.iterations,
    out: q.outcome ?? {},
    fail: cut(q.failure ?? q.error?.message ?? q.predError),
  };
}

export interface GroupEx {
  key: string;
  /** Questions in the group, scored ones (right + wrong), right ones. */
  count: number;
  scored: number;
  correct: number;
  /** EX % over the scored questions and its 95 % Wilson interval; null when none is scored. */
  ex: number | null;
  low: number | null;
  high: number | null;
}

const scoredVerdict = (v: Verdict) => v === "right" || v === "wrong";

/** EX per group (difficulty or database) over the scored questions, groups in the order `order` gives. */
export function exBy(questions: readonly RunQuestion[], keyOf: (q: RunQuestion) => string, order?: string[]): GroupEx[] {
  const groups = new Map<string, { count: number; scored: number; correct: number }>();
  for (const q of questions) {
    const key = keyOf(q);
    const g = groups.get(key) ?? { count: 0, scored: 0, correct: 0 };
    g.count++;
    if (scoredVerdict(q.verdict)) g.scored++;
    if (q.verdict === "right") g.correct++;
    groups.set(key, g);
  }
  const keys = [...groups.keys()].sort((a, b) => {
    const ia = order?.indexOf(a) ?? -1, ib = order?.indexOf(b) ?? -1;
    return ia >= 0 || ib >= 0 ? (ia < 0 ? 1 : ib < 0 ? -1 : ia - ib) : a.localeCompare(b);
  });
  return keys.map((key) => {
    const g = groups.get(key)!;
    const w = wilsonInterval(g.correct, g.scored);
    return { key, ...g, ex: g.scored ? (g.correct / g.scored) * 100 : null, low: w?.low ?? null, high: w?.high ?? null };
  });
}

export const DIFFICULTY_ORDER = ["simple", "easy", "moderate", "medium", "hard", "challenging", "extra"];

/** EX over the scored questions with its interval: the run's own summary when it has one, else computed. */
export function runEx(run: RunView): GroupEx {
  const all = exBy(run.questions, () => "all")[0] ?? { key: "all", count: 0, scored: 0, correct: 0, ex: null, low: null, high: null };
  const ex = run.summary.ex;
  return ex ? { key: "all", count: run.summary.selected, scored: ex.scored, correct: ex.correct, ex: ex.pct, low: ex.low, high: ex.high } : all;
}

// ---------------------------------------------------------------------------
// Comparing runs of the same questions
// ---------------------------------------------------------------------------

export interface CompareRunInput {
  name: string;
  run: RunView;
  /** run.json's question hashes by id (`questionHash`), when it records them. */
  hashes?: Record<string, string>;
}

export interface PairOutcome {
  /** The other run's name; the base is the first run. */
  name: string;
  fixed: string[];
  broken: string[];
  bothWrong: string[];
  bothRight: string[];
  /** Questions not scored in one of the two (failed, skipped, no gold): not in the four lists. */
  notCompared: string[];
  /** Exact McNemar p over fixed vs broken. */
  p: number;
  /** The other run replays the base: the slot it forked at (when said), and per question the fork. */
  replayOfBase?: { slot?: string };
}

export interface RunComparison {
  names: string[];
  /** Ids in the base run's order, then those only later runs hold. */
  ids: string[];
  /** Per run, its question by id. */
  byId: Map<string, RunQuestion>[];
  pairs: PairOutcome[];
  /** Ids some run lacks (compared where present). */
  notInAll: string[];
  /** How sameness was checked: run.json's question hashes, or (older runs) question text and database. */
  checkedBy: "hashes" | "text";
}

const sameDir = (a: string, b: string) => a.replace(/[\\/]+$/, "") === b.replace(/[\\/]+$/, "");

/**
 * Compares runs against the first. Refused (a one-line `Error`) when a question both hold differs in content (their
 * question hashes differ) or when they share no question.
 */
export function compareViews(inputs: CompareRunInput[]): RunComparison {
  if (inputs.length < 2) throw new Error("compare needs two or more runs");
  const byId = inputs.map((i) => new Map(i.run.questions.map((q) => [q.id, q])));
  const base = inputs[0]!;
  const checkedBy = inputs.every((i) => i.hashes) ? "hashes" : "text";
  for (let k = 1; k < inputs.length; k++) {
    const other = inputs[k]!;
    let shared = 0;
    for (const [id, q] of byId[0]!) {
      const o = byId[k]!.get(id);
      if (!o) continue;
      shared++;
      const differs = checkedBy === "hashes" ? base.hashes![id] !== other.hashes![id] : q.question !== o.question || q.dbId !== o.dbId;
      if (differs) throw new Error(`${base.name} and ${other.name} are not runs of the same questions: question ${id} differs (${checkedBy === "hashes" ? "its question hash" : "its text or database"}); compare runs of one benchmark and split`);
    }
    if (!shared) throw new Error(`${base.name} and ${other.name} share no question id: nothing to compare`);
  }
  const ids = [...new Set(byId.flatMap((m) => [...m.keys()]))];
  const notInAll = ids.filter((id) => byId.some((m) => !m.has(id)));
  const pairs = inputs.slice(1).map((other, k): PairOutcome => {
    const mine = byId[k + 1]!;
    const out: PairOutcome = { name: other.name, fixed: [], broken: [], bothWrong: [], bothRight: [], notCompared: [], p: 1 };
    for (const id of ids) {
      const a = byId[0]!.get(id), b = mine.get(id);
      if (!a || !b) continue;
      if (!scoredVerdict(a.verdict) || !scoredVerdict(b.verdict)) out.notCompared.push(id);
      else if (a.verdict === "right") (b.verdict === "right" ? out.bothRight : out.broken).push(id);
      else (b.verdict === "right" ? out.fixed : out.bothWrong).push(id);
    }
    out.p = mcnemarP(out.fixed.length, out.broken.length);
    const replayed = other.run.replayOf && sameDir(other.run.replayOf.dir, base.run.dir);
    const forked = other.run.questions.some((q) => q.replay && sameDir(q.replay.from, base.run.dir));
    if (replayed || forked) out.replayOfBase = other.run.replayOf?.slot ? { slot: other.run.replayOf.slot } : {};
    return out;
  });
  return { names: inputs.map((i) => i.name), ids, byId, pairs, notInAll, checkedBy };
}
