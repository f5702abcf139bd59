/**
 * R³'s cost and speed against a local OpenAI-compatible server (real ChatOpenAI client):
 *   1. calls and tokens per question at n = 1 and n = 3 reviewers (`sqlmend eval r3`, 5-shot, PoT);
 *   2. wall time of a review round at n = 3 when every reply takes 200 ms: reviewers run in parallel, so a round
 *      should take about two replies (the reviewers' step, then the writer's answer), not n + 1.
 * The scripted writer answers wrong first, revises to the gold SQL after round 1's reviews and keeps it in round 2
 * (consensus): two review rounds per question, EX 100% as a check of the pipeline. Input tokens are the real prompts'
 * size (the server estimates 4 characters a token); output tokens are the scripted replies' (shorter than a model's).
 *
 * Run: npx tsx bench/r3.ts [--questions N] [--latency-ms MS] [--reviewers 1,3]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { r3Spec } from "../graphs/r3.ts";
import { createOpenAIProvider, resolveModelConfig } from "../tools/models/models.ts";
import { getSharedExecutor } from "../tools/sqlite/executor.ts";
import { type ChatRequestRecord, startOpenAIServer, TEST_MODEL_ID } from "../test/support/openai-server.ts";

const { values } = parseArgs({
  options: {
    questions: { type: "string", default: "8" },
    "latency-ms": { type: "string", default: "200" },
    reviewers: { type: "string", default: "1,3" },
  },
});
const latencyMs = Number(values["latency-ms"]);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-r3-"));
const benchDir = path.join(dir, "mb");
await buildMinibench(benchDir);
const dev = (await loadBenchmark(benchDir, { split: "dev" })).questions.slice(0, Number(values.questions));

const PROGRAM = "```python\nrows = [r for r in table if matches(r)]\nanswer = aggregate(rows)\n```\n";
const REVIEW =
  "The query reads the right table, but check the filter against the question's wording: the result should list only " +
  "the rows the question asks for, and the columns returned should be exactly those requested, in that order.";
const system = (req: ChatRequestRecord) => req.messages[0]?.content ?? "";
const roundOf = (req: ChatRequestRecord) => req.messages.filter((m) => m.role === "user" && m.content.includes("Their reviews:")).length;
const server = await startOpenAIServer({
  latencyMs,
  respond: (req) => {
    if (system(req).startsWith("You assemble review panels")) {
      const n = Number(/Propose (\d+) reviewer/.exec(req.messages[1]?.content ?? "")?.[1] ?? 3);
      const pool = [
        { profession: "Senior database engineer specialised in joins and filters", focus: "WHERE and JOIN clauses" },
        { profession: "Data analyst in this database's domain", focus: "whether the result answers the question" },
        { profession: "BI report auditor", focus: "columns returned and ordering" },
      ];
      return { content: JSON.stringify({ reviewers: Array.from({ length: n }, (_, i) => pool[i % pool.length]) }) };
    }
    if (!system(req).startsWith("You are the SQL writer")) return { content: REVIEW };
    const question = /Question: (.*)/.exec(req.messages[1]?.content.split("\n").filter((l) => l.startsWith("Question: ")).at(-1) ?? "")?.[1]?.trim();
    const gold = dev.find((q) => q.question === question)?.goldSql ?? "SELECT 1";
    return { content: `${PROGRAM}\`\`\`sql\n${roundOf(req) === 0 ? "SELECT 0" : gold}\n\`\`\`` };
  },
});
const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") };

console.log(`r3 on minibench: ${dev.length} questions, server latency ${latencyMs} ms, 5-shot, PoT; writer settles in round 2`);
for (const n of values.reviewers!.split(",").map(Number)) {
  const out = path.join(dir, `out-${n}`);
  const lines: string[] = [];
  const io = { stdout: (t: string) => void lines.push(t), stderr: () => {}, env, cwd: dir, isTTY: false };
  const ids = dev.map((q) => q.id).join(",");
  const code = await main(["eval", "r3", "--bench", benchDir, "--out", out, "--ids", ids, "--reviewers", String(n), "--concurrency", "4", "--checkpoints", "memory"], io);
  if (code !== 0) throw new Error(`eval exited ${code}`);
  const records = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const mean = (f: (r: (typeof records)[number]) => number) => records.reduce((s, r) => s + f(r), 0) / records.length;
  const byRole = ["writer", "persona", "reviewer"]
    .map((role) => `${role} ${mean((r) => r.usageByRole[role]?.calls ?? 0).toFixed(1)} calls / ${mean((r) => (r.usageByRole[role]?.inputTokens ?? 0) + (r.usageByRole[role]?.outputTokens ?? 0)).toFixed(0)} tok`)
    .join(", ");
  const ex = /^EX [^\n]*/.exec(lines.join(""))?.[0] ?? "";
  console.log(
    `n = ${n}: per question ${mean((r) => r.calls).toFixed(1)} calls, ${mean((r) => r.inputTokens).toFixed(0)} input + ${mean((r) => r.outputTokens).toFixed(0)} output tokens, ` +
      `${mean((r) => r.iterations).toFixed(1)} iterations [${byRole}]; ${ex}`,
  );
}

// Round wall time at n = 3: stream one question's updates and time each round (reviewers' step + the writer's answer).
const models = createOpenAIProvider(resolveModelConfig({ maxConcurrency: 16 }, env, dir), env);
const graph = r3Spec.build({ models, executor: getSharedExecutor() }, { kShot: 0, reviewers: 3 });
const rounds: { review: number; round: number }[] = [];
for (const q of dev.slice(0, 4)) {
  let before = performance.now();
  let reviewsDone = 0;
  for await (const update of await graph.stream({ question: q.question, evidence: q.evidence, dbPath: q.dbPath, dbId: q.dbId }, { streamMode: "updates", recursionLimit: 200 })) {
    const node = Object.keys(update)[0]!;
    const now = performance.now();
    if (node === "review") reviewsDone = now;
    else if (node === "revise") {
      rounds.push({ review: reviewsDone - before, round: now - before });
    } else before = now;
  }
}
const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(
  `round at n = 3 (${rounds.length} rounds): reviewers' step ${avg(rounds.map((r) => r.review)).toFixed(0)} ms, whole round ${avg(rounds.map((r) => r.round)).toFixed(0)} ms ` +
    `(one reply ${latencyMs} ms: parallel ≈ ${2 * latencyMs} ms, serial would be ≈ ${4 * latencyMs} ms)`,
);
await server.close();
await getSharedExecutor().close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
