/**
 * Agreement with the official scorers, question by question: sqlmend's verdicts beside the official Python code's on
 * the same predictions, databases and variant folders, and every disagreement printed with both verdicts.
 *
 * - EX, Spider semantics: test-suite-sql-eval's `exec_eval.eval_exec_match` on the question's own database folder
 *   (DISTINCT removed, its default; no value plugging).
 * - EX, BIRD semantics: mini-dev's `evaluation_utils.execute_sql` with `evaluation_ex.calculate_ex`.
 * - Test-suite accuracy: `eval_exec_match` over the same variant folders sqlmend reads (`--ts-dir`, or `--make-variants
 *   N` fuzzed copies made here).
 * - Soft F1: mini-dev's `evaluation_f1.calculate_f1_score` through `execute_sql`.
 * - R-VES: mini-dev's `evaluation_ves.iterated_execute_sql` (its reward bucket), with the same number of rounds as
 *   sqlmend (`--ves-iterations`). Timings differ from run to run on both sides: a bucket may differ by noise.
 *
 * The official code is not part of sqlmend and is never downloaded: give local checkouts (`--ts-official PATH`: a
 * test-suite-sql-eval folder with exec_eval.py; `--minidev-official PATH`: mini_dev's evaluation/ folder). Its Python
 * needs sqlparse (test-suite's parse.py) and numpy (evaluation_ves.py), not NLTK; the driver stands in for what only
 * other dialects or the multiprocess pool use (psycopg2, pymysql, func_timeout: the official functions run directly,
 * without its time limit). `--python BIN` picks the interpreter (e.g. a virtualenv's with sqlparse and numpy).
 *
 *   npx tsx bench/official-agreement.ts --bench DIR --ts-official PATH --minidev-official PATH
 *       [--pred FILE|gold|mutated] [--ts-dir DIR | --make-variants N] [--ves-iterations N] [--limit N] [--python BIN]
 *
 * --pred mutated: predictions made here from the gold by fixed edits (DISTINCT added, LIMIT 1 added, a second
 * statement, a literal comparison negated, literals double-quoted, a syntax error), so verdicts differ. Reads the
 * benchmark; writes only to a temp directory.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { fileOrder } from "../runner/run/question-sample.ts";
import { pairPredictions, predictionPairing, readPredictionFile, scoreAll, type ScoreReport, type Verdict } from "../tools/benchmarks/score.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import type { Question } from "../state/question.ts";

const USAGE =
  "usage: npx tsx bench/official-agreement.ts --bench DIR --ts-official PATH --minidev-official PATH [--pred FILE|gold|mutated] [--ts-dir DIR | --make-variants N] [--ves-iterations N] [--limit N] [--python BIN]";
const { values } = parseArgs({
  options: {
    bench: { type: "string" },
    pred: { type: "string", default: "gold" },
    "ts-dir": { type: "string" },
    "make-variants": { type: "string" },
    "ts-official": { type: "string" },
    "minidev-official": { type: "string" },
    "ves-iterations": { type: "string", default: "10" },
    limit: { type: "string" },
    python: { type: "string", default: "python3" },
  },
});
if (!values.bench || !values["ts-official"] || !values["minidev-official"]) {
  console.error(USAGE);
  process.exit(2);
}
const vesIterations = Math.max(1, Number(values["ves-iterations"]));

const bench = await loadBenchmark(path.resolve(values.bench));
let questions: Question[] = fileOrder(bench.questions).filter((q) => q.goldSql);
if (values.limit) questions = questions.slice(0, Number(values.limit));

/** Fixed edits of the gold, by question index: verdicts that differ, each kind of rule exercised. */
function mutate(gold: string, i: number): string {
  switch (i % 8) {
    case 1:
      return gold.replace(/^\s*select\s+(?!distinct)/i, "SELECT DISTINCT ");
    case 2:
      return /\blimit\b/i.test(gold) ? gold : `${gold} LIMIT 1`;
    case 3:
      return `${gold}; SELECT 1`;
    case 4:
      return gold.replace(/=\s*'([^']*)'/, "!= '$1'").replace(/=\s*(\d+)\b/, "!= $1");
    case 5:
      return gold.replace(/'([^'"]*)'/g, '"$1"');
    case 6:
      return `${gold} WHERE`;
    default:
      return gold;
  }
}

let predictions: Map<string, string>;
if (values.pred === "gold") predictions = new Map(questions.map((q) => [q.id, q.goldSql!]));
else if (values.pred === "mutated") predictions = new Map(questions.map((q, i) => [q.id, mutate(q.goldSql!, i)]));
else {
  const file = path.resolve(values.pred!);
  predictions = pairPredictions(file, await readPredictionFile(file), fileOrder([...bench.questions, ...bench.skipped]), { pairing: predictionPairing(bench) });
}

/** The official code could not run: one line, exit 1, the temp directory still removed. */
class OfficialFailed extends Error {}

const tmp = mkdtempSync(path.join(os.tmpdir(), "sqlmend-agreement-"));

/** N fuzzed copies of each database beside the original (the test-suite layout DIR/<db_id>/*.sqlite): rows dropped at random, seeded by name. */
function makeVariants(dir: string, n: number): void {
  for (const dbId of new Set(questions.map((q) => q.dbId))) {
    const source = questions.find((q) => q.dbId === dbId)!.dbPath;
    const folder = path.join(dir, dbId);
    mkdirSync(folder, { recursive: true });
    copyFileSync(source, path.join(folder, `${dbId}.sqlite`));
    let seed = [...dbId].reduce((a, c) => (a * 31 + c.charCodeAt(0)) >>> 0, 7);
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let k = 1; k <= n; k++) {
      const file = path.join(folder, `${dbId}_variant${k}.sqlite`);
      copyFileSync(source, file);
      const db = new Database(file);
      db.pragma("foreign_keys = OFF"); // a variant may break references, as fuzzed test-suite databases do
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
      for (const table of tables) {
        const rowids = db.prepare(`SELECT rowid FROM "${table.replaceAll('"', '""')}"`).pluck().all() as number[];
        const drop = rowids.filter(() => random() < 0.3);
        const del = db.prepare(`DELETE FROM "${table.replaceAll('"', '""')}" WHERE rowid = ?`);
        db.transaction(() => drop.forEach((r) => del.run(r)))();
      }
      db.close();
    }
  }
}

const DRIVER = String.raw`
import json, sys, types

def stand_in(name, **attrs):
    try:
        __import__(name)
    except ImportError:
        module = types.ModuleType(name)
        module.__dict__.update(attrs)
        sys.modules[name] = module

class FunctionTimedOut(Exception):
    pass

# Only the multiprocess pool, the other dialects and progress bars use these: the official functions run directly.
stand_in("func_timeout", func_timeout=lambda timeout, func, args=(), kwargs=None: func(*args, **(kwargs or {})), FunctionTimedOut=FunctionTimedOut)
stand_in("psycopg2")
stand_in("pymysql")
stand_in("tqdm", tqdm=lambda it, *a, **k: it)

job = json.load(open(sys.argv[1]))
sys.path.insert(0, job["minidev"])
sys.path.insert(0, job["ts"])
import exec_eval
import evaluation_utils, evaluation_ex, evaluation_f1, evaluation_ves

def as_official(f):
    # evaluation_ex/f1/ves's execute_model: any exception scores 0.
    try:
        return f()
    except Exception:
        return 0

def exec_match(db, p, g):
    # evaluation.py lets eval_exec_match's gold assertion stop the run: reported here instead.
    try:
        return exec_eval.eval_exec_match(db=db, p_str=p, g_str=g, plug_value=False, keep_distinct=False, progress_bar_for_each_datapoint=False)
    except AssertionError as e:
        return "gold error: " + str(e)[:200]
    except Exception as e:
        return "error: " + str(e)[:200]

out = open(sys.argv[2], "w")
for item in job["items"]:
    p, g, db = item["pred"], item["gold"], item["db"]
    r = {"i": item["i"]}
    r["exSpider"] = exec_match(db, p, g)
    r["exBird"] = as_official(lambda: evaluation_utils.execute_sql(p, g, db, "SQLite", evaluation_ex.calculate_ex))
    r["f1"] = as_official(lambda: evaluation_utils.execute_sql(p, g, db, "SQLite", evaluation_f1.calculate_f1_score))
    if item.get("tsDb"):
        r["ts"] = exec_match(item["tsDb"], p, g)
    r["reward"] = as_official(lambda: evaluation_ves.iterated_execute_sql(p, g, db, job["vesIterations"], "SQLite"))
    out.write(json.dumps(r) + "\n")
    out.flush()
`;

interface Official {
  i: number;
  exSpider: number | string;
  exBird: number;
  f1: number;
  ts?: number | string;
  reward: number;
}

let tsDir = values["ts-dir"] ? path.resolve(values["ts-dir"]) : undefined;
try {
  if (!tsDir && values["make-variants"]) {
    tsDir = path.join(tmp, "variants");
    makeVariants(tsDir, Math.max(1, Number(values["make-variants"])));
  }
  const executor = createExecutor({ size: Math.max(1, os.availableParallelism() - 1) });
  let spider: ScoreReport;
  let bird: ScoreReport;
  const started = performance.now();
  try {
    spider = await scoreAll(questions, predictions, { executor, semantics: "spider", ...(tsDir ? { testSuiteDir: tsDir } : {}) });
    bird = await scoreAll(questions, predictions, { executor, semantics: "bird", softF1: true, ves: { iterations: vesIterations } });
  } finally {
    await executor.close();
  }
  const oursMs = performance.now() - started;

  const job = {
    ts: path.resolve(values["ts-official"]!),
    minidev: path.resolve(values["minidev-official"]!),
    vesIterations,
    items: questions.map((q, i) => ({
      i,
      db: q.dbPath,
      pred: predictions.get(q.id) ?? "",
      gold: q.goldSql!,
      ...(tsDir ? { tsDb: path.join(tsDir, q.dbId, `${q.dbId}.sqlite`) } : {}),
    })),
  };
  writeFileSync(path.join(tmp, "job.json"), JSON.stringify(job));
  writeFileSync(path.join(tmp, "driver.py"), DRIVER);
  const officialStarted = performance.now();
  const run = spawnSync(values.python!, [path.join(tmp, "driver.py"), path.join(tmp, "job.json"), path.join(tmp, "official.jsonl")], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new OfficialFailed(`the official code failed to run (${values.python}): ${(run.stderr || run.stdout).trim().split("\n").slice(-3).join(" | ")}`);
  const officialMs = performance.now() - officialStarted;
  const official = readFileSync(path.join(tmp, "official.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Official);

  console.log(`benchmark: ${bench.name}, ${questions.length} questions with gold, predictions: ${values.pred}${tsDir ? `, variants: ${tsDir}` : ""}; VES rounds ${vesIterations}`);
  console.log(`sqlmend ${(oursMs / 1000).toFixed(1)} s, official code ${(officialMs / 1000).toFixed(1)} s (${values.python})`);

  const show = (v: Verdict) => [v.predError && `pred ${v.predError}`, v.goldError && `gold ${v.goldError}`, v.note, v.testSuiteNote].filter(Boolean).join("; ");
  const compare = (name: string, ours: (i: number) => number | undefined, theirs: (o: Official) => number | string | undefined, report: ScoreReport, close = (a: number, b: number) => a === b) => {
    let agree = 0;
    let counted = 0;
    let oursSum = 0;
    let theirsSum = 0;
    const lines: string[] = [];
    official.forEach((o) => {
      const mine = ours(o.i);
      const their = theirs(o);
      if (mine === undefined || their === undefined) return;
      counted++;
      const theirNumber = typeof their === "number" ? their : 0;
      oursSum += mine;
      theirsSum += theirNumber;
      if (typeof their === "number" && close(mine, their)) agree++;
      else {
        const q = questions[o.i]!;
        const v = report.verdicts[o.i]!;
        lines.push(`  ${q.id} (${q.dbId}): sqlmend ${mine}, official ${their}${show(v) ? ` [${show(v)}]` : ""}\n    pred: ${(predictions.get(q.id) ?? "").replace(/\s+/g, " ").slice(0, 200)}\n    gold: ${q.goldSql!.replace(/\s+/g, " ").slice(0, 200)}`);
      }
    });
    console.log(`${name}: ${agree}/${counted} questions agree; sqlmend total ${oursSum.toFixed(2)}, official ${theirsSum.toFixed(2)}`);
    for (const l of lines) console.log(l);
  };
  const num = (b: boolean | undefined) => (b === undefined ? undefined : b ? 1 : 0);
  compare("EX, spider semantics (eval_exec_match)", (i) => num(spider.verdicts[i]!.correct), (o) => o.exSpider, spider);
  compare("EX, bird semantics (calculate_ex)", (i) => num(bird.verdicts[i]!.correct), (o) => o.exBird, bird);
  if (tsDir) compare("test-suite accuracy (eval_exec_match over the variants)", (i) => num(spider.verdicts[i]!.testSuite), (o) => o.ts, spider);
  compare("Soft F1 (calculate_f1_score)", (i) => bird.verdicts[i]!.softF1 ?? 0, (o) => o.f1, bird, (a, b) => Math.abs(a - b) < 1e-9);
  compare("R-VES reward (iterated_execute_sql; timing noise on both sides)", (i) => bird.verdicts[i]!.reward ?? 0, (o) => o.reward, bird);
  // Which predictions earn a reward at all is a verdict (no noise); the bucket is timing.
  const zeroOnOneSide = official.filter((o) => ((bird.verdicts[o.i]!.reward ?? 0) === 0) !== (o.reward === 0)).length;
  console.log(`R-VES rewarded on one side only (a verdict difference, not timing): ${zeroOnOneSide}`);
  const rves = (rewards: number[]) => rewards.reduce((a, r) => a + Math.sqrt(r) * 100, 0) / Math.max(1, rewards.length);
  console.log(`R-VES: sqlmend ${bird.ves!.rves.toFixed(2)}, official ${rves(official.map((o) => (typeof o.reward === "number" ? o.reward : 0))).toFixed(2)}`);
} catch (error) {
  if (!(error instanceof OfficialFailed)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
