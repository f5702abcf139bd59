/**
 * `sqlmend view` at scale: a synthetic 10,000-question run with its checkpoints, served by `sqlmend view` in its own
 * process. Prints the time to the run page and to a filtered list (over HTTP, and in Chromium when /usr/bin/chromium
 * is there: until the table shows), a question page, the server's peak resident memory (VmHWM) and the export's size.
 * Targets: run page and filtered list ≤ 1 s each, peak memory ≤ 300 MB.
 *
 * The run is made fast: a real `eval baseline` of minibench's 20 dev questions (a local scripted server; some
 * answers wrong), then each question's record and checkpointed thread copied under new ids up to N (results.jsonl,
 * run.json's question hashes, the checkpoint rows: the chunked saver shares their content), over a dev split of N
 * questions made from minibench's repeated, so gold SQL and databases are real.
 *
 * Run: npx tsx bench/view.ts [--questions N]
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { questionHash } from "../runner/run/run-json.ts";
import { startOpenAIServer, TEST_MODEL_ID } from "../test/support/openai-server.ts";

const { values } = parseArgs({ options: { questions: { type: "string", default: "10000" } } });
const N = Number(values.questions);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-view-"));
const benchDir = path.join(dir, "mb");
await buildMinibench(benchDir);
const devJson = JSON.parse(fs.readFileSync(path.join(benchDir, "dev.json"), "utf8")) as Record<string, unknown>[];
const base = devJson.length;
fs.writeFileSync(path.join(benchDir, "dev.json"), JSON.stringify(Array.from({ length: N }, (_, i) => ({ ...devJson[i % base], question_id: i, question: `${devJson[i % base]!.question as string} (#${i})` }))));
const bench = await loadBenchmark(benchDir, { split: "dev" });

// 1. A real eval of the first `base` questions: every third answered wrong.
const byQuestion = new Map(bench.questions.slice(0, base).map((q, i) => [q.question, i % 3 === 2 ? "SELECT 1" : q.goldSql!]));
const server = await startOpenAIServer({
  respond: (req) => {
    const question = /Question: (.*)/.exec(req.messages.at(-1)!.content)?.[1]?.trim() ?? "";
    return { content: `\`\`\`sql\n${byQuestion.get(question) ?? "SELECT 1"}\n\`\`\`` };
  },
});
const out = path.join(dir, "run");
const checkpoints = path.join(out, "checkpoints.sqlite");
const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") };
const ids = bench.questions.slice(0, base).map((q) => q.id).join(",");
const code = await main(["eval", "baseline", "--bench", benchDir, "--out", out, "--ids", ids, "--checkpoints", checkpoints, "--cache", "off", "--max-fix-rounds", "1"], { stdout: () => {}, stderr: () => {}, env, cwd: dir, isTTY: false });
await server.close();
if (code !== 0) throw new Error(`eval exited ${code}`);

// 2. Copies up to N: records, threads, hashes.
const started = performance.now();
const records = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
const byId = new Map(records.map((r) => [r.id as string, r]));
const db = new Database(checkpoints);
const copyCheckpoints = db.prepare("INSERT INTO checkpoints SELECT ? , checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata FROM checkpoints WHERE thread_id = ?");
const copyWrites = db.prepare("INSERT INTO writes SELECT ?, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value FROM writes WHERE thread_id = ?");
const lines: string[] = [];
db.transaction(() => {
  for (let i = 0; i < N; i++) {
    const q = bench.questions[i]!;
    const original = byId.get(bench.questions[i % base]!.id)!;
    const thread = i < base ? (original.thread as string) : `${original.thread as string}~${i}`;
    if (i >= base) {
      copyCheckpoints.run(thread, original.thread);
      copyWrites.run(thread, original.thread);
    }
    // Spread cost and latency so sorting has work; every 97th question failed.
    const failed = i % 97 === 50;
    lines.push(JSON.stringify({ ...original, id: q.id, question: q.question, thread, inputTokens: 500 + ((i * 37) % 900), latencyMs: 300 + ((i * 53) % 4000), ...(failed ? { failure: "a model call got no reply after the client's retries", correct: false } : {}) }));
  }
})();
db.close();
fs.writeFileSync(path.join(out, "results.jsonl"), `${lines.join("\n")}\n`);
const runJson = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8")) as Record<string, unknown>;
runJson.questionHashes = Object.fromEntries(bench.questions.map((q) => [q.id, questionHash(q)]));
fs.writeFileSync(path.join(out, "run.json"), JSON.stringify(runJson, null, 2));
console.log(`a run of ${N} questions with their checkpoints (${(fs.statSync(checkpoints).size / 2 ** 20).toFixed(1)} MiB) made in ${((performance.now() - started) / 1000).toFixed(1)} s`);

// 3. The server in its own process.
const child = spawn(process.execPath, [path.join(root, "bin", "sqlmend.js"), "view", out, "--port", "0"], { env: { ...process.env, SQLMEND_HOME: path.join(dir, "home") }, stdio: ["ignore", "pipe", "inherit"] });
const startedServer = performance.now();
const url = await new Promise<string>((resolve, reject) => {
  let text = "";
  child.stdout.on("data", (b: Buffer) => {
    text += b.toString();
    const m = /at (http:\/\/\S+)/.exec(text);
    if (m) resolve(m[1]!);
  });
  child.once("exit", (c) => reject(new Error(`sqlmend view exited ${c}: ${text}`)));
});
console.log(`server ready (run read, its page and charts drawn) in ${((performance.now() - startedServer) / 1000).toFixed(2)} s`);
const peakMb = () => {
  const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
};
async function timed(label: string, target: string) {
  const t = performance.now();
  const res = await fetch(target);
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${target}: ${res.status}`);
  console.log(`${label}: ${(performance.now() - t).toFixed(0)} ms over HTTP (${(body.length / 2 ** 20).toFixed(2)} MiB)`);
}
await timed("run page, first request", `${url}run/0`);
await timed("run page, again", `${url}run/0`);
await timed(`question page (${bench.questions[2]!.id}: thread, gold, 3 results)`, `${url}run/0/q/${bench.questions[2]!.id}`);
await timed(`question page of a copied thread (${bench.questions[N - 1]!.id})`, `${url}run/0/q/${bench.questions[N - 1]!.id}`);

if (fs.existsSync("/usr/bin/chromium")) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  let t = performance.now();
  await page.goto(`${url}run/0`, { waitUntil: "commit" });
  await page.waitForSelector("#table-0[data-ready]");
  const nav = await page.evaluate<{ response: number; interactive: number; load: number }>(`(() => { const n = performance.getEntriesByType("navigation")[0]; return { response: n.responseEnd, interactive: n.domInteractive, load: n.loadEventEnd }; })()`);
  console.log(`Chromium: run page with its table of ${await page.locator("#table-0 .count").textContent()}: ${(performance.now() - t).toFixed(0)} ms (page received at ${nav.response.toFixed(0)} ms, table built by ${nav.interactive.toFixed(0)} ms, load event done at ${nav.load.toFixed(0)} ms)`);
  // Again in the same tab (the browser's renderer already up, as when a user follows a link).
  t = performance.now();
  await page.goto(`${url}run/0?reload=1`, { waitUntil: "commit" });
  await page.waitForSelector("#table-0[data-ready]");
  console.log(`Chromium: the run page again in the same tab: ${(performance.now() - t).toFixed(0)} ms`);
  t = performance.now();
  await page.selectOption("#table-0 select[name=v]", "wrong");
  await page.waitForFunction(`[...document.querySelectorAll("#table-0 tbody tr")].every((r) => r.getAttribute("data-verdict") === "wrong")`);
  console.log(`Chromium: filtered to wrong (${await page.locator("#table-0 .count").textContent()}): ${(performance.now() - t).toFixed(0)} ms`);
  const before = await page.locator("#table-0 .count").textContent();
  t = performance.now();
  await page.fill("#table-0 input[name=text]", "GPA");  // on top of the verdict filter
  await page.selectOption("#table-0 select[name=sort]", "latency");
  await page.waitForFunction(`document.querySelector("#table-0 .count").textContent !== ${JSON.stringify(before)}`);
  console.log(`Chromium: + text 'GPA', sorted by latency (${await page.locator("#table-0 .count").textContent()}): ${(performance.now() - t).toFixed(0)} ms`);
  await browser.close();
} else console.log("Chromium: not installed (/usr/bin/chromium): browser timings skipped");
console.log(`server peak resident memory (VmHWM): ${peakMb().toFixed(0)} MB`);
child.kill("SIGINT");

const exportFile = path.join(dir, "view.html");
const t = performance.now();
const exportCode = await main(["view", out, "--export", exportFile], { stdout: () => {}, stderr: (s) => void process.stderr.write(s), env: process.env, cwd: dir, isTTY: false });
if (exportCode !== 0) throw new Error(`export exited ${exportCode}`);
console.log(`export (100 question pages, the table of ${N}): ${(fs.statSync(exportFile).size / 2 ** 20).toFixed(2)} MiB in ${((performance.now() - t) / 1000).toFixed(1)} s`);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
