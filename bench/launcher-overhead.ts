/**
 * The launcher's own overhead per graph step and per question, with an instant scripted model and checkpointing on
 * (SqliteSaver on a file). Overhead = wall time of a step minus the time spent inside its node.
 * Also weighs the checkpoint file against the text of the prompts and replies it records (each question once:
 * --questions 20 on minibench's dev split).
 * Run: npx tsx bench/launcher-overhead.ts [--questions N] [--checkpoints file|memory]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { baselineSpec } from "../graphs/baseline.ts";
import type { NodeFactory } from "../nodes/types.ts";
import { openCheckpointer } from "../storage/checkpoints.ts";
import { inputOf } from "../runner/question.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { scriptedProvider } from "../test/support/scripted-models.ts";

const { values } = parseArgs({ options: { questions: { type: "string", default: "200" }, checkpoints: { type: "string", default: "file" } } });
const total = Number(values.questions);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-"));
await buildMinibench(path.join(dir, "mb"));
const dev = (await loadBenchmark(path.join(dir, "mb"), { split: "dev" })).questions;
const gold = new Map(dev.map((q) => [q.question, q.goldSql!]));
// The text of every prompt and reply, to weigh the checkpoints against.
let promptAndReplyChars = 0;
const models = scriptedProvider({
  generator: ({ messages }) => {
    const reply = `\`\`\`sql\n${gold.get(/Question: (.*)/.exec(messages.at(-1)!.content)?.[1] ?? "") ?? "SELECT 1"}\n\`\`\``;
    promptAndReplyChars += messages.reduce((n, m) => n + m.content.length, 0) + reply.length;
    return reply;
  },
});
const executor = createExecutor();
const store = openCheckpointer(values.checkpoints === "memory" ? "memory" : path.join(dir, "ckpt.sqlite"), {}, dir);

// Time spent inside nodes, so the rest of each step is the framework's and the checkpointer's.
let nodeMs = 0;
const timed = (factory: NodeFactory): NodeFactory => (deps, options) => {
  const node = factory(deps, options);
  return async (state) => {
    const t = performance.now();
    try {
      return await node(state);
    } finally {
      nodeMs += performance.now() - t;
    }
  };
};
const slots = Object.fromEntries(Object.entries(baselineSpec.slots).map(([slot, s]) => [slot, timed(s.factory as NodeFactory)]));
const graph = baselineSpec.build({ models, executor }, { slots, checkpointer: store.saver });

const stepOverhead: number[] = [];
const questionOverhead: number[] = [];
const questionWall: number[] = [];
// This process's CPU time (nodes included, SQL workers not) is steadier than wall time on a shared machine.
let cpuAtWarm = process.cpuUsage();
let stepsAtWarm = 0;
for (let i = 0; i < total; i++) {
  if (i === Math.floor(total / 10)) {
    cpuAtWarm = process.cpuUsage();
    stepsAtWarm = stepOverhead.length;
  }
  const q = dev[i % dev.length]!;
  const config = { configurable: { thread_id: `bench-${i}` }, streamMode: "updates" as const };
  const started = performance.now();
  let last = started;
  let nodeAtLast = nodeMs;
  const nodeAtStart = nodeMs;
  for await (const _update of await graph.stream(inputOf(q, "baseline"), config)) {
    const now = performance.now();
    stepOverhead.push(now - last - (nodeMs - nodeAtLast));
    last = now;
    nodeAtLast = nodeMs;
  }
  const wall = performance.now() - started;
  questionWall.push(wall);
  questionOverhead.push(wall - (nodeMs - nodeAtStart));
}
const cpu = process.cpuUsage(cpuAtWarm);
const cpuPerStep = (cpu.user + cpu.system) / 1000 / Math.max(1, stepOverhead.length - stepsAtWarm);
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]!;
const warm = (xs: number[]) => xs.slice(Math.floor(xs.length / 10)); // first 10% warm the JIT and caches
// Everything in the WAL goes into the file first, so the file's size is what the run left on disk.
store.db?.pragma("wal_checkpoint(TRUNCATE)");
const ckptBytes = values.checkpoints === "memory" ? 0 : fs.statSync(path.join(dir, "ckpt.sqlite")).size + (fs.existsSync(path.join(dir, "ckpt.sqlite-wal")) ? fs.statSync(path.join(dir, "ckpt.sqlite-wal")).size : 0);
const hasTable = (name: string) => Boolean(store.db?.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(name));
const hasBlobs = hasTable("blobs");
const hasChunks = hasTable("chunks");
const contentBytes = store.db
  ? (store.db
      .prepare(
        `SELECT (SELECT coalesce(sum(length(checkpoint) + length(metadata)), 0) FROM checkpoints)
              + (SELECT coalesce(sum(length(value)), 0) FROM writes)
              ${hasBlobs ? "+ (SELECT coalesce(sum(length(value)), 0) FROM blobs)" : ""}
              ${hasChunks ? "+ (SELECT coalesce(sum(length(value)), 0) FROM chunks)" : ""}`,
      )
      .pluck()
      .get() as number)
  : 0;
console.log(`questions: ${total}, steps: ${stepOverhead.length} (checkpoints: ${store.location === "memory" ? "MemorySaver" : "SqliteSaver on a file"}, instant scripted model)`);
console.log(`overhead per step:     median ${q(warm(stepOverhead), 0.5).toFixed(3)} ms, p90 ${q(warm(stepOverhead), 0.9).toFixed(3)} ms   (target: median < 2 ms)`);
console.log(`process CPU per step:  ${cpuPerStep.toFixed(3)} ms (nodes included; less sensitive than wall time to other load on the machine)`);
console.log(`overhead per question: median ${q(warm(questionOverhead), 0.5).toFixed(2)} ms, p90 ${q(warm(questionOverhead), 0.9).toFixed(2)} ms`);
console.log(`wall per question:     median ${q(warm(questionWall), 0.5).toFixed(2)} ms (nodes included: SQL in child processes)`);
console.log(`checkpoint store: ${(ckptBytes / 1024).toFixed(0)} KiB, ${(ckptBytes / total / 1024).toFixed(1)} KiB per question`);
if (ckptBytes) {
  console.log(
    `prompts and replies: ${(promptAndReplyChars / 1024).toFixed(0)} KiB; checkpoint file / prompt+reply text: ${(ckptBytes / promptAndReplyChars).toFixed(2)}x ` +
      `(target <= 2x); values stored (checkpoints, writes, ${hasChunks ? "chunks" : "blobs"}): ${(contentBytes / 1024).toFixed(0)} KiB = ${(contentBytes / promptAndReplyChars).toFixed(2)}x`,
  );
  if (total > dev.length) {
    console.log(`  note: ${total} runs of ${dev.length} distinct questions; repeated prompts are stored once, so use --questions ${dev.length} for the per-question ratio`);
  }
}
if (store.db) {
  const bytes = (sql: string) => ((store.db!.prepare(sql).pluck().get() as number | null) ?? 0) / 1024;
  console.log(
    `  of which checkpoints ${bytes("SELECT sum(length(checkpoint) + length(metadata)) FROM checkpoints").toFixed(0)} KiB (${bytes("SELECT count(*) * 1024 FROM checkpoints").toFixed(0)} rows), ` +
      `writes ${bytes("SELECT sum(length(value)) FROM writes").toFixed(0)} KiB (${bytes("SELECT count(*) * 1024 FROM writes").toFixed(0)} rows)` +
      (hasBlobs ? `, blobs ${bytes("SELECT sum(length(value)) FROM blobs").toFixed(0)} KiB (${bytes("SELECT count(*) * 1024 FROM blobs").toFixed(0)} rows)` : "") +
      (hasChunks
        ? `, chunks ${bytes("SELECT sum(length(value)) FROM chunks WHERE hash != 0").toFixed(0)} KiB (${bytes("SELECT count(*) * 1024 FROM chunks WHERE hash != 0").toFixed(0)} rows)` +
          ` and frames ${bytes("SELECT sum(length(value)) FROM chunks WHERE hash = 0").toFixed(0)} KiB (${bytes("SELECT count(*) * 1024 FROM chunks WHERE hash = 0").toFixed(0)} rows)`
        : ""),
  );
  // Where the file's pages go: each table and index, its payload and its free space.
  const pages = store.db.prepare("SELECT name, count(*) AS pages, sum(payload) AS payload, sum(unused) AS unused FROM dbstat GROUP BY name ORDER BY pages DESC").all() as { name: string; pages: number; payload: number; unused: number }[];
  const pageSize = store.db.pragma("page_size", { simple: true }) as number;
  console.log(`  pages of ${pageSize} bytes: ${pages.map((p) => `${p.name} ${p.pages} (payload ${(p.payload / 1024).toFixed(0)} KiB, unused ${(p.unused / 1024).toFixed(0)} KiB)`).join(", ")}`);
  if (process.env.SQLMEND_BENCH_KEEP) fs.copyFileSync(path.join(dir, "ckpt.sqlite"), process.env.SQLMEND_BENCH_KEEP);
}
console.log(`rss: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`);
store.close();
await executor.close();
fs.rmSync(dir, { recursive: true, force: true });
