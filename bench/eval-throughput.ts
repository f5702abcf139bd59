/**
 * `sqlmend eval` throughput against a local OpenAI-compatible server that answers in 200 ms, at concurrency 1, 4, 16.
 * Target: near-linear speed-up until the concurrency cap (--max-requests, 16 here).
 * Run: npx tsx bench/eval-throughput.ts [--questions N] [--latency-ms MS]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmark.ts";
import { startOpenAIServer, TEST_MODEL_ID } from "../test/support/openai-server.ts";

const { values } = parseArgs({ options: { questions: { type: "string", default: "64" }, "latency-ms": { type: "string", default: "200" } } });
const n = Number(values.questions);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-"));
const mb = path.join(dir, "mb");
await buildMinibench(mb);
const dev = (await loadBenchmark(mb, { split: "dev" })).questions;
const devJson = JSON.parse(fs.readFileSync(path.join(mb, "dev.json"), "utf8")) as Record<string, unknown>[];
// A larger dev split from the same databases: the questions repeated under new ids.
const big = Array.from({ length: n }, (_, i) => ({ ...devJson[i % devJson.length], question_id: i, question: `${devJson[i % devJson.length]!.question} (#${i})` }));
fs.writeFileSync(path.join(mb, "dev.json"), JSON.stringify(big));
const gold = new Map(big.map((q) => [q.question, (q as Record<string, unknown>).SQL as string]));

const server = await startOpenAIServer({
  latencyMs: Number(values["latency-ms"]),
  respond: (req) => ({ content: `\`\`\`sql\n${gold.get(/Question: (.*)/.exec(req.messages.at(-1)!.content)?.[1]?.trim() ?? "") ?? "SELECT 1"}\n\`\`\`` }),
});
const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") };
const quiet = { stdout: () => {}, stderr: () => {}, env, cwd: dir, isTTY: false };
console.log(`eval baseline, ${n} questions, server latency ${values["latency-ms"]} ms, --max-requests 16 (${dev.length} distinct questions)`);
let base = 0;
for (const k of [1, 4, 16]) {
  const started = performance.now();
  const code = await main(["eval", "baseline", "--bench", mb, "--out", path.join(dir, `out-${k}`), "--concurrency", String(k), "--max-requests", "16", "--max-fix-rounds", "0"], quiet);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`eval exited ${code}`);
  base ||= seconds;
  console.log(`concurrency ${String(k).padStart(2)}: ${seconds.toFixed(2)} s, ${(n / seconds).toFixed(2)} questions/s, speed-up ${(base / seconds).toFixed(2)}x (ideal ${k}x)`);
}
await server.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
