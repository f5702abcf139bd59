/**
 * The run API a script calls (issue 27, point 1): runEval, runExperiment, score, compare and loadBenchmark take their
 * command's options by name, write what the command writes and return its figures; a name the command does not take
 * is refused, naming it. Against the local OpenAI-compatible server; minibench built here.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compare, loadBenchmark, quietIO, replay, runEval, runExperiment, score } from "../index.ts";
import type { Question } from "../state/question.ts";
import { RELEASE_WORKERS_AFTER_JOBS } from "../runner/eval/run-eval.ts";
import { createExecutor, getSharedExecutor } from "../tools/sqlite/executor.ts";
import { goldServerFixture } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer } from "./support/openai-server.ts";

let dir: string;
let benchDir: string;
let dev: Question[];
let server: OpenAIServer;

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev, server } = await goldServerFixture(dir, (q) => q.id === "1"));
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

const io = () => quietIO({ cwd: dir, env: { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") } });
const model = () => ({ model: "m", baseUrl: server.url, maxRetries: 0, cache: "off" });

describe("the run API", () => {
  it("runEval, score and compare: the figures they return are the ones their files and reports hold", async () => {
    // Once its questions are done, eval ends the SQL workers that ran many jobs (a run's peak memory is while it
    // writes its outputs); these 4 questions ran too few, and their workers stay for the next run.
    const shared = getSharedExecutor() as ReturnType<typeof createExecutor>;
    const released: (number | undefined)[] = [];
    const release = shared.releaseIdle!.bind(shared);
    shared.releaseIdle = (minJobs) => (released.push(minJobs), release(minJobs));
    const a = await runEval({ graph: "baseline", bench: benchDir, out: path.join(dir, "a"), limit: 4, maxFixRounds: 0, ...model() }, io());
    expect(a).toMatchObject({ exitCode: 0, ex: 75, correct: 3, scored: 4, failed: 0, questions: 4 });
    expect(fs.readFileSync(a.files.report, "utf8")).toMatch(/Execution accuracy \(EX\): \*\*75\.00%\*\* \(3\/4\)/);
    expect(released).toEqual([RELEASE_WORKERS_AFTER_JOBS]);
    expect(shared.workerPids().length).toBeGreaterThan(0);
    const b = await runEval({ graph: "repair", bench: benchDir, out: path.join(dir, "b"), limit: 4, initial: a.files.predictions[0], ...model() }, io());
    expect(b.exitCode).toBe(0);
    const scored = await score({ bench: benchDir, pred: a.files.predictions[0]!, onlyPredicted: true }, io());
    expect(scored.exitCode).toBe(0);
    expect(scored.report.correct).toBe(3);
    const { comparison } = await compare({ runs: [path.join(dir, "a"), path.join(dir, "b")] }, io());
    expect(comparison.runs.map((r) => r.correct)).toEqual([3, b.correct]);
    // Replayed from its execute slot: the generator's four calls are the reused prefix, the suffix asks nothing.
    const replayed = await replay({ run: path.join(dir, "a"), from: "execute", out: path.join(dir, "a-replay"), ...model() }, io());
    expect(replayed).toMatchObject({ exitCode: 0, reused: { calls: 4 }, suffix: { calls: 0 } });
    const bench = await loadBenchmark({ bench: benchDir, split: "dev" }, io());
    expect(bench.questions.map((q) => q.id)).toEqual(dev.map((q) => q.id));
  }, 60_000);

  it("runExperiment runs a recipe's rows through the API and returns where its table is", async () => {
    fs.writeFileSync(path.join(dir, "api.yaml"), "name: api\nruns:\n  base: {graph: baseline, options: {max-fix-rounds: 0}}\n  fixed: {graph: repair, initial: base}\n");
    const result = await runExperiment({ recipe: "api.yaml", bench: benchDir, out: path.join(dir, "exp"), limit: 3, ...model() }, io());
    expect(result).toMatchObject({ exitCode: 0, table: path.join(dir, "exp", "table.md") });
    const table = JSON.parse(fs.readFileSync(path.join(dir, "exp", "table.json"), "utf8")) as { rows: { run: string; questions: number }[] };
    expect(table.rows.map((r) => [r.run, r.questions])).toEqual([["base", 3], ["fixed", 3]]);
    // Its figures are table.json's: EX with its interval, the planned comparison, cost.
    expect(result.rows).toEqual(table.rows);
    expect(result.rows![0]).toMatchObject({ run: "base", ex: expect.any(Number), exInterval: { low: expect.any(Number), high: expect.any(Number) } });
  }, 60_000);

  it("a name its command does not take is refused, naming it, before anything runs", async () => {
    // Misspelt names do not compile (the @ts-expect-error lines fail `tsc` once they would); from plain JavaScript,
    // they are refused at run time.
    // @ts-expect-error maxFixRoundz is no option of eval
    await expect(runEval({ graph: "baseline", bench: benchDir, out: path.join(dir, "x"), maxFixRoundz: 1 }, io())).rejects.toThrow("runEval: unknown option 'maxFixRoundz'");
    // @ts-expect-error reviewrs is no option of r3
    await expect(runEval({ graph: "r3", bench: benchDir, out: path.join(dir, "y"), options: { reviewrs: 2 } }, io())).rejects.toThrow("runEval: unknown option 'options.reviewrs'");
    // @ts-expect-error concurency is no option of experiment
    await expect(runExperiment({ recipe: "api.yaml", bench: benchDir, out: path.join(dir, "z"), concurency: 2 }, io())).rejects.toThrow("runExperiment: unknown option 'concurency'");
    expect(fs.existsSync(path.join(dir, "x"))).toBe(false);
  });

  it("nodes and graphs are taken as objects, known by their source text: a changed function is refused on --resume", async () => {
    const out = path.join(dir, "object-node");
    const generate = () => async () => ({ sql: "SELECT 1", attempts: [{ node: "generate", sql: "SELECT 1", ok: true }] });
    const first = await runEval({ graph: "baseline", bench: benchDir, out, limit: 2, node: { generate }, ...model() }, io());
    expect(first).toMatchObject({ exitCode: 0, questions: 2 });
    const recorded = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8")).settings.node.generate;
    expect(recorded).toEqual({ path: "node object", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // The same function (another copy of it) resumes; another body is refused in one line naming the slot.
    const same = () => async () => ({ sql: "SELECT 1", attempts: [{ node: "generate", sql: "SELECT 1", ok: true }] });
    expect((await runEval({ graph: "baseline", bench: benchDir, out, limit: 2, resume: true, node: { generate: same }, ...model() }, io())).exitCode).toBe(0);
    const other = () => async () => ({ sql: "SELECT 2", attempts: [{ node: "generate", sql: "SELECT 2", ok: true }] });
    await expect(runEval({ graph: "baseline", bench: benchDir, out, limit: 2, resume: true, node: { generate: other }, ...model() }, io())).rejects.toThrow(/^runEval: resume: .*object-node: the node generate module node object changed since the run started/);
  }, 60_000);

  it("refuses a value of the wrong kind by the option's name, and says errors in the API's words", async () => {
    // @ts-expect-error a model is one name, not a record
    await expect(runEval({ graph: "baseline", bench: benchDir, out: path.join(dir, "rec"), model: { name: "x" } }, io())).rejects.toThrow(`runEval: model takes one value (text or a number), not a record {"name":"x"}`);
    // @ts-expect-error graph names a built-in graph
    await expect(runEval({ graph: "basline", bench: benchDir, out: path.join(dir, "typo") }, io())).rejects.toThrow(/unknown graph 'basline'/);
    await expect(runEval({ graph: "baseline", out: path.join(dir, "nobench") }, io())).rejects.toThrow(/^runEval: bench DIR is required \(or questions FILE dbDir DIR\)$/);
    expect(fs.existsSync(path.join(dir, "rec"))).toBe(false);
    // Errors raised below the runner name options as a script gives them, never as flags it never typed.
    await expect(runEval({ graph: "baseline", bench: benchDir, out: path.join(dir, "mix"), model: "mock", roleModel: { fixer: "other-model" } }, io())).rejects.toThrow(
      "runEval: model mock answers every role: give it alone (no roleModel or config role with another model)",
    );
    await expect(runEval({ graph: "baseline", bench: benchDir, out: path.join(dir, "rate"), mockErrorRate: 0.5, ...model() }, io())).rejects.toThrow("runEval: mockErrorRate applies to model mock only");
    await expect(runEval({ graph: "magic", bench: benchDir, out: path.join(dir, "guide"), initial: "baseline", ...model(), options: { guideline: "nope.md" } }, io())).rejects.toThrow(/^runEval: options\.guideline .*nope\.md: no such file$/);
  });
});
