/**
 * TS-SQL's tokens per SQL, whole pipeline and per role, beside the paper's Table 6 (2,369 tokens for one SQL: all of
 * test-case generation and self-refinement) and issue 32's target (at most 1.5× that, 3,553).
 *
 * `sqlmend eval ts-sql` at its defaults on minibench dev (and, with --spider DIR, on the first Spider dev questions),
 * through the launcher, against the local OpenAI-compatible server where the scripted agents of
 * test/support/method-agents.ts answer (the data agent writes 3–8 rows a table, as its prompt asks). Tokens are counted
 * as the paper counts them, prompt + completion of every call, two ways:
 * - `usage`: what the run records (results.jsonl's usageByRole), i.e. the server's usage report, which estimates
 *   a token as 4 characters of what a real server bills: the messages, the structured-output schema and the tool
 *   definitions (test/support/openai-server.ts);
 * - `o200k`: the same prompts (schemas and tools included) and replies as the server saw them, counted with GPT-4o's
 *   tokenizer (js-tiktoken's o200k_base, offline; bench/billed-tokens.ts); `schema` is the schemas' and tools' part
 *   of it. The paper does not say which tokenizer it used (its models are Gemini 1.5 Pro, GPT-4o and Claude 3.5
 *   Sonnet), nor whether its 2,369 counts schemas.
 *
 * Run: npx tsx bench/ts-sql-tokens.ts [--limit N] [--spider DIR] [--spider-limit N] [--graph ts-sql|ts-sql-refine] [--coders N] [--dump DIR]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import type { EvalRecord } from "../runner/run/results-record.ts";
import type { Question } from "../state/question.ts";
import { startOpenAIServer } from "../test/support/openai-server.ts";
import { agentsConfig, methodAgents } from "../test/support/method-agents.ts";
import { completionTokens, promptTokens } from "./billed-tokens.ts";

const PAPER_TOKENS = 2369;
const TARGET = Math.floor(PAPER_TOKENS * 1.5);

const { values } = parseArgs({
  options: {
    limit: { type: "string", default: "20" },
    spider: { type: "string" },
    "spider-limit": { type: "string", default: "20" },
    graph: { type: "string", default: "ts-sql" },
    /** Coders that vote (§3.1.3: three), as --coder-models agent/coder-1,... (the scripted coders all write the same code). */
    coders: { type: "string", default: "1" },
    /** Writes every prompt and reply the server saw to this folder, a file per request (to see where tokens go). */
    dump: { type: "string" },
  },
});
const graph = values.graph!;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-ts-sql-tokens-"));
const minibench = path.join(dir, "minibench");
await buildMinibench(minibench);
const benches: { name: string; dir: string; limit: string; questions: Question[] }[] = [
  { name: "minibench dev", dir: minibench, limit: values.limit!, questions: (await loadBenchmark(minibench, { split: "dev" })).questions },
];
if (values.spider) {
  const spider = path.resolve(values.spider);
  benches.push({ name: "spider dev", dir: spider, limit: values["spider-limit"]!, questions: (await loadBenchmark(spider, { split: "dev" })).questions });
}
const agents = methodAgents({ questions: benches.map((b) => b.questions) });
/** o200k tokens per role (prompt with its schema + completion), over the current eval; the schemas' part apart. */
let o200kByRole = new Map<string, number>();
let schemaByRole = new Map<string, number>();
let dumped = 0;
const roleOf = (model: string) => (model.startsWith("agent/") ? model.slice("agent/".length) : model);
const server = await startOpenAIServer({
  latencyMs: 0,
  respond: (req) => {
    const reply = agents.respond(req);
    const completion = "content" in reply ? reply.content : "toolCall" in reply ? reply.toolCall.arguments : "";
    const prompt = promptTokens(req);
    const tokens = prompt.messages + prompt.schema + completionTokens(reply);
    o200kByRole.set(roleOf(req.model), (o200kByRole.get(roleOf(req.model)) ?? 0) + tokens);
    schemaByRole.set(roleOf(req.model), (schemaByRole.get(roleOf(req.model)) ?? 0) + prompt.schema);
    if (values.dump) {
      fs.mkdirSync(values.dump, { recursive: true });
      const file = path.join(values.dump, `${String(++dumped).padStart(4, "0")}-${roleOf(req.model)}.txt`);
      fs.writeFileSync(file, `${req.messages.map((m) => `### ${m.role}\n${m.content}`).join("\n\n")}\n\n### reply\n${completion}\n`);
    }
    return reply;
  },
});
fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") };
delete env.OPENAI_BASE_URL;
delete env.SQLMEND_MODEL;

async function sqlmend(args: string[]): Promise<void> {
  const out: string[] = [];
  const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void out.push(t), env, cwd: dir, isTTY: false };
  const code = await main(args, io);
  if (code !== 0) throw new Error(`sqlmend ${args.join(" ")} exited ${code}:\n${out.join("")}`);
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2 : 0;
};
/** Roles in pipeline order; test-case generation is data + coder + selector (A.3–A.6), self-refinement the reviser. */
const ORDER = ["linker", "generator", "data", "coder", "selector", "reviser"];
const TEST_CASE = new Set(["data", "coder", "selector"]);

for (const bench of benches) {
  const out = path.join(dir, "runs", bench.name.replace(/\W+/g, "-"));
  const extra = graph === "ts-sql-refine" ? ["--correct", "all"] : [];
  if (graph === "ts-sql-refine") {
    await sqlmend(["eval", "baseline", "--bench", bench.dir, "--split", "dev", "--out", `${out}-baseline`, "--limit", bench.limit, "--checkpoints", "memory"]);
    extra.push("--initial", path.join(`${out}-baseline`, "predict_dev.json"));
  }
  const coders = Number(values.coders);
  if (coders > 1) extra.push("--coder-models", Array.from({ length: coders }, (_, i) => `agent/coder-${i + 1}`).join(","));
  // Counted from here: the corrector's own eval (not the baseline that wrote its initial SQL).
  o200kByRole = new Map();
  schemaByRole = new Map();
  const requestsBefore = server.requests.length;
  await sqlmend(["eval", graph, "--bench", bench.dir, "--split", "dev", "--out", out, "--limit", bench.limit, "--checkpoints", "memory", ...extra]);
  const records = fs
    .readFileSync(path.join(out, "results.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as EvalRecord & { outcome?: Record<string, unknown> });
  const n = records.length;
  const roles = new Map<string, { calls: number; tokens: number }>();
  for (const r of records) {
    for (const [role, t] of Object.entries(r.usageByRole)) {
      const acc = roles.get(role) ?? { calls: 0, tokens: 0 };
      roles.set(role, { calls: acc.calls + t.calls, tokens: acc.tokens + t.inputTokens + t.outputTokens });
    }
  }
  const whole = records.map((r) => r.inputTokens + r.outputTokens);
  const testCase = records.map((r) => Object.entries(r.usageByRole).reduce((s, [role, t]) => s + (TEST_CASE.has(role) ? t.inputTokens + t.outputTokens : 0), 0));
  const o200kTotal = [...o200kByRole.values()].reduce((a, b) => a + b, 0);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
  const rowsPerTable = records.flatMap((r) => {
    const o = r.outcome ?? {};
    return typeof o.testRows === "number" && typeof o.testTables === "number" && o.testTables ? [o.testRows / o.testTables] : [];
  });
  console.log(`\n${graph} on ${bench.name}, ${n} questions (scripted agents, local server, defaults)`);
  console.log(`${"role".padEnd(20)} ${"calls/q".padStart(8)} ${"tokens/q (usage)".padStart(17)} ${"tokens/q (o200k)".padStart(17)} ${"of which schema".padStart(16)}`);
  const known = [...ORDER.filter((r) => roles.has(r) || o200kByRole.has(r)), ...[...roles.keys()].filter((r) => !ORDER.includes(r)).sort()];
  for (const role of known) {
    const t = roles.get(role) ?? { calls: 0, tokens: 0 };
    console.log(`${role.padEnd(20)} ${(t.calls / n).toFixed(2).padStart(8)} ${fmt(t.tokens / n).padStart(17)} ${fmt((o200kByRole.get(role) ?? 0) / n).padStart(17)} ${fmt((schemaByRole.get(role) ?? 0) / n).padStart(16)}`);
  }
  const tcO200k = [...o200kByRole].reduce((s, [role, t]) => s + (TEST_CASE.has(role) ? t : 0), 0);
  console.log(`${"test case (data+coder+selector)".padEnd(20)} ${"".padStart(8)} ${fmt(mean(testCase)).padStart(17)} ${fmt(tcO200k / n).padStart(17)}`);
  const schemaTotal = [...schemaByRole.values()].reduce((a, b) => a + b, 0);
  console.log(`${"whole pipeline".padEnd(20)} ${(mean(records.map((r) => r.calls))).toFixed(2).padStart(8)} ${fmt(mean(whole)).padStart(17)} ${fmt(o200kTotal / n).padStart(17)} ${fmt(schemaTotal / n).padStart(16)}`);
  const chatCalls = mean(records.map((r) => r.calls - (r.usageByRole.embedder?.calls ?? 0)));
  console.log(`chat requests per question: ${chatCalls.toFixed(2)} counted by the run (calls less the embedder's), ${((server.requests.length - requestsBefore) / n).toFixed(2)} received by the server`);
  console.log(`whole pipeline per question (usage): median ${fmt(median(whole))}, min ${fmt(Math.min(...whole))}, max ${fmt(Math.max(...whole))}`);
  console.log(`paper (Table 6): ${fmt(PAPER_TOKENS)} per SQL; target <= 1.5x = ${fmt(TARGET)}; ours ${(mean(whole) / PAPER_TOKENS).toFixed(2)}x (usage), ${(o200kTotal / n / PAPER_TOKENS).toFixed(2)}x (o200k): ${mean(whole) <= TARGET && o200kTotal / n <= TARGET ? "within target" : "ABOVE target"}`);
  if (rowsPerTable.length) console.log(`test rows per table (the scripted data agent; the prompt asks 3 to 8): mean ${mean(rowsPerTable).toFixed(1)}, max ${Math.max(...rowsPerTable).toFixed(1)}`);
  // Tokens of calls the response cache answered are not in usageByRole: say so if there were any (none in a fresh run).
  const cached = records.reduce((k, r) => k + (r.cachedCalls ?? 0), 0);
  if (cached) console.log(`NOTE: ${cached} calls were answered by the response cache (${fmt(records.reduce((k, r) => k + (r.savedTokens ?? 0), 0) / n)} tokens/q not counted above)`);
  const tested = records.filter((r) => r.outcome?.tested === true).length;
  const skipped = new Map<string, string[]>();
  for (const r of records) if (r.outcome?.tested === false) skipped.set(String(r.outcome.skipped), [...(skipped.get(String(r.outcome.skipped)) ?? []), r.id]);
  const why = [...skipped].map(([reason, ids]) => `${reason}: ${ids.join(", ")}`).join("; ");
  console.log(`test case built for ${tested}/${n}${why ? ` (not built: ${why})` : ""}; EX ${((records.filter((r) => r.correct).length / n) * 100).toFixed(0)}% (EX measures the scripted agents, not the method)`);
}
await server.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
