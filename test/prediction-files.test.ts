/**
 * Prediction files mean what their author meant (issue 19, point 2): a blank line in a text-format file is an empty
 * prediction, not a line to skip; a file whose line count does not match its questions is refused with both counts;
 * a prediction that writes is scored as an error and counted; `--initial FILE` reads SQL out of raw model text with
 * the graphs' reply parser and counts what needed it. Real files, minibench, the local OpenAI-compatible server.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initialSqlOf } from "../runner/run/initial-sql.ts";
import { readPredictionFile, writingStatement } from "../tools/benchmarks/score.ts";
import type { Question } from "../state/question.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";
import { goldResponder, minibenchFixture, runCli } from "./support/cli.ts";

let dir: string;
let benchDir: string;
let dev: Question[];
let server: OpenAIServer;

const sqlmend = (...args: string[]) => runCli(args, dir, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") });

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev } = await minibenchFixture(dir));
  // Each question answered with its gold SQL.
  server = await startOpenAIServer({ respond: goldResponder(dev) });
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
};

describe("text-format prediction files", () => {
  it("reads a blank line as an empty prediction, keeping every later line on its own question", async () => {
    const read = await readPredictionFile(write("blank.sql", "SELECT 1\n\nSELECT 3\tdb\n"));
    expect([...read.predictions]).toEqual([["0", "SELECT 1"], ["1", ""], ["2", "SELECT 3"]]);
    expect(read.lines).toBe(3);
    // A last line left empty is a prediction too; only the final newline ends no line.
    expect((await readPredictionFile(write("last.sql", "SELECT 1\n\n"))).lines).toBe(2);
  });

  it("score: a blank line costs its own question only; a file of the wrong length is refused with both counts", async () => {
    expect(dev.length).toBe(20);
    const lines = dev.map((q) => q.goldSql!);
    lines[1] = "";
    const file = write("pred_dev.sql", `${lines.join("\n")}\n`);
    const scored = await sqlmend("score", "--bench", benchDir, "--pred", file, "--json");
    expect(scored.code, scored.err).toBe(0);
    const report = JSON.parse(scored.out) as { count: number; correct: number; verdicts: { id: string; correct: boolean }[] };
    expect(report).toMatchObject({ count: 20, correct: 19 });
    expect(report.verdicts.filter((v) => !v.correct).map((v) => v.id)).toEqual(["1"]);

    const short = write("short.sql", `${dev.slice(0, 19).map((q) => q.goldSql).join("\n")}\n`);
    const refused = await sqlmend("score", "--bench", benchDir, "--pred", short);
    expect(refused.code).toBe(1);
    expect(refused.err.trim()).toBe(
      `sqlmend score: ${short}: 19 prediction lines for 20 questions: a text-format file needs one line per question, in order (a blank line is an empty prediction); to score the first ones only, add --only-predicted`,
    );
  });

  it("score: a prediction that writes is scored as an error, never run, and counted", async () => {
    const lines = dev.map((q) => q.goldSql!);
    const victim = dev[0]!;
    lines[0] = `DROP TABLE ${/FROM\s+(\w+)/i.exec(victim.goldSql!)![1]}`;
    lines[3] = "  /* cleanup */ INSERT INTO t VALUES (1)";
    lines[5] = "WITH x AS (SELECT 1) DELETE FROM students";
    const db = victim.dbPath;
    const before = fs.readFileSync(db);
    const scored = await sqlmend("score", "--bench", benchDir, "--pred", write("writes.sql", `${lines.join("\n")}\n`));
    expect(scored.code, scored.err).toBe(0);
    expect(scored.out).toMatch(/^predictions that write \(scored as errors, never run\): 3 \(ids 0, 3, 5\)$/m);
    expect(scored.out).toMatch(/^all +20 +17 /m);
    expect(fs.readFileSync(db).equals(before)).toBe(true);
    expect(writingStatement("-- note\n(SELECT 1)")).toBeUndefined();
    expect(writingStatement("-- note\nreplace into t values (1)")).toBe("REPLACE");
  });
});

describe("--initial FILE", () => {
  it("reads SQL out of raw model text, counts what needed extraction or had none", async () => {
    expect(initialSqlOf("SELECT 1")).toEqual({ sql: "SELECT 1", how: "as written" });
    expect(initialSqlOf("Here you go:\n```sql\nSELECT 2;\n```\nHope it helps.")).toEqual({ sql: "SELECT 2", how: "extracted" });
    expect(initialSqlOf("I cannot answer that.")).toEqual({ sql: "", how: "none" });

    const [a, b, c] = dev as [Question, Question, Question];
    const initial = write(
      "initial.json",
      JSON.stringify({
        [a.id]: `${a.goldSql}\t----- bird -----\t${a.dbId}`,
        [b.id]: `<think>the students table</think>Sure! Here is the query:\n\`\`\`sql\n${b.goldSql}\n\`\`\`\nIt counts them.\t----- bird -----\t${b.dbId}`,
        [c.id]: `Sorry, I do not know.\t----- bird -----\t${c.dbId}`,
      }),
    );
    const out = path.join(dir, "repair");
    const run = await sqlmend("eval", "repair", "--bench", benchDir, "--out", out, "--limit", "3", "--initial", initial, "--correct", "errors", "--checkpoints", "memory", "--model", "test-model", "--base-url", server.url);
    expect(run.code, run.err).toBe(0);
    const records = new Map(
      fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; initialSql: string; initialExtraction?: string; correct: boolean; correction: string }).map((r) => [r.id, r]),
    );
    expect(records.get(a.id)).toMatchObject({ initialSql: a.goldSql, correct: true, correction: "skipped: initial SQL executes" });
    expect(records.get(a.id)!.initialExtraction).toBeUndefined();
    // The fenced query inside prose is the initial SQL: it executes, so nothing is corrected.
    expect(records.get(b.id)).toMatchObject({ initialSql: b.goldSql, initialExtraction: "extracted", correct: true, correction: "skipped: initial SQL executes" });
    expect(records.get(c.id)).toMatchObject({ initialSql: "", initialExtraction: "none", correction: "applied" });
    const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
    expect(report).toMatch(/^- Not plain SQL, SQL extracted from the text \(fences, prose\): 1$/m);
    expect(report).toMatch(/^- Holding no SQL \(corrected from an empty initial SQL\): 1$/m);
  });

  it("refuses a text-format --initial file whose line count does not match the split", async () => {
    const file = write("initial-short.sql", `${dev[0]!.goldSql}\n\n${dev[2]!.goldSql}\n`);
    const run = await sqlmend("eval", "repair", "--bench", benchDir, "--out", path.join(dir, "repair-short"), "--limit", "3", "--initial", file, "--checkpoints", "memory", "--model", "test-model", "--base-url", server.url);
    expect(run.code).toBe(1);
    expect(run.err.trim()).toBe(
      `sqlmend eval: ${file}: 3 prediction lines for 20 questions: a text-format file needs one line per question, in order (a blank line is an empty prediction); --initial needs a line per question of the split, or the .json format`,
    );
  });
});
