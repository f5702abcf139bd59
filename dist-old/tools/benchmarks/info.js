/** What a benchmark directory holds, split by split (`sqlmend bench info`). */
import path from "node:path";
import { UserError } from "../../core/errors.js";
import { loadBenchmark } from "./benchmark.js";
import { detectLayout, isDir, isFile, LOOKED_FOR, SPLIT_FILES, splitsPresent } from "./layouts.js";
/** What a benchmark directory holds, split by split (for `sqlmend bench info`). */
export async function describeBenchmarkDir(dir, opts = {}) {
    const root = path.resolve(dir);
    if (!isDir(root))
        throw new UserError(`${dir}: no such benchmark directory`);
    const layout = detectLayout(root);
    if (!layout)
        throw new UserError(`${dir}: not a Spider or BIRD benchmark (${LOOKED_FOR})`);
    const splits = [];
    for (const split of splitsPresent(root, layout)) {
        const where = SPLIT_FILES[layout][split];
        try {
            const b = await loadBenchmark(root, { split, ...(opts.cacheDir ? { cacheDir: opts.cacheDir } : {}) });
            splits.push({ split, file: where.file, dbFolder: where.dbFolder, ...summarizeBenchmark(b) });
        }
        catch (error) {
            splits.push({ split, file: where.file, dbFolder: where.dbFolder, questions: 0, runnable: 0, withGold: 0, databases: { present: [], missing: [] }, difficulties: {}, error: error.message });
        }
    }
    const known = ["tables.json", "test_tables.json", "test_gold.sql", "dev_gold.sql", "train_gold.sql", "mini_dev_sqlite_gold.sql", "dev_tables.json", "train_tables.json"];
    return { dir: root, layout, splits, extraFiles: known.filter((f) => isFile(path.join(root, f))) };
}
/** Questions, gold, databases present and missing, and difficulty counts of a loaded benchmark. */
export function summarizeBenchmark(b) {
    const present = [...new Set(b.questions.map((q) => q.dbId))].sort();
    const missing = [...new Set(b.skipped.map((q) => q.dbId))].sort();
    const difficulties = {};
    for (const q of b.questions)
        difficulties[q.difficulty ?? "unlabelled"] = (difficulties[q.difficulty ?? "unlabelled"] ?? 0) + 1;
    return { questions: b.questions.length + b.skipped.length, runnable: b.questions.length, withGold: b.questions.filter((q) => q.goldSql).length, databases: { present, missing }, difficulties };
}
