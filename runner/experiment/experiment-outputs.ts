import fs from "node:fs";
import path from "node:path";
import { UserError } from "../../core/errors.ts";
import { EXIT } from "../../core/exit.ts";
import type { CliIO } from "../../core/io.ts";
import { isMockRun, MOCK_LABEL, mockMixRefusal } from "../../tools/models/mock-label.ts";
import type { EvalRecord } from "../run/results-record.ts";
import type { SampleSpec } from "../run/question-sample.ts";
import { addRowMetrics, selectedQuestionsIn } from "./paper-metrics.ts";
import { plannedComparisons } from "./planned-comparisons.ts";
import type { Recipe, RepeatLayout } from "./recipe.ts";
import { experimentHtmlRows } from "./experiment-html-rows.ts";
import { costSummary, intervalLegend, renderTable } from "./table-markdown.ts";
import { type GuidelineFigures, otherRowOf, type Prices, repeatedRowOf, type RunRow } from "./table-rows.ts";

/** What an experiment's runs left, for its outputs: the runs in order, where each repeat's are, what blocked some. */
export interface RanExperiment {
  io: CliIO;
  recipe: Recipe;
  order: string[];
  blocked: Map<string, string>;
  held: Set<string>;
  layout: RepeatLayout;
  repeats: number;
  seeds: number[];
  prices: Prices | undefined;
  outDir: string;
  benchDir: string;
  tsDir: string | undefined;
  limit: number | undefined;
  sample: SampleSpec | undefined;
  ids: string[] | undefined;
  sets: Record<string, string>;
  initialFile: string | undefined;
  splitOf: (run: string) => string;
  recordsIn: (dir: string) => EvalRecord[];
  /** The command line report.html shows (display only). */
  command: string;
}

/**
 * An experiment's outputs once its runs ran: the rows (figures per run, over repeats, planned comparisons, paper
 * metrics), OUT/table.md, OUT/table.json and OUT/report.html; prints the table and returns the rows as table.json
 * holds them. Mock runs beside real ones are refused.
 */
export async function writeExperimentOutputs(x: RanExperiment): Promise<{ exitCode: number; outDir: string; table: string; rows: RunRow[] }> {
  const { io, recipe, order, blocked, held, repeats, seeds, prices, outDir, benchDir, tsDir, limit, sample, ids, sets, initialFile, splitOf, recordsIn, command } = x;
  const { runDir: outOfRepeat, repeatsOf } = x.layout;
  // The mock model's runs (or predictions) are never tabled beside real ones.
  const runFiles = order.filter((run) => !blocked.has(run) && recipe.runs[run]!.kind === "eval").flatMap((run) => repeatsOf(run).map((k) => ({ name: run, dir: outOfRepeat(k, run) })));
  const initialDir = initialFile ? [{ name: `the initial predictions (${path.relative(io.cwd, initialFile)})`, dir: path.dirname(initialFile) }] : [];
  const refusal = mockMixRefusal([...runFiles, ...initialDir].flatMap(({ name, dir }) => {
    const file = path.join(dir, "run.json");
    if (!fs.existsSync(file)) return [];
    try {
      return [{ name, run: JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown> }];
    } catch {
      return [];
    }
  }));
  if (refusal) throw new UserError(`experiment ${recipe.name}: ${refusal}`);
  const allMock = runFiles.length > 0 && runFiles.every(({ dir }) => fs.existsSync(path.join(dir, "run.json")) && isMockRun(JSON.parse(fs.readFileSync(path.join(dir, "run.json"), "utf8"))));
      const rows = order.flatMap((run) => {
    const spec = recipe.runs[run]!;
    if (blocked.has(run)) return [otherRowOf(run, spec, { notRun: blocked.get(run)! })];
    if (spec.kind === "magic-guideline") {
      return repeatsOf(run).map((k) => {
        const name = repeats > 1 && !held.has(run) ? `${run} (repeat ${k})` : run;
        const file = path.join(outOfRepeat(k, run), "stats.json");
        // A guideline run that stopped before its stats (failed merges, Ctrl-C) is a row not run, with what to do.
        if (!fs.existsSync(file)) return otherRowOf(name, spec, { notRun: `${path.relative(outDir, file)} was not written: the guideline run did not finish; --resume retries it` });
        const stats = JSON.parse(fs.readFileSync(file, "utf8")) as GuidelineFigures;
        const { questions, failures, corrected, exAfter, avgIterations, correctedWithin, maxIter, noManager } = stats;
        return otherRowOf(name, spec, { guideline: { questions, failures, corrected, exAfter, avgIterations, correctedWithin, maxIter, noManager } });
      });
    }
    if (spec.kind !== "eval") return [];
    const ks = repeatsOf(run);
    return [repeatedRowOf(run, spec, ks.map((k) => recordsIn(outOfRepeat(k, run))), seeds, prices, ks.map((k) => Math.max(recordsIn(outOfRepeat(k, run)).length, selectedQuestionsIn(outOfRepeat(k, run)) ?? 0)))];
  });
  for (const row of rows) if (held.has(row.run)) row.held = { seed: seeds[0]! };
  plannedComparisons(recipe, rows, (run, k) => recordsIn(outOfRepeat(k, run)), { seeds, held });
  // The metrics each paper reports beyond EX (VES, test-suite accuracy), and the model each row ran with.
  await addRowMetrics(rows, recipe, { benchDir, tsDir, cwd: io.cwd, splitOf, dirsOf: (run) => repeatsOf(run).map((k) => outOfRepeat(k, run)), recordsIn });
  const table = `${allMock ? `> **${MOCK_LABEL}**: every run was answered by the built-in mock model (\`--model mock\`).\n\n` : ""}${renderTable(recipe, rows, { ...(prices ? { prices } : {}), repeats })}`;
  fs.writeFileSync(path.join(outDir, "table.md"), table);
  fs.writeFileSync(path.join(outDir, "table.json"), `${JSON.stringify({ recipe, bench: benchDir, limit: limit ?? null, sample: sample ?? null, ids: ids ?? null, sets, repeats, held: [...held], seeds, prices: prices ?? null, intervals: intervalLegend(rows), rows }, null, 2)}
`);
  // One page over the dev runs (the questions all of them ran), charts as compare's; with repeats, repeat 1's.
  const [{ compareRuns }, { renderCompareHtml }] = await Promise.all([import("../report/comparison.ts"), import("../report/report-html.ts")]);
  const devRuns = order.filter((run) => recipe.runs[run]!.kind === "eval" && !blocked.has(run) && splitOf(run) === "dev");
  if (devRuns.length) {
    const comparison = compareRuns(
      devRuns.map((run, i) => ({ key: `R${i + 1}`, label: run, dir: outOfRepeat(1, run), records: new Map(recordsIn(outOfRepeat(1, run)).map((r) => [r.id, r])), run: {} })),
      prices,
    );
    const title = `sqlmend experiment: ${recipe.name}`;
    const note = `The Experiment table is table.json's (every answered question of each run${repeats > 1 ? `, means over ${repeats} repeats` : ""}); the summary and charts below compare the dev runs on the questions all of them answered${repeats > 1 ? " in repeat 1, except EX per repeat, which draws every repeat" : ""}.`;
    const experiment = experimentHtmlRows(rows);
    const guidelines = rows.filter((r) => r.guideline).map((r) => ({ run: r.run, maxIter: r.guideline!.maxIter, failures: r.guideline!.failures, correctedWithin: r.guideline!.correctedWithin }));
    fs.writeFileSync(path.join(outDir, "report.html"), await renderCompareHtml(comparison, { command, title, note, experiment, guidelines, mock: allMock, ...(repeats > 1 ? { repeat: { k: 1, seed: seeds[0]!, of: repeats } } : {}), ...(prices ? { cost: costSummary(rows, prices) } : {}) }));
  }
  io.stdout(`${table}\nTable: ${path.join(outDir, "table.md")}\n`);
  // Failed questions, or a guideline run without its stats: not what was asked (--resume retries them).
  // The rows as table.json holds them (a copy through JSON: what a script reads equals the file).
  const figures = (JSON.parse(fs.readFileSync(path.join(outDir, "table.json"), "utf8")) as { rows: RunRow[] }).rows;
  return { exitCode: rows.some((r) => r.failed || r.unrun || r.notRun?.includes("--resume retries it")) ? EXIT.incomplete : EXIT.ok, outDir, table: path.join(outDir, "table.md"), rows: figures };
}

