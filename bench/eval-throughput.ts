/**
 * `sqlmend eval` throughput against a local OpenAI-compatible server that answers in 200 ms, at concurrency 1, 4, 16.
 * The server answers each question with its gold SQL, so EX must come out at 100%: a check of the whole pipeline.
 * Target: near-linear speed-up until the concurrency cap (--max-requests 16).
 *
 * Run: npx tsx bench/eval-throughput.ts [--questions N] [--latency-ms MS] [--concurrency 1,4,16] [--bench DIR]
 *   without --bench: minibench's dev questions repeated under new ids up to N (default 64);
 *   with --bench DIR: that benchmark's dev split as it is (e.g. Spider: its missing databases are reported as skipped).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { startOpenAIServer, TEST_MODEL_ID } from "../test/support/openai-server.ts";

const { values } = parseArgs({
  options: {
    questions: { type: "string", default: "64" },
    "latency-ms": { type: "string", default: "200" },
    concurrency: { type: "string", default: "1,4,16" },
    bench: { type: "string" },
  },
});
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-"));
let benchDir: string;
if (values.bench) {
  benchDir = path.resolve(values.bench);
} else {
  benchDir = path.join(dir, "mb");
  await buildMinibench(benchDir);
  const devJson = JSON.parse(fs.readFileSync(path.join(benchDir, "dev.json"), "utf8")) as Record<string, unknown>[];
  const n = Number(values.questions);
  // A larger dev split from the same databases: the questions repeated under new ids.
  const big = Array.from({ length: n }, (_, i) => ({ ...devJson[i % devJson.length], question_id: i, question: `${devJson[i % devJson.length]!.question} (#${i})` }));
  fs.writeFileSync(path.join(benchDir, "dev.json"), JSON.stringify(big));
}
const bench = await loadBenchmark(benchDir, { split: "dev" });
// Questions repeat in Spider: answer by question and database.
const gold = new Map(bench.questions.map((q) => [`${q.question}\n${q.dbId}`, q.goldSql!]));
const byQuestion = new Map(bench.questions.map((q) => [q.question, q.goldSql!]));
const server = await startOpenAIServer({
  latencyMs: Number(values["latency-ms"]),
  respond: (req) => {
    const prompt = req.messages.at(-1)!.content;
    const question = /Question: (.*)/.exec(prompt)?.[1]?.trim() ?? "";
    const candidates = bench.questions.filter((q) => q.question === question);
    const q = candidates.find((c) => prompt.includes(`CREATE TABLE`) && gold.has(`${question}\n${c.dbId}`) && schemaMatches(prompt, c.dbId));
    return { content: `\`\`\`sql\n${q?.goldSql ?? byQuestion.get(question) ?? "SELECT 1"}\n\`\`\`` };
  },
});
// The prompt names the database's tables; pick the candidate whose gold SQL only uses tables the prompt shows.
function schemaMatches(prompt: string, dbId: string): boolean {
  const q = bench.questions.find((x) => x.dbId === dbId);
  return !!q && [...(q.goldSql ?? "").matchAll(/\b(?:FROM|JOIN)\s+([A-Za-z_][A-Za-z0-9_]*)/gi)].every((m) => new RegExp(`CREATE TABLE "?${m[1]}"?`, "i").test(prompt));
}
const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") };
const lines: string[] = [];
const io = { stdout: (t: string) => void lines.push(t), stderr: () => {}, env, cwd: dir, isTTY: false };
console.log(`eval baseline on ${bench.name}: ${bench.questions.length} questions (${bench.skipped.length} skipped), server latency ${values["latency-ms"]} ms, --max-requests 16`);
let base = 0;
for (const k of values.concurrency!.split(",").map(Number)) {
  lines.length = 0;
  const started = performance.now();
  const code = await main(["eval", "baseline", "--bench", benchDir, "--out", path.join(dir, `out-${k}`), "--concurrency", String(k), "--max-requests", "16", "--max-fix-rounds", "0"], io);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`eval exited ${code}`);
  base ||= seconds;
  const ex = /^EX [^\n]*/.exec(lines.join(""))?.[0] ?? "";
  console.log(`concurrency ${String(k).padStart(2)}: ${seconds.toFixed(2)} s, ${(bench.questions.length / seconds).toFixed(2)} questions/s, speed-up ${(base / seconds).toFixed(2)}x (ideal ${k}x); ${ex}`);
}
await server.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
