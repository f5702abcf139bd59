/**
 * One benchmark three ways, against a local OpenAI-compatible server answering in --latency-ms: one `eval` process;
 * `--shard I/4` in four processes at once, then `sqlmend merge`; and the same eval through a LangGraph dev server
 * (`eval --server`). Prints the wall time of each and checks the three give the same verdicts.
 *
 * Run: npx tsx bench/distributed.ts [--questions 200] [--latency-ms 100] [--concurrency 4] [--shards 4]
 * (minibench's dev questions repeated under new ids; everything on 127.0.0.1).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { startOpenAIServer, TEST_MODEL_ID } from "../test/support/openai-server.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({ options: { questions: { type: "string", default: "200" }, "latency-ms": { type: "string", default: "100" }, concurrency: { type: "string", default: "4" }, shards: { type: "string", default: "4" } } });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-distributed-"));
const benchDir = path.join(dir, "mb");
await buildMinibench(benchDir);
const devJson = JSON.parse(fs.readFileSync(path.join(benchDir, "dev.json"), "utf8")) as Record<string, unknown>[];
const n = Number(values.questions);
fs.writeFileSync(path.join(benchDir, "dev.json"), JSON.stringify(Array.from({ length: n }, (_, i) => ({ ...devJson[i % devJson.length], question_id: i, question: `${devJson[i % devJson.length]!.question} (#${i})` }))));
const questions = (await loadBenchmark(benchDir, { split: "dev" })).questions;
const byText = new Map(questions.map((q) => [q.question, q]));
const models = await startOpenAIServer({
  latencyMs: Number(values["latency-ms"]),
  respond: (req) => {
    const text = /Question: (.*)/.exec(req.messages.at(-1)?.content ?? "")?.[1]?.trim() ?? "";
    return { content: `\`\`\`sql\n${byText.get(text)?.goldSql ?? "SELECT 1"}\n\`\`\``, usage: { prompt_tokens: 300, completion_tokens: 20 } };
  },
});
const env = { ...process.env, OPENAI_BASE_URL: models.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") };
const sqlmend = (args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin", "sqlmend.js"), ...args], { cwd: dir, env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`sqlmend ${args.join(" ")} exited ${code}: ${err.slice(-500)}`))));
  });
const common = ["eval", "baseline", "--bench", benchDir, "--max-fix-rounds", "0", "--checkpoints", "memory", "--concurrency", values.concurrency!];
const verdicts = (out: string) => fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).map((r) => `${r.id}:${r.correct}`).sort().join(",");
const time = async (label: string, work: () => Promise<void>) => {
  const started = performance.now();
  await work();
  const s = (performance.now() - started) / 1000;
  console.log(`${label.padEnd(44)} ${s.toFixed(1)} s`);
  return s;
};

console.log(`${n} questions, model latency ${values["latency-ms"]} ms, concurrency ${values.concurrency} per process, ${os.cpus().length} cores`);
await time("one process", () => sqlmend([...common, "--out", path.join(dir, "single")]));
const shards = Number(values.shards);
const shardDirs = Array.from({ length: shards }, (_, i) => path.join(dir, `shard-${i + 1}`));
await time(`${shards} shards at once, then merge`, async () => {
  await Promise.all(shardDirs.map((out, i) => sqlmend([...common, "--out", out, "--shard", `${i + 1}/${shards}`])));
  await sqlmend(["merge", ...shardDirs, "--out", path.join(dir, "merged")]);
});

const port = await new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, "127.0.0.1", () => {
    const { port } = s.address() as net.AddressInfo;
    s.close(() => resolve(port));
  });
});
const server: ChildProcess = spawn(process.execPath, [path.join(ROOT, "node_modules", "@langchain", "langgraph-cli", "dist", "cli", "cli.mjs"), "dev", "--port", String(port), "--host", "127.0.0.1", "--no-browser", "--no-reload", "--config", path.join(ROOT, "langgraph.json")], { cwd: ROOT, env, stdio: "ignore" });
try {
  const deadline = Date.now() + 120_000;
  while (!(await fetch(`http://127.0.0.1:${port}/ok`).then((r) => r.ok).catch(() => false))) {
    if (Date.now() > deadline) throw new Error("the LangGraph dev server did not start");
    await new Promise((r) => setTimeout(r, 250));
  }
  await time("through the LangGraph dev server", () => sqlmend([...common, "--out", path.join(dir, "served"), "--server", `http://127.0.0.1:${port}`]));
} finally {
  server.kill("SIGTERM");
}
const same = [verdicts(path.join(dir, "merged")), verdicts(path.join(dir, "served"))].every((v) => v === verdicts(path.join(dir, "single")));
console.log(`same verdicts in all three: ${same ? "yes" : "NO"}`);
await models.close();
fs.rmSync(dir, { recursive: true, force: true });
if (!same) process.exit(1);
