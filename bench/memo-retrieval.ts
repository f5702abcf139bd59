/**
 * Memo-SQL figures.
 * 1. Retrieval (top 40 by key similarity + the subsumption filter, lexical index) over a memory of N entries
 *    (default 10 000): median and p90 per query. Target: median ≤ 5 ms.
 * 2. Per question (Table 2's columns) against a local OpenAI-compatible server answering in 200 ms: model calls,
 *    input/output tokens by role, and wall time with the parallel fan-out against the sequential sum of the calls.
 *    The server answers with the gold SQL; the nested-style candidates are wrapped so the critic flags them and the
 *    refiner fixes them (the correction loop runs). Token counts are the server's estimate (characters / 4).
 *
 * Run: npx tsx bench/memo-retrieval.ts [--entries 10000] [--queries 500] [--questions 5] [--latency-ms 200]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { ERROR_TYPES, MemoryStore } from "../tools/retrieval/memory-store.ts";
import { startOpenAIServer, TEST_MODEL_ID } from "../test/support/openai-server.ts";

const { values } = parseArgs({
  options: {
    entries: { type: "string", default: "10000" },
    queries: { type: "string", default: "500" },
    questions: { type: "string", default: "5" },
    "latency-ms": { type: "string", default: "200" },
  },
});
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-memo-bench-"));

// ---------------------------------------------------------------- 1. retrieval
const WORDS = "customer order product price city country year month total average count name school student teacher course grade movie actor director rating team player match score store sale employee department salary hospital patient doctor flight airport airline book author loan".split(" ");
const SHAPES = [
  "SELECT count(*) FROM t WHERE c = 'v'",
  "SELECT a, b FROM t JOIN u ON t.id = u.tid WHERE u.x > 10",
  "SELECT a FROM t GROUP BY a HAVING count(*) > 2 ORDER BY count(*) DESC LIMIT 1",
  "SELECT avg(x) FROM t WHERE y IN (SELECT y FROM u WHERE z = 'q')",
  "WITH s AS (SELECT a, sum(b) AS tb FROM t GROUP BY a) SELECT a FROM s WHERE tb > 100",
  "SELECT CAST(sum(CASE WHEN a = 'x' THEN 1 ELSE 0 END) AS REAL) * 100 / count(*) FROM t",
  "SELECT name FROM t WHERE strftime('%Y', d) = '2020' ORDER BY v LIMIT 3",
  "SELECT DISTINCT a FROM t LEFT JOIN u ON t.id = u.id WHERE u.id IS NULL",
];
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
const question = () => `What is the ${pick(WORDS)} of each ${pick(WORDS)} with the highest ${pick(WORDS)} in ${pick(WORDS)} ${Math.floor(rand() * 3000)}?`;

const n = Number(values.entries);
const file = path.join(dir, "memory.sqlite");
let store = MemoryStore.open(file, { create: true });
let t0 = performance.now();
for (let i = 0; i < n; i++) {
  const types = [...new Set([pick(ERROR_TYPES), ...(rand() < 0.4 ? [pick(ERROR_TYPES)] : [])])];
  store.add({ sourceId: String(i), dbId: "db", question: question(), evidence: "", goldSql: pick(SHAPES), wrongSql: pick(SHAPES), errorTypes: types, suggestions: "fix it" });
}
const writeMs = performance.now() - t0;
store.close();
t0 = performance.now();
store = MemoryStore.open(file);
const loadMs = performance.now() - t0;
const times: number[] = [];
let kept = 0;
const q = Number(values.queries);
for (let i = 0; i < q + 20; i++) {
  const started = performance.now();
  const r = await store.retrieve({ question: question(), sql: pick(SHAPES), exclude: { ids: [String(i)] } });
  if (i >= 20) {
    times.push(performance.now() - started);
    kept += r.entries.length;
  }
}
store.close();
times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
console.log(`Retrieval over ${n} entries (lexical index, top 40 + subsumption filter), ${q} queries:`);
console.log(`  median ${pct(0.5).toFixed(2)} ms, p90 ${pct(0.9).toFixed(2)} ms, max ${times.at(-1)!.toFixed(2)} ms; ${(kept / q).toFixed(1)} entries kept per query on average`);
console.log(`  writing ${n} entries: ${(writeMs / 1000).toFixed(1)} s; opening the file and building the index: ${loadMs.toFixed(0)} ms`);

// Dense: the same entries with 768-dimension key vectors (GTE-base's size) from an in-process embedder, so the figure
// is the ranking's cost (cosine top 40 + filter), not an endpoint's; the keys are embedded before timing starts.
const DIM = 768;
const vectorOf = (text: string) => {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  let x = h >>> 0 || 1;
  return Array.from({ length: DIM }, () => ((x = Math.imul(x ^ (x >>> 15), 2246822507) >>> 0), x / 2 ** 32 - 0.5));
};
const dense = MemoryStore.open(file, { embedder: { model: "bench-768", embed: async (texts) => texts.map(vectorOf) } });
t0 = performance.now();
const pending = await dense.embedPending();
const embedMs = performance.now() - t0;
const denseTimes: number[] = [];
for (let i = 0; i < q + 20; i++) {
  const started = performance.now();
  const r = await dense.retrieve({ question: question(), sql: pick(SHAPES), exclude: { ids: [String(i)] } });
  if (r.ranking !== "embeddings") throw new Error(`dense retrieval fell back: ${r.note}`);
  if (i >= 20) denseTimes.push(performance.now() - started);
}
dense.close();
denseTimes.sort((a, b) => a - b);
const dpct = (p: number) => denseTimes[Math.min(denseTimes.length - 1, Math.floor(p * denseTimes.length))]!;
console.log(`Retrieval over ${n} entries (dense, ${DIM}-dimension vectors, top 40 + subsumption filter; query embedding in-process), ${q} queries:`);
console.log(`  median ${dpct(0.5).toFixed(2)} ms, p90 ${dpct(0.9).toFixed(2)} ms, max ${denseTimes.at(-1)!.toFixed(2)} ms; embedding and storing ${pending.embedded} keys once: ${(embedMs / 1000).toFixed(1)} s`);

// ---------------------------------------------------------------- 2. per question
const benchDir = path.join(dir, "mb");
await buildMinibench(benchDir);
const dev = (await loadBenchmark(benchDir, { split: "dev" })).questions;
const train = (await loadBenchmark(benchDir, { split: "train" })).questions;
const all = [...dev, ...train];
const questionOf = (text: string) => /Question: (.*)/.exec(text)?.[1]?.trim() ?? "";
const server = await startOpenAIServer({
  latencyMs: Number(values["latency-ms"]),
  respond: (req) => {
    const system = req.messages[0]?.content ?? "";
    const prompt = req.messages.map((m) => m.content).join("\n");
    const gold = all.find((x) => x.question === questionOf(prompt))?.goldSql ?? "SELECT 1";
    if (system.startsWith("You are a strict reviewer")) {
      return { content: prompt.includes("SELECT * FROM (") ? '{"wrong": true, "errorTypes": ["select_output_error"], "suggestions": "select only the asked columns"}' : '{"wrong": false, "errorTypes": [], "suggestions": ""}' };
    }
    if (system.startsWith("You pick out")) return { content: '{"keywords": ["name", "title"]}' };
    if (system.startsWith("You plan")) return { content: '{"simple": false, "fits": true, "subQuestions": ["first part", "second part"]}' };
    if (system.startsWith("You check intermediate")) return { content: '{"problem": false, "issue": ""}' };
    const last = req.messages.at(-1)?.content ?? "";
    const sql = last.includes("nested subqueries") ? `SELECT * FROM (${gold})` : gold;
    return { content: `Reasoning.\n\`\`\`sql\n${sql}\n\`\`\`` };
  },
});
const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID };
const out = path.join(dir, "eval");
const lines: string[] = [];
const k = Number(values.questions);
const code = await main(
  ["eval", "memo-sql", "--bench", benchDir, "--out", out, "--limit", String(k), "--concurrency", "1", "--max-requests", "16", "--memory", file, "--checkpoints", "memory"],
  { stdout: (t) => void lines.push(t), stderr: () => {}, env, cwd: dir, isTTY: false },
);
if (code !== 0) throw new Error(`eval exited ${code}: ${lines.join("")}`);
const records = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
type Totals = { calls: number; inputTokens: number; outputTokens: number; latencyMs: number };
const byRole = new Map<string, Totals>();
for (const r of records) {
  for (const [role, t] of Object.entries(r.usageByRole as Record<string, Totals>)) {
    const acc = byRole.get(role) ?? { calls: 0, inputTokens: 0, outputTokens: 0, latencyMs: 0 };
    byRole.set(role, { calls: acc.calls + t.calls, inputTokens: acc.inputTokens + t.inputTokens, outputTokens: acc.outputTokens + t.outputTokens, latencyMs: acc.latencyMs + t.latencyMs });
  }
}
const per = (x: number) => (x / records.length).toFixed(1);
console.log(`\nmemo-sql per question on minibench dev (${records.length} questions, concurrency 1, server latency ${values["latency-ms"]} ms, memory of ${n} entries); ${/^EX [^\n]*/.exec(lines.join(""))?.[0]}`);
console.log(`  role         calls  input tok  output tok   (per question)`);
for (const [role, t] of [...byRole.entries()].sort((a, b) => b[1].calls - a[1].calls)) {
  console.log(`  ${role.padEnd(11)} ${per(t.calls).padStart(6)} ${per(t.inputTokens).padStart(10)} ${per(t.outputTokens).padStart(11)}`);
}
const totals = [...byRole.values()].reduce((a, t) => ({ calls: a.calls + t.calls, inputTokens: a.inputTokens + t.inputTokens, outputTokens: a.outputTokens + t.outputTokens, latencyMs: a.latencyMs + t.latencyMs }));
console.log(`  ${"all".padEnd(11)} ${per(totals.calls).padStart(6)} ${per(totals.inputTokens).padStart(10)} ${per(totals.outputTokens).padStart(11)}`);
const wall = records.reduce((a, r) => a + r.latencyMs, 0) / records.length;
console.log(`  wall time ${(wall / 1000).toFixed(2)} s per question with the parallel fan-out; the calls one after another would take ${(totals.latencyMs / records.length / 1000).toFixed(2)} s (${(totals.latencyMs / records.length / wall).toFixed(1)}x)`);
await server.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
