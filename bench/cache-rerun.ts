/**
 * The response cache on a rerun: a 200-question minibench eval (the 50 dev and train questions four times over,
 * each copy's wording marked so no two prompts are alike nor like a training example) through the launcher against the local OpenAI-compatible
 * server (every agent role answered by test/support/method-agents.ts, a fixed latency per request), then the same
 * eval again into another --out. Prints, per run: wall time, requests that reached the server, and the eval's own
 * "Response cache" line (calls served from the cache, tokens saved); then whether the verdicts agree.
 *
 * Run: npx tsx bench/cache-rerun.ts [--graph r3] [--questions 200] [--latency-ms 50] [--concurrency 8] [--keep]
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
    graph: { type: "string", default: "r3" },
    questions: { type: "string", default: "200" },
    "latency-ms": { type: "string", default: "50" },
    concurrency: { type: "string", default: "8" },
    keep: { type: "boolean", default: false },
  },
});
const wanted = Number(values.questions);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-cache-"));
const source = path.join(dir, "minibench");
await buildMinibench(source);

// A BIRD-layout benchmark of `wanted` questions: dev then train, repeated, each copy's wording marked ("(copy 2)").
type Raw = { question_id: number; db_id: string; question: string; evidence: string; SQL: string; difficulty: string };
const base = [...(JSON.parse(fs.readFileSync(path.join(source, "dev.json"), "utf8")) as Raw[]), ...(JSON.parse(fs.readFileSync(path.join(source, "train.json"), "utf8")) as Raw[])];
const rows: Raw[] = Array.from({ length: wanted }, (_, i) => {
  const q = base[i % base.length]!;
  const copy = Math.floor(i / base.length);
  // Every copy marked, the first too: a train question's own wording stays the train example's (R³'s k-shot shows it).
  return { ...q, question_id: i, question: `${q.question} (copy ${copy + 1})` };
});
const benchDir = path.join(dir, "bench200");
fs.mkdirSync(benchDir);
fs.writeFileSync(path.join(benchDir, "dev.json"), JSON.stringify(rows, null, 1));
fs.writeFileSync(path.join(benchDir, "dev_gold.sql"), rows.map((r) => `${r.SQL}\t${r.db_id}`).join("\n") + "\n");
fs.copyFileSync(path.join(source, "dev_tables.json"), path.join(benchDir, "dev_tables.json"));
fs.cpSync(path.join(source, "dev_databases"), path.join(benchDir, "dev_databases"), { recursive: true });
// The train split as it is (R³'s k-shot examples come from it).
for (const f of ["train.json", "train_tables.json", "train_gold.sql"]) fs.copyFileSync(path.join(source, f), path.join(benchDir, f));
fs.cpSync(path.join(source, "train_databases"), path.join(benchDir, "train_databases"), { recursive: true });
const questions = (await loadBenchmark(benchDir, { split: "dev" })).questions;
const train = (await loadBenchmark(benchDir, { split: "train" })).questions;

const agents = methodAgents({ questions: [questions, train] });
const server = await startOpenAIServer({ latencyMs: Number(values["latency-ms"]), respond: agents.respond });
fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") };
delete env.OPENAI_BASE_URL;
delete env.SQLMEND_MODEL;
delete env.SQLMEND_CACHE;

async function evalRun(out: string) {
  const lines: string[] = [];
  const errors: string[] = [];
  const io = { stdout: (t: string) => void lines.push(t), stderr: (t: string) => void errors.push(t), env, cwd: dir, isTTY: false };
  const before = server.requests.length;
  const started = performance.now();
  const args = ["eval", values.graph!, "--bench", benchDir, "--out", out, "--concurrency", values.concurrency!, "--checkpoints", path.join(dir, `${out}.sqlite`)];
  const code = await main(args, io);
  const seconds = (performance.now() - started) / 1000;
  const text = lines.join("");
  if (code !== 0) throw new Error(`eval exited ${code}: ${text}${errors.join("")}`);
  const records = fs.readFileSync(path.join(dir, out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; correct: boolean; sql: string });
  return { seconds, requests: server.requests.length - before, ex: /^EX .*$/m.exec(text)?.[0] ?? "", cache: /^Response cache: .*$/m.exec(text)?.[0] ?? "(no cache line)", records };
}

console.log(`sqlmend eval ${values.graph} on ${questions.length} minibench questions, ${values["latency-ms"]} ms a request, concurrency ${values.concurrency}`);
const first = await evalRun("first");
console.log(`first run:  ${first.seconds.toFixed(1)} s, ${first.requests} requests to the server; ${first.ex}\n  ${first.cache}`);
const rerun = await evalRun("rerun");
console.log(`rerun:      ${rerun.seconds.toFixed(1)} s, ${rerun.requests} requests to the server; ${rerun.ex}\n  ${rerun.cache}`);
const verdict = (r: typeof first) => JSON.stringify(r.records.map((x) => [x.id, x.correct, x.sql]).sort());
console.log(`verdicts and SQL identical: ${verdict(first) === verdict(rerun) ? "yes" : "NO"}; rerun wall time ${((rerun.seconds / first.seconds) * 100).toFixed(1)}% of the first`);

await server.close();
if (values.keep) console.log(`kept: ${dir}`);
else fs.rmSync(dir, { recursive: true, force: true });
