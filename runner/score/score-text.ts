import type { CliIO } from "../../core/io.ts";
import type { Benchmark } from "../../state/question.ts";
import { databaseErrorOf, type Metric, NO_GOLD, type ScoreReport } from "../../tools/benchmarks/score.ts";

// What `sqlmend score` prints: the table per difficulty, what was not scored or scored wrong and why, the progress line.

const fmtPct = (x: number) => x.toFixed(2);

function renderTable(report: ScoreReport, shown: Set<Metric>): string {
  const ves = report.ves !== undefined && shown.has("ves");
  const rves = report.ves !== undefined && shown.has("r-ves");
  const f1 = report.softF1 !== undefined;
  const ts = report.testSuite !== undefined;
  const head = ["difficulty", "count", "correct", "EX %", ...(ves ? ["VES"] : []), ...(rves ? ["R-VES"] : []), ...(f1 ? ["Soft F1"] : []), ...(ts ? ["TS %"] : [])];
  const rows = report.byDifficulty.map((d) => [
    d.difficulty,
    String(d.count),
    String(d.correct),
    fmtPct(d.ex),
    ...(ves ? [fmtPct(d.ves ?? 0)] : []),
    ...(rves ? [fmtPct(d.rves ?? 0)] : []),
    ...(f1 ? [fmtPct(d.softF1 ?? 0)] : []),
    ...(ts ? [fmtPct(d.ts ?? 0)] : []),
  ]);
  rows.push([
    "all",
    String(report.count),
    String(report.correct),
    report.count ? fmtPct(report.ex) : "n/a",
    ...(ves ? [fmtPct(report.ves!.ves)] : []),
    ...(rves ? [fmtPct(report.ves!.rves)] : []),
    ...(f1 ? [fmtPct(report.softF1!)] : []),
    ...(ts ? [fmtPct(report.testSuite!.accuracy)] : []),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ").trimEnd();
  return [line(head), ...rows.map(line)].join("\n");
}

const listed = (items: string[], max = 5) => items.slice(0, max).join(", ") + (items.length > max ? `, ... (${items.length - max} more)` : "");

export function renderText(report: ScoreReport, bench: Benchmark, predLabel: string, extra: { unmatched: string[]; notes: string[]; shown: Set<Metric> }): string {
  const out: string[] = [];
  out.push(`benchmark:   ${bench.name} (${bench.layout} layout, ${bench.dir})`);
  if (bench.questionsFile) out.push(`questions:   ${bench.questionsFile}`);
  out.push(`predictions: ${predLabel}`);
  out.push(`semantics:   ${report.semantics}${report.semantics === "spider" ? (report.keepDistinct ? ", DISTINCT kept" : ", DISTINCT removed") : ""}`);
  out.push(`metrics:     ${[...extra.shown].join(", ")} on the databases in ${report.databases ?? bench.dbDir ?? bench.dir}${report.testSuite ? `; ts also on the variants in ${report.testSuite.dir}` : ""}`);
  out.push("");
  if (!report.count && report.noGold) {
    out.push(`EX: not available (no question has gold SQL; ${report.noGold} predictions not scored)`);
    return `${out.join("\n")}\n`;
  }
  out.push(renderTable(report, extra.shown));
  if (report.noGold) out.push(`no gold SQL: ${report.noGold} questions not scored (not counted)`);
  if (report.databaseErrors.length) out.push(`database could not be read: ${report.databaseErrors.length} questions not scored (not counted): ${listed(report.databaseErrors.map((d) => `${d.id}: ${d.error}`), 3)}`);
  const retried = report.verdicts.filter((v) => v.lockRetries);
  if (retried.length) out.push(`database locked by another process: ${retried.length} questions scored again after a wait (ids ${listed(retried.map((v) => v.id))})`);
  if (report.testSuite) {
    const t = report.testSuite;
    out.push(`test-suite: ${t.correct}/${t.count} right on every variant${t.noVariants ? `; ${t.noVariants} questions whose database has no variant in ${t.dir} not counted` : ""}`);
  }
  if (report.softF1 !== undefined) out.push("Soft F1: BIRD mini-dev's calculate_f1_score, checked question by question against the official function (docs/benchmarks-and-scoring.md: bench/official-agreement.ts)");
  if (report.ves) {
    out.push(`VES: ${report.ves.iterations} timed runs per query (BIRD's evaluation_ves.py uses ${report.ves.officialIterations})`);
  }
  const wrong = report.verdicts.filter((v) => !v.correct);
  const errors = wrong.filter((v) => v.predError && v.predError !== "no prediction" && !databaseErrorOf(v));
  const goldErrors = report.verdicts.filter((v) => v.goldError && v.goldError !== NO_GOLD && !databaseErrorOf(v));
  if (errors.length) out.push(`prediction failed to run: ${errors.length} (${listed(errors.map((v) => `${v.id}: ${v.predError}`), 3)})`);
  if (goldErrors.length) out.push(`gold SQL failed to run: ${goldErrors.length} (${listed(goldErrors.map((v) => `${v.id}: ${v.goldError}`), 3)})`);
  if (report.writingPredictions.length) out.push(`predictions that write (scored as errors, never run): ${report.writingPredictions.length} (ids ${listed(report.writingPredictions)})`);
  if (report.emptyPredictions.count) out.push(`no statement (empty or comments only): ${report.emptyPredictions.count} predictions, ${report.emptyPredictions.credited} right because their gold returns no rows (as the official BIRD scorers, through Python's sqlite3)`);
  if (report.severalStatements) out.push(`several statements (anything but comments after the first ';', ';;' too): ${report.severalStatements} predictions scored wrong, as Python's sqlite3 refuses them`);
  if (report.droppedStatements.length) out.push(`several statements: ${report.droppedStatements.length} predictions scored on their first statement only, as test-suite-sql-eval does (ids ${listed(report.droppedStatements)})`);
  if (report.missingPredictions) out.push(`no prediction: ${report.missingPredictions} questions, scored wrong`);
  if (report.noAnswers) out.push(`no answer (marked failed or not run by the run that wrote the file): ${report.noAnswers} questions, scored wrong`);
  const large = report.verdicts.filter((v) => v.tooLarge);
  if (large.length) out.push(`too large to compare: ${large.length}, scored wrong (${listed(large.map((v) => `${v.id}: ${v.tooLarge}`), 3)})`);
  if (report.rescoredAlone) out.push(`stopped at the time limit beside other questions: ${report.rescoredAlone} scored again alone (their verdicts do not depend on --concurrency)`);
  if (report.streamed) out.push(`past the cap, compared whole by streamed digests: ${report.streamed} identical results scored right`);
  const softLarge = report.verdicts.filter((v) => v.softF1Note);
  if (softLarge.length) out.push(`Soft F1 scored 0 as too large: ${softLarge.length} (${listed(softLarge.map((v) => `${v.id}: ${v.softF1Note}`), 3)})`);
  if (report.timeouts) out.push(`stopped at the time limit: ${report.timeouts} (counted in the failures above)`);
  if (bench.skipped.length) {
    out.push(`skipped: ${bench.skipped.length} questions not scored`);
    for (const s of bench.skipped.slice(0, 5)) out.push(`  ${s.id} (${s.dbId}): ${s.reason}`);
    if (bench.skipped.length > 5) out.push(`  ... and ${bench.skipped.length - 5} more`);
  }
  if (extra.unmatched.length) out.push(`predictions matching no question: ${extra.unmatched.length} (ids ${listed(extra.unmatched)})`);
  for (const note of extra.notes) out.push(`note: ${note}`);
  return `${out.join("\n")}\n`;
}

export function progress(io: CliIO) {
  if (!io.isTTY) return undefined;
  let last = 0;
  return (done: number, total: number) => {
    const now = Date.now();
    if (done < total && now - last < 100) return;
    last = now;
    io.stderr(`\rscoring ${done}/${total}${done === total ? "\n" : ""}`);
  };
}
