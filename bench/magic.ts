/**
 * `sqlmend magic guideline` throughput: failures processed per minute at concurrency 8 against a local
 * OpenAI-compatible server answering in 200 ms, and model calls and tokens per corrected failure, by role.
 * The training split is minibench's, repeated under new ids up to N questions; the initial predictions are wrong
 * for every other question; the scripted correction agent gets it right at iteration 1, 2 or 3 (and never for one
 * failure in seven), so the manager revises prompts on the way. Tokens are counted by the server from the characters
 * sent and returned (about 4 per token).
 *
 * Run: npx tsx bench/magic.ts [--questions N] [--latency-ms MS] [--concurrency K] [--batch B] [--no-manager]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { writeBirdPredictions } from "../tools/benchmarks/score.ts";
import { startOpenAIServer, TEST_MODEL_ID } from "../test/support/openai-server.ts";
import { magicResponder } from "../test/support/magic-agents.ts";

const { values } = parseArgs({
  options: {
    questions: { type: "string", default: "96" },
    "latency-ms": { type: "string", default: "200" },
    concurrency: { type: "string", default: "8" },
    batch: { type: "string", default: "10" },
    "no-manager": { type: "boolean", default: false },
  },
});
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-magic-"));
const benchDir = path.join(dir, "mb");
await buildMinibench(benchDir);
const trainJson = JSON.parse(fs.readFileSync(path.join(benchDir, "train.json"), "utf8")) as Record<string, unknown>[];
const n = Number(values.questions);
const big = Array.from({ length: n }, (_, i) => ({ ...trainJson[i % trainJson.length], question_id: i, question: `${trainJson[i % trainJson.length]!.question} (#${i})` }));
fs.writeFileSync(path.join(benchDir, "train.json"), JSON.stringify(big));
const train = (await loadBenchmark(benchDir, { split: "train" })).questions;
const predictions = path.join(dir, "initial.json");
await writeBirdPredictions(predictions, train.map((q) => ({ id: q.id, dbId: q.dbId, sql: Number(q.id) % 2 === 0 ? "SELECT 'wrong'" : q.goldSql! })));

const server = await startOpenAIServer({
  latencyMs: Number(values["latency-ms"]),
  respond: magicResponder(train, { correctAt: (q) => (Number(q.id) % 7 === 0 ? Infinity : 1 + (Number(q.id) % 3)) }),
});
const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") };
const out = path.join(dir, "out");
const printed: string[] = [];
const io = { stdout: (t: string) => void printed.push(t), stderr: () => {}, env, cwd: dir, isTTY: false };
const args = ["magic", "guideline", "--bench", benchDir, "--initial", predictions, "--out", out, "--concurrency", values.concurrency!, "--max-requests", "16", "--batch", values.batch!];
if (values["no-manager"]) args.push("--no-manager");
console.log(`magic guideline on ${n} training questions, server latency ${values["latency-ms"]} ms, concurrency ${values.concurrency}, --max-requests 16, batch ${values.batch}${values["no-manager"] ? ", no manager" : ""}`);
const started = performance.now();
const code = await main(args, io);
const seconds = (performance.now() - started) / 1000;
if (code !== 0) throw new Error(`magic guideline exited ${code}: ${printed.join("")}`);
const stats = JSON.parse(fs.readFileSync(path.join(out, "stats.json"), "utf8"));
console.log(printed.join("").trim());
console.log(`wall time ${seconds.toFixed(1)} s; ${server.requests.length} model requests`);
console.log(`failures processed per minute: ${((stats.failures / seconds) * 60).toFixed(1)} (${stats.failures} failures, ${stats.corrected} corrected, ${stats.batchesMerged} merges)`);
console.log("per corrected failure, by role (all calls of the run, merges included, divided by the corrected failures):");
for (const [role, t] of Object.entries(stats.tokensByRole as Record<string, { calls: number; inputTokens: number; outputTokens: number }>)) {
  const per = (x: number) => (x / stats.corrected).toFixed(1);
  console.log(`  ${role.padEnd(10)} calls ${per(t.calls).padStart(6)}   input tokens ${per(t.inputTokens).padStart(8)}   output tokens ${per(t.outputTokens).padStart(7)}`);
}
await server.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
