/**
 * The trace API on a large run: a 10,000-question run folder (run.json and results.jsonl as eval writes them, made
 * here; a third wrong, one in twenty failed, outcomes and usage by role on every record) read by `readRun`, and the
 * run's wrong questions listed as `sqlmend threads --run DIR --verdict wrong` lists them (`listRunThreads`). Neither
 * opens a checkpoint. Prints each one's wall time (median of 5, after one warm-up).
 * Target: under 1 s each on this machine.
 *
 * Run: npx tsx bench/trace-read.ts [--questions 10000]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { listRunThreads } from "../runner/trace/inspect.ts";
import { readRun } from "../runner/trace/read-trace.ts";

const { values } = parseArgs({ options: { questions: { type: "string", default: "10000" } } });
const n = Number(values.questions);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-trace-"));
try {
  const hashes: Record<string, string> = {};
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = String(i);
    hashes[id] = i.toString(16).padStart(16, "0");
    const failed = i % 20 === 7;
    lines.push(
      JSON.stringify({
        id,
        dbId: `db_${i % 11}`,
        difficulty: ["simple", "moderate", "challenging"][i % 3],
        question: `What is the total of the column number ${i} across every row of the table named in the evidence?`,
        sql: failed ? "" : `SELECT SUM(col_${i % 50}) FROM table_${i % 37} WHERE id > ${i} GROUP BY kind ORDER BY 1 DESC LIMIT 10`,
        correct: !failed && i % 3 !== 0,
        inputTokens: 1200 + (i % 300),
        outputTokens: 80 + (i % 40),
        calls: 2,
        latencyMs: 900 + (i % 500),
        iterations: i % 4,
        usageByRole: { generator: { calls: 1, inputTokens: 900, outputTokens: 60, latencyMs: 600 }, fixer: { calls: 1, inputTokens: 300, outputTokens: 20, latencyMs: 300 } },
        ...(failed ? { error: "slot 'check': boom", failure: "the graph could not finish: slot 'check': boom", errorDetail: { slot: "check", errorClass: "TypeError", message: "boom", stack: "TypeError: boom\n    at /home/u/check.ts:8:21", at: "/home/u/check.ts:8:21" } } : {}),
        outcome: { fixRounds: i % 4, finalSqlExecutes: !failed, failedCalls: 0 },
        thread: `eval:bench0001:${id}`,
      }),
    );
  }
  fs.writeFileSync(path.join(dir, "results.jsonl"), `${lines.join("\n")}\n`);
  fs.writeFileSync(path.join(dir, "run.json"), JSON.stringify({ runId: "bench0001", graph: "baseline", bench: "/nowhere", split: "dev", semantics: "bird", models: { model: "m" }, settings: {}, checkpoints: "/nowhere/checkpoints.sqlite", questionHashes: hashes }));
  const mb = (fs.statSync(path.join(dir, "results.jsonl")).size / 1e6).toFixed(1);

  const time = async (fn: () => Promise<unknown>) => {
    await fn();
    const times: number[] = [];
    for (let k = 0; k < 5; k++) {
      const t = performance.now();
      await fn();
      times.push(performance.now() - t);
    }
    return times.sort((a, b) => a - b)[2]!;
  };
  const run = await readRun(dir);
  const readMs = await time(() => readRun(dir));
  const listMs = await time(() => listRunThreads({ run: dir, verdict: ["wrong"], cwd: dir }));
  const wrong = (await listRunThreads({ run: dir, verdict: ["wrong"], cwd: dir })).length;
  console.log(`trace-read: ${n} questions (results.jsonl ${mb} MB), EX ${run.summary.ex?.pct.toFixed(2)}%, ${run.summary.byVerdict.failed} failed`);
  console.log(`  readRun: ${readMs.toFixed(0)} ms (median of 5)`);
  console.log(`  threads --run --verdict wrong (listRunThreads): ${listMs.toFixed(0)} ms, ${wrong} threads`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
