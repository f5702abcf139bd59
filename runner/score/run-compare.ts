import fs from "node:fs";
import path from "node:path";
import { UsageError, UserError } from "../../core/errors.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import { EXIT } from "../../core/exit.ts";
import { commandLine } from "../../core/secrets.ts";
import type { EvalRecord, parseResults } from "../run/results-record.ts";
import type { Comparison, RunSummary } from "../report/comparison.ts";
import type { Outcome } from "../../graphs/outcome.ts";
import { isMockRun, MOCK_LABEL, mockMixRefusal } from "../../tools/models/mock-label.ts";
import { commandLineOf, type FlagTable, type FlagValues, flagValuesOf } from "../run/api-options.ts";

/** `sqlmend compare`'s flags. */
export const COMPARE_FLAGS = { json: { type: "boolean" }, show: { type: "string" }, html: { type: "string" }, price: { type: "string" } } as const;

export const COMPARE_USAGE = `Usage: sqlmend compare OUT_A OUT_B [OUT_C ...] [--json] [--html FILE] [--show N] [--price IN,OUT]

Compares 'sqlmend eval' output folders on the questions all of them answered (failed ones are counted apart; runs
holding other questions under the same ids are refused): one table of EX with its 95 % interval (overall and per
difficulty), tokens, calls, latency and cost per question (tokens and cost are the method's: those the response cache
served count too, so a rerun from the cache compares the same); what the questions went through (each run's outcomes,
summed as its report.md sums them); per pair the questions only one got right, an exact
McNemar test on those, and with three runs or more its Holm-adjusted p-value over all pairs.
  --json          the comparison as JSON
  --html FILE     a self-contained page with charts (EX by difficulty, EX against tokens per question, flips)
  --show N        ids listed per group (default 10)
  --price IN,OUT  USD per million input and output tokens: a cost column (on the --html page too, with the total)`;

interface RunOutputs {
  dir: string;
  label: string;
  records: Map<string, EvalRecord>;
  run: Record<string, unknown>;
}

function readRun(dir: string, cwd: string, parse: typeof parseResults): RunOutputs {
  const abs = path.resolve(cwd, dir);
  const file = path.join(abs, "results.jsonl");
  if (!fs.existsSync(file)) throw new UserError(`${dir}: no results.jsonl (is it an 'sqlmend eval' --out folder?)`);
  const { records } = parse(fs.readFileSync(file, "utf8"));
  let run: Record<string, unknown> = {};
  try {
    run = JSON.parse(fs.readFileSync(path.join(abs, "run.json"), "utf8")) as Record<string, unknown>;
  } catch {
    // run.json is optional for comparing: labels fall back to the folder name
  }
  const graph = typeof run.graph === "string" ? run.graph : "?";
  return { dir: abs, label: `${path.basename(abs)} (${graph})`, records, run };
}


/**
 * Compares eval run folders on the questions all of them answered (`sqlmend compare`): prints the table (or JSON),
 * writes the page with `html`, and returns the comparison — EX, cost, outcomes, flips and McNemar tests per pair.
 */
export async function compare(options: { runs: string[]; json?: boolean; html?: string; show?: number; price?: string }, io: CliIO = defaultIO()): Promise<{ exitCode: number; comparison: Comparison }> {
  const { runs, ...rest } = options;
  return compareFrom({ values: flagValuesOf("compare", rest, COMPARE_FLAGS as FlagTable), positionals: runs }, io);
}

/** compare from its flag values and run folders (the launcher's parse, or `compare`'s). */
export async function compareFrom(input: { values: FlagValues; positionals: string[]; argv?: string[] }, io: CliIO): Promise<{ exitCode: number; comparison: Comparison }> {
  const values = input.values as { json?: boolean; show?: string; html?: string; price?: string };
  const { positionals } = input;
  if (positionals.length < 2) throw new UsageError("name two or more eval output folders");
  const show = values.show === undefined ? 10 : Number(values.show);
  if (!Number.isInteger(show) || show < 0) throw new UsageError(`--show takes a whole number, not '${values.show}'`);
  let prices: { input: number; output: number } | undefined;
  if (values.price !== undefined) {
    const [input, output] = values.price.split(",").map(Number);
    if (!Number.isFinite(input) || !Number.isFinite(output) || input! < 0 || output! < 0) throw new UsageError(`--price takes IN,OUT (USD per million tokens), not '${values.price}'`);
    prices = { input: input!, output: output! };
  }
  // The results' schema (zod) loads for a comparison, not for --help.
  const [{ parseResults }, { checkSameQuestions, compareRuns, renderComparison }] = await Promise.all([import("../run/results-record.ts"), import("../report/comparison.ts")]);
  const seen = new Map<string, string>();
  for (const dir of positionals) {
    const abs = path.resolve(io.cwd, dir);
    const real = fs.existsSync(abs) ? fs.realpathSync(abs) : abs;
    if (seen.has(real)) throw new UsageError(`${dir} is given twice (as ${seen.get(real)} too): a run compared with itself pairs nothing`);
    seen.set(real, dir);
  }
  const runs = await Promise.all(positionals.map(async (dir, i) => {
    const run = readRun(dir, io.cwd, parseResults);
    return { key: runKey(i), ...run, summarizeOutcomes: await outcomeSummaryOf(run.run.graph) };
  }));
  const refusal = mockMixRefusal(runs.map((r, i) => ({ name: positionals[i]!, run: r.run })));
  if (refusal) throw new UserError(refusal);
  const mock = runs.every((r) => isMockRun(r.run));
  checkSameQuestions(runs);
  const comparison = compareRuns(runs, prices);
  const them = runs.length === 2 ? "two" : `${runs.length}`;
  if (!comparison.inAll) throw new UserError(`the ${them} runs have no question in common`);
  if (!comparison.common) {
    const failed = comparison.runs.map((r) => `${r.failed.length} in ${r.key}`).join(", ");
    throw new UserError(`the ${them} runs have no question in common that ${runs.length === 2 ? "both" : "all"} answered (failed: ${failed}; --resume retries them)`);
  }
  if (values.html !== undefined) {
    const { renderCompareHtml } = await import("../report/report-html.ts");
    const cost = prices ? costLine(comparison, prices) : undefined;
    fs.writeFileSync(path.resolve(io.cwd, values.html), await renderCompareHtml(comparison, { command: input.argv ? commandLine("compare", input.argv) : commandLineOf("compare", positionals, values), ...(cost ? { cost } : {}), mock }));
  }
  if (values.json) {
    io.stdout(`${JSON.stringify(runs.length === 2 ? { ...legacyPair(comparison), ...comparison } : comparison, null, 2)}\n`);
    return { exitCode: EXIT.ok, comparison };
  }
  io.stdout(`${mock ? `${MOCK_LABEL}: every run compared was answered by the mock model\n` : ""}${renderComparison(comparison, show)}`);
  return { exitCode: EXIT.ok, comparison };
}

/** The page's cost summary: each run's USD over the questions compared, at the prices given. */
function costLine(c: Comparison, prices: { input: number; output: number }): string {
  const each = c.runs.map((r) => `${r.key} $${((r.costPerQuestion ?? 0) * c.common).toFixed(4)} ($${(r.costPerQuestion ?? 0).toFixed(5)}/question)`);
  return `Cost at $${prices.input} / $${prices.output} per million input / output tokens, over the ${c.common} questions compared: ${each.join(", ")}.`;
}

/** The graph's own summary of its outcomes (as report.md has it), when it is one sqlmend knows; else the default. */
async function outcomeSummaryOf(graph: unknown): Promise<((outcomes: Outcome[]) => string[]) | undefined> {
  if (typeof graph !== "string") return undefined;
  const { findManifest } = await import("../../graphs/registry.ts");
  const spec = await findManifest(graph)?.load();
  return spec?.outcome?.summarize?.bind(spec.outcome);
}

/** A, B, ..., Z, AA, AB, ... */
const runKey = (i: number): string => (i < 26 ? String.fromCharCode(65 + i) : runKey(Math.floor(i / 26) - 1) + runKey(i % 26));

/** Two runs' JSON as it was before N runs (keys a, b, onlyACorrect, ...), beside the general form. */
function legacyPair(c: Comparison) {
  const [a, b] = c.runs as [RunSummary, RunSummary];
  const pair = c.pairs[0]!;
  const side = (r: RunSummary) => ({ dir: r.dir, ex: r.ex, byDifficulty: r.byDifficulty, tokensPerQuestion: r.tokensPerQuestion, callsPerQuestion: r.callsPerQuestion, latencyMsPerQuestion: r.latencyMsPerQuestion, outcomes: r.outcomes });
  return {
    a: side(a),
    b: side(b),
    onlyInA: a.notCommon,
    onlyInB: b.notCommon,
    failedInA: a.failed,
    failedInB: b.failed,
    bothCorrect: pair.bothCorrect,
    neitherCorrect: pair.neitherCorrect,
    onlyACorrect: pair.onlyACorrect,
    onlyBCorrect: pair.onlyBCorrect,
    mcnemarP: pair.mcnemarP,
  };
}
