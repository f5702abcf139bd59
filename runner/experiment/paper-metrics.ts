import fs from "node:fs";
import path from "node:path";
import { firstLineOf } from "../../core/errors.ts";
import { quietIO } from "../../core/io.ts";
import type { Recipe, RecipeRun } from "./recipe.ts";
import type { Split } from "../../state/splits.ts";
import { servedSummary } from "../report/eval-report.ts";
import { type EvalRecord } from "../run/results-record.ts";
import { mean, type RunRow } from "./table-rows.ts";
import { METRIC_TITLES } from "./table-markdown.ts";

/**
 * What a recipe row reports beyond its EX: the metrics its paper reports (a run's `metrics`: VES for MAGIC Table 4,
 * test-suite accuracy for R³'s Spider columns), scored on the run's predictions as `sqlmend score` scores them, and
 * the model(s) it ran with. A metric whose data is not given is "not computed", with what it needs.
 */

export const NEEDS_TS_DIR = "not computed: needs --ts-dir DIR (Spider's test-suite databases)";

/** Why a run's metric cannot be computed before anything runs, or undefined (the dry run says it). */
export function metricNotComputed(metric: string, tsDir: string | undefined): string | undefined {
  return metric === "ts" && tsDir === undefined ? NEEDS_TS_DIR : undefined;
}

/**
 * A run's metrics, each the mean over the repeats' predictions (`predict_<split>.json` in each folder), or "not
 * computed: ..." when the data is missing (no --ts-dir, no test-suite variant of its databases, no predictions).
 */
export async function runMetrics(spec: RecipeRun, dirs: string[], at: { benchDir: string; split: string; tsDir: string | undefined; cwd: string }): Promise<Record<string, number | string>> {
  const asked = spec.metrics ?? [];
  const out: Record<string, number | string> = {};
  for (const m of asked) {
    const reason = metricNotComputed(m, at.tsDir);
    if (reason) out[m] = reason;
  }
  const scored = asked.filter((m) => out[m] === undefined);
  if (!scored.length) return out;
  const values = new Map<string, number[]>(scored.map((m) => [m, []]));
  const { scoreFrom } = await import("../score/score-predictions.ts");
  for (const dir of dirs) {
    const pred = path.join(dir, `predict_${at.split}.json`);
    if (!fs.existsSync(pred)) {
      for (const m of scored) out[m] = `not computed: ${path.basename(dir)}/${path.basename(pred)} was not written`;
      return out;
    }
    try {
      const { report } = await scoreFrom({ bench: at.benchDir, split: at.split as Split, pred, metrics: scored, ...(at.tsDir ? { tsDir: at.tsDir } : {}), onlyPredicted: true, concurrency: 2 }, quietIO({ cwd: at.cwd }));
      for (const m of scored) {
        if (m === "ts") {
          if (!report.testSuite?.count) out.ts = `not computed: no database of the run's questions has a test-suite variant in ${at.tsDir}`;
          else values.get(m)!.push(report.testSuite.accuracy);
          continue;
        }
        // A figure the scorer did not give is said, never counted as 0.
        const figure = m === "soft-f1" ? report.softF1 : m === "ves" ? report.ves?.ves : report.ves?.rves;
        if (figure === undefined || figure === null) out[m] = `not computed: the scorer gave no ${m} for ${path.basename(dir)}`;
        else values.get(m)!.push(figure);
      }
    } catch (error) {
      for (const m of scored) out[m] = `not computed: ${firstLineOf(error)}`;
      return out;
    }
  }
  for (const m of scored) if (out[m] === undefined) out[m] = mean(values.get(m)!);
  return out;
}

/**
 * The model(s) a run ran with, from its run.json: the default model, and the model of each role its questions used
 * (`records`' usage by role, as the table read them) where that role has another one ("gpt-4o; coder:
 * claude-3-5-sonnet"); null for a run that called no model.
 */
export function runModel(dir: string, records: EvalRecord[]): string | null {
  const file = path.join(dir, "run.json");
  if (!fs.existsSync(file)) return null;
  try {
    const models = (JSON.parse(fs.readFileSync(file, "utf8")) as { models?: { model?: string | null; roles?: Record<string, string | null> } }).models;
    if (!models) return null;
    const used = new Set(records.flatMap((r) => Object.keys(r.usageByRole ?? {})));
    // A run that called no model (another system's predictions scored as given) ran with none.
    if (records.length && !used.size) return null;
    const others = Object.entries(models.roles ?? {}).filter(([role, m]) => m && m !== models.model && used.has(role));
    const roleModels = others.map(([role, m]) => `${role}: ${m}`);
    const named = models.model ? [models.model, ...roleModels].join("; ") : roleModels.join("; ") || null;
    // The versions that answered, as the server named them (more than one is said).
    const served = servedSummary(records);
    return served ? `${named ?? "?"} (served: ${served.versions.join(", ")}${served.versions.length > 1 ? ` — ${served.versions.length} served versions` : ""})` : named;
  } catch {
    return null;
  }
}

/**
 * The questions a run was given, from its run.json (`questionHashes`, skipped ones left out): what its EX is over,
 * a question it never ran counted wrong. Undefined without a run.json that records them.
 */
export function selectedQuestionsIn(dir: string): number | undefined {
  try {
    const hashes = (JSON.parse(fs.readFileSync(path.join(dir, "run.json"), "utf8")) as { questionHashes?: Record<string, string> }).questionHashes;
    return hashes ? Object.values(hashes).filter((h) => !h.startsWith("skipped:")).length : undefined;
  } catch {
    return undefined;
  }
}

/** `--dry-run`: each row's paper figures, the metrics it will report and how its set-up differs from the paper's. */
export function renderPaperPlan(recipe: Recipe, order: string[], tsDir: string | undefined): string {
  const rows = order.filter((run) => recipe.runs[run]!.paper);
  if (!rows.length) return "";
  const lines = ["", "", "Beside the paper's (its figures; the metrics each row reports beyond EX; where the set-up differs):"];
  for (const run of rows) {
    const spec = recipe.runs[run]!;
    const p = spec.paper!;
    const figures = Object.entries(p.figures).map(([k, v]) => `${k} ${v}`).join("; ");
    const metrics = (spec.metrics ?? []).map((m) => `${METRIC_TITLES[m] ?? m}${metricNotComputed(m, tsDir) ? ` (${metricNotComputed(m, tsDir)})` : ""}`);
    lines.push(`  ${run.padEnd(24)} ${p.row}: ${figures || "no figures"}${metrics.length ? `; metrics: ${metrics.join(", ")}` : ""}${p.differs ? `; differs: ${p.differs}` : ""}`);
  }
  return lines.join("\n");
}

/** Fills each row's metrics and model once its runs ran (`dirsOf`: the run's folder in every repeat that made it). */
export async function addRowMetrics(rows: RunRow[], recipe: Recipe, at: { benchDir: string; tsDir: string | undefined; cwd: string; splitOf: (run: string) => string; dirsOf: (run: string) => string[]; recordsIn: (dir: string) => EvalRecord[] }): Promise<void> {
  for (const row of rows) {
    const spec = recipe.runs[row.run];
    if (!spec || row.notRun) continue;
    const dirs = at.dirsOf(row.run);
    row.model = dirs.length ? runModel(dirs[0]!, at.recordsIn(dirs[0]!)) : null;
    if (spec.metrics) row.metrics = await runMetrics(spec, dirs, { benchDir: at.benchDir, split: at.splitOf(row.run), tsDir: at.tsDir, cwd: at.cwd });
  }
}
