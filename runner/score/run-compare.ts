import fs from "node:fs";
import path from "node:path";
import { UsageError, UserError } from "../../core/errors.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import { EXIT } from "../../core/exit.ts";
import { checkConfig, commandLineOfConfig, type ConfigInput, type ConfigOf, defineConfig, inApiWords, opt, optionUsageError, optionUserError } from "../../core/config.ts";
import type { EvalRecord, parseResults } from "../run/results-record.ts";
import type { Comparison, RunSummary } from "../report/comparison.ts";
import type { Outcome } from "../../graphs/outcome.ts";
import { isMockRun, MOCK_LABEL, mockMixRefusal } from "../../tools/models/mock-label.ts";

/** `compare`'s options (the run folders aside), declared once: the API's type, the launcher's flags and usage lines. */
export const COMPARE_CONFIG = defineConfig({
  json: { type: "boolean", help: "the comparison as JSON" },
  html: { type: "string", metavar: "FILE", help: "a self-contained page with charts (EX by difficulty, EX against tokens per question, flips)" },
  show: { type: "int", metavar: "N", min: 0, help: "ids listed per group (default 10)" },
  price: { type: "list", metavar: "IN,OUT", help: "USD per million input and output tokens: a cost column (on the --html page too, with the total)" },
});

/** compare's typed config, as the launcher parses it and `compare` checks it. */
export type CompareConfig = ConfigOf<typeof COMPARE_CONFIG>;

/** What a script passes to `compare`: the run folders and the declared options (closed: a misspelt one does not compile). */
export type CompareOptions = ConfigInput<typeof COMPARE_CONFIG> & { runs: readonly string[] };

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
export async function compare(options: CompareOptions, io: CliIO = defaultIO()): Promise<{ exitCode: number; comparison: Comparison }> {
  const { runs, ...rest } = options;
  if (!Array.isArray(runs)) throw new UsageError("compare: runs takes a list of eval output folders");
  return inApiWords("compare", () => compareFrom({ config: checkConfig("compare", COMPARE_CONFIG, rest), runs: [...runs] }, io));
}

/** compare's body, from its typed config and run folders (the launcher's parse, or `compare`'s check). */
export async function compareFrom(input: { config: CompareConfig; runs: string[] }, io: CliIO): Promise<{ exitCode: number; comparison: Comparison }> {
  const { config, runs: positionals } = input;
  if (positionals.length < 2) throw new UsageError("name two or more eval output folders");
  const show = config.show ?? 10;
  let prices: { input: number; output: number } | undefined;
  if (config.price !== undefined) {
    const [input, output, ...more] = config.price.map(Number);
    if (more.length || !Number.isFinite(input) || !Number.isFinite(output) || input! < 0 || output! < 0) throw optionUsageError`${opt("price")} takes IN,OUT (USD per million tokens), not '${config.price.join(",")}'`;
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
    throw optionUserError`the ${them} runs have no question in common that ${runs.length === 2 ? "both" : "all"} answered (failed: ${failed}; ${opt("resume")} retries them)`;
  }
  if (config.html !== undefined) {
    const { renderCompareHtml } = await import("../report/report-html.ts");
    const cost = prices ? costLine(comparison, prices) : undefined;
    fs.writeFileSync(path.resolve(io.cwd, config.html), await renderCompareHtml(comparison, { command: commandLineOfConfig("compare", positionals, COMPARE_CONFIG, config), ...(cost ? { cost } : {}), mock }));
  }
  if (config.json) {
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
