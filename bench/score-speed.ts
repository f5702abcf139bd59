/**
 * Times sqlmend's scorer on a Spider dev set and, given a checkout of the official Python scorer
 * (taoyds/test-suite-sql-eval), times `python3 evaluation.py --etype exec` on the same inputs.
 * First, the target figure: `sqlmend score --pred gold --semantics bird` as a whole process against a minimal Python
 * implementation of BIRD's rule (sqlite3, set(pred) == set(gold), a 2-process pool) on the same pairs, run
 * alternately (--rule-runs times each) so both see the same machine load; prints the ratio of the medians. Where
 * NODE_EXTRA_CA_CERTS is set (it costs every Node start tens of ms), sqlmend is also timed with it unset, alternately.
 *
 *   npx tsx bench/score-speed.ts --bench DIR [--official PATH] [--pred FILE] [--runs N] [--rule-runs N] [--python BIN]
 *
 * --pred: Spider text predictions aligned with dev.json (default: the gold SQL as predictions).
 * Prints wall times (median of --runs), the ratio, and both scorers' EX per hardness level.
 * Reads the benchmark; writes only to a temp directory.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { distIsFresh } from "../bin/freshness.js";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { readPredictions, scoreAll } from "../tools/benchmarks/score.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";

const { values } = parseArgs({
  options: {
    bench: { type: "string" },
    official: { type: "string" },
    pred: { type: "string" },
    runs: { type: "string", default: "3" },
    "rule-runs": { type: "string", default: "9" },
    python: { type: "string" },
  },
});
if (!values.bench) {
  console.error("usage: npx tsx bench/score-speed.ts --bench DIR [--official PATH] [--pred FILE] [--runs N] [--python BIN]");
  process.exit(2);
}
const runs = Math.max(1, Number(values.runs));
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const benchDir = path.resolve(values.bench);
const bench = await loadBenchmark(benchDir, { split: "dev" });
if (bench.layout !== "spider") throw new Error(`${benchDir}: expected a Spider layout`);
const all = [...bench.questions, ...bench.skipped].sort((a, b) => Number(a.id) - Number(b.id));
const preds = values.pred ? await readPredictions(path.resolve(values.pred)) : new Map(bench.questions.map((q) => [q.id, q.goldSql!]));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const secs = (ms: number) => (ms / 1000).toFixed(2);
const tmp = mkdtempSync(path.join(os.tmpdir(), "sqlmend-score-speed-"));
const oneLine = (s: string) => s.replace(/[\r\n\t]+/g, " ").trim();
// Ours reads predictions by position over all questions; the official scorer gets only those with a database.
const ourPred = path.join(tmp, "pred_all.sql");
writeFileSync(ourPred, all.map((q) => `${oneLine(preds.get(q.id) ?? "") || "SELECT"}\n`).join(""));
const officialGold = path.join(tmp, "gold.sql");
const officialPred = path.join(tmp, "pred.sql");
writeFileSync(officialGold, bench.questions.map((q) => `${oneLine(q.goldSql!)}\t${q.dbId}\n`).join(""));
writeFileSync(officialPred, bench.questions.map((q) => `${oneLine(preds.get(q.id) ?? "") || "SELECT"}\n`).join(""));

const levels = ["easy", "medium", "hard", "extra", "all"];

console.log(`benchmark: ${benchDir}  questions: ${bench.questions.length} scored, ${bench.skipped.length} skipped (no database)`);
console.log(`predictions: ${values.pred ? path.resolve(values.pred) : "gold SQL"}  cpus: ${os.availableParallelism()}  runs: ${runs}`);
// A stale dist/ (any source edited or checked out since `npm run build`) makes the launcher compile the sources at start.
if (!distIsFresh(ROOT)) console.log("note: dist/ is missing or older than the sources, so `sqlmend` runs them through tsx; run `npm run build` first");

// 0. The target: the whole `sqlmend score` process against a minimal Python BIRD rule, alternately.
const MINIMAL_BIRD_RULE = `import json, sqlite3, sys
from multiprocessing import Pool

def verdict(pair):
    db, pred, gold = pair
    conn = sqlite3.connect(db)
    try:
        cur = conn.cursor()
        cur.execute(pred); p = cur.fetchall()
        cur.execute(gold); g = cur.fetchall()
        return 1 if set(p) == set(g) else 0
    except Exception:
        return 0
    finally:
        conn.close()

if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        pairs = json.load(f)
    with Pool(2) as pool:
        results = pool.map(verdict, pairs)
    print(sum(results), len(results))
`;
const python = values.python ?? (existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3");
const ruleScript = path.join(tmp, "bird_rule.py");
const rulePairs = path.join(tmp, "pairs.json");
writeFileSync(ruleScript, MINIMAL_BIRD_RULE);
writeFileSync(rulePairs, JSON.stringify(bench.questions.map((q) => [q.dbPath, q.goldSql, q.goldSql])));
const ruleRuns = Math.max(1, Number(values["rule-runs"]));
const pyRule: number[] = [];
const cliRule: number[] = [];
// CPU of finished children (Linux: /proc/self/stat's cutime + cstime, in clock ticks of 10 ms): what a loaded machine
// changes least, next to wall times that other processes stretch.
const childCpuMs = () => {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return NaN;
  }
};
const pyCpu: number[] = [];
const cliCpu: number[] = [];
// This environment's NODE_EXTRA_CA_CERTS makes every Node start read a CA bundle (tens of ms); machines rarely set it,
// and the workers already drop it. sqlmend is timed as the environment is and, alternately, with it unset.
const caCerts = process.env.NODE_EXTRA_CA_CERTS;
const { NODE_EXTRA_CA_CERTS: _certs, ...envWithoutCerts } = process.env;
const cliNoCerts: number[] = [];
const cliNoCertsCpu: number[] = [];
let pyCorrect = "";
let cliCorrect = "";
const runCli = (env: NodeJS.ProcessEnv) => {
  const cpu = childCpuMs();
  const t = performance.now();
  const ours = spawnSync(process.execPath, [path.join(ROOT, "bin/sqlmend.js"), "score", "--bench", benchDir, "--pred", "gold", "--semantics", "bird"], {
    encoding: "utf8",
    env,
  });
  const wall = performance.now() - t;
  if (ours.status !== 0) throw new Error(`sqlmend score failed: ${ours.stderr}`);
  const all = ours.stdout.split("\n").find((l) => l.startsWith("all"))?.trim().split(/\s+/);
  cliCorrect = all ? `${all[2]} ${all[1]}` : "?";
  return { wall, cpu: childCpuMs() - cpu };
};
for (let i = 0; i < ruleRuns; i++) {
  const cpu = childCpuMs();
  const t = performance.now();
  const py = spawnSync(python, [ruleScript, rulePairs], { encoding: "utf8" });
  pyRule.push(performance.now() - t);
  pyCpu.push(childCpuMs() - cpu);
  if (py.status !== 0) throw new Error(`python rule failed: ${py.stderr}`);
  pyCorrect = py.stdout.trim();
  const asIs = runCli(process.env);
  cliRule.push(asIs.wall);
  cliCpu.push(asIs.cpu);
  if (caCerts !== undefined) {
    const without = runCli(envWithoutCerts);
    cliNoCerts.push(without.wall);
    cliNoCertsCpu.push(without.cpu);
  }
}
const ruleRatio = median(cliRule) / median(pyRule);
console.log(
  `gold vs gold, bird semantics, whole process (median of ${ruleRuns}, alternating${caCerts !== undefined ? "; environment as is, NODE_EXTRA_CA_CERTS set" : ""}): sqlmend score ${secs(median(cliRule))} s ` +
    `(correct ${cliCorrect}), minimal Python BIRD rule ${secs(median(pyRule))} s (correct ${pyCorrect})`,
);
console.log(`ratio sqlmend score / minimal Python rule: ${ruleRatio.toFixed(2)}x   (target <= 0.8x)`);
console.log(`  sqlmend runs: ${cliRule.map(secs).join(", ")}   python runs: ${pyRule.map(secs).join(", ")}`);
console.log(
  `  CPU of all processes (user + system, median): sqlmend ${secs(median(cliCpu))} s, Python rule ${secs(median(pyCpu))} s ` +
    `= ${(median(cliCpu) / median(pyCpu)).toFixed(2)}x`,
);
if (caCerts !== undefined) {
  console.log(
    `the same without NODE_EXTRA_CA_CERTS for sqlmend's own process (this environment sets it; each Node start then reads ` +
      `its CA bundle; users rarely set it): sqlmend score ${secs(median(cliNoCerts))} s, ratio ${(median(cliNoCerts) / median(pyRule)).toFixed(2)}x, ` +
      `CPU ${secs(median(cliNoCertsCpu))} s = ${(median(cliNoCertsCpu) / median(pyCpu)).toFixed(2)}x`,
  );
  console.log(`  sqlmend runs without it: ${cliNoCerts.map(secs).join(", ")}`);
} else console.log("NODE_EXTRA_CA_CERTS is not set: the figures above are without it");

// 1. In process: executor start, scoring, executor close.
const inProcess: number[] = [];
let ourLevels: Record<string, { count: number; ex: number }> = {};
for (let i = 0; i < runs; i++) {
  const t = performance.now();
  const executor = createExecutor();
  const report = await scoreAll(bench.questions, preds, { executor, semantics: "spider" });
  await executor.close();
  inProcess.push(performance.now() - t);
  ourLevels = Object.fromEntries([
    ...report.byDifficulty.map((d) => [d.difficulty, { count: d.count, ex: d.ex / 100 }]),
    ["all", { count: report.count, ex: report.ex / 100 }],
  ]);
}

// 2. The launcher, end to end (process start, module loading, benchmark reading, scoring).
const cli: number[] = [];
for (let i = 0; i < runs; i++) {
  const t = performance.now();
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, "bin/sqlmend.js"), "score", "--bench", benchDir, "--pred", ourPred, "--semantics", "spider", "--json"],
    { encoding: "utf8", maxBuffer: 1 << 28 },
  );
  cli.push(performance.now() - t);
  if (r.status !== 0) throw new Error(`sqlmend score failed: ${r.stderr}`);
}

// 3. The official scorer.
let official: number[] = [];
let officialLevels: Record<string, { count: number; ex: number }> | undefined;
const notes: string[] = [];
if (values.official) {
  const dir = path.resolve(values.official);
  const env = { ...process.env };
  const probe = (code: string) => spawnSync(python, ["-c", code], { encoding: "utf8", env }).status === 0;
  if (!probe("import sqlparse, nltk")) {
    console.error(`${python} lacks sqlparse / nltk (Debian: apt-get install python3-sqlparse python3-nltk)`);
    process.exit(1);
  }
  if (!probe("import nltk; nltk.word_tokenize('select a')")) {
    // nltk's punkt data cannot be installed offline: tokenize without sentence splitting (local only).
    const shim = path.join(tmp, "shim");
    spawnSync("mkdir", ["-p", shim]);
    writeFileSync(
      path.join(shim, "sitecustomize.py"),
      "import nltk, nltk.tokenize\n_wt = nltk.tokenize.word_tokenize\n" +
        "def word_tokenize(text, language='english', preserve_line=True):\n    return _wt(text, language, True)\n" +
        "nltk.word_tokenize = word_tokenize\nnltk.tokenize.word_tokenize = word_tokenize\n",
    );
    env.PYTHONPATH = [shim, env.PYTHONPATH].filter(Boolean).join(path.delimiter);
    notes.push("nltk punkt data missing: the official scorer ran with word_tokenize(preserve_line=True) via a local sitecustomize shim");
  }
  if ([...preds.values()].some((s) => s.includes("value"))) {
    notes.push("some predictions contain 'value', which evaluation.py replaces by '1' before running them");
  }
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = spawnSync(
      python,
      ["evaluation.py", "--gold", officialGold, "--pred", officialPred, "--db", path.join(benchDir, "database"), "--etype", "exec"],
      { cwd: dir, encoding: "utf8", env, maxBuffer: 1 << 28 },
    );
    official.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`official scorer failed: ${r.stderr.split("\n").slice(-5).join("\n")}`);
    const line = (name: string) => r.stdout.split("\n").find((l) => l.startsWith(name))?.trim().split(/\s+/).slice(1);
    const counts = line("count");
    const execs = line("execution");
    if (counts && execs) {
      officialLevels = Object.fromEntries(levels.map((l, k) => [l, { count: Number(counts[k]), ex: Number(execs[k]) }]));
    }
  }
}
rmSync(tmp, { recursive: true, force: true });

console.log("");
console.log(`sqlmend scoreAll, in process (median)   ${secs(median(inProcess))} s   runs: ${inProcess.map(secs).join(", ")}`);
console.log(`sqlmend score CLI, end to end (median)  ${secs(median(cli))} s   runs: ${cli.map(secs).join(", ")}`);
if (official.length) {
  console.log(`official evaluation.py --etype exec      ${secs(median(official))} s   runs: ${official.map(secs).join(", ")}`);
  console.log(`ratio official / sqlmend CLI: ${(median(official) / median(cli)).toFixed(2)}x   official / in-process: ${(median(official) / median(inProcess)).toFixed(2)}x`);
}
console.log("");
console.log(`${"level".padEnd(8)} ${"count".padStart(6)} ${"sqlmend EX".padStart(11)}${officialLevels ? ` ${"official".padStart(9)} ${"EX".padStart(6)}` : ""}`);
for (const l of levels) {
  const o = ourLevels[l];
  const f = officialLevels?.[l];
  console.log(
    `${l.padEnd(8)} ${String(o?.count ?? 0).padStart(6)} ${(o?.ex ?? 0).toFixed(3).padStart(11)}` +
      (f ? ` ${String(f.count).padStart(9)} ${f.ex.toFixed(3).padStart(6)}` : ""),
  );
}
for (const n of notes) console.log(`note: ${n}`);
