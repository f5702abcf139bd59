/**
 * Composition through the launcher: a corrector takes initial SQL from a generator graph or a predictions file and
 * corrects all of it, only what fails to execute, or (eval only, gold as oracle) only what is wrong.
 * Also: few-shot retrieval from the training split, and a user's node module swapped in with --node.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import type { CliIO } from "../cli/shared/command.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import type { Question } from "../state/question.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type ChatRequestRecord, type OpenAIServer, type ScriptedReply, startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";

let dir: string;
let benchDir: string;
let dev: Question[];
let train: Question[];
let server: OpenAIServer;
/** How many fix requests per question get broken SQL before the fixer answers with the gold. */
let fixesBeforeGold = 0;
const fixCount = new Map<string, number>();
/** The server answers this question's requests with 500 (its initial run fails). */
let unreachableFor: string | undefined;

const questionOf = (req: ChatRequestRecord) => /Question: (.*)/.exec(req.messages.at(-1)?.content ?? "")?.[1]?.trim() ?? "";
const sqlReply = (sql: string): ScriptedReply => ({ content: `\`\`\`sql\n${sql}\n\`\`\`` });
const isFix = (req: ChatRequestRecord) => (req.messages.at(-1)?.content ?? "").includes("This query fails");

// The scripted fixer answers by how many fixes a question has had: every request must reach it (no response cache).
function io(): { io: CliIO; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env: { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_CACHE: "off" }, cwd: dir, isTTY: false },
    out: () => out.join(""),
    err: () => err.join(""),
  };
}

const results = (out: string) =>
  new Map(
    fs
      .readFileSync(path.join(out, "results.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .map((r) => [r.id, r]),
  );

beforeAll(async () => {
  dir = makeTempDir();
  benchDir = path.join(dir, "minibench");
  await buildMinibench(benchDir);
  dev = (await loadBenchmark(benchDir, { split: "dev" })).questions;
  train = (await loadBenchmark(benchDir, { split: "train" })).questions;
  // The generator answers wrong on purpose (so there is something to correct); the fixer answers with the gold SQL.
  server = await startOpenAIServer({
    respond: (req) => {
      const q = dev.find((x) => x.question === questionOf(req));
      if (!q) return sqlReply("SELECT 1");
      if (q.id === unreachableFor) return { status: 500 };
      if (!isFix(req)) return sqlReply("SELECT missing_column FROM nowhere");
      const n = (fixCount.get(q.id) ?? 0) + 1;
      fixCount.set(q.id, n);
      return n > fixesBeforeGold ? sqlReply(q.goldSql!) : sqlReply("SELECT still_missing FROM nowhere");
    },
  });
});
afterAll(async () => {
  await server.close();
  removeTempDir(dir);
});

describe("correction scenarios (MAGIC Table 1)", () => {
  const q0 = () => dev[0]!;
  const q1 = () => dev[1]!;
  const q2 = () => dev[2]!;
  const writePreds = () => {
    // q0 correct, q1 fails to execute, q2 executes but is wrong.
    const preds = { [q0().id]: `${q0().goldSql}\t----- bird -----\t${q0().dbId}`, [q1().id]: `SELECT nope FROM nothing\t----- bird -----\t${q1().dbId}`, [q2().id]: `SELECT 42\t----- bird -----\t${q2().dbId}` };
    const file = path.join(dir, "initial.json");
    fs.writeFileSync(file, JSON.stringify(preds));
    return file;
  };
  const ids = () => ["--ids", [q0(), q1(), q2()].map((q) => q.id).join(",")];

  it("--correct errors corrects only SQL that fails to execute", async () => {
    const out = path.join(dir, "errors");
    const run = io();
    const code = await main(["eval", "repair", "--bench", benchDir, "--out", out, ...ids(), "--initial", writePreds(), "--correct", "errors", "--checkpoints", "memory"], run.io);
    expect(run.err()).not.toMatch(/sqlmend eval:.*error/i);
    expect(code).toBe(0);
    const r = results(out);
    expect(r.get(q0().id)).toMatchObject({ correction: "skipped: initial SQL executes", correct: true, initialCorrect: true });
    expect(r.get(q1().id)).toMatchObject({ correction: "applied", correct: true, initialCorrect: false, initialSql: "SELECT nope FROM nothing" });
    expect(r.get(q2().id)).toMatchObject({ correction: "skipped: initial SQL executes", correct: false });
    const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
    expect(report).toContain("Corrected (wrong → right): 1; broken (right → wrong): 0");
    expect(report).toMatch(/Initial EX: 33\.33% → final EX: 66\.67%/);
  });

  it("--correct incorrect uses the gold as oracle; --correct all corrects everything", async () => {
    const oracle = path.join(dir, "incorrect");
    expect(await main(["eval", "repair", "--bench", benchDir, "--out", oracle, ...ids(), "--initial", writePreds(), "--correct", "incorrect", "--checkpoints", "memory"], io().io)).toBe(0);
    const r = results(oracle);
    expect(r.get(q0().id)!.correction).toBe("skipped: initial SQL is correct (oracle)");
    expect(r.get(q1().id)!.correction).toBe("applied");
    expect(r.get(q2().id)!.correction).toBe("applied");

    const all = path.join(dir, "all");
    expect(await main(["eval", "repair", "--bench", benchDir, "--out", all, ...ids(), "--initial", writePreds(), "--correct", "all", "--checkpoints", "memory"], io().io)).toBe(0);
    expect([...results(all).values()].every((x) => x.correction === "applied")).toBe(true);
  });

  it("a corrector is never credited for a question its --initial file lacks: failed 'not in FILE', exit 3; --resume corrects it once the file has it", async () => {
    const out = path.join(dir, "half");
    const file = path.join(dir, "half.json");
    // Only q1 (SQL that fails to execute, which the fixer would turn right).
    fs.writeFileSync(file, JSON.stringify({ [q1().id]: `SELECT nope FROM nothing\t----- bird -----\t${q1().dbId}` }));
    const args = ["eval", "repair", "--bench", benchDir, "--out", out, ...ids(), "--initial", file, "--correct", "all", "--checkpoints", path.join(dir, "half.sqlite"), "--max-retries", "0"];
    const run = io();
    expect(await main(args, run.io)).toBe(3);
    const r = results(out);
    for (const q of [q0(), q2()]) {
      expect(r.get(q.id)).toMatchObject({ failure: `no initial SQL: not in ${file}`, correct: false, sql: "" });
      expect(r.get(q.id)!.correction).toBeUndefined();
      expect(r.get(q.id)!.initialCorrect).toBeUndefined();
    }
    expect(r.get(q1().id)).toMatchObject({ correction: "applied", correct: true, initialCorrect: false });
    // Only the covered question is in EX and in the initial → final comparison.
    expect(run.out()).toMatch(/^EX 100\.00% \(1\/1 answered, bird semantics\); 2 failed/m);
    expect(run.out()).toMatch(new RegExp(`^2 questions failed \\(e\\.g\\. ${q0().id}: no initial SQL: not in `, "m"));
    const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
    expect(report).toMatch(/Initial EX: 0\.00% → final EX: 100\.00%/);
    expect(report).toMatch(/^- Failed questions \(not scored; --resume runs them again\): 2 \(first: \S+: no initial SQL: not in /m);

    // The file gets them; --resume corrects them (and only them).
    fs.writeFileSync(file, JSON.stringify({ [q0().id]: `${q0().goldSql}\t----- bird -----\t${q0().dbId}`, [q1().id]: `SELECT nope FROM nothing\t----- bird -----\t${q1().dbId}`, [q2().id]: `SELECT 42\t----- bird -----\t${q2().dbId}` }));
    const resumed = io();
    expect(await main([...args, "--resume"], resumed.io), resumed.err()).toBe(0);
    const after = results(out);
    expect(after.get(q0().id)).toMatchObject({ correction: "applied", initialCorrect: true });
    expect(after.get(q2().id)).toMatchObject({ correction: "applied", initialCorrect: false });
    expect(after.get(q0().id)!.failure).toBeUndefined();
  });

  it("a question the initial run failed is failed by the corrector ('the initial run failed'), from a run's predictions file or an initial graph", async () => {
    const initialOut = path.join(dir, "initial-run");
    unreachableFor = q2().id;
    try {
      expect(await main(["eval", "baseline", "--bench", benchDir, "--out", initialOut, ...ids(), "--checkpoints", "memory", "--max-retries", "0", "--max-fix-rounds", "0"], io().io)).toBe(3);
      // From the run's predictions file: its "" for q2 is no SQL of the initial method's.
      const fromFile = path.join(dir, "from-run");
      const run = io();
      expect(await main(["eval", "as-given", "--bench", benchDir, "--out", fromFile, ...ids(), "--initial", path.join(initialOut, "predict_dev.json"), "--checkpoints", "memory"], run.io)).toBe(3);
      const r = results(fromFile);
      expect(r.get(q2().id)!.failure).toMatch(/^no initial SQL: the initial run failed \(1 model call got no reply/);
      expect(r.get(q2().id)!.initialCorrect).toBeUndefined();
      expect(r.get(q0().id)!.failure).toBeUndefined();
      // In process (--initial baseline): the same, and the corrector is not run for it.
      const inProcess = path.join(dir, "in-process");
      const before = server.requests.length;
      expect(await main(["eval", "repair", "--bench", benchDir, "--out", inProcess, "--ids", q2().id, "--checkpoints", "memory", "--max-retries", "0", "--max-fix-rounds", "1"], io().io)).toBe(3);
      const failed = results(inProcess).get(q2().id)!;
      expect(failed.failure).toMatch(/^no initial SQL: the initial run failed \(\d+ model calls? got no reply: model call failed: 500 /);
      // The corrector did not run on it: no correction, and every request was the initial generator's (1 + its fix).
      expect(failed.correction).toBeUndefined();
      expect(server.requests.length - before).toBe(2);
    } finally {
      unreachableFor = undefined;
    }
  });

  it("as-given scores a predictions file as it is, with no model call, as `score` does, and compare takes it", async () => {
    const out = path.join(dir, "as-given");
    const before = server.requests.length;
    const run = io();
    expect(await main(["eval", "as-given", "--bench", benchDir, "--out", out, ...ids(), "--initial", writePreds(), "--correct", "all", "--checkpoints", "memory"], run.io)).toBe(0);
    expect(server.requests.length).toBe(before);
    const r = results(out);
    expect([q0(), q1(), q2()].map((q) => [r.get(q.id)!.sql, r.get(q.id)!.correct, r.get(q.id)!.calls])).toEqual([
      [q0().goldSql, true, 0],
      ["SELECT nope FROM nothing", false, 0],
      ["SELECT 42", false, 0],
    ]);
    expect(r.get(q1().id)!.predError).toBeTruthy();
    // The same file through `sqlmend score`: the same verdict.
    const scored = io();
    expect(await main(["score", "--bench", benchDir, "--pred", writePreds(), "--only-predicted"], scored.io)).toBe(0);
    expect(scored.out()).toMatch(/^all\s+3\s+1\s+33\.33$/m);
    const compared = io();
    expect(await main(["compare", out, path.join(dir, "errors"), "--json"], compared.io)).toBe(0);
    expect(JSON.parse(compared.out()).runs.map((x: { correct: number }) => x.correct)).toEqual([1, 2]);
  });

  it("takes initial SQL from a generator graph, and refuses the oracle in ask", async () => {
    const out = path.join(dir, "from-baseline");
    // Both graphs run with --max-fix-rounds 2: baseline spends its two fix rounds in vain, repair's first fix lands.
    fixesBeforeGold = 2;
    fixCount.clear();
    expect(await main(["eval", "repair", "--bench", benchDir, "--out", out, "--ids", q1().id, "--initial", "baseline", "--max-fix-rounds", "2", "--correct", "errors", "--checkpoints", "memory"], io().io)).toBe(0);
    fixesBeforeGold = 0;
    expect(results(out).get(q1().id)).toMatchObject({ initialSql: "SELECT still_missing FROM nowhere", correction: "applied", correct: true, iterations: 1 });

    const ask = io();
    expect(await main(["ask", "repair", "--db", q1().dbPath, "--correct", "incorrect", "--checkpoints", "memory", "Q?"], ask.io)).toBe(2);
    expect(ask.err()).toMatch(/--correct incorrect needs gold SQL as an oracle/);
  });

  it("ask corrects SQL given with --sql", async () => {
    const run = io();
    expect(await main(["ask", "repair", "--db", q1().dbPath, "--sql", "SELECT nope", "--checkpoints", "memory", q1().question], run.io)).toBe(0);
    expect(run.out()).toContain("Initial SQL:\nSELECT nope");
    expect(run.out()).toContain(`SQL:\n${q1().goldSql}`);
  });
});

describe("few-shot and node swapping", () => {
  it("shows the generator the most similar training questions, never the question itself", async () => {
    const before = server.requests.length;
    const out = path.join(dir, "fewshot");
    expect(await main(["eval", "baseline", "--bench", benchDir, "--out", out, "--ids", dev[3]!.id, "--few-shot", "3", "--max-fix-rounds", "0", "--checkpoints", "memory"], io().io)).toBe(0);
    const prompt = server.requests[before]!.messages.at(-1)!.content;
    const shots = [...prompt.matchAll(/^SQL: (.*)$/gm)].map((m) => m[1]);
    expect(shots).toHaveLength(3);
    for (const sql of shots) expect(train.map((t) => t.goldSql)).toContain(sql);
    expect(prompt.split(`Question: ${dev[3]!.question}`)).toHaveLength(2); // the question appears once: as the question
  });

  it("runs a user's node module in a slot (--node generate=FILE)", async () => {
    const file = path.join(dir, "my-generate.ts");
    fs.writeFileSync(
      file,
      `export default (deps, options) => async (state) => ({ sql: "SELECT 'from my node'", attempts: [{ node: "my-generate", sql: "SELECT 'from my node'", ok: true }] });\n`,
    );
    const run = io();
    const before = server.requests.length;
    expect(await main(["ask", "baseline", "--db", dev[0]!.dbPath, "--node", `generate=${file}`, "--checkpoints", "memory", "Anything?"], run.io)).toBe(0);
    expect(run.out()).toContain("SELECT 'from my node'");
    expect(server.requests.length).toBe(before); // the default generator never ran

    const bad = io();
    expect(await main(["ask", "baseline", "--db", dev[0]!.dbPath, "--node", `nosuch=${file}`, "--checkpoints", "memory", "Q?"], bad.io)).toBe(1);
    expect(bad.err()).toMatch(/graph 'baseline' has no slot 'nosuch' \(slots: link, schema, generate, execute, fix\)/);
  });
});

describe("langgraph.json", () => {
  it("points at factories that build each listed graph on demand, under its name", async () => {
    const config = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../langgraph.json"), "utf8")) as { graphs: Record<string, string> };
    expect(Object.keys(config.graphs)).toEqual(expect.arrayContaining(["baseline", "repair"]));
    for (const [name, target] of Object.entries(config.graphs)) {
      const [file, exported] = target.split(":");
      const module = await import(path.resolve(import.meta.dirname, "..", file!));
      expect(typeof module[exported!]).toBe("function");
      const graph = await module[exported!]({ configurable: {} });
      expect(graph?.name).toBe(name);
      expect(typeof graph.invoke).toBe("function");
    }
  });
});
