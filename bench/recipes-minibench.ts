/**
 * Every paper recipe, planned and run for real on minibench against the local OpenAI-compatible server (the scripted
 * method agents of test/support/method-agents.ts behind the real ChatOpenAI client): for each recipe the first lines of
 * `--dry-run` (the plan, with the paper figures beside each row), then the run's exit status, time and table rows (ours beside the paper's, the metrics, how the set-up
 * differs). Files only a user has (another system's predictions, a human-written guideline) are given as a file of
 * the gold SQL; a three-coder row gets three scripted coders; R³'s test-suite accuracy gets copies of the databases.
 * The figures show that each recipe runs end to end and what its table holds — not the paper's numbers (minibench is
 * a handful of questions and the agents are scripted).
 *
 * Run: npx tsx bench/recipes-minibench.ts [--recipes magic-table5,ts-sql-table6] [--limit 3]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { getSharedExecutor } from "../tools/sqlite/executor.ts";
import { BUILT_IN_RECIPES } from "../runner/experiment/built-in-recipes.ts";
import { startOpenAIServer } from "../test/support/openai-server.ts";
import { agentsConfig, methodAgents } from "../test/support/method-agents.ts";

const { values } = parseArgs({ options: { recipes: { type: "string" }, limit: { type: "string", default: "3" } } });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-recipes-"));
const benchDir = path.join(dir, "minibench");
await buildMinibench(benchDir);
const questions = [(await loadBenchmark(benchDir, { split: "dev" })).questions, (await loadBenchmark(benchDir, { split: "train" })).questions];
const server = await startOpenAIServer({ respond: methodAgents({ questions }).respond });
fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: "bench", SQLMEND_HOME: path.join(dir, "home") };
for (const name of ["OPENAI_BASE_URL", "SQLMEND_MODEL", "SQLMEND_CACHE"]) delete env[name];

// What only a user has: the gold SQL as another system's predictions and as a "guideline"; copies of the databases
// as test-suite variants.
const devItems = JSON.parse(fs.readFileSync(path.join(benchDir, "dev.json"), "utf8")) as { question_id: number; SQL: string; db_id: string }[];
fs.writeFileSync(path.join(dir, "gold.json"), JSON.stringify(Object.fromEntries(devItems.map((q) => [q.question_id, `${q.SQL}\t----- bird -----\t${q.db_id}`]))));
fs.writeFileSync(path.join(dir, "guideline.md"), "# Guideline\n\n- Check the join keys against the foreign keys.\n");
for (const db of new Set(devItems.map((q) => q.db_id))) {
  fs.mkdirSync(path.join(dir, "ts", db), { recursive: true });
  fs.copyFileSync(path.join(benchDir, "dev_databases", db, `${db}.sqlite`), path.join(dir, "ts", db, `${db}.sqlite`));
}
const setsOf = (name: string) => [...new Set(Object.values(BUILT_IN_RECIPES[name]!.runs).flatMap((r) => [...JSON.stringify(r).matchAll(/\{set:([^}]+)\}/g)].map((m) => m[1]!)))];
const setValue = (set: string) =>
  set === "bird-memory" ? path.join(dir, "memo-table1/memory/memory.sqlite") : set === "coder-models" ? "agent/coder,agent/coder2,agent/coder3" : set.startsWith("guideline") ? "guideline.md" : "gold.json";

const names = values.recipes ? values.recipes.split(",") : ["magic-table5", "r3-table1", "r3-table2", "memo-table1", "memo-table6", "memo-table7", "ts-sql-table6"];
for (const name of names) {
  if (!BUILT_IN_RECIPES[name]) throw new Error(`no recipe ${name}`);
  const args = ["experiment", name, "--bench", benchDir, "--out", name, "--limit", values.limit!, "--concurrency", "2", ...setsOf(name).flatMap((s) => ["--set", `${s}=${setValue(s)}`]), ...(name.startsWith("r3") ? ["--ts-dir", "ts"] : [])];
  const run = async (extra: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const started = performance.now();
    const code = await main([...args, ...extra], { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), env, cwd: dir, isTTY: false });
    return { code, out: out.join(""), err: err.join(""), seconds: (performance.now() - started) / 1000 };
  };
  const shown = `sqlmend ${args.join(" ").replace(benchDir, "MINIBENCH")}`;
  const dry = await run(["--dry-run"]);
  console.log(`\n### ${shown} --dry-run → exit ${dry.code}\n${dry.out.trimEnd()}`);
  const real = await run([]);
  console.log(`\n### ${shown} → exit ${real.code}, ${real.seconds.toFixed(1)} s`);
  if (real.code !== 0) {
    console.log(real.err.slice(-1500));
    continue;
  }
  const table = JSON.parse(fs.readFileSync(path.join(dir, name, "table.json"), "utf8")) as { rows: Record<string, any>[] };
  for (const r of table.rows) {
    const ours = r.notRun ? `not run: ${r.notRun}` : r.guideline ? `guideline, EX after the cycle ${Number(r.guideline.exAfter).toFixed(2)}` : `EX ${Number(r.ex).toFixed(2)} (${r.correct}/${r.questions - r.failed}), ${Math.round(r.tokensPerQuestion)} tokens/q`;
    const metrics = r.metrics ? ` ${JSON.stringify(r.metrics)}` : "";
    const paper = r.paper ? ` | paper ${JSON.stringify(r.paper.figures)}` : "";
    const differs = r.paper?.differs ? ` | differs: ${String(r.paper.differs).slice(0, 90)}` : "";
    console.log(`  ${String(r.run).padEnd(24)} ${ours}${metrics}${paper}${differs}`);
  }
}
await server.close();
await getSharedExecutor().close();
