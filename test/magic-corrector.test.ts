/**
 * Graph `magic` (the guideline corrector) through the launcher: the three correction scenarios of Table 1, the
 * fallback to the initial SQL, the guideline file's checks, and the report recording which guideline was used.
 */
import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import type { CliIO } from "../cli/shared/command.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { writeBirdPredictions } from "../tools/benchmarks/score.ts";
import type { Question } from "../state/question.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, type ScriptedReply, startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";
import { agentOf, questionTextOf, sqlReply } from "./support/magic-agents.ts";

let dir: string;
let benchDir: string;
let dev: Question[];
let server: OpenAIServer;
let guideline: string;
let predictions: string;
const GUIDELINE = "# Guideline\n\n1. Wrong table\n- Question: \"How many?\"\n- Negative and strict step-by-step ask-to-myself questions:\n  - Did I query the table that holds the answer?\n";

// q0 right; q1 does not execute; q2 wrong result; q3 wrong and its revision does not execute; q4 wrong and the reply holds no SQL.
const q = (i: number) => dev[i]!;
const initialOf = (i: number) => [q(0).goldSql!, "SELECT nope FROM nothing", "SELECT 42", "SELECT 43", "SELECT 44"][i]!;

function capture(): { io: CliIO; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env: { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID }, cwd: dir, isTTY: false }, out: () => out.join(""), err: () => err.join("") };
}
const results = (out: string) => new Map(fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).map((r) => [r.id, r]));
const ids = () => ["--ids", [0, 1, 2, 3, 4].map((i) => q(i).id).join(",")];

beforeAll(async () => {
  dir = makeTempDir();
  benchDir = path.join(dir, "minibench");
  await buildMinibench(benchDir);
  dev = (await loadBenchmark(benchDir, { split: "dev" })).questions;
  guideline = path.join(dir, "guideline.md");
  fs.writeFileSync(guideline, GUIDELINE);
  predictions = path.join(dir, "initial.json");
  await writeBirdPredictions(predictions, [0, 1, 2, 3, 4].map((i) => ({ id: q(i).id, dbId: q(i).dbId, sql: initialOf(i) })));
  server = await startOpenAIServer({
    respond: (req): ScriptedReply => {
      const at = dev.findIndex((x) => x.question === questionTextOf(req));
      if (agentOf(req) !== "guidelineCorrector" || at < 0) return sqlReply("SELECT 1");
      if (at === 3) return sqlReply("SELECT nope FROM nowhere");
      if (at === 4) return { content: "1. Did I query the right table? I am not sure." };
      return sqlReply(q(at).goldSql!, "1. Did I query the table that holds the answer? No: fixing.");
    },
  });
});
afterAll(async () => {
  await server.close();
  removeTempDir(dir);
});

describe("eval magic --guideline", () => {
  it("corrects incorrect SQL (oracle scenario), keeps the initial SQL when the revision fails to execute or holds no SQL", async () => {
    const out = path.join(dir, "incorrect");
    const run = capture();
    expect(await main(["eval", "magic", "--guideline", guideline, "--bench", benchDir, "--out", out, ...ids(), "--initial", predictions, "--correct", "incorrect", "--checkpoints", "memory"], run.io)).toBe(0);
    const r = results(out);
    expect(r.get(q(0).id)).toMatchObject({ correction: "skipped: initial SQL is correct (oracle)", correct: true });
    expect(r.get(q(1).id)).toMatchObject({ correction: "applied", correct: true, sql: q(1).goldSql });
    expect(r.get(q(2).id)).toMatchObject({ correction: "applied", correct: true });
    expect(r.get(q(3).id)).toMatchObject({ correction: "applied", correct: false, sql: "SELECT 43" });
    expect(r.get(q(4).id)).toMatchObject({ correction: "applied", correct: false, sql: "SELECT 44" });
    // The corrector was shown the guideline, the schema and its initial SQL.
    const shown = server.requests.filter((req) => agentOf(req) === "guidelineCorrector" && questionTextOf(req) === q(2).question)[0]!;
    const text = shown.messages.map((m) => m.content).join("\n");
    expect(text).toContain("Did I query the table that holds the answer?");
    expect(text).toContain("SELECT 42");
    expect(text).toContain("CREATE TABLE");
    // The report records the guideline's path and hash.
    const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
    expect(report).toContain(guideline);
    expect(report).toContain(createHash("sha256").update(GUIDELINE).digest("hex"));
    expect(report).toContain("Corrected (wrong → right): 2; broken (right → wrong): 0");
    // What each question went through, declared by graph magic's spec: the guideline applied, the revision kept or not.
    const hash = createHash("sha256").update(GUIDELINE).digest("hex").slice(0, 12);
    expect(r.get(q(2).id)!.outcome).toMatchObject({ guidelineHash: hash, revision: "revised" });
    expect(r.get(q(3).id)!.outcome).toMatchObject({ guidelineHash: hash, revision: "does not execute" });
    expect(r.get(q(4).id)!.outcome).toMatchObject({ guidelineHash: hash, revision: "no SQL" });
    expect(report).toMatch(/revision: revised 50\.0 %, does not execute 25\.0 %, no SQL 25\.0 %/);
    expect(report).toContain(`guidelineHash: ${hash} 100.0 %`);
    // The correction agent is shown BIRD's evidence by default.
    expect(text).toContain(`Evidence: ${q(2).evidence}`);
  });

  it("--corrector-evidence hidden keeps the evidence from the corrector (Figure 6 lists none)", async () => {
    const withEvidence = dev.findIndex((x, i) => i >= 1 && i <= 2 && x.evidence.trim());
    expect(withEvidence).toBeGreaterThan(0);
    const out = path.join(dir, "no-evidence");
    const before = server.requests.length;
    expect(await main(["eval", "magic", "--guideline", guideline, "--corrector-evidence", "hidden", "--bench", benchDir, "--out", out, "--ids", q(withEvidence).id, "--initial", predictions, "--correct", "all", "--checkpoints", "memory"], capture().io)).toBe(0);
    const shown = server.requests.slice(before).filter((req) => agentOf(req) === "guidelineCorrector");
    expect(shown).toHaveLength(1);
    expect(shown[0]!.messages.map((m) => m.content).join("\n")).not.toContain("Evidence:");
  });

  it("--correct errors revises only SQL that fails to execute; --correct all revises everything", async () => {
    const errors = path.join(dir, "errors");
    expect(await main(["eval", "magic", "--guideline", guideline, "--bench", benchDir, "--out", errors, ...ids(), "--initial", predictions, "--correct", "errors", "--checkpoints", "memory"], capture().io)).toBe(0);
    const e = results(errors);
    expect([...e.values()].filter((x) => x.correction === "applied").map((x) => x.id)).toEqual([q(1).id]);
    expect(e.get(q(1).id)!.correct).toBe(true);

    const all = path.join(dir, "all");
    expect(await main(["eval", "magic", "--guideline", guideline, "--bench", benchDir, "--out", all, ...ids(), "--initial", predictions, "--correct", "all", "--checkpoints", "memory"], capture().io)).toBe(0);
    const a = results(all);
    expect([...a.values()].every((x) => x.correction === "applied")).toBe(true);
    expect([0, 1, 2].map((i) => a.get(q(i).id)!.correct)).toEqual([true, true, true]);
  });

  it("refuses a missing, empty or absent guideline with one line", async () => {
    const missing = capture();
    expect(await main(["eval", "magic", "--guideline", path.join(dir, "nope.md"), "--bench", benchDir, "--out", path.join(dir, "x1"), "--initial", predictions, "--checkpoints", "memory"], missing.io)).toBe(1);
    expect(missing.err().trim().split("\n")).toHaveLength(1);
    expect(missing.err()).toMatch(/--guideline .*nope\.md: no such file/);

    const emptyFile = path.join(dir, "empty.md");
    fs.writeFileSync(emptyFile, "  \n");
    const empty = capture();
    expect(await main(["eval", "magic", "--guideline", emptyFile, "--bench", benchDir, "--out", path.join(dir, "x2"), "--initial", predictions, "--checkpoints", "memory"], empty.io)).toBe(1);
    expect(empty.err()).toMatch(/the file is empty/);

    const absent = capture();
    expect(await main(["eval", "magic", "--bench", benchDir, "--out", path.join(dir, "x3"), "--initial", predictions, "--checkpoints", "memory"], absent.io)).toBe(2);
    expect(absent.err()).toMatch(/magic needs --guideline FILE/);
  });

  it("resolves a relative guideline against the working directory, and --resume refuses a changed guideline", async () => {
    const out = path.join(dir, "relative");
    expect(await main(["eval", "magic", "--guideline", "guideline.md", "--bench", benchDir, "--out", out, "--ids", q(1).id, "--initial", predictions], capture().io)).toBe(0);
    const copy = path.join(dir, "guideline-2.md");
    fs.writeFileSync(copy, `${GUIDELINE}\n2. Another reminder\n`);
    const changed = capture();
    expect(await main(["eval", "magic", "--guideline", "guideline-2.md", "--bench", benchDir, "--out", out, "--ids", q(1).id, "--initial", predictions, "--resume"], changed.io)).toBe(1);
    expect(changed.err()).toMatch(/--resume: .*: the --guideline file .*guideline-2\.md changed since the run started/);
  });
});

describe("ask magic --guideline --sql", () => {
  it("revises the SQL given inline", async () => {
    const run = capture();
    expect(await main(["ask", "magic", "--guideline", guideline, "--db", q(2).dbPath, "--sql", "SELECT 42", "--checkpoints", "memory", q(2).question], run.io)).toBe(0);
    expect(run.out()).toContain(`SQL:\n${q(2).goldSql}`);
    expect(run.out()).toMatch(/Initial SQL:\nSELECT 42/);
  });
});

describe("MAGIC's training graphs outside 'magic guideline'", () => {
  it("refuses them under eval, ask and --initial with one line (they need the gold SQL)", async () => {
    const cases = [
      ["eval", "magic-feedback", "--bench", benchDir, "--out", path.join(dir, "mf"), "--checkpoints", "memory"],
      ["eval", "magic-guideline", "--bench", benchDir, "--out", path.join(dir, "mg"), "--checkpoints", "memory"],
      ["ask", "magic-feedback", "--db", q(2).dbPath, "--sql", "SELECT 1", "--checkpoints", "memory", q(2).question],
      ["eval", "magic", "--guideline", guideline, "--initial", "magic-guideline", "--bench", benchDir, "--out", path.join(dir, "mi"), "--checkpoints", "memory"],
    ];
    for (const argv of cases) {
      const run = capture();
      expect(await main(argv, run.io)).not.toBe(0);
      expect(run.err().split("\n")[0]).toMatch(/'magic-(feedback|guideline)' is run by 'sqlmend magic guideline'/);
      expect(fs.existsSync(path.join(dir, "mf", "results.jsonl")) || fs.existsSync(path.join(dir, "mg", "results.jsonl"))).toBe(false);
    }
  });
});
