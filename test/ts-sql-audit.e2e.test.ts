/**
 * TS-SQL through the launcher and the real ChatOpenAI client against the local OpenAI-compatible server: the audit
 * of gold SQL (RQ0) on a fixture with a deliberately wrong gold query, its resume, and an eval of the generator.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import type { CliIO } from "../cli/shared/command.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type ChatRequestRecord, type ScriptedReply, startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";

const SCHEMA = `
CREATE TABLE district (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE school (id INTEGER PRIMARY KEY, district_id INTEGER NOT NULL REFERENCES district(id), name TEXT NOT NULL,
  status TEXT CHECK (status IN ('Active', 'Closed')), score REAL);
INSERT INTO district VALUES (1, 'North');
INSERT INTO school VALUES (1, 1, 'Real One', 'Active', 700), (2, 1, 'Real Two', 'Closed', 300);
`;
const RIGHT = "SELECT name FROM school WHERE status = 'Active' ORDER BY score DESC LIMIT 1";
const QUESTIONS = [
  { question_id: 0, db_id: "schools", question: "Which active school has the highest score?", evidence: "", SQL: RIGHT, difficulty: "simple" },
  // Deliberately wrong gold: it counts closed schools too.
  { question_id: 1, db_id: "schools", question: "How many active schools are there?", evidence: "", SQL: "SELECT count(*) FROM school", difficulty: "simple" },
];
const DATA = {
  tables: {
    district: [{ id: 1, name: "D1" }],
    school: [
      { id: 1, district_id: 1, name: "Alpha", status: "Active", score: 500 },
      { id: 2, district_id: 1, name: "Beta", status: "Closed", score: 650 },
      { id: 3, district_id: 1, name: "Gamma", status: "Active", score: 580 },
    ],
  },
};
const CODE: Record<string, string> = {
  "Which active school has the highest score?": `// active schools only\nconst active = tables.school.filter((s) => s.status === "Active");\n// best score first, keep the top one\nresult = active.sort((a, b) => b.score - a.score).slice(0, 1).map((s) => ({ name: s.name }));`,
  "How many active schools are there?": `// count the schools whose status is Active\nresult = [{ n: tables.school.filter((s) => s.status === "Active").length }];`,
};

const text = (req: ChatRequestRecord) => req.messages.map((m) => m.content).join("\n");
const usage = { prompt_tokens: 300, completion_tokens: 40 };
const reply = (content: string): ScriptedReply => ({ content, usage });

/** Answers each agent by what its prompt asks for. */
function respond(req: ChatRequestRecord): ScriptedReply {
  const all = text(req);
  // The last "Question:" line: the prompts open with a 1-shot example that has its own.
  const question = [...all.matchAll(/Question: (.*)/g)].at(-1)?.[1]?.trim() ?? "";
  if (/pick out what a database question refers to/.test(all)) return reply(JSON.stringify({ keywords: ["active", "school"] }));
  if (/software tester/.test(all)) return reply(`\`\`\`json\n${JSON.stringify(DATA)}\n\`\`\``);
  if (/data scientist/.test(all)) return reply(`\`\`\`javascript\n${CODE[question]}\n\`\`\``);
  if (/test case checks a query/.test(all)) return reply(`\`\`\`sql\n${RIGHT}\n\`\`\``);
  return reply("```sql\nSELECT name FROM school ORDER BY score DESC LIMIT 1\n```");
}

function captureIO(cwd: string, env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env: { ...env }, cwd, isTTY: false };
  return { io, out: () => out.join(""), err: () => err.join("") };
}

let dir: string;
let bench: string;
beforeAll(() => {
  dir = makeTempDir();
  bench = path.join(dir, "bench");
  makeDb(bench, "dev_databases/schools/schools.sqlite", SCHEMA);
  fs.writeFileSync(path.join(bench, "dev.json"), JSON.stringify(QUESTIONS));
});
afterAll(() => removeTempDir(dir));

describe("sqlmend ts-sql audit", () => {
  it("lists the gold query that fails its own test case, with data, code and both results; resumes without new calls", async () => {
    const server = await startOpenAIServer({ respond });
    try {
      const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID };
      const out = path.join(dir, "audit");
      const args = ["ts-sql", "audit", "--bench", bench, "--out", out, "--checkpoints", path.join(dir, "audit.ckpt")];
      const run = captureIO(dir, env);
      expect(await main(args, run.io)).toBe(0);
      expect(run.out()).toMatch(/1 of 2 gold queries fail their own test case/);

      const lines = fs.readFileSync(path.join(out, "audit.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
      // Questions run two at a time: lines come in finishing order.
      expect(lines.map((l) => [l.id, l.status]).sort()).toEqual([["0", "passed"], ["1", "failed"]]);
      const failed = lines.find((l) => l.id === "1");
      expect(failed.expected).toEqual({ columns: ["n"], rows: [[2]] });
      expect(failed.gold).toMatchObject({ ok: true, result: { rows: [[3]] } });
      expect(failed.testData.school).toHaveLength(3);

      const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
      expect(report).toContain("## 1 (schools)");
      expect(report).not.toContain("## 0 (schools)");
      expect(report).toContain("SELECT count(*) FROM school");
      expect(report).toContain("count the schools whose status is Active");
      expect(report).toMatch(/Gold SQL on the test data:\*\* columns \["count\(\*\)"\]; 1 row\(s\):\s+\[3\]/);
      // No revision in an audit: the gold is only tested.
      expect(server.requests.some((r) => /test case checks a query/.test(text(r)))).toBe(false);

      // Every agent turn of the audit is a step `inspect` can show.
      const shown = captureIO(dir, env);
      expect(await main(["inspect", failed.thread, "--checkpoints", path.join(dir, "audit.ckpt")], shown.io)).toBe(0);
      const stepNodes = [...shown.out().matchAll(/^\s+\d+\s+(\S+)/gm)].map((m) => m[1]);
      expect(stepNodes).toEqual(expect.arrayContaining(["link", "data", "check", "coder", "inspect", "vote", "test", "execute"]));
      expect(shown.out()).toMatch(/coder +.*\[1 model call: coder \d+\/\d+ tok\]/);

      const before = server.requests.length;
      const again = captureIO(dir, env);
      expect(await main([...args, "--resume"], again.io)).toBe(0);
      expect(server.requests.length).toBe(before);
      expect(fs.readFileSync(path.join(out, "audit.jsonl"), "utf8").trim().split("\n")).toHaveLength(2);
      const refused = captureIO(dir, env);
      expect(await main(args, refused.io)).toBe(1);
      expect(refused.err()).toMatch(/already holds a run: pass --resume/);
      // A resume with other TS-SQL settings is refused; an unknown id and a corrupt run file are one clear line each.
      const other = captureIO(dir, env);
      expect(await main([...args, "--resume", "--max-data-rounds", "1"], other.io)).toBe(1);
      expect(other.err()).toMatch(/--resume: .*: option --max-data-rounds was \d+, now 1/);
      const unknown = captureIO(dir, env);
      expect(await main([...args.slice(0, -4), "--out", path.join(dir, "audit-ids"), "--ids", "0,42"], unknown.io)).toBe(1);
      expect(unknown.err().trim().split("\n")[0]).toMatch(/--ids: no question with id 42/);
      fs.writeFileSync(path.join(out, "run.json"), "{ not json");
      const corrupt = captureIO(dir, env);
      expect(await main([...args, "--resume"], corrupt.io)).toBe(1);
      expect(corrupt.err().trim().split("\n")[0]).toMatch(/run\.json: unreadable/);
    } finally {
      await server.close();
    }
  });

  it("takes the graph flags eval takes: --node swaps a slot, and run.json records it for --resume", async () => {
    const server = await startOpenAIServer({ respond });
    try {
      const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID };
      // A link slot that asks no model: the audit must use it instead of the linker agent.
      const module = path.join(dir, "no-link.mjs");
      fs.writeFileSync(module, "export default () => async () => ({ attempts: [{ node: 'link', sql: '', ok: true, note: 'custom link slot' }] });\n");
      const out = path.join(dir, "audit-node");
      const run = captureIO(dir, env);
      expect(await main(["ts-sql", "audit", "--bench", bench, "--out", out, "--ids", "1", "--checkpoints", "memory", "--node", `link=${module}`], run.io)).toBe(0);
      expect(run.out()).toMatch(/1 of 1 gold queries fail their own test case/);
      expect(server.requests.some((r) => /pick out what a database question refers to/.test(text(r)))).toBe(false);
      // run.json records the revision limit the audit really runs with (0), not the graph's default.
      expect(JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8")).settings).toMatchObject({ node: { link: { path: module, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } }, "max-revisions": 0 });
      // Each record carries the question's outcome; report.md sums it.
      const record = JSON.parse(fs.readFileSync(path.join(out, "audit.jsonl"), "utf8").trim());
      expect(record.outcome).toMatchObject({ tested: true, skipped: null, testTables: 2, testRows: 4, testsFailed: 1, revisions: 0 });
      expect(fs.readFileSync(path.join(out, "report.md"), "utf8")).toMatch(/test case built for 1\/1/);
      const refused = captureIO(dir, env);
      expect(await main(["ts-sql", "audit", "--bench", bench, "--out", path.join(dir, "audit-initial"), "--initial", "baseline"], refused.io)).toBe(2);
      expect(refused.err()).toMatch(/--initial and --correct do not apply/);
      // Every other flag it parses is honoured or refused: those of nodes the audit never runs are refused.
      for (const [flag, value] of [["--max-revisions", "2"], ["--few-shot", "2"], ["--max-fix-rounds", "1"], ["--schema-max-chars", "5000"]]) {
        const r = captureIO(dir, env);
        expect(await main(["ts-sql", "audit", "--bench", bench, "--out", path.join(dir, `audit-refused${flag}`), flag!, value!], r.io)).toBe(2);
        expect(r.err()).toMatch(new RegExp(`${flag} does not apply`));
      }
    } finally {
      await server.close();
    }
  });

  it("eval runs the ts-sql generator with its own flags through the real client (coder models, rising temperature)", async () => {
    let codeCalls = 0;
    const server = await startOpenAIServer({
      respond: (req) => {
        // The first code of each coder model carries no comments, so inspection asks again at +0.01.
        if (/data scientist/.test(text(req)) && codeCalls++ < 2) return reply("```javascript\nresult = tables.school.filter((s) => s.status === 'Active').sort((a, b) => b.score - a.score).slice(0, 1).map((s) => ({ name: s.name }));\n```");
        return respond(req);
      },
    });
    try {
      const env = { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID };
      const out = path.join(dir, "eval");
      const run = captureIO(dir, env);
      const code = await main(
        ["eval", "ts-sql", "--bench", bench, "--out", out, "--ids", "0", "--checkpoints", "memory", "--coder-models", "model-a,model-b", "--max-revisions", "2"],
        run.io,
      );
      expect(run.err()).not.toMatch(/error/i);
      expect(code).toBe(0);
      expect(run.out()).toMatch(/EX 100.00% \(1\/1/);
      const coderRequests = server.requests.filter((r) => /data scientist/.test(text(r)));
      expect(coderRequests.map((r) => r.body.model).sort()).toEqual(["model-a", "model-a", "model-b", "model-b"]);
      expect(coderRequests.map((r) => r.body.temperature).sort()).toEqual([0, 0, 0.01, 0.01]);
      const record = JSON.parse(fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim());
      expect(record.iterations).toBe(1);
      expect(Object.keys(record.usageByRole).sort()).toEqual(["coder", "data", "generator", "linker", "reviser"]);
      const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
      expect(report).toMatch(/max-revisions/);
      expect(report).toMatch(/- test case built for 1\/1\n- tested SQL passing its test case: 0\/1 at first, 1\/1 after revision/);
      expect(record.outcome).toMatchObject({ tested: true, testCodeBuilt: true, testsPassed: 1, testsFailed: 1, revisions: 1, comparison: "multiset" }); // LIMIT 1: no order to compare
      // The gold-aware figure: the generator's first SQL ignores the status but happens to return the gold's row on the
      // real database (EX: correct); its test case failed it, so test and EX disagree.
      expect(record.outcome).toMatchObject({ oracleFirstSqlCorrect: true, oracleTestAgreesWithGold: false });
      expect(report).toMatch(/test cases whose verdict on the first tested SQL agrees with EX \(oracle\): 0\/1/);
    } finally {
      await server.close();
    }
  });
});
