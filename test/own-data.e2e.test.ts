/**
 * Own data end to end: `eval --questions FILE --db-dir DIR` through the real client against the local
 * OpenAI-compatible server, with and without gold; the selection flags reach every runner command.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import type { CliIO } from "../cli/shared/command.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";

let dir: string;
let server: OpenAIServer;

function captureIO(env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env: { SQLMEND_HOME: path.join(dir, "home"), ...env }, cwd: dir, isTTY: false };
  return { io, out: () => out.join(""), err: () => err.join("") };
}

beforeAll(async () => {
  dir = makeTempDir("sqlmend-own-");
  makeDb(dir, "dbs/shop.sqlite", "CREATE TABLE items (id INTEGER, name TEXT, price REAL); INSERT INTO items VALUES (1, 'pen', 1.5), (2, 'book', 12), (3, 'cup', 4);");
  makeDb(dir, "dbs/zoo/zoo.sqlite", "CREATE TABLE animals (name TEXT, legs INTEGER); INSERT INTO animals VALUES ('ant', 6), ('cat', 4);");
  // Answers by question: right for "cheap" and "legs", wrong for "names".
  server = await startOpenAIServer({
    respond: (req) => {
      const text = req.messages.at(-1)?.content ?? "";
      const sql = text.includes("broken") ? "SELECT nope FROM items" : text.includes("cheap") ? "SELECT name FROM items WHERE price < 5" : text.includes("legs") ? "SELECT legs FROM animals WHERE name = 'cat'" : "SELECT 1";
      return { content: `\`\`\`sql\n${sql}\n\`\`\``, usage: { prompt_tokens: 50, completion_tokens: 5 } };
    },
  });
});
afterAll(async () => {
  await server.close();
  removeTempDir(dir);
});

const env = () => ({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID });
const common = ["--db-dir", "dbs", "--checkpoints", "memory", "--max-fix-rounds", "0", "--concurrency", "1"];

describe("eval on own data", () => {
  it("CSV with gold: scored, predictions in both formats, report.md names the metrics, the databases and the file", async () => {
    fs.writeFileSync(
      path.join(dir, "q.csv"),
      'id,question,db_id,gold,difficulty\n' +
        'c1,"Which items are cheap, say under 5?",shop,SELECT name FROM items WHERE price < 5,easy\n' +
        'c2,"How many legs has the cat?",zoo,"SELECT legs FROM animals WHERE name = \'cat\'",easy\n' +
        'c3,"All names, please",shop,SELECT name FROM items,hard\n',
    );
    const run = captureIO(env());
    expect(await main(["eval", "baseline", "--questions", "q.csv", ...common, "--out", "out-gold"], run.io)).toBe(0);
    expect(run.out()).toMatch(/^EX 66\.67% \(2\/3, bird semantics\); 0 skipped$/m);
    const report = fs.readFileSync(path.join(dir, "out-gold/report.md"), "utf8");
    expect(report).toContain("- Execution accuracy (EX): **66.67%** (2/3)");
    expect(report).toContain(`- Metrics computed: EX, on the databases in \`${path.join(dir, "dbs")}\`; questions from \`${path.join(dir, "q.csv")}\``);
    expect(report).toMatch(/\| easy \| 2 \| 2 \| 100\.00 \|/);
    const bird = JSON.parse(fs.readFileSync(path.join(dir, "out-gold/predict_dev.json"), "utf8"));
    expect(Object.keys(bird)).toEqual(["c1", "c2", "c3"]);
    const runFile = JSON.parse(fs.readFileSync(path.join(dir, "out-gold/run.json"), "utf8"));
    expect(runFile).toMatchObject({ bench: null, questions: path.join(dir, "q.csv"), dbDir: path.join(dir, "dbs") });
    // --resume with another question file is refused.
    fs.writeFileSync(path.join(dir, "q2.csv"), fs.readFileSync(path.join(dir, "q.csv")));
    const other = captureIO(env());
    expect(await main(["eval", "baseline", "--questions", "q2.csv", ...common, "--out", "out-gold", "--resume"], other.io)).toBe(1);
    expect(other.err()).toMatch(/: questions was .*q\.csv.*, now .*q2\.csv/);
  });

  it("JSONL without gold: every question runs and gets a prediction; EX is shown as not available", async () => {
    fs.writeFileSync(
      path.join(dir, "nogold.jsonl"),
      `${JSON.stringify({ question: "Which items are cheap?", db_id: "shop" })}\n${JSON.stringify({ question: "How many legs has the cat?", db_id: "zoo" })}\n${JSON.stringify({ question: "x", db_id: "missing" })}\n${JSON.stringify({ question: "A broken one", db_id: "shop" })}\n`,
    );
    const run = captureIO(env());
    expect(await main(["eval", "baseline", "--questions", "nogold.jsonl", ...common, "--out", "out-nogold"], run.io)).toBe(0);
    expect(run.out()).toContain("EX not available (no gold SQL: 3 questions run, predictions written); 1 skipped");
    // The progress line counts predictions that executed, not an EX it cannot know.
    expect(run.err()).toMatch(/executed \+2/);
    expect(run.err()).not.toMatch(/ EX /);
    const lines = fs.readFileSync(path.join(dir, "out-nogold/pred_dev.sql"), "utf8").trim().split("\n");
    expect(lines).toEqual(["SELECT name FROM items WHERE price < 5\tshop", "SELECT legs FROM animals WHERE name = 'cat'\tzoo", "SELECT\tmissing", "SELECT nope FROM items\tshop"]);
    const report = fs.readFileSync(path.join(dir, "out-nogold/report.md"), "utf8");
    expect(report).toContain("- Execution accuracy (EX): not available — no question has gold SQL (3 run, predictions written)");
    expect(report).toContain("- Predictions that did not execute: 1");
    expect(report).toContain("- Metrics computed: none (no gold SQL)");
    expect(report).toContain("1 × database file not found: missing.sqlite or missing/missing.sqlite in");
    expect(report).not.toContain("Gold SQL that did not execute");
  });

  it("shards of an own-data run merge: run.json's question file and database folder are read again", async () => {
    for (const shard of ["1/2", "2/2"]) {
      const run = captureIO(env());
      expect(await main(["eval", "baseline", "--questions", "q.csv", ...common, "--out", `shard-${shard[0]}`, "--shard", shard], run.io)).toBe(0);
    }
    const merged = captureIO();
    expect(await main(["merge", "shard-1", "shard-2", "--out", "merged"], merged.io), merged.err()).toBe(0);
    expect(merged.out()).toMatch(/Merged 2 shards: 3 questions\nEX 66\.67% \(2\/3\)/);
    expect(fs.readFileSync(path.join(dir, "merged/report.md"), "utf8")).toContain(`questions from \`${path.join(dir, "q.csv")}\``);
  });

  it("every runner command takes --questions/--db-dir through the shared run flags", async () => {
    for (const argv of [
      ["eval", "baseline", "--out", "x"],
      ["magic", "guideline", "--out", "x"],
      ["memo", "build", "--out", "x.sqlite"],
      ["ts-sql", "audit", "--out", "x"],
    ]) {
      const run = captureIO(env());
      expect(await main([...argv, "--db-dir", "dbs"], run.io), argv.join(" ")).toBe(2);
      expect(run.err(), argv.join(" ")).toContain("--db-dir DIR needs --questions FILE");
    }
  });
});
