/**
 * A benchmark split across machines: `eval --shard I/N` and `sqlmend merge`, through the real client against the
 * local OpenAI-compatible server, compared with one process running the whole selection.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import { shardOf } from "../runner/run/shards.ts";
import { selectQuestions } from "../runner/run/question-sample.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import type { Question } from "../state/question.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";
import { captureIO as capture, goldResponder, minibenchFixture } from "./support/cli.ts";

let dir: string;
let benchDir: string;
let dev: Question[];
let server: OpenAIServer;

const captureIO = (env: NodeJS.ProcessEnv = {}) => capture(dir, env);
const results = (out: string) => new Map(fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).map((r) => [r.id, r]));

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev } = await minibenchFixture(dir));
  // Every third question gets a wrong answer, the rest the gold.
  server = await startOpenAIServer({ respond: goldResponder(dev, (q) => Number(q.id) % 3 === 0) });
});
afterAll(async () => {
  await server.close();
  removeTempDir(dir);
});

describe("eval --shard I/N and sqlmend merge", () => {
  it("shards partition the selection in file order", async () => {
    const bench = await loadBenchmark(benchDir, { split: "dev" });
    const selection = selectQuestions(bench, undefined, 13);
    const shares = [1, 2, 3].map((index) => shardOf(selection, { index, count: 3 }).questions.map((q) => q.id));
    expect(shares.flat().sort()).toEqual(selection.questions.map((q) => q.id).sort());
    expect(new Set(shares.flat()).size).toBe(selection.questions.length);
    expect(shares.map((s) => s.length)).toEqual([5, 4, 4]);
  });

  it("merged shards give the outputs of one process: the same verdicts, SQL and prediction files", async () => {
    const env = { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID };
    const common = ["eval", "baseline", "--bench", benchDir, "--limit", "13", "--checkpoints", "memory", "--max-fix-rounds", "0"];
    const single = path.join(dir, "single");
    expect(await main([...common, "--out", single], captureIO(env).io)).toBe(0);
    const shards = [1, 2, 3].map((i) => path.join(dir, `shard-${i}`));
    for (const [i, out] of shards.entries()) {
      const run = captureIO(env);
      expect(await main([...common, "--out", out, "--shard", `${i + 1}/3`], run.io)).toBe(0);
      expect(run.err()).toMatch(new RegExp(`: ${i === 0 ? 5 : 4} questions`));
    }
    const merged = path.join(dir, "merged");
    const run = captureIO();
    expect(await main(["merge", ...shards, "--out", merged], run.io)).toBe(0);
    expect(run.out()).toMatch(/Merged 3 shards: 13 questions\nEX 61\.54% \(8\/13\)/);

    const one = results(single);
    const joined = results(merged);
    // The merged results.jsonl is in file order (a single run's is in finishing order).
    expect([...joined.keys()]).toEqual([...one.keys()].sort((x, y) => Number(x) - Number(y)));
    expect(joined.size).toBe(one.size);
    for (const [id, record] of one) expect({ id, correct: joined.get(id)?.correct, sql: joined.get(id)?.sql }).toEqual({ id, correct: record.correct, sql: record.sql });
    for (const file of ["predict_dev.json", "pred_dev.sql"]) {
      expect(fs.readFileSync(path.join(merged, file), "utf8")).toBe(fs.readFileSync(path.join(single, file), "utf8"));
    }
    const ex = (out: string) => /Execution accuracy \(EX\): .*/.exec(fs.readFileSync(path.join(out, "report.md"), "utf8"))?.[0];
    expect(ex(merged)).toBe(ex(single));
    expect(fs.readFileSync(path.join(merged, "report.md"), "utf8")).toContain('"shards": 3');
    // A line outside its shard's share (another question's) is not merged, and merge says so.
    const stray = fs.readFileSync(path.join(shards[1]!, "results.jsonl"), "utf8").split("\n")[0]!;
    fs.appendFileSync(path.join(shards[0]!, "results.jsonl"), `${stray}\n`);
    const again = captureIO();
    expect(await main(["merge", ...shards, "--out", path.join(dir, "merged-again")], again.io)).toBe(0);
    expect(again.out()).toMatch(/1 result lines outside their shard's recorded selection not merged/);
    expect(fs.readFileSync(path.join(dir, "merged-again", "pred_dev.sql"), "utf8")).toBe(fs.readFileSync(path.join(single, "pred_dev.sql"), "utf8"));
  }, 60_000);

  it("a merged report says the cache the shards ran with, and sends failed questions back to their shard, not to a --resume it refuses", async () => {
    // Question 2's request fails; the others get the gold.
    const gold = goldResponder(dev);
    const flaky = await startOpenAIServer({ respond: (req) => (req.messages.at(-1)?.content.includes(`Question: ${dev[2]!.question}\n`) ? { status: 500 } : gold(req)) });
    try {
      const env = { OPENAI_BASE_URL: flaky.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-flaky") };
      const common = ["eval", "baseline", "--bench", benchDir, "--limit", "4", "--checkpoints", "memory", "--max-fix-rounds", "0", "--max-retries", "0", "--cache", "off"];
      const shards = [1, 2].map((i) => path.join(dir, `flaky-${i}`));
      for (const [i, out] of shards.entries()) await main([...common, "--out", out, "--shard", `${i + 1}/2`], captureIO(env).io);
      const merged = path.join(dir, "flaky-merged");
      const run = captureIO();
      expect(await main(["merge", ...shards, "--out", merged], run.io)).toBe(3);
      expect(run.out()).toMatch(/1 failed — run `--resume` on the shard that holds them, then merge again/);
      expect(run.out()).not.toMatch(/--resume retries them/);
      const report = fs.readFileSync(path.join(merged, "report.md"), "utf8");
      expect(report).toMatch(/1 failed\*\* — not scored, run `--resume` on the shard that holds them, then merge again/);
      expect(report).toContain('"cache": "off"');
    } finally {
      await flaky.close();
    }
  }, 60_000);

  it("refuses shards of different runs, a missing shard, a shard twice, an unfinished shard, and a bad --shard", async () => {
    const env = { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID };
    const common = ["eval", "baseline", "--bench", benchDir, "--limit", "6", "--checkpoints", "memory"];
    const a = path.join(dir, "mix-1");
    const b = path.join(dir, "mix-2");
    expect(await main([...common, "--out", a, "--shard", "1/2", "--max-fix-rounds", "0"], captureIO(env).io)).toBe(0);
    expect(await main([...common, "--out", b, "--shard", "2/2", "--max-fix-rounds", "2"], captureIO(env).io)).toBe(0);
    const mixed = captureIO();
    expect(await main(["merge", a, b, "--out", path.join(dir, "mix-out")], mixed.io)).toBe(1);
    expect(mixed.err()).toMatch(/mix-2 was run with settings .*max-fix-rounds.*2.*shards of one run must share it/);

    const missing = captureIO();
    expect(await main(["merge", a, "--out", path.join(dir, "miss-out")], missing.io)).toBe(1);
    expect(missing.err()).toMatch(/shard 2\/2 missing/);
    const twice = captureIO();
    expect(await main(["merge", a, a, "--out", path.join(dir, "twice-out")], twice.io)).toBe(1);
    expect(twice.err()).toMatch(/are both shard 1\/2/);

    // A shard with a result line lost (a run stopped early): merge says which shard to finish.
    const c = path.join(dir, "mix-3");
    expect(await main([...common, "--out", c, "--shard", "2/2", "--max-fix-rounds", "0"], captureIO(env).io)).toBe(0);
    const lines = fs.readFileSync(path.join(c, "results.jsonl"), "utf8").trim().split("\n");
    fs.writeFileSync(path.join(c, "results.jsonl"), `${lines.slice(1).join("\n")}\n`);
    const unfinished = captureIO();
    expect(await main(["merge", a, c, "--out", path.join(dir, "unfinished-out")], unfinished.io)).toBe(1);
    expect(unfinished.err()).toMatch(/shard 2\/2\) has no result for 1 of its 3 questions .*finish it with --resume/);

    const bad = captureIO(env);
    expect(await main([...common, "--out", path.join(dir, "bad"), "--shard", "3/2"], bad.io)).toBe(2);
    expect(bad.err()).toMatch(/--shard takes I\/N with 1 <= I <= N/);
    // --resume keeps the shard: resuming a folder as another shard is refused.
    const other = captureIO(env);
    expect(await main([...common, "--out", a, "--shard", "2/2", "--max-fix-rounds", "0", "--resume"], other.io)).toBe(1);
    expect(other.err()).toMatch(/: shard was "1\/2", now "2\/2"/);
  }, 60_000);
});
