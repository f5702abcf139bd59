/**
 * Failed is not done (issue 19, point 1): a question whose model calls got no reply is failed, not answered — not
 * scored, counted apart in the summary, report.md and compare, run again by --resume — and the run ends with exit
 * status 3. An endpoint that is down stops the run after five questions in a row, instead of burning the benchmark.
 * Through the launcher and the real ChatOpenAI client against the local OpenAI-compatible server.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import type { Question } from "../state/question.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, type ScriptedReply, startOpenAIServer } from "./support/openai-server.ts";

let dir: string;
let benchDir: string;
let dev: Question[];
let server: OpenAIServer;
/** What the server does now: answer each question with its gold SQL, or fail some or all requests. */
let behaviour: (prompt: string) => ScriptedReply = () => ({ status: 500 });

async function sqlmend(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  // No response cache: the scripted server fails chosen requests, which a cached reply would never reach.
  const env = { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home"), SQLMEND_CACHE: "off" };
  const code = await main(args, { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env, cwd: dir, isTTY: false });
  return { code, out: out.join(""), err: err.join("") };
}

/** The gold SQL of the question the prompt asks. */
const goldFor = (prompt: string): ScriptedReply => {
  const q = dev.find((d) => prompt.includes(d.question));
  return { content: `\`\`\`sql\n${q?.goldSql ?? "SELECT 1"}\n\`\`\`` };
};

beforeAll(async () => {
  dir = makeTempDir();
  benchDir = path.join(dir, "minibench");
  await buildMinibench(benchDir);
  dev = (await loadBenchmark(benchDir, { split: "dev" })).questions;
  server = await startOpenAIServer({ respond: (req) => behaviour(req.messages.map((m) => m.content).join("\n")) });
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

const evalArgs = (out: string, ...extra: string[]) => [
  "eval", "baseline", "--bench", benchDir, "--out", out, "--checkpoints", path.join(dir, `${path.basename(out)}.sqlite`),
  "--model", "test-model", "--base-url", server.url, "--max-retries", "0", "--max-fix-rounds", "0", "--concurrency", "1", ...extra,
];

const recordsOf = (out: string) =>
  fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; correct: boolean; failure?: string; predError?: string });

describe("failed questions", () => {
  it("an endpoint that is down: five failed questions in a row stop the run, exit 3, outputs written, --resume runs them", async () => {
    behaviour = () => ({ status: 503 });
    const out = path.join(dir, "down");
    const run = await sqlmend(...evalArgs(out, "--limit", "9"));
    expect(run.code, run.err).toBe(3);
    expect(run.err).toMatch(/sqlmend eval: the model endpoint looks down: 5 questions in a row failed \(last: 4: model call failed: 503/);
    expect(run.out).toMatch(/^EX - ?% \(0\/0 answered, bird semantics\); 5 failed — --resume retries them; 0 skipped$/m);
    expect(run.out).toMatch(/^5 questions failed \(e\.g\. 0: 1 model call got no reply \(first: model call failed: 503/m);
    expect(run.out).toMatch(/^Stopped: the model endpoint looks down: .*; 4 questions not run\. Check the endpoint, then --resume runs the failed and the rest\.$/m);
    expect(run.out).toMatch(/^Exit status 3: finished, but questions failed or were not run; --resume runs them again\.$/m);
    const records = recordsOf(out);
    expect(records.map((r) => r.id)).toEqual(["0", "1", "2", "3", "4"]);
    for (const r of records) expect(r).toMatchObject({ correct: false, failure: expect.stringMatching(/^1 model call got no reply/) });
    // Not scored: no prediction error of a scorer that never ran.
    for (const r of records) expect(r.predError).toBeUndefined();
    const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
    expect(report).toMatch(/^- Execution accuracy \(EX\): \*\*-%\*\* \(0\/0 answered; \*\*5 failed\*\* — not scored, `--resume` retries them\)$/m);
    expect(report).toMatch(/^- Questions: 9 selected, 5 run \(0 answered, 5 failed\), 4 not run, 0 skipped$/m);
    expect(report).toMatch(/^\| 0 \| school \| simple \| failed \|/m);

    // The endpoint is back: the resumed run answers the failed questions and the rest, and ends with status 0.
    behaviour = goldFor;
    const resumed = await sqlmend(...evalArgs(out, "--limit", "9", "--resume"));
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).toMatch(/9 questions \(0 already done, 5 failed before and run again/);
    expect(resumed.out).toMatch(/^EX 100\.00% \(9\/9, bird semantics\); 0 skipped$/m);
    expect(resumed.out).not.toMatch(/failed/);
    // The last line of an id is its record: every question answered, the failed ones on their second thread.
    const latest = new Map(recordsOf(out).map((r) => [r.id, r as typeof r & { thread: string }]));
    expect([...latest.values()].filter((r) => r.failure)).toEqual([]);
    expect(latest.get("0")!.thread).toMatch(/^eval:\w+:0#2$/);
    expect(latest.get("8")!.thread).toMatch(/^eval:\w+:8$/);
  });

  it("one question whose call failed is counted apart: EX over the answered ones, exit 3; compare leaves it out", async () => {
    const unlucky = dev[2]!;
    behaviour = (prompt) => (prompt.includes(unlucky.question) ? { status: 500 } : goldFor(prompt));
    const partial = path.join(dir, "partial");
    const run = await sqlmend(...evalArgs(partial, "--limit", "4"));
    expect(run.code, run.err).toBe(3);
    expect(run.out).toMatch(/^EX 100\.00% \(3\/3 answered, bird semantics\); 1 failed — --resume retries them; 0 skipped$/m);
    expect(run.out).toMatch(new RegExp(`^1 question failed \\(e\\.g\\. ${unlucky.id}: 1 model call got no reply`, "m"));
    expect(run.out).not.toMatch(/Stopped: the model endpoint/);
    // What eval writes marks the failed question (never its partial SQL, never ""): the official scorers count it
    // wrong, and a copy of the file, without results.jsonl beside it, still says so to score and --initial.
    const written = JSON.parse(fs.readFileSync(path.join(partial, "predict_dev.json"), "utf8")) as Record<string, string>;
    expect(written[unlucky.id]).toBe(`SELECT RAISE(FAIL, 'sqlmend: no answer (failed)')\t----- bird -----\t${unlucky.dbId}`);
    expect(fs.readFileSync(path.join(partial, "pred_dev.sql"), "utf8").split("\n")[2]).toMatch(/^SELECT RAISE\(FAIL, 'sqlmend: no answer \(failed\)'\)/);
    const copy = path.join(dir, "copy");
    fs.mkdirSync(copy);
    fs.copyFileSync(path.join(partial, "predict_dev.json"), path.join(copy, "predict_dev.json"));
    const scored = await sqlmend("score", "--bench", benchDir, "--pred", path.join(copy, "predict_dev.json"), "--only-predicted");
    expect(scored.out).toMatch(/^all\s+4\s+3\s+75\.00$/m);
    expect(scored.out).toMatch(/^no answer \(marked failed or not run by the run that wrote the file\): 1 questions, scored wrong$/m);
    const corrected = await sqlmend("eval", "repair", "--initial", path.join(copy, "predict_dev.json"), "--correct", "all", ...evalArgs(path.join(dir, "from-copy"), "--limit", "4").slice(2));
    expect(corrected.code).toBe(3);
    const fromCopy = recordsOf(path.join(dir, "from-copy"));
    expect(fromCopy.find((r) => r.id === unlucky.id)!.failure).toMatch(/no initial SQL: the initial run failed \(marked in predict_dev\.json\)/);

    behaviour = goldFor;
    const whole = path.join(dir, "whole");
    expect((await sqlmend(...evalArgs(whole, "--limit", "4"))).code).toBe(0);
    const compared = await sqlmend("compare", partial, whole);
    expect(compared.code, compared.err).toBe(0);
    expect(compared.out).toMatch(/^3 questions in common, answered by both \(0 only in A, 0 only in B; left out, failed: 1 in A, 0 in B — --resume retries them\)$/m);
    expect(compared.out).toMatch(/^both right 3, both wrong 0$/m);
  });

  it("ts-sql audit: a question whose model calls got no reply is an error, the run stops when the endpoint is down, exit 3; --resume asks again", async () => {
    behaviour = () => ({ status: 503 });
    const out = path.join(dir, "audit");
    const args = ["ts-sql", "audit", "--bench", benchDir, "--out", out, "--limit", "7", "--checkpoints", path.join(dir, "audit.sqlite"), "--model", "test-model", "--base-url", server.url, "--max-retries", "0", "--concurrency", "1"];
    const run = await sqlmend(...args);
    expect(run.code, run.err).toBe(3);
    expect(run.err).toMatch(/sqlmend ts-sql audit: the model endpoint looks down: 5 questions in a row failed/);
    const lines = fs.readFileSync(path.join(out, "audit.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { status: string; note?: string; thread: string });
    expect(lines).toHaveLength(5);
    for (const l of lines) expect(l).toMatchObject({ status: "error", note: expect.stringMatching(/model calls? got no reply \(first: model call failed: 503/) });

    // Any reply will do now: no call goes unanswered, so no question is an error (whatever its test case became).
    behaviour = goldFor;
    const resumed = await sqlmend(...args, "--resume");
    expect(resumed.code, resumed.err).toBe(0);
    const latest = new Map(fs.readFileSync(path.join(out, "audit.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; status: string; thread: string }).map((r) => [r.id, r]));
    expect(latest.size).toBe(7);
    expect([...latest.values()].filter((r) => r.status === "error")).toEqual([]);
    expect(latest.get("0")!.thread).toMatch(/^audit:\w+:0#2$/);
  }, 60_000);

  it("memo build: a question whose model calls got no reply is not marked done, the build stops when the endpoint is down, exit 3", async () => {
    behaviour = () => ({ status: 503 });
    const memory = path.join(dir, "memory.sqlite");
    const run = await sqlmend("memo", "build", "--bench", benchDir, "--out", memory, "--limit", "7", "--samples", "1", "--model", "test-model", "--base-url", server.url, "--max-retries", "0", "--concurrency", "1");
    expect(run.code, run.err).toBe(3);
    expect(run.err).toMatch(/sqlmend memo build: the model endpoint looks down: 5 questions in a row failed/);
    expect(run.out).toMatch(/^5 questions failed \(e\.g\. \d+: \d+ model calls? got no reply \(first: model call failed: 503/m);
  }, 60_000);
});
