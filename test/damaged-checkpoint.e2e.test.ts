/**
 * A damaged checkpoint never blocks a run for good (issue 19, point 4): the question whose thread does not read
 * restarts from scratch with a warning naming the thread and what was done, the rest resume from their checkpoints.
 * A real checkpoint file, damaged by hand; the real ChatOpenAI client against the local server.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

const asked = (from: number) => server.requests.slice(from).map((r) => dev.find((q) => r.messages.some((m) => m.content.includes(q.question)))?.id);

describe("damaged checkpoints", () => {
  it("restart the damaged question from scratch with a warning; the others resume from their checkpoints", async () => {
    const out = path.join(dir, "run");
    const file = path.join(dir, "checkpoints.sqlite");
    const args = ["eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "3", "--checkpoints", file, "--model", "test-model", "--base-url", server.url, "--concurrency", "1"];
    expect((await sqlmend(...args)).code).toBe(0);
    const runId = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8")).runId as string;
    // As after a kill between the threads' last checkpoints and their records: no record, finished threads.
    fs.rmSync(path.join(out, "results.jsonl"));
    const victim = `eval:${runId}:1`;
    const db = new Database(file);
    try {
      const changed = db.prepare("UPDATE checkpoints SET checkpoint = ? WHERE thread_id = ?").run(Buffer.from([1, 0xff, 0xff, 0xff, 0x7f]), victim).changes;
      expect(changed).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    const before = server.requests.length;
    const resumed = await sqlmend(...args, "--resume");
    expect(resumed.code, resumed.err).toBe(0);
    // Only the damaged question asked the model again.
    expect(asked(before)).toEqual(["1"]);
    expect(resumed.err).toMatch(
      new RegExp(`^sqlmend eval: warning: question 1: thread '${victim}': checkpoint data is damaged: .*; its checkpoints were deleted and the question restarted from scratch$`, "m"),
    );
    const records = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; correct: boolean; checkpointRestart?: string; failure?: string });
    expect(records.map((r) => [r.id, r.correct, r.failure])).toEqual([["0", true, undefined], ["1", true, undefined], ["2", true, undefined]].sort());
    expect(records.find((r) => r.id === "1")!.checkpointRestart).toMatch(/^thread 'eval:\w+:1': checkpoint data is damaged/);
    expect(records.filter((r) => r.checkpointRestart)).toHaveLength(1);
    expect(fs.readFileSync(path.join(out, "report.md"), "utf8")).toMatch(/^- Questions restarted from scratch after damaged checkpoints: 1 \(first: 1: thread /m);
  }, 60_000);

  it("a truncated checkpoint file is set aside with a warning and the run goes on in a new one", async () => {
    const out = path.join(dir, "truncated");
    const file = path.join(dir, "truncated.sqlite");
    const args = ["eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "6", "--checkpoints", file, "--model", "test-model", "--base-url", server.url, "--concurrency", "1"];
    expect((await sqlmend(...args)).code).toBe(0);
    fs.rmSync(path.join(out, "results.jsonl"));
    const size = fs.statSync(file).size;
    fs.truncateSync(file, Math.floor(size / 2));
    const resumed = await sqlmend(...args, "--resume");
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).toMatch(/^sqlmend eval: warning: .*truncated\.sqlite: cannot open checkpoint file .*: database disk image is malformed; set aside as truncated\.sqlite\.damaged-[\dTZ-]+, its threads start again in a new file$/m);
    expect(resumed.out).toMatch(/^EX 100\.00% \(6\/6, bird semantics\)/m);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith("truncated.sqlite.damaged-") && !/-(wal|shm)$/.test(f))).toHaveLength(1);
    // Not only on stderr: the report lists the fallback.
    expect(fs.readFileSync(path.join(out, "report.md"), "utf8")).toMatch(/Fallbacks during the run: 1\n {2}- .*truncated\.sqlite: .*set aside as truncated\.sqlite\.damaged-/);
  }, 60_000);
});

describe("a corrupt benchmark database", () => {
  it("is not taken for damaged checkpoints: no thread deleted, no restart counted; the record says the database is unreadable", async () => {
    const copy = path.join(dir, "bench-corrupt");
    fs.cpSync(benchDir, copy, { recursive: true });
    const q = dev[0]!;
    const dbFile = path.join(copy, path.relative(benchDir, q.dbPath));
    // The header stays (SQLite opens it); every page after the first is garbage: "database disk image is malformed".
    const bytes = fs.readFileSync(dbFile);
    bytes.fill(0x5a, 100);
    fs.writeFileSync(dbFile, bytes);
    const out = path.join(dir, "corrupt-db");
    const file = path.join(dir, "corrupt-db.sqlite");
    const args = ["eval", "baseline", "--bench", copy, "--out", out, "--ids", q.id, "--checkpoints", file, "--model", "test-model", "--base-url", server.url, "--concurrency", "1"];
    const run = await sqlmend(...args);
    expect(run.code, run.err).toBe(3);
    expect(run.err).not.toMatch(/restarted from scratch|checkpoints were deleted/);
    const records = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; failure?: string; checkpointRestart?: string });
    expect(records).toHaveLength(1);
    expect(records[0]!.checkpointRestart).toBeUndefined();
    expect(records[0]!.failure).toMatch(/benchmark database .* is unreadable: .*malformed/);
    // The thread's checkpoints are still there (nothing was deleted).
    const runId = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8")).runId as string;
    const db = new Database(file, { readonly: true });
    try {
      expect((db.prepare("SELECT count(*) AS n FROM checkpoints WHERE thread_id = ?").get(`eval:${runId}:${q.id}`) as { n: number }).n).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    expect(fs.readFileSync(path.join(out, "report.md"), "utf8")).not.toMatch(/restarted from scratch after damaged checkpoints/);
  }, 60_000);
});
