/**
 * Memo-SQL's calls per question on minibench with the scripted agents (test/support/method-agents.ts behind the local
 * OpenAI-compatible server), through the launcher: `eval memo-sql` with the default structured decompositions and
 * with `--decomposition random`. Prints calls per question by role, EX and the outcome's path figures
 * (distinctDecompositions, collapsedPaths). The scripted decomposer gives every paradigm the same plan, so this
 * shows what identical paths cost (issue 28, points 10–11).
 *
 * Run: npx tsx bench/memo-paths.ts [--limit 20]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import type { EvalRecord } from "../runner/run/results-record.ts";
import { startOpenAIServer } from "../test/support/openai-server.ts";
import { agentsConfig, methodAgents } from "../test/support/method-agents.ts";

const { values } = parseArgs({ options: { limit: { type: "string", default: "20" } } });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-memo-paths-"));
const benchDir = path.join(dir, "minibench");
await buildMinibench(benchDir);
const dev = (await loadBenchmark(benchDir, { split: "dev" })).questions;
const train = (await loadBenchmark(benchDir, { split: "train" })).questions;
const agents = methodAgents({ questions: [dev, train] });
const server = await startOpenAIServer({ latencyMs: 0, respond: (req) => agents.respond(req) });
fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") };
delete env.OPENAI_BASE_URL;
delete env.SQLMEND_MODEL;

async function evalMemo(label: string, extra: string[]): Promise<void> {
  const requestsBefore = server.requests.length;
  const out = path.join(dir, "runs", label);
  const said: string[] = [];
  const io = { stdout: (t: string) => void said.push(t), stderr: (t: string) => void said.push(t), env, cwd: dir, isTTY: false };
  // No response cache: every call reaches the server (the count is the same either way; the server's work is not).
  const code = await main(["eval", "memo-sql", "--bench", benchDir, "--out", out, "--limit", values.limit!, "--checkpoints", "memory", "--cache", "off", ...extra], io);
  if (code !== 0) throw new Error(`eval memo-sql ${extra.join(" ")} exited ${code}:\n${said.join("")}`);
  const records = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as EvalRecord);
  const n = records.length;
  const requests = server.requests.length - requestsBefore;
  const mean = (f: (r: EvalRecord) => number) => (records.reduce((a, r) => a + f(r), 0) / n).toFixed(1);
  const roles = [...new Set(records.flatMap((r) => Object.keys(r.usageByRole ?? {})))].sort();
  const byRole = roles.map((role) => `${role} ${mean((r) => r.usageByRole?.[role]?.calls ?? 0)}`).join(", ");
  const outcome = (key: string) => mean((r) => Number(r.outcome?.[key] ?? 0));
  console.log(
    `${label.padEnd(22)} ${n} questions, EX ${mean((r) => (r.correct ? 100 : 0))}%: calls/question ${mean((r) => r.calls)} (${byRole}), server requests/question ${(requests / n).toFixed(1)}; ` +
      `distinctDecompositions ${outcome("distinctDecompositions")}, collapsedPaths ${outcome("collapsedPaths")}`,
  );
}

console.log(`eval memo-sql on minibench dev, --limit ${values.limit}, scripted agents (calls per question, means)`);
await evalMemo("structured (default)", []);
await evalMemo("--decomposition random", ["--decomposition", "random"]);
await server.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
