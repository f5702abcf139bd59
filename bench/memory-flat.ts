/**
 * Memory flat with the work (issue 42, target 7): `node bin/sqlmend.js eval baseline` over Spider train with the
 * chunked checkpointer (a checkpoint file), against a local OpenAI-compatible server in this process where the
 * scripted agents of test/support/method-agents.ts answer (no latency). Prints
 * - the retained heap of the sqlmend process (after two full GCs: bench/memory-probe.mjs, preloaded, on a signal)
 *   when the 600th and the 3,000th question start, and their difference (target: within 5 MB): what finished
 *   questions leave behind;
 * - the peak RSS of sqlmend's process tree (the launcher and its SQL workers; the server and agents are here, apart),
 *   sampled from /proc (bench/peak-rss.ts), over the questions run (target for all 6,904 Spider train questions:
 *   <= 300 MB), and the tree's CPU a question (sampled the same way: what memory is saved must not cost speed).
 * sqlmend runs as bin/sqlmend.js chooses (dist/ when built and fresh, else the sources through tsx): the line says which.
 *
 * Run: npx tsx bench/memory-flat.ts --spider DIR [--limit N (default: all)] [--marks 600,3000] [--concurrency K]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { runSampled } from "./peak-rss.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { startOpenAIServer } from "../test/support/openai-server.ts";
import { agentsConfig, methodAgents } from "../test/support/method-agents.ts";
import { distIsFresh } from "../bin/freshness.js";

const { values } = parseArgs({
  options: {
    spider: { type: "string" },
    limit: { type: "string" },
    marks: { type: "string", default: "600,3000" },
    concurrency: { type: "string", default: "4" },
  },
});

const MB = 1024 * 1024;
const RETAINED_TARGET_MB = 5;
const PEAK_TARGET_MB = 300;
const SPIDER_TRAIN = 6_904;

const spider = values.spider ? path.resolve(values.spider) : undefined;
if (!spider || !fs.existsSync(path.join(spider, "train_spider.json"))) {
  console.error(`bench/memory-flat.ts: no Spider train split ${spider ? `in ${spider} (train_spider.json missing)` : "given"}: pass --spider DIR`);
  process.exit(2);
}
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-memory-flat-"));
const probeFile = path.join(dir, "heap.txt");
fs.writeFileSync(probeFile, "");
const marks = values.marks!.split(",").map(Number);
const train = (await loadBenchmark(spider, { split: "train" })).questions;
const agents = methodAgents({ questions: [train] });

let pid: number | undefined;
let started = 0;
const heapAt = new Map<number, number>();
const codeAt = new Map<number, number>();
/** Asks the sqlmend process for its retained heap and waits for the answer (the question waits with it). */
async function probe(mark: number): Promise<void> {
  const before = fs.readFileSync(probeFile, "utf8").split("\n").filter(Boolean).length;
  process.kill(pid!, "SIGUSR2");
  for (let waited = 0; waited < 30_000; waited += 50) {
    const lines = fs.readFileSync(probeFile, "utf8").split("\n").filter(Boolean);
    if (lines.length > before) {
      const [heap, code] = lines.at(-1)!.split(" ").map(Number) as [number, number];
      heapAt.set(mark, heap / MB);
      codeAt.set(mark, code / MB);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const server = await startOpenAIServer({
  respond: async (req) => {
    // The server's log would grow with the run (it is this process's, not measured, but kept small all the same).
    server.requests.length = 0;
    if (req.model === "agent/generator" && marks.includes(++started) && pid !== undefined) await probe(started);
    return agents.respond(req);
  },
});
try {
  fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url, embeddingModel: undefined })));
  const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home"), SQLMEND_CACHE: "off", MEMORY_PROBE_FILE: probeFile };
  delete env.OPENAI_BASE_URL;
  delete env.SQLMEND_MODEL;
  const limit = values.limit ? ["--limit", values.limit] : [];
  const args = ["--expose-gc", "--import", path.join(root, "bench", "memory-probe.mjs"), path.join(root, "bin", "sqlmend.js"), "eval", "baseline", "--bench", spider, "--split", "train", "--out", path.join(dir, "run"), "--checkpoints", path.join(dir, "checkpoints.sqlite"), "--concurrency", values.concurrency!, ...limit];
  // How bin/sqlmend.js will run it, decided as it starts.
  const how = distIsFresh(root) ? "dist/" : "the sources through tsx (no fresh dist/)";
  const run = await runSampled(process.execPath, args, { cwd: dir, env, onSpawn: (p) => (pid = p) });
  if (run.code !== 0 && run.code !== 3) {
    console.error(`sqlmend eval failed (exit ${run.code}):\n${run.stderr.slice(-2000)}`);
    process.exit(1);
  }
  const questions = fs.readFileSync(path.join(dir, "run", "results.jsonl"), "utf8").split("\n").filter(Boolean).length;
  console.log(`node bin/sqlmend.js eval baseline on Spider train: ${questions} questions, --concurrency ${values.concurrency}, chunked checkpoint file, scripted agents (no latency); sqlmend ran ${how}`);
  for (const [mark, mb] of heapAt) console.log(`retained heap when question ${mark} starts: ${mb.toFixed(1)} MB (of it compiled code ${codeAt.get(mark)!.toFixed(1)} MB)`);
  const [first, last] = marks as [number, number];
  if (heapAt.has(first) && heapAt.has(last)) {
    const growth = heapAt.get(last)! - heapAt.get(first)!;
    const codeGrowth = codeAt.get(last)! - codeAt.get(first)!;
    console.log(`retained heap ${last} vs ${first} questions: ${growth >= 0 ? "+" : ""}${growth.toFixed(1)} MB (target within ${RETAINED_TARGET_MB} MB): ${Math.abs(growth) <= RETAINED_TARGET_MB ? "within target" : "ABOVE target"}; of it compiled code ${codeGrowth >= 0 ? "+" : ""}${codeGrowth.toFixed(1)} MB (V8's JIT, not data), data ${growth - codeGrowth >= 0 ? "+" : ""}${(growth - codeGrowth).toFixed(1)} MB`);
  } else console.log(`retained heap: the run did not reach question ${heapAt.has(first) ? last : first} (pass --limit >= ${last})`);
  console.log(
    `peak RSS of sqlmend's process tree: ${run.peakMb.toFixed(0)} MB over ${questions} questions (target for all ${SPIDER_TRAIN.toLocaleString("en-US")} Spider train questions <= ${PEAK_TARGET_MB} MB): ` +
      `${run.peakMb <= PEAK_TARGET_MB ? "within target" : "ABOVE target"}${questions >= SPIDER_TRAIN ? "" : " (not the whole split: --limit)"}; processes ${run.processesMb.slice(0, 5).join(", ")} MB; ${(run.ms / 1000).toFixed(0)} s, CPU of the tree ${(run.cpuMs / 1000).toFixed(1)} s (${(run.cpuMs / questions).toFixed(2)} ms a question)`,
  );
  if (run.atPeak) {
    console.log(
      `near that peak: the tree's proportional set size ${run.atPeak.pssMb.toFixed(0)} MB (a page mapped by several processes, the node binary's above all, divided among them: this bench's own process and its model server hold shares too), of it anonymous memory (each process's own heaps) ${run.atPeak.anonymousMb.toFixed(0)} MB`,
    );
  }
} finally {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
