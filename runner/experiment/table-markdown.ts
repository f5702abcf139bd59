import type { Interval } from "../report/eval-report.ts";
import type { Paper, Recipe, TableSpec } from "./recipe.ts";
import { type PlannedTest, type Prices, type RunRow } from "./table-rows.ts";

// table.md rendered from the rows, and the texts table.json and report.html share with it (interval legend, cost).

/** Names of the metrics a recipe run may ask beyond EX, as the papers print them. */
export const METRIC_TITLES: Record<string, string> = { ves: "VES", "r-ves": "R-VES", "soft-f1": "Soft F1", ts: "TS %" };
const metricText = (value: number | string) => (typeof value === "number" ? f2(value) : value);
/** "; VES 80.12; TS % not computed: needs --ts-dir DIR": the run's metrics after its EX. */
const metricsText = (r: RunRow) => Object.entries(r.metrics ?? {}).map(([m, v]) => `; ${METRIC_TITLES[m] ?? m} ${metricText(v)}`).join("");
const figuresText = (p: Paper) => Object.entries(p.figures).map(([k, v]) => `${k} ${v}`).join("; ");
const f2 = (n: number | null) => (n === null ? "-" : n.toFixed(2));
const intervalText = (i: Interval | null) => (i ? ` [${f2(i.low)}, ${f2(i.high)}]` : "");
/** EX as printed with its 95 % interval: "58.33 [48.10, 67.90]", or "58.33 ± 2.41 [52.30, 64.36]" over repeats. */
const exText = (r: RunRow) => `${r.repeats ? `${f2(r.ex)} ± ${f2(r.repeats.sd)}` : r.held ? `${f2(r.ex)} (held)` : f2(r.ex)}${intervalText(r.exInterval)}${partialText(r)}`;
/** A row with failed or never-run questions: its EX counts them wrong; the answered-only EX beside it. */
export const partialText = (r: RunRow) => {
  if (!r.partial) return "";
  const failed = r.failed ? `${countText(r.failed)} failed` : "";
  const unrun = r.unrun ? `${countText(r.unrun)} not run` : "";
  const answered = r.repeats ? f2(r.answeredEx) : `${f2(r.answeredEx)} (${r.correct} of ${r.questions - r.failed})`;
  return ` partial (${[failed, unrun].filter(Boolean).join(", ")}; answered only: ${answered})`;
};
const countText = (n: number | null) => (n === null ? "" : Number.isInteger(n) ? String(n) : n.toFixed(1));
const usd = (n: number | null) => (n === null ? "-" : `$${n < 0.01 ? n.toFixed(5) : n.toFixed(4)}`);

/** Ours beside the paper's: a line per row that has paper figures, ours first (or why it did not run). */
function besidePaper(rows: RunRow[]): string[] {
  const withPaper = rows.filter((r) => r.paper);
  if (!withPaper.length) return [];
  const lines = ["## Ours beside the paper's", "", "| run | paper's row | ours | paper's figures | paper's table, model | set-up differs from the paper's |", "|---|---|---|---|---|---|"];
  for (const r of withPaper) {
    const difficulties = r.byDifficulty.length > 1 ? `; ${r.byDifficulty.map((d) => `${d.difficulty} ${f2(d.ex)}`).join(", ")}` : "";
    const ours = r.notRun
      ? `not run: ${r.notRun}`
      : r.guideline
        ? `EX ${f2(r.guideline.exAfter)} after the cycle; AVG_i ${r.guideline.avgIterations.toFixed(2)}; corrected within k=1..${r.guideline.maxIter}: ${r.guideline.correctedWithin.join(", ")} of ${r.guideline.failures}`
        : r.repeats
          ? `EX ${exText(r)} over ${r.repeats.ex.filter((x) => x !== null).length} repeats${difficulties}`
          : `EX ${f2(r.ex)} (${r.correct}/${r.questions + r.unrun})${partialText(r)}${difficulties}${r.held ? ", held: one run every repeat read" : ""}`;
    const more = r.notRun ? "" : `${metricsText(r)}${r.model ? `; with ${r.model}` : ""}`;
    lines.push(`| ${r.run} | ${r.paper!.row} | ${ours}${more} | ${figuresText(r.paper!)} | ${r.paper!.source}; ${r.paper!.model}${r.paper!.note ? ` (${r.paper!.note})` : ""} | ${r.paper!.differs ?? "–"} |`);
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
  if (column === "differs") return r.paper?.differs ?? "";
  // The paper's figure stands beside a row that did not run too.
  if (column.startsWith("paper:")) return String(r.paper?.figures[column.slice("paper:".length)] ?? "");
  if (r.notRun) return column === "ex" ? `not run: ${r.notRun}` : "";
  if (column.startsWith("difficulty:")) {
    const d = r.byDifficulty.find((x) => x.difficulty === column.slice("difficulty:".length));
    return d ? `${f2(d.ex)}${intervalText(d.interval)}` : "";
  }
  if (column.startsWith("metric:")) {
    const value = r.metrics?.[column.slice("metric:".length)];
    return value === undefined ? "" : metricText(value);
  }
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
  const title = (c: string) => COLUMN_TITLES[c] ?? (c === "differs" ? "set-up differs from the paper's" : c.startsWith("metric:") ? (METRIC_TITLES[c.slice(7)] ?? c.slice(7)) : c.startsWith("difficulty:") ? `${c.slice(11)} EX %` : `paper ${c.slice(6)}`);
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
  if (opts.repeats && opts.repeats > 1) {
    const held = rows.filter((r) => r.held);
    const heldText = held.length ? ` Held runs were made once (repeat 1, seed ${held[0]!.held!.seed}) and every repeat read them, so their figures are that one run's: ${held.map((r) => r.run).join(", ")}.` : "";
    lines.push(`Every figure of ours is the mean over ${opts.repeats} repeats (each a replication with its own seed); ± is the sample standard deviation.${heldText}`, "");
  }
  lines.push(intervalLegend(rows), "");
  // Which model answered each row, and every served version seen (more than one is said in the row's entry).
  const modelled = rows.filter((r) => r.model);
  if (modelled.length) lines.push(`Models: ${modelled.map((r) => `${r.run} ${r.model}`).join("; ")}.`, "");
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
  const correctors = rows.filter((r) => r.scenario !== null);
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
  lines.push("", "tokens/q and calls/q are the method's chat-model tokens and calls per question, those the response cache served included (a cached rerun costs the method the same); embedding requests are left out (the vector cache shares them across questions and runs).");
  if (opts.prices) lines.push(costSummary(rows, opts.prices));
  lines.push("", ...plannedSection(rows));
  const calls = rows.reduce((n, r) => n + r.calls, 0);
  const cached = rows.reduce((n, r) => n + r.cachedCalls, 0);
  lines.push("", `Response cache over the eval runs: ${cached} of ${calls} model calls served (${calls ? ((cached / calls) * 100).toFixed(2) : "-"}%)`, "");
  const difficulties = [...new Set(rows.flatMap((r) => r.byDifficulty.map((d) => d.difficulty)))];
  if (difficulties.length > 1 || (difficulties.length === 1 && difficulties[0] !== "unknown")) {
    lines.push("## EX by difficulty (%)", "", `| run | ${difficulties.map((d) => `${d} (n)`).join(" | ")} | all |`, `|---|${difficulties.map(() => "---:").join("|")}|---:|`);
    for (const r of rows) {
      const at = (d: string) => r.byDifficulty.find((x) => x.difficulty === d);
      lines.push(`| ${r.run} | ${difficulties.map((d) => (at(d) ? `${f2(at(d)!.ex)}${intervalText(at(d)!.interval)} (${at(d)!.count})` : "")).join(" | ")} | ${exText(r)} |`);
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
    lines.push("", "A question flips when some repeats got it right and others wrong (among the questions every repeat answered).");
    const held = rows.filter((r) => r.held);
    if (held.length) lines.push(`Not repeated (--hold): ${held.map((r) => `${r.run} (EX ${f2(r.ex)}, seed ${r.held!.seed})`).join(", ")}.`);
    lines.push("");
  }
  const withOutcomes = rows.filter((r) => r.outcomes.length);
  if (withOutcomes.length) {
    lines.push("## What the questions went through (each graph's outcome summary)", "");
    for (const r of withOutcomes) lines.push(`- **${r.run}** (${r.graph}): ${r.outcomes.join("; ")}`);
    lines.push("");
  }
  return lines.join("\n");
}

/** What an EX interval is, as the table's legend says it. */
export function intervalLegend(rows: RunRow[]): string {
  const over = new Set(rows.flatMap((r) => (r.exInterval ? [r.exInterval.over] : [])));
  const parts: string[] = [];
  if (over.has("repeats")) parts.push("over repeats: a seeded bootstrap over questions × repeats (questions drawn with replacement, each with one of its repeats; 2,000 draws), never narrower than the Wilson interval of the mean EX over the questions");
  if (over.has("questions")) parts.push(`${over.has("repeats") ? "for a held run or one with a single answered repeat: " : ""}the Wilson score interval over every selected question (a failed or missing prediction is wrong)`);
  return `EX [low, high]: a 95 % interval, ${parts.join("; ") || "none (no question answered)"}.`;
}

/** The experiment's cost at the given prices: the methods' tokens, and those spent (not served by the cache). */
export function costSummary(rows: RunRow[], prices: Prices): string {
  const ran = rows.filter((r) => !r.notRun && !r.guideline);
  const total = ran.reduce((a, r) => a + (r.costPerQuestion ?? 0) * r.questions * (r.repeats?.ex.length ?? 1), 0);
  const spent = ran.reduce((a, r) => a + r.spentTokens, 0);
  return `Cost at $${prices.input} / $${prices.output} per million input / output tokens: ${usd(total)} for the methods' tokens; ${spent} tokens were spent by this experiment (the rest came from the response cache).`;
}

/** "+12.50 [-3.10, 27.40]": a planned difference in percentage points with its paired 95 % interval. */
export const differenceText = (t: { difference: number; differenceInterval: Interval }) => `${t.difference >= 0 ? "+" : ""}${f2(t.difference)}${intervalText(t.differenceInterval)}`;

/** table.md's planned comparisons: a line per row (per repeat, and pooled over repeats) against its reference. */
function plannedSection(rows: RunRow[]): string[] {
  const planned = rows.filter((r) => r.versus);
  if (!planned.length) return [];
  const repeated = planned.some((r) => r.versus!.tests.some((t) => t.seed !== null));
  const pooledFamily = Math.max(0, ...planned.map((r) => r.versus!.pooled?.family ?? 0));
  const family = repeated ? pooledFamily : Math.max(0, ...planned.flatMap((r) => r.versus!.tests.map((t) => t.family)));
  const lines = [
    "## Planned comparisons",
    "",
    `Each row against its reference — a corrector against its own initial SQL on the same questions, a row with \`reference\` against that run — by an exact McNemar test on the questions only one of them got right, with the EX difference (row − reference, percentage points) and its paired 95 % interval (Newcombe's hybrid score); p is Holm-adjusted over the ${family} planned comparisons of this experiment${repeated ? " pooled over the repeats (per question its share of right answers over the repeats, an exact sign test: the family that counts; each repeat's own row is Holm-adjusted within its repeat and shows the spread)" : ""}, not over every pair of rows. A comparison with no pair is not tested and outside the family.`,
    "",
    `| run | reference |${repeated ? " seed |" : ""} questions | only run right | only reference right | EX difference [95 %] | McNemar p | Holm p | at 0.05 |`,
    `|---|---|${repeated ? "---:|" : ""}---:|---:|---:|---:|---:|---:|---|`,
  ];
  const line = (r: RunRow, t: PlannedTest, seed: string) =>
    `| ${r.run} | ${r.versus!.reference} |${repeated ? ` ${seed} |` : ""} ${t.compared} | ${t.onlyRow} | ${t.onlyReference} | ${differenceText(t)} | ${t.p.toPrecision(3)} | ${t.holmP.toPrecision(3)} | ${t.holmP < 0.05 ? "significant" : "not significant"} |`;
  for (const r of planned) {
    const v = r.versus!;
    if (v.notTested) lines.push(`| ${r.run} | ${v.reference} |${repeated ? " |" : ""} not tested: ${v.notTested} | | | | | | |`);
    for (const t of v.tests) lines.push(line(r, t, String(t.seed ?? "")));
    if (v.pooled) lines.push(line(r, v.pooled, "pooled"));
  }
  lines.push("");
  return lines;
}
