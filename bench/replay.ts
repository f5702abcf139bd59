/**
 * What `sqlmend replay` saves: r3 on minibench questions against the local OpenAI-compatible server (real ChatOpenAI
 * client, every role its own model name: test/support/method-agents.ts), the response cache off, then replays of that
 * run from `review` — with the same nodes, and with a reviewer that asks no model (`--node review=FILE`). Prints the
 * requests each sent to the server (by role) and the wall time. The agents answer every 4th question's first SQL
 * with a wrong result and the next one's with SQL that fails (debug turns, a revising round), the rest right.
 *
 * Run: npx tsx bench/replay.ts [--questions 20] [--latency-ms 200] [--concurrency 4]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { getSharedExecutor } from "../tools/sqlite/executor.ts";
import { type ChatRequestRecord, startOpenAIServer } from "../test/support/openai-server.ts";
import { agentsConfig, methodAgents } from "../test/support/method-agents.ts";

const { values } = parseArgs({ options: { questions: { type: "string", default: "20" }, "latency-ms": { type: "string", default: "200" }, concurrency: { type: "string", default: "4" } } });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-replay-"));
const benchDir = path.join(dir, "mb");
await buildMinibench(benchDir);
const dev = (await loadBenchmark(benchDir, { split: "dev" })).questions.slice(0, Number(values.questions));
const train = (await loadBenchmark(benchDir, { split: "train" })).questions;
const agents = methodAgents({ questions: [dev, train] });
const server = await startOpenAIServer({ respond: agents.respond, latencyMs: Number(values["latency-ms"]) });
fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
fs.writeFileSync(
  path.join(dir, "quiet-review.mjs"),
  'export default () => async (state) => ({ reviews: [{ round: state.rounds + 1, reviewer: state.reviewerIndex, profession: "replacement", ok: true, text: "No problems found." }] });\n',
);
const env = { ...process.env, OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") };

const byRole = (requests: ChatRequestRecord[]) => {
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(r.model.replace(/^agent\//, ""), (counts.get(r.model.replace(/^agent\//, "")) ?? 0) + 1);
  return [...counts].map(([role, n]) => `${role} ${n}`).join(", ");
};

async function timed(label: string, args: string[]) {
  const from = server.requests.length;
  const embeddings = server.embeddingRequests.length;
  const out: string[] = [];
  const io = { stdout: (t: string) => void out.push(t), stderr: () => {}, env, cwd: dir, isTTY: false };
  const started = performance.now();
  const code = await main(args, io);
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`${label} exited ${code}: ${out.join("")}`);
  const requests = server.requests.slice(from);
  console.log(`${label.padEnd(34)} ${String(requests.length).padStart(4)} chat requests (${byRole(requests)}), ${server.embeddingRequests.length - embeddings} embedding requests, ${(ms / 1000).toFixed(1)} s; ${/^EX [^\n]*/m.exec(out.join(""))?.[0]}`);
  const reused = /^Reused [^\n]*/m.exec(out.join(""))?.[0];
  if (reused) console.log(`${"".padEnd(34)} ${reused}`);
  return { requests: requests.length, ms };
}

const checkpoints = path.join(dir, "checkpoints.sqlite");
const common = ["--cache", "off", "--concurrency", values.concurrency!];
console.log(`r3 on ${dev.length} minibench questions, the local server answering in ${values["latency-ms"]} ms, cache off, concurrency ${values.concurrency}`);
const original = await timed("eval r3 (the original)", ["eval", "r3", "--bench", benchDir, "--out", path.join(dir, "r3"), "--ids", dev.map((q) => q.id).join(","), "--checkpoints", checkpoints, ...common]);
const same = await timed("replay --from review (same nodes)", ["replay", path.join(dir, "r3"), "--from", "review", "--out", path.join(dir, "same"), ...common]);
const swapped = await timed("replay --from review --node review", ["replay", path.join(dir, "r3"), "--from", "review", "--node", "review=quiet-review.mjs", "--out", path.join(dir, "swapped"), ...common]);
const share = (a: { requests: number; ms: number }) => `${((a.requests / original.requests) * 100).toFixed(0)}% of the requests, ${((a.ms / original.ms) * 100).toFixed(0)}% of the time`;
console.log(`replay, same nodes: ${share(same)}; with the model-free reviewer: ${share(swapped)}`);
await server.close();
await getSharedExecutor().close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
