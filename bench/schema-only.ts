/**
 * Every method with a schema-following model: each structured request (linker, persona, decomposer, reflector,
 * critic, TS-SQL's data agent) answered from its JSON schema alone, as constrained decoding would
 * (test/support/schema-replies.ts), beside the scripted agents answering all of them (test/support/method-agents.ts).
 * Other requests (SQL writers, reviewers, coders) are the scripted agents' in both columns. Per graph: EX, tokens
 * (prompt + completion, the server's 4-characters-a-token estimate) per question, re-asks after a reply the validator
 * refused (0 when the schemas say everything the validator checks), and for TS-SQL the share of questions with a
 * test case and the key repairs and no-answer data turns it needed. MAGIC (`magic`) corrects the baseline's predictions
 * with a guideline `magic guideline` built on the first --train-limit train questions (both on each side's server);
 * its corrector makes no structured request (only its no-manager ablation's judge does), so its columns differ only
 * by what the linker-free baseline and guideline saw: none.
 *
 * Run: npx tsx bench/schema-only.ts [--spider DIR] [--limit N] [--graphs magic,r3,memo-sql,ts-sql] [--seed S]
 * [--content random|fit] [--train-limit N]   (without --spider: minibench dev.)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import type { EvalRecord } from "../runner/run/results-record.ts";
import { type OpenAIServer, startOpenAIServer } from "../test/support/openai-server.ts";
import { agentsConfig, methodAgents } from "../test/support/method-agents.ts";

const { values } = parseArgs({
  options: {
    spider: { type: "string" },
    limit: { type: "string", default: "40" },
    graphs: { type: "string", default: "magic,r3,memo-sql,ts-sql" },
    "train-limit": { type: "string", default: "10" },
    seed: { type: "string", default: "1" },
    /** random: every structured value drawn from its schema; fit: the scripted agents' reply kept where the schema takes it. */
    content: { type: "string", default: "random" },
  },
});
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-schema-only-"));
let benchDir: string;
if (values.spider) benchDir = path.resolve(values.spider);
else await buildMinibench((benchDir = path.join(dir, "minibench")));
const dev = (await loadBenchmark(benchDir, { split: "dev" })).questions;
const train = values.graphs!.includes("magic") ? (await loadBenchmark(benchDir, { split: "train" })).questions : [];

async function serve(schemaOnly: boolean): Promise<{ server: OpenAIServer; home: string }> {
  const agents = methodAgents({ questions: [dev, train] });
  const server = await startOpenAIServer({
    respond: agents.respond,
    ...(schemaOnly ? { schemaOnly: { seed: Number(values.seed), content: values.content as "random" | "fit", onReply: agents.onSchemaReply } } : {}),
  });
  const home = path.join(dir, schemaOnly ? "schema-only" : "scripted");
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(home, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
  return { server, home };
}

/** `sqlmend ARGS` in-process in `home` (its sqlmend.config.json points at that side's server). */
async function sqlmend(home: string, args: string[]): Promise<void> {
  const printed: string[] = [];
  const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(home, "data") };
  delete env.OPENAI_BASE_URL;
  delete env.SQLMEND_MODEL;
  const io = { stdout: (t: string) => void printed.push(t), stderr: (t: string) => void printed.push(t), env, cwd: home, isTTY: false };
  const code = await main(args, io);
  if (code !== 0 && code !== 3) throw new Error(`${args.slice(0, 2).join(" ")} exited ${code}:\n${printed.join("")}`);
}

/** MAGIC's inputs on one side: the baseline's dev predictions, and a guideline from the first train questions. */
async function magicInputs(home: string): Promise<string[]> {
  const runs = path.join(home, "runs");
  const common = ["--bench", benchDir, "--checkpoints", "memory", "--cache", "off"];
  await sqlmend(home, ["eval", "baseline", ...common, "--split", "train", "--limit", values["train-limit"]!, "--out", path.join(runs, "init-train")]);
  await sqlmend(home, ["magic", "guideline", "--bench", benchDir, "--cache", "off", "--initial", path.join(runs, "init-train", "predict_train.json"), "--out", path.join(runs, "magic-train"), "--limit", values["train-limit"]!]);
  await sqlmend(home, ["eval", "baseline", ...common, "--split", "dev", "--limit", values.limit!, "--concurrency", "4", "--out", path.join(runs, "baseline")]);
  return ["--initial", path.join(runs, "baseline", "predict_dev.json"), "--correct", "all", "--guideline", path.join(runs, "magic-train", "guideline.md")];
}

async function evalGraph(graph: string, server: OpenAIServer, home: string) {
  const out = path.join(home, "runs", graph);
  const extra = graph === "magic" ? await magicInputs(home) : [];
  const before = server.requests.length;
  await sqlmend(home, ["eval", graph, "--bench", benchDir, "--split", "dev", "--out", out, "--limit", values.limit!, "--checkpoints", "memory", "--cache", "off", "--concurrency", "4", ...extra]);
  const records = fs
    .readFileSync(path.join(out, "results.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as EvalRecord & { outcome?: Record<string, unknown> });
  const n = records.length || 1;
  const requests = server.requests.slice(before);
  return {
    ex: (records.filter((r) => r.correct).length / n) * 100,
    tokens: records.reduce((s, r) => s + r.inputTokens + r.outputTokens, 0) / n,
    reasks: requests.filter((r) => r.messages.at(-1)?.content.startsWith("That reply was not usable")).length,
    fromSchema: requests.filter((r) => r.fromSchema).length,
    failed: records.filter((r) => r.error).length,
    tested: graph.startsWith("ts-sql") ? `${records.filter((r) => r.outcome?.tested === true).length}/${records.length}` : "",
    n: records.length,
    repaired: records.filter((r) => ["keysRenumbered", "danglingKeysRemapped", "repeatedKeyRowsDropped"].some((k) => Number(r.outcome?.[k] ?? 0) > 0)).length,
    noAnswerTurns: records.reduce((n, r) => n + Number(r.outcome?.noAnswerDataTurns ?? 0), 0),
    skipped: [...records.reduce((m, r) => (r.outcome?.tested === false ? m.set(String(r.outcome.skipped), (m.get(String(r.outcome.skipped)) ?? 0) + 1) : m), new Map<string, number>())].map(([why, k]) => `${k} ${why}`).join(", "),
  };
}

const scripted = await serve(false);
const standIn = await serve(true);
console.log(`${values.spider ? "Spider" : "minibench"} dev, first ${values.limit} questions; schema-only seed ${values.seed}, content ${values.content}`);
console.log(`${"graph".padEnd(10)} ${"EX scripted".padStart(12)} ${"EX schema".padStart(10)} ${"tok/q scripted".padStart(15)} ${"tok/q schema".padStart(13)} ${"from schema".padStart(12)} ${"re-asks".padStart(8)} ${"failed".padStart(7)} ${"test case".padStart(10)}`);
for (const graph of values.graphs!.split(",").map((g) => g.trim())) {
  const a = await evalGraph(graph, scripted.server, scripted.home);
  const b = await evalGraph(graph, standIn.server, standIn.home);
  const tc = graph.startsWith("ts-sql") ? `${a.tested} | ${b.tested}` : "";
  console.log(
    `${graph.padEnd(10)} ${a.ex.toFixed(1).padStart(12)} ${b.ex.toFixed(1).padStart(10)} ${Math.round(a.tokens).toLocaleString("en-US").padStart(15)} ${Math.round(b.tokens).toLocaleString("en-US").padStart(13)} ${String(b.fromSchema).padStart(12)} ${`${a.reasks}|${b.reasks}`.padStart(8)} ${`${a.failed}|${b.failed}`.padStart(7)} ${tc.padStart(10)}`,
  );
  if (graph.startsWith("ts-sql")) {
    console.log(`  ${graph}: keys repaired in ${a.repaired} | ${b.repaired} questions' test data; data turns for rows without an answer ${a.noAnswerTurns} | ${b.noAnswerTurns} (scripted | stand-in)`);
  }
  if (b.skipped) console.log(`  ${graph} with the stand-in, no test case: ${b.skipped}`);
}
await scripted.server.close();
await standIn.server.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
