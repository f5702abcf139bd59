/**
 * Light scoring (issue 42, target 4): the whole `sqlmend score` process on Spider dev, the gold predicted back (every
 * question with a database), against the official scorers doing the same work, each as a whole process, wall time:
 * - BIRD semantics: mini_dev's evaluation_ex.py (its process pool of --cpus, func_timeout per query), target ≤ 1.0×;
 * - Spider semantics: test-suite-sql-eval's exec_eval.eval_exec_match per pair (evaluation.py --etype exec's loop),
 *   target ≤ 1.0×.
 * The four commands run in turn, round after round (--rounds), after one untimed round (caches warm, sqlmend's parsed
 * benchmark cache filled), so machine load weighs on all alike; medians are printed with the CPU of each process tree.
 * The official code is never downloaded: give checkouts (bench/official-peers.ts says what stands in for what); the
 * bench exits 1 naming the one that is missing.
 *
 *   npx tsx bench/score-speed.ts --bench SPIDER_DIR --minidev-official PATH --ts-official PATH [--rounds N] [--cpus N] [--python BIN] [--baseline CHECKOUT] [--also-without-ca-certs]
 *
 * --baseline CHECKOUT: another sqlmend checkout (built), its `score` timed in the same rounds (before/after figures).
 * --also-without-ca-certs: where NODE_EXTRA_CA_CERTS is set (every Node start then reads that bundle), sqlmend's BIRD
 * run is also timed with it unset, in the same rounds.
 * Run `npm run build` first: without a fresh dist/ the launcher runs the TypeScript sources through tsx (said below).
 * Reads the benchmark; writes only to a temporary folder.
 */
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { distIsFresh } from "../bin/freshness.js";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { birdPeer, everyGoldRight, interleavedRounds, minidevEvaluationDir, PeerMissing, pythonOf, runPeerBench, secs, spiderPeer, sqlmendCorrect, testSuiteDir, timed } from "./official-peers.ts";

const USAGE = "usage: npx tsx bench/score-speed.ts --bench SPIDER_DIR --minidev-official PATH --ts-official PATH [--rounds N] [--cpus N] [--python BIN] [--baseline CHECKOUT] [--also-without-ca-certs]";
const { values } = parseArgs({
  options: {
    bench: { type: "string" },
    "minidev-official": { type: "string" },
    "ts-official": { type: "string" },
    rounds: { type: "string", default: "5" },
    cpus: { type: "string" },
    python: { type: "string" },
    baseline: { type: "string" },
    "also-without-ca-certs": { type: "boolean" },
  },
});
if (!values.bench) {
  console.error(USAGE);
  process.exit(2);
}
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const rounds = Math.max(1, Number(values.rounds));
const cpus = Math.max(1, Number(values.cpus ?? os.availableParallelism()));
const python = pythonOf(values.python);
const benchDir = path.resolve(values.bench);
const bench = await loadBenchmark(benchDir, { split: "dev" });
if (bench.layout !== "spider") {
  console.error(`${benchDir}: expected Spider (a dev.json and database/ folder), found a ${bench.layout} layout`);
  process.exit(1);
}
const questions = bench.questions.filter((q) => q.goldSql);
const tmp = mkdtempSync(path.join(os.tmpdir(), "sqlmend-score-speed-"));
await runPeerBench("score-speed", tmp, async () => {
  const evaluationDir = minidevEvaluationDir(values["minidev-official"]);
  const tsDir = testSuiteDir(values["ts-official"]);
  const pairs = questions.map((q) => ({ pred: q.goldSql!, gold: q.goldSql!, db: q.dbPath, dbId: q.dbId }));
  const bird = birdPeer(python, evaluationDir, path.join(tmp, "bird"), pairs, path.join(benchDir, "database"), cpus);
  const spider = spiderPeer(python, tsDir, path.join(tmp, "spider"), pairs);
  const { NODE_EXTRA_CA_CERTS: caCerts, ...withoutCaCerts } = process.env;
  const withoutCa = Boolean(values["also-without-ca-certs"] && caCerts);
  const baseline = values.baseline ? path.resolve(values.baseline, "bin/sqlmend.js") : undefined;
  if (baseline && !existsSync(baseline)) throw new PeerMissing(`--baseline ${values.baseline}: no bin/sqlmend.js there`);
  const sqlmend = (semantics: string, launcher = path.join(ROOT, "bin/sqlmend.js")) => [launcher, "score", "--bench", benchDir, "--pred", "gold", "--semantics", semantics, "--concurrency", String(cpus)];

  const runs = {
    birdPeer: () => timed("the official BIRD evaluation_ex.py", python, bird.args, { cwd: bird.cwd }),
    sqlmendBird: () => timed("sqlmend score --semantics bird", process.execPath, sqlmend("bird")),
    spiderPeer: () => timed("the official exec_eval loop", python, spider.args, { cwd: spider.cwd }),
    sqlmendSpider: () => timed("sqlmend score --semantics spider", process.execPath, sqlmend("spider")),
    baselineBird: () => timed("the baseline's score --semantics bird", process.execPath, sqlmend("bird", baseline)),
    baselineSpider: () => timed("the baseline's score --semantics spider", process.execPath, sqlmend("spider", baseline)),
    birdWithoutCaCerts: () => timed("sqlmend score --semantics bird without NODE_EXTRA_CA_CERTS", process.execPath, sqlmend("bird"), { env: withoutCaCerts }),
  };
  type Name = keyof typeof runs;
  const names = (Object.keys(runs) as Name[]).filter((n) => (baseline || !n.startsWith("baseline")) && (withoutCa || n !== "birdWithoutCaCerts"));
  console.log(`benchmark: ${benchDir} (Spider dev), ${questions.length} pairs (the gold predicted back; ${bench.skipped.length} questions without a database left out)`);
  console.log(`peers: BIRD ${path.join(evaluationDir, "evaluation_ex.py")} (--num_cpus ${cpus}); Spider ${path.join(tsDir, "exec_eval.py")} (eval_exec_match per pair); ${python}`);
  console.log(`sqlmend: ${process.execPath} bin/sqlmend.js score --concurrency ${cpus}; cpus ${os.availableParallelism()}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  if (!distIsFresh(ROOT)) console.log("note: dist/ is missing or older than the sources, so `sqlmend` runs them through tsx (slower start); run `npm run build` first");
  if (process.env.NODE_EXTRA_CA_CERTS) console.log("note: NODE_EXTRA_CA_CERTS is set: every Node start reads that bundle (tens of ms of CPU); sqlmend's process is timed as the environment is (its SQL workers drop it)");
  for (const n of [...bird.notes, ...spider.notes]) console.log(`note: ${n}`);

  const { results, wall, cpu } = interleavedRounds(runs, names, rounds);
  const list = (n: Name) => results[n].map((t) => secs(t.wallMs)).join(" ");
  const birdEx = bird.exOf(results.birdPeer.at(-1)!.stdout);
  const spiderCorrect = spider.correctOf(results.spiderPeer.at(-1)!.stdout);
  const oursBird = sqlmendCorrect(results.sqlmendBird.at(-1)!.stdout);
  const oursSpider = sqlmendCorrect(results.sqlmendSpider.at(-1)!.stdout);
  console.log("");
  console.log(`median of ${rounds} rounds, wall (CPU of the process tree); runs in seconds`);
  console.log(`  BIRD semantics:   sqlmend ${secs(wall("sqlmendBird"))} s (${secs(cpu("sqlmendBird"))} s), correct ${oursBird?.correct}/${oursBird?.count}   runs ${list("sqlmendBird")}`);
  console.log(`                    evaluation_ex.py ${secs(wall("birdPeer"))} s (${secs(cpu("birdPeer"))} s), EX ${birdEx}   runs ${list("birdPeer")}`);
  console.log(`  Spider semantics: sqlmend ${secs(wall("sqlmendSpider"))} s (${secs(cpu("sqlmendSpider"))} s), correct ${oursSpider?.correct}/${oursSpider?.count}   runs ${list("sqlmendSpider")}`);
  console.log(`                    exec_eval ${secs(wall("spiderPeer"))} s (${secs(cpu("spiderPeer"))} s), correct ${spiderCorrect}/${pairs.length}   runs ${list("spiderPeer")}`);
  const birdRatio = wall("sqlmendBird") / wall("birdPeer");
  const spiderRatio = wall("sqlmendSpider") / wall("spiderPeer");
  console.log("");
  console.log(`light scoring, BIRD semantics: sqlmend score / official evaluation_ex.py = ${birdRatio.toFixed(2)}x wall (target <= 1.0x: ${birdRatio <= 1 ? "met" : "NOT met"}); CPU ${(cpu("sqlmendBird") / cpu("birdPeer")).toFixed(2)}x`);
  if (withoutCa) {
    const w = wall("birdWithoutCaCerts");
    console.log(`without NODE_EXTRA_CA_CERTS: BIRD ${secs(w)} s (${secs(cpu("birdWithoutCaCerts"))} s) = ${(w / wall("birdPeer")).toFixed(2)}x evaluation_ex.py   runs ${list("birdWithoutCaCerts")}`);
  }
  if (baseline) {
    console.log(`baseline ${baseline}: BIRD ${secs(wall("baselineBird"))} s (${secs(cpu("baselineBird"))} s) = ${(wall("baselineBird") / wall("birdPeer")).toFixed(2)}x evaluation_ex.py   runs ${list("baselineBird")}`);
    console.log(`                  Spider ${secs(wall("baselineSpider"))} s (${secs(cpu("baselineSpider"))} s) = ${(wall("baselineSpider") / wall("spiderPeer")).toFixed(2)}x exec_eval   runs ${list("baselineSpider")}`);
  }
  console.log(`light scoring, Spider semantics: sqlmend score / official exec_eval = ${spiderRatio.toFixed(2)}x wall (target <= 1.0x: ${spiderRatio <= 1 ? "met" : "NOT met"}); CPU ${(cpu("sqlmendSpider") / cpu("spiderPeer")).toFixed(2)}x`);
  // evaluation_ex.py reports EX, not a count: 100 is every gold right.
  return everyGoldRight([oursBird?.correct, oursSpider?.correct, spiderCorrect, birdEx === 100 ? pairs.length : undefined], pairs.length);
});
