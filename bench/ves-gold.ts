/**
 * VES of gold scored as predictions: about 100 on any machine, idle or busy. Prints each run's VES and R-VES.
 *
 *   npx tsx bench/ves-gold.ts [--bench DIR|minibench] [--limit N] [--runs 3] [--busy 2] [--semantics bird]
 *
 * --busy N runs N CPU-bound processes beside the scorer (as a loaded machine); --limit N scores the first N questions
 * of the dev split (Spider dev in full takes minutes: 100 rounds per question).
 */
import { spawn } from "node:child_process";
import os from "node:os";
import { parseArgs } from "node:util";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { resolveBenchmarkDir } from "../tools/benchmarks/resolve.ts";
import { scoreAll, type Semantics } from "../tools/benchmarks/score.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";

const { values } = parseArgs({ options: { bench: { type: "string", default: "minibench" }, limit: { type: "string" }, runs: { type: "string", default: "3" }, busy: { type: "string", default: "0" }, semantics: { type: "string", default: "bird" } } });
const dir = await resolveBenchmarkDir(values.bench!, process.env, process.cwd());
const bench = await loadBenchmark(dir, { split: "dev" });
const questions = bench.questions.filter((q) => q.goldSql).slice(0, values.limit ? Number(values.limit) : undefined);
const busy = Array.from({ length: Number(values.busy) }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
const executor = createExecutor({ size: Math.max(1, Math.min(2, os.availableParallelism())) });
try {
  console.log(`VES of gold on ${dir} (${questions.length} questions, ${values.semantics} semantics), ${busy.length} CPU-bound processes beside, load average ${os.loadavg()[0]!.toFixed(1)}`);
  for (let run = 1; run <= Number(values.runs); run++) {
    const started = performance.now();
    const r = await scoreAll(questions, new Map(questions.map((q) => [q.id, q.goldSql!])), { executor, semantics: values.semantics as Semantics, ves: true });
    console.log(`run ${run}: VES ${r.ves!.ves.toFixed(2)}  R-VES ${r.ves!.rves.toFixed(2)}  EX ${r.ex.toFixed(2)}  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
} finally {
  for (const child of busy) child.kill("SIGKILL");
  await executor.close();
}
