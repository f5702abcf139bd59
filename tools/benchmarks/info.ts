/** What a benchmark directory holds, split by split (`sqlmend bench info`). */
import path from "node:path";
import { UserError } from "../../core/errors.ts";
import type { Benchmark, Split } from "../../state/question.ts";
import { loadBenchmark } from "./benchmark.ts";
import { detectLayout, isDir, isFile, LOOKED_FOR, SPLIT_FILES, splitsPresent } from "./layouts.ts";

export interface SplitInfo {
  split: Split;
  file: string;
  dbFolder: string;
  questions: number;
  /** Questions whose database is there. */
  runnable: number;
  /** Runnable questions with gold SQL. */
  withGold: number;
  databases: { present: string[]; missing: string[] };
  difficulties: Record<string, number>;
  /** A file that could not be read, as its one-line error. */
  error?: string;
}

/** What a benchmark directory holds, split by split (for `sqlmend bench info`). */
export async function describeBenchmarkDir(dir: string, opts: { cacheDir?: string } = {}): Promise<{ dir: string; layout: "spider" | "bird"; splits: SplitInfo[]; extraFiles: string[] }> {
  const root = path.resolve(dir);
  if (!isDir(root)) throw new UserError(`${dir}: no such benchmark directory`);
  const layout = detectLayout(root);
  if (!layout) throw new UserError(`${dir}: not a Spider or BIRD benchmark (${LOOKED_FOR})`);
  const splits: SplitInfo[] = [];
  for (const split of splitsPresent(root, layout)) {
    const where = SPLIT_FILES[layout][split]!;
    try {
      const b = await loadBenchmark(root, { split, ...(opts.cacheDir ? { cacheDir: opts.cacheDir } : {}) });
      splits.push({ split, file: where.file, dbFolder: where.dbFolder, ...summarizeBenchmark(b) });
    } catch (error) {
      splits.push({ split, file: where.file, dbFolder: where.dbFolder, questions: 0, runnable: 0, withGold: 0, databases: { present: [], missing: [] }, difficulties: {}, error: (error as Error).message });
    }
  }
  const known = ["tables.json", "test_tables.json", "test_gold.sql", "dev_gold.sql", "train_gold.sql", "mini_dev_sqlite_gold.sql", "dev_tables.json", "train_tables.json"];
  return { dir: root, layout, splits, extraFiles: known.filter((f) => isFile(path.join(root, f))) };
}

/** Questions, gold, databases present and missing, and difficulty counts of a loaded benchmark. */
export function summarizeBenchmark(b: Benchmark): Pick<SplitInfo, "questions" | "runnable" | "withGold" | "databases" | "difficulties"> {
  const present = [...new Set(b.questions.map((q) => q.dbId))].sort();
  const missing = [...new Set(b.skipped.map((q) => q.dbId))].sort();
  const difficulties: Record<string, number> = {};
  for (const q of b.questions) difficulties[q.difficulty ?? "unlabelled"] = (difficulties[q.difficulty ?? "unlabelled"] ?? 0) + 1;
  return { questions: b.questions.length + b.skipped.length, runnable: b.questions.length, withGold: b.questions.filter((q) => q.goldSql).length, databases: { present, missing }, difficulties };
}
