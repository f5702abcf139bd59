/**
 * Does a run depend on anything but the model's replies? Every built-in recipe (or `--recipe a,b`) twice on minibench
 * against the deterministic scripted agents (test/support/method-agents.ts), with the response cache off and two
 * concurrencies (8, then 3): any request body sent in one and not the other (a prompt showing other rows or other
 * memory cases), and any SQL, verdict or per-role chat-call count that differs, is nondeterminism of sqlmend's own
 * (a random sample, an order that depends on which question finished first).
 * Embedding requests are not compared: the vector cache shares them across runs. One structured-output method is
 * configured (text), so no role probes the format (whichever question asks first would pay the probe).
 *
 * Run: npx tsx bench/determinism.ts [--recipe all|a,b] [--limit 20]
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
import { BUILT_IN_RECIPES } from "../runner/experiment/built-in-recipes.ts";

const { values } = parseArgs({ options: { recipe: { type: "string", default: "all" }, limit: { type: "string", default: "20" } } });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-determinism-"));
const benchDir = path.join(dir, "minibench");
await buildMinibench(benchDir);
const questions = [(await loadBenchmark(benchDir, { split: "dev" })).questions, (await loadBenchmark(benchDir, { split: "train" })).questions];
const server = await startOpenAIServer({ respond: methodAgents({ questions }).respond });
fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify({ ...agentsConfig({ baseURL: server.url }), structuredMethod: "text" }));
const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") };
delete env.OPENAI_BASE_URL;
delete env.SQLMEND_MODEL;

async function experiment(recipe: string, out: string, concurrency: string) {
  const errors: string[] = [];
  const io = { stdout: () => {}, stderr: (t: string) => void errors.push(t), env, cwd: dir, isTTY: false };
  const code = await main(["experiment", recipe, "--bench", benchDir, "--out", out, "--limit", values.limit!, "--cache", "off", "--concurrency", concurrency, "--checkpoints", `${out}.sqlite`], io);
  if (code !== 0) throw new Error(`experiment ${recipe} exited ${code}: ${errors.join("").slice(-2000)}`);
}

/** Every results.jsonl under `out` (eval runs and guideline runs): per question, its SQL, verdict and chat calls by role. */
function outcomes(out: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (d: string) => {
    for (const f of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, f.name);
      if (f.isDirectory()) walk(p);
      else if (f.name === "results.jsonl") {
        for (const line of fs.readFileSync(p, "utf8").split("\n").filter(Boolean)) {
          const r = JSON.parse(line) as { id: string; sql?: string; correctedSql?: string; initialSql?: string; correct?: boolean; corrected?: boolean; usageByRole?: Record<string, { calls: number }> };
          const calls = Object.entries(r.usageByRole ?? {}).filter(([role]) => role !== "embedder").map(([role, u]) => `${role}:${u.calls}`).sort();
          found.set(`${path.relative(out, d)}#${r.id}`, JSON.stringify([r.sql ?? r.correctedSql ?? r.initialSql, r.correct ?? r.corrected, calls]));
        }
      }
    }
  };
  walk(out);
  return found;
}

const names = values.recipe === "all" ? Object.keys(BUILT_IN_RECIPES) : values.recipe!.split(",");
console.log(`determinism on minibench (--limit ${values.limit}, cache off): each recipe at concurrency 8, then 3`);
for (const name of names) {
  const [a, b] = [path.join(dir, `${name}-8`), path.join(dir, `${name}-3`)];
  const start = server.requests.length;
  await experiment(name, a, "8");
  const middle = server.requests.length;
  await experiment(name, b, "3");
  // Chat requests as multisets of bodies (embedding requests left out, as above).
  const bodies = (from: number, to: number) => {
    const counted = new Map<string, number>();
    for (const r of server.requests.slice(from, to)) if (Array.isArray(r.body.messages)) counted.set(JSON.stringify(r.body), (counted.get(JSON.stringify(r.body)) ?? 0) + 1);
    return counted;
  };
  const [sentA, sentB] = [bodies(start, middle), bodies(middle, server.requests.length)];
  let unmatched = 0;
  for (const [body, n] of sentA) unmatched += Math.abs(n - (sentB.get(body) ?? 0));
  for (const [body, n] of sentB) if (!sentA.has(body)) unmatched += n;
  const [oa, ob] = [outcomes(a), outcomes(b)];
  const keys = new Set([...oa.keys(), ...ob.keys()]);
  const differ = [...keys].filter((k) => oa.get(k) !== ob.get(k));
  const sqlOrVerdict = differ.filter((k) => JSON.stringify(JSON.parse(oa.get(k) ?? "[]").slice(0, 2)) !== JSON.stringify(JSON.parse(ob.get(k) ?? "[]").slice(0, 2)));
  const requests = [middle - start, server.requests.length - middle];
  console.log(`  ${name.padEnd(16)} ${keys.size} question records: ${sqlOrVerdict.length} differ in SQL or verdict, ${differ.length - sqlOrVerdict.length} in chat calls only${differ.length ? ` (first: ${differ[0]})` : ""}; chat requests ${requests.join(" / ")}, ${unmatched} sent in one run and not the other`);
}
await server.close();
fs.rmSync(dir, { recursive: true, force: true });
