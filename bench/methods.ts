/**
 * Every graph side by side on minibench, through the launcher (`main()` in-process, as `sqlmend` runs it), against
 * the local OpenAI-compatible server where each agent role answers plausibly (test/support/method-agents.ts), with a
 * fixed latency per request. Generators: baseline, r3, memo-sql, ts-sql. Correctors, all on the baseline's
 * predictions with --correct all: repair, magic (guideline from `magic guideline` on the train split), r3-review,
 * memo-refine (memory from `memo build`), ts-sql-refine, and MAGIC Table 1's baselines (self-debugging,
 * self-consistency, multiple-prompt). Then `sqlmend compare` of two correctors.
 *
 * EX here measures the scripted agents (first writers are wrong on every 4th question and fail on the next), not a
 * method's quality: it shows that each graph reads, uses and keeps what its agents say. Calls, tokens (counted by the
 * server from characters, about 4 a token), wall time and checkpoint bytes are the graph's own cost; ckpt/text weighs
 * the checkpoint file against the characters of the prompts and replies the server saw during that eval (target ≤ 2).
 *
 * Run: npx tsx bench/methods.ts [--limit N] [--latency-ms MS] [--concurrency K] [--graphs ts-sql,ts-sql-refine] [--keep]
 * (`--graphs` runs only the listed graphs; the correctors then still get the baseline's predictions.)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import type { EvalRecord } from "../runner/run/results-record.ts";
import { billedExtrasChars, startOpenAIServer } from "../test/support/openai-server.ts";
import { agentsConfig, methodAgents } from "../test/support/method-agents.ts";
import { completionTokens, promptTokens } from "./billed-tokens.ts";

const { values } = parseArgs({
  options: {
    limit: { type: "string", default: "8" },
    "latency-ms": { type: "string", default: "200" },
    concurrency: { type: "string", default: "4" },
    keep: { type: "boolean", default: false },
    graphs: { type: "string" },
  },
});
const limit = values.limit!;
const only = values.graphs ? new Set(values.graphs.split(",").map((g) => g.trim())) : undefined;
const wanted = (graph: string) => !only || only.has(graph);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-methods-"));
const benchDir = path.join(dir, "minibench");
await buildMinibench(benchDir);
const dev = (await loadBenchmark(benchDir, { split: "dev" })).questions;
const train = (await loadBenchmark(benchDir, { split: "train" })).questions;
const agents = methodAgents({ questions: [dev, train] });
// The text of every prompt and reply, to weigh each eval's checkpoint file against (evals run one at a time).
let promptAndReplyChars = 0;
/** o200k tokens the server was asked for and answered (every request's prompt once, schemas and tools included), and the schemas' part. */
let o200k = 0;
let o200kSchema = 0;
let lastRequest = -1;
const server = await startOpenAIServer({
  latencyMs: Number(values["latency-ms"]),
  respond: (req, index) => {
    const reply = agents.respond(req);
    o200k += completionTokens(reply);
    // respond is called once per choice of a request with n: its prompt is billed once.
    if (index !== lastRequest) {
      lastRequest = index;
      const prompt = promptTokens(req);
      o200k += prompt.messages + prompt.schema;
      o200kSchema += prompt.schema;
      promptAndReplyChars += req.messages.reduce((n, m) => n + m.content.length, 0);
    }
    if ("content" in reply) promptAndReplyChars += reply.content.length;
    else if ("toolCall" in reply) promptAndReplyChars += reply.toolCall.name.length + reply.toolCall.arguments.length;
    return reply;
  },
});
fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") };
delete env.OPENAI_BASE_URL;
delete env.SQLMEND_MODEL;

async function sqlmend(args: string[]): Promise<string> {
  const out: string[] = [];
  const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void out.push(t), env, cwd: dir, isTTY: false };
  const code = await main(args, io);
  if (code !== 0) throw new Error(`sqlmend ${args.join(" ")} exited ${code}:\n${out.join("")}`);
  return out.join("");
}

interface Row {
  graph: string;
  ex: number;
  errors: number;
  requests: number;
  questions: number;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  seconds: number;
  checkpointBytes: number;
  /** Prompt and reply characters per question. */
  textChars: number;
  /** Tokens of the calls the response cache answered, per question (the evals share one cache: a later graph may find
   * an earlier one's prompts, as ts-sql's generator finds the baseline's). */
  savedInputTokens: number;
  savedOutputTokens: number;
  /** Tokens per question by GPT-4o's tokenizer over what the server saw (prompt with schemas and tools + completion), and the schemas' part. */
  o200k: number;
  o200kSchema: number;
}
const rows: Row[] = [];
/** Self-consistency's sampler requests: each one's prompt tokens as the server bills them. */
const samplerPromptTokens: number[] = [];

async function evalGraph(graph: string, extra: string[] = [], label = graph): Promise<void> {
  const out = path.join(dir, "runs", label);
  const checkpoints = path.join(dir, "checkpoints", `${label}.sqlite`);
  const before = server.requests.length + server.embeddingRequests.length;
  const requestsBefore = server.requests.length;
  const textBefore = promptAndReplyChars;
  const o200kBefore = o200k;
  const schemaBefore = o200kSchema;
  const started = performance.now();
  await sqlmend(["eval", graph, "--bench", benchDir, "--out", out, "--limit", limit, "--concurrency", values.concurrency!, "--checkpoints", checkpoints, ...extra]);
  const seconds = (performance.now() - started) / 1000;
  const results = fs
    .readFileSync(path.join(out, "results.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as EvalRecord);
  const stored = ["", "-wal", "-shm"].reduce((n, s) => n + (fs.existsSync(checkpoints + s) ? fs.statSync(checkpoints + s).size : 0), 0);
  const n = results.length;
  if (label === "self-consistency") {
    for (const req of server.requests.slice(requestsBefore)) {
      if (req.model === "agent/sampler") samplerPromptTokens.push(Math.ceil((req.messages.reduce((k, m) => k + m.content.length, 0) + billedExtrasChars(req.body)) / 4));
    }
  }
  const per = (f: (r: EvalRecord) => number) => results.reduce((sum, r) => sum + f(r), 0) / n;
  rows.push({
    graph: label,
    ex: per((r) => (r.correct ? 1 : 0)),
    errors: results.filter((r) => r.error).length,
    questions: n,
    calls: per((r) => r.calls),
    requests: (server.requests.length + server.embeddingRequests.length - before) / n,
    inputTokens: per((r) => r.inputTokens),
    outputTokens: per((r) => r.outputTokens),
    seconds: seconds / n,
    checkpointBytes: stored / n,
    textChars: (promptAndReplyChars - textBefore) / n,
    savedInputTokens: per((r) => r.savedInputTokens ?? 0),
    savedOutputTokens: per((r) => r.savedOutputTokens ?? 0),
    o200k: (o200k - o200kBefore) / n,
    o200kSchema: (o200kSchema - schemaBefore) / n,
  });
}

console.log(`minibench dev, --limit ${limit}, server latency ${values["latency-ms"]} ms, --concurrency ${values.concurrency}`);
const started = performance.now();
for (const graph of ["baseline", "r3", "memo-sql", "ts-sql"]) if (wanted(graph) || graph === "baseline") await evalGraph(graph);
const initial = path.join(dir, "runs", "baseline", "predict_dev.json");

// The correctors' inputs: a guideline from the train split, a memory from the train split.
if (wanted("magic")) {
  await sqlmend(["eval", "baseline", "--bench", benchDir, "--split", "train", "--out", path.join(dir, "runs", "init-train"), "--limit", limit, "--checkpoints", "memory"]);
  await sqlmend(["magic", "guideline", "--bench", benchDir, "--initial", path.join(dir, "runs", "init-train", "predict_train.json"), "--out", path.join(dir, "runs", "magic-train"), "--limit", limit]);
}
if (wanted("memo-refine")) await sqlmend(["memo", "build", "--bench", benchDir, "--out", path.join(dir, "memory"), "--limit", limit]);

const correct = ["--initial", initial, "--correct", "all"];
if (wanted("repair")) await evalGraph("repair", correct);
if (wanted("magic")) await evalGraph("magic", [...correct, "--guideline", path.join(dir, "runs", "magic-train", "guideline.md")]);
if (wanted("r3-review")) await evalGraph("r3-review", correct);
if (wanted("memo-refine")) await evalGraph("memo-refine", [...correct, "--memory", path.join(dir, "memory")]);
if (wanted("ts-sql-refine")) await evalGraph("ts-sql-refine", correct);
for (const graph of ["self-debugging", "self-consistency", "multiple-prompt"]) if (wanted(graph)) await evalGraph(graph, correct);
const total = (performance.now() - started) / 1000;

const pad = (s: string, n: number) => s.padStart(n);
console.log(`\n${"graph".padEnd(14)} ${pad("EX", 5)} ${pad("errors", 6)} ${pad("calls/q", 8)} ${pad("requests/q", 10)} ${pad("in tok/q", 9)} ${pad("out tok/q", 9)} ${pad("wall s/q", 8)} ${pad("ckpt KB/q", 9)} ${pad("text KB/q", 9)} ${pad("ckpt/text", 9)}`);
for (const r of rows) {
  const cells = [`${(r.ex * 100).toFixed(0)}%`, String(r.errors), r.calls.toFixed(1), r.requests.toFixed(1), r.inputTokens.toFixed(0), r.outputTokens.toFixed(0), r.seconds.toFixed(2), (r.checkpointBytes / 1024).toFixed(1), (r.textChars / 1024).toFixed(1), r.textChars ? `${(r.checkpointBytes / r.textChars).toFixed(2)}x` : "-"];
  console.log(`${r.graph.padEnd(14)} ${[5, 6, 8, 10, 9, 9, 8, 9, 9, 9].map((w, i) => pad(cells[i]!, w)).join(" ")}`);
}
console.log(`\n(${rows[0]!.questions} questions each; total ${total.toFixed(0)} s. calls/q: the launcher's count (results.jsonl); requests/q: the`);
console.log(`server's, chat and embeddings; wall s/q: the eval's wall time / questions, ${values.concurrency} in flight; ckpt: the checkpoint file with its WAL;`);
console.log("text: the characters of the chat prompts and replies the server saw; ckpt/text: their ratio, target <= 2x)");
// Each paper's reported cost per question, beside ours (tokens = prompt + completion, per question, as results.jsonl
// counts them). Memo-SQL (Table 2, §5.1, A.7) reports generated tokens per query on CHESS-SDS with open models; TS-SQL
// (Table 6) prompt + completion per SQL; R³ and MAGIC report no token or call figures.
const PAPER_COST: Record<string, string> = {
  "ts-sql": "2,369 tokens per SQL (Table 6: test-case generation + self-refinement)",
  "ts-sql-refine": "2,369 tokens per SQL (Table 6, as a corrector in Table 5)",
  "memo-sql": "output: 7,925 (Qwen2.5-Coder-32B) / 16,563 (Llama-3.1-8B) generated tokens per query (Table 2): beside out tok/q",
  "memo-refine": "not reported (Table 2 is the whole pipeline: memo-sql)",
  r3: "not reported",
  "r3-review": "not reported",
  magic: "not reported (a guideline in under 2 hours, §3)",
  "self-consistency": "not reported (20 samples, MAGIC §4)",
  "multiple-prompt": "not reported (up to 20 prompts, MAGIC §4)",
};
const tok = (n: number) => Math.round(n).toLocaleString("en-US");
console.log(`\n${"graph".padEnd(16)} ${"calls/q".padStart(8)} ${"tokens/q".padStart(9)} ${"o200k/q".padStart(9)} ${"schema/q".padStart(9)} ${"out tok/q".padStart(9)}  paper's reported cost`);
for (const r of rows) {
  const total = r.inputTokens + r.outputTokens + r.savedInputTokens + r.savedOutputTokens;
  console.log(`${r.graph.padEnd(16)} ${r.calls.toFixed(1).padStart(8)} ${tok(total).padStart(9)} ${tok(r.o200k).padStart(9)} ${tok(r.o200kSchema).padStart(9)} ${tok(r.outputTokens + r.savedOutputTokens).padStart(9)}  ${PAPER_COST[r.graph] ?? "not reported"}`);
}
console.log("(tokens/q: prompt + completion of every call per question, those the response cache answered included (the paper pays");
console.log("them all), the server's usage (about 4 characters a token of messages, schemas and tool definitions); o200k/q: the");
console.log("requests the server received, counted with GPT-4o's tokenizer, schemas and tools included (schema/q: their part;");
console.log("cache-answered calls not in it); out tok/q: completion alone, beside Memo-SQL's generated tokens)");
const sc = rows.find((r) => r.graph === "self-consistency");
if (sc && samplerPromptTokens.length) {
  // One prompt's tokens as the server bills them (its usage: about 4 characters a token, schemas included).
  const onePrompt = samplerPromptTokens.reduce((a, b) => a + b, 0) / samplerPromptTokens.length;
  console.log(`self-consistency: ${tok(sc.inputTokens)} input tokens per question = ${(sc.inputTokens / onePrompt).toFixed(2)}x one sampler prompt (${tok(onePrompt)}); target <= 1.2x; ${sc.calls.toFixed(1)} requests/q`);
}
if (wanted("r3-review") && wanted("memo-refine")) {
  console.log("\n$ sqlmend compare runs/r3-review runs/memo-refine");
  console.log(await sqlmend(["compare", path.join(dir, "runs", "r3-review"), path.join(dir, "runs", "memo-refine")]));
}
if (agents.unrouted.length) console.log(`requests under no known role: ${agents.unrouted.length}`);
await server.close();
if (values.keep) console.log(`kept ${dir}`);
else fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
