/**
 * An experiment and its rerun: the built-in `correctors` recipe (or `--recipe NAME`) on minibench against the local
 * OpenAI-compatible server (every agent role answered by test/support/method-agents.ts, a fixed latency per request),
 * then the same experiment again into another --out. Prints per run: wall time, requests that reached the server, and
 * table.md's "Response cache over the eval runs" line; then whether the correctors × scenarios grid is the same.
 *
 * Run: npx tsx bench/experiment-rerun.ts [--recipe correctors|all] [--limit 20] [--latency-ms 20] [--concurrency 4] [--keep]
 * (`--recipe all`: every built-in recipe in turn, a line each.)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { startOpenAIServer } from "../test/support/openai-server.ts";
import { agentsConfig, methodAgents } from "../test/support/method-agents.ts";

const { values } = parseArgs({
  options: {
    recipe: { type: "string", default: "correctors" },
    limit: { type: "string", default: "20" },
    "latency-ms": { type: "string", default: "20" },
    concurrency: { type: "string", default: "4" },
    keep: { type: "boolean", default: false },
  },
});
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-experiment-"));
const benchDir = path.join(dir, "minibench");
await buildMinibench(benchDir);
const questions = [(await loadBenchmark(benchDir, { split: "dev" })).questions, (await loadBenchmark(benchDir, { split: "train" })).questions];
const server = await startOpenAIServer({ latencyMs: Number(values["latency-ms"]), respond: methodAgents({ questions }).respond });
fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") };
delete env.OPENAI_BASE_URL;
delete env.SQLMEND_MODEL;
delete env.SQLMEND_CACHE;

async function experiment(out: string, recipe = values.recipe!) {
  const lines: string[] = [];
  const errors: string[] = [];
  const io = { stdout: (t: string) => void lines.push(t), stderr: (t: string) => void errors.push(t), env, cwd: dir, isTTY: false };
  const before = server.requests.length;
  const started = performance.now();
  const args = ["experiment", recipe, "--bench", benchDir, "--out", out, "--limit", values.limit!, "--concurrency", values.concurrency!, "--checkpoints", path.join(dir, `${out}.sqlite`)];
  const code = await main(args, io);
  const seconds = (performance.now() - started) / 1000;
  const text = lines.join("");
  if (code !== 0) throw new Error(`experiment exited ${code}: ${text.slice(-2000)}${errors.join("").slice(-2000)}`);
  const grid = text.split("\n").filter((l) => /^\| [a-z0-9-]+ \| .*\(\+/.test(l));
  return { seconds, requests: server.requests.length - before, cache: /^Response cache over the eval runs: .*$/m.exec(text)?.[0] ?? "(no cache line)", grid };
}

if (values.recipe === "all") {
  const { BUILT_IN_RECIPES } = await import("../runner/experiment/built-in-recipes.ts");
  console.log(`every built-in recipe on minibench (--limit ${values.limit}), ${values["latency-ms"]} ms a request, concurrency ${values.concurrency}: first run, then a rerun into another --out`);
  for (const name of Object.keys(BUILT_IN_RECIPES)) {
    const first = await experiment(`${name}-first`, name);
    const rerun = await experiment(`${name}-rerun`, name);
    const served = /: (\d+) of (\d+) model calls served \(([\d.]+)%\)/.exec(rerun.cache);
    console.log(`  ${name.padEnd(16)} first ${first.seconds.toFixed(1)} s, ${first.requests} requests; rerun ${rerun.seconds.toFixed(1)} s, ${rerun.requests} requests, ${served ? `${served[1]} of ${served[2]} calls served (${served[3]}%)` : rerun.cache}; grid ${JSON.stringify(first.grid) === JSON.stringify(rerun.grid) ? "identical" : "DIFFERS"}`);
  }
} else {
  console.log(`sqlmend experiment ${values.recipe} on minibench (--limit ${values.limit}), ${values["latency-ms"]} ms a request, concurrency ${values.concurrency}`);
  const first = await experiment("first");
  console.log(`first run: ${first.seconds.toFixed(1)} s, ${first.requests} requests to the server\n  ${first.cache}`);
  const rerun = await experiment("rerun");
  console.log(`rerun:     ${rerun.seconds.toFixed(1)} s, ${rerun.requests} requests to the server\n  ${rerun.cache}`);
  console.log(`correctors × scenarios grid identical: ${JSON.stringify(first.grid) === JSON.stringify(rerun.grid) ? "yes" : "NO"} (${first.grid.length} rows)`);
}
await server.close();
if (values.keep) console.log(`kept ${dir}`);
else fs.rmSync(dir, { recursive: true, force: true });
