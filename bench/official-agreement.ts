/**
 * Agreement with the official scorers for the metrics beside EX, on the same predictions:
 * - test-suite accuracy against taoyds/test-suite-sql-eval (`evaluation.py --etype exec --db TS_DIR`, its "all" figure);
 * - Soft F1 against BIRD mini-dev's evaluation_f1.py (its overall figure).
 * Each official checkout is looked for under --search folders (and the paths given); when one is not on disk the
 * script says so, checks nothing for it, and still exits 0 (this machine has no copy of either).
 *
 *   npx tsx bench/official-agreement.ts --bench DIR [--pred FILE] [--ts-dir DIR] [--ts-official PATH]
 *                                       [--minidev-official PATH] [--search DIR]... [--python BIN]
 *
 * --pred: Spider text or BIRD JSON predictions (default: the gold SQL). Writes only to a temp directory.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { readPredictions, scoreAll } from "../tools/benchmarks/score.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";

const { values } = parseArgs({
  options: {
    bench: { type: "string" },
    pred: { type: "string" },
    "ts-dir": { type: "string" },
    "ts-official": { type: "string" },
    "minidev-official": { type: "string" },
    search: { type: "string", multiple: true },
    python: { type: "string", default: "python3" },
  },
});
if (!values.bench) {
  console.error("usage: npx tsx bench/official-agreement.ts --bench DIR [--pred FILE] [--ts-dir DIR] [--ts-official PATH] [--minidev-official PATH] [--search DIR]...");
  process.exit(2);
}

/** Folders (to depth 3) under the search roots holding the given file. */
function findFolders(roots: string[], file: string, also: (dir: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (existsSync(path.join(dir, file)) && also(dir)) found.push(dir);
    if (depth === 0) return;
    let entries: string[] = [];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.startsWith(".") || e === "node_modules") continue;
      const p = path.join(dir, e);
      try {
        if (statSync(p).isDirectory()) walk(p, depth - 1);
      } catch {
        // unreadable: skip
      }
    }
  };
  for (const r of roots) if (existsSync(r)) walk(r, 3);
  return found;
}

const roots = values.search?.length ? values.search.map((s) => path.resolve(s)) : [process.cwd(), os.homedir(), path.resolve(process.cwd(), "..", "shared"), "/opt"];
const tsOfficial = values["ts-official"] ?? findFolders(roots, "exec_eval.py", (d) => existsSync(path.join(d, "evaluation.py")))[0];
const miniOfficial = values["minidev-official"] ?? findFolders(roots, "evaluation_f1.py", () => true)[0];

const bench = await loadBenchmark(path.resolve(values.bench));
const predictions = values.pred ? await readPredictions(path.resolve(values.pred)) : new Map(bench.questions.map((q) => [q.id, q.goldSql ?? ""]));
console.log(`benchmark: ${bench.name} (${bench.questions.length} questions), predictions: ${values.pred ?? "gold SQL"}`);

const executor = createExecutor({ size: Math.max(1, os.availableParallelism() - 1) });
const tmp = mkdtempSync(path.join(os.tmpdir(), "sqlmend-agreement-"));
try {
  const ours = await scoreAll(bench.questions, predictions, {
    executor,
    semantics: bench.layout === "spider" ? "spider" : "bird",
    softF1: true,
    ...(values["ts-dir"] ? { testSuiteDir: path.resolve(values["ts-dir"]) } : {}),
  });
  console.log(`sqlmend: EX ${ours.ex.toFixed(2)}, Soft F1 ${ours.softF1!.toFixed(2)}${ours.testSuite ? `, TS ${ours.testSuite.accuracy.toFixed(2)}` : ""}`);

  const lines = (sqls: string[]) => `${sqls.map((s) => s.replace(/\s+/g, " ").trim() || "SELECT").join("\n")}\n`;
  const gold = bench.questions.map((q) => `${(q.goldSql ?? "").replace(/\s+/g, " ").trim()}\t${q.dbId}`);
  const preds = bench.questions.map((q) => predictions.get(q.id) ?? "");

  if (!tsOfficial) {
    console.log(`test-suite-sql-eval: not found (looked for evaluation.py with exec_eval.py under ${roots.join(", ")}, or --ts-official); agreement not checked`);
  } else if (!values["ts-dir"]) {
    console.log(`test-suite-sql-eval: found at ${tsOfficial}, but no --ts-dir (the test-suite databases) was given; agreement not checked`);
  } else {
    writeFileSync(path.join(tmp, "gold.sql"), `${gold.join("\n")}\n`);
    writeFileSync(path.join(tmp, "pred.sql"), lines(preds));
    const tsDb = existsSync(path.join(values["ts-dir"], "database")) ? path.join(values["ts-dir"], "database") : values["ts-dir"];
    const r = spawnSync(values.python!, ["evaluation.py", "--gold", path.join(tmp, "gold.sql"), "--pred", path.join(tmp, "pred.sql"), "--db", path.resolve(tsDb), "--etype", "exec", "--table", path.join(bench.dir, "tables.json")], { cwd: tsOfficial, encoding: "utf8" });
    // Its table ends with a line "execution  <easy> <medium> <hard> <extra> <all>".
    const m = /^execution\s+(?:[\d.]+\s+){4}([\d.]+)/m.exec(r.stdout ?? "");
    if (r.status !== 0 || !m) console.log(`test-suite-sql-eval: failed to run (${(r.stderr || r.stdout || "").trim().split("\n").at(-1)}); agreement not checked`);
    else {
      const official = Number(m[1]) * 100;
      console.log(`test-suite-sql-eval: TS ${official.toFixed(2)} vs sqlmend ${ours.testSuite!.accuracy.toFixed(2)}: ${Math.abs(official - ours.testSuite!.accuracy) < 0.005 ? "agree" : "DIFFER"}`);
    }
  }

  if (!miniOfficial) {
    console.log(`BIRD mini-dev evaluation: not found (looked for evaluation_f1.py under ${roots.join(", ")}, or --minidev-official); agreement not checked`);
  } else {
    writeFileSync(path.join(tmp, "gold.sql"), `${gold.join("\n")}\n`);
    const predJson: Record<string, string> = {};
    bench.questions.forEach((q, i) => (predJson[String(i)] = `${preds[i]!.trim()}\t----- bird -----\t${q.dbId}`));
    writeFileSync(path.join(tmp, "predict.json"), JSON.stringify(predJson));
    // Its per-difficulty table divides by each of simple/moderate/challenging: other labels (Spider's) are spread over
    // the three (only the total is compared). Newer checkouts read the file as JSON lines, older ones as one JSON array.
    const BIRD_LEVELS = ["simple", "moderate", "challenging"];
    const diff = bench.questions.map((q, i) => ({ db_id: q.dbId, difficulty: BIRD_LEVELS.includes(q.difficulty ?? "") ? q.difficulty : BIRD_LEVELS[i % 3] }));
    const readsLines = /load_jsonl\s*\(\s*args\.diff_json_path|load_jsonl\s*,/.test(readFileSync(path.join(miniOfficial, "evaluation_f1.py"), "utf8"));
    writeFileSync(path.join(tmp, "diff.json"), readsLines ? diff.map((d) => JSON.stringify(d)).join("\n") + "\n" : JSON.stringify(diff));
    const r = spawnSync(
      values.python!,
      ["evaluation_f1.py", "--predicted_sql_path", path.join(tmp, "predict.json"), "--ground_truth_path", path.join(tmp, "gold.sql"), "--db_root_path", `${bench.dbDir}/`, "--diff_json_path", path.join(tmp, "diff.json"), "--sql_dialect", "SQLite"],
      { cwd: miniOfficial, encoding: "utf8" },
    );
    // Its table's last row: "<label> <simple> <moderate> <challenging> <total>".
    const m = /(?:f1|F1)[^\n]*?([\d.]+)\s*$/m.exec((r.stdout ?? "").trim());
    if (r.status !== 0 || !m) console.log(`BIRD mini-dev evaluation: failed to run or unreadable output (${(r.stderr || r.stdout || "").trim().split("\n").at(-1)}); agreement not checked`);
    else {
      const official = Number(m[1]);
      console.log(`BIRD mini-dev evaluation_f1.py: Soft F1 ${official.toFixed(2)} vs sqlmend ${ours.softF1!.toFixed(2)}: ${Math.abs(official - ours.softF1!) < 0.005 ? "agree" : "DIFFER"}`);
    }
  }
} finally {
  await executor.close();
  rmSync(tmp, { recursive: true, force: true });
}
