import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { startOpenAIServer } from "../test/support/openai-server.ts";
import { agentsConfig, methodAgents } from "../test/support/method-agents.ts";
import { BUILT_IN_RECIPES } from "../runner/experiment-recipes.ts";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "det-"));
const benchDir = path.join(dir, "minibench");
await buildMinibench(benchDir);
const questions = [(await loadBenchmark(benchDir, { split: "dev" })).questions, (await loadBenchmark(benchDir, { split: "train" })).questions];
const server = await startOpenAIServer({ respond: methodAgents({ questions }).respond });
fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") };
const run = async (recipe: string, out: string, conc: string) => { const e: string[] = []; const code = await main(["experiment", recipe, "--bench", benchDir, "--out", out, "--limit", "20", "--cache", "off", "--concurrency", conc, "--checkpoints", path.join(dir, out + ".sqlite")], { stdout: () => {}, stderr: (t) => void e.push(t), env, cwd: dir, isTTY: false }); if (code) console.log(recipe, "code", code, e.join("").slice(-800)); };
const results = (out: string) => {
  const m = new Map<string, string>();
  const walk = (d: string) => { for (const f of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, f.name); if (f.isDirectory()) walk(p); else if (f.name === "results.jsonl") for (const l of fs.readFileSync(p, "utf8").split("\n").filter(Boolean)) { const r = JSON.parse(l); m.set(`${path.relative(out, d)}#${r.id}`, JSON.stringify([r.sql ?? r.correctedSql ?? r.initialSql, r.correct ?? r.corrected, r.calls ?? null, Object.fromEntries(Object.entries(r.usageByRole ?? {}).map(([k, v]) => [k, (v as { calls: number }).calls]))])); } } };
  walk(out);
  return m;
};
for (const name of (process.argv[2] ?? Object.keys(BUILT_IN_RECIPES).join(",")).split(",")) {
  const a = path.join(dir, `${name}-a`), b = path.join(dir, `${name}-b`);
  await run(name, a, "8");
  await run(name, b, "3");
  const [ra, rb] = [results(a), results(b)];
  const diff = [...ra.keys()].filter((k) => ra.get(k) !== rb.get(k));
  console.log(name.padEnd(16), ra.size, "records;", diff.length, "differ", diff.slice(0, 3).map((k) => `${k}: ${ra.get(k)} vs ${rb.get(k)}`).join(" | ").slice(0, 600));
}
await server.close();
