/**
 * `--checkpoints postgres://…` against a real PostgreSQL server started by the test on 127.0.0.1 (Debian's
 * binaries; `.ci/run` installs them). Skipped, with the reason printed, only where no server binary exists.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import { readThread } from "../runner/trace/read-trace.ts";
import type { Question } from "../state/question.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";
import { captureIO as capture, goldResponder, minibenchFixture, questionOf } from "./support/cli.ts";
import { type PostgresServer, startPostgres } from "./support/postgres.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const started = await startPostgres();
const skip = "skip" in started ? started.skip : undefined;
if (skip) console.warn(`postgres-checkpoints: skipped: ${skip}`);
const pg = started as PostgresServer;

let dir: string;
let benchDir: string;
let dev: Question[];
let server: OpenAIServer;

const captureIO = (env: NodeJS.ProcessEnv = {}) => capture(dir, env);

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev } = await minibenchFixture(dir));
  server = await startOpenAIServer({ latencyMs: 100, respond: goldResponder(dev) });
});
afterAll(async () => {
  await server?.close();
  if (!skip) pg.stop();
  removeTempDir(dir);
});

describe.skipIf(!!skip)("checkpoints in PostgreSQL", () => {
  it("eval checkpoints every thread there; threads and inspect read them back", async () => {
    const env = { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") };
    const out = path.join(dir, "eval-pg");
    const run = captureIO(env);
    expect(await main(["eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "4", "--checkpoints", pg.url], run.io)).toBe(0);
    expect(run.out()).toMatch(/^EX 100\.00% \(4\/4/);
    const record = JSON.parse(fs.readFileSync(path.join(out, "results.jsonl"), "utf8").split("\n")[0]!);
    const listed = captureIO(env);
    expect(await main(["threads", "--checkpoints", pg.url, "--prefix", "eval:"], listed.io)).toBe(0);
    expect(listed.out().trim().split("\n")).toHaveLength(4);
    expect(listed.out()).toMatch(new RegExp(`${record.thread.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s+baseline\\s+\\d+ checkpoints`));
    const shown = captureIO(env);
    expect(await main(["inspect", record.thread, "--checkpoints", pg.url], shown.io)).toBe(0);
    expect(shown.out()).toMatch(/\(graph baseline\) — finished/);
    expect(shown.out()).toMatch(/^\s+\d+\s+generate\s/m);
    // The trace API reads the same thread from PostgreSQL (string channel versions, its own pending writes).
    const thread = await readThread(record.thread, { checkpoints: pg.url, env, cwd: dir, state: true });
    expect(thread).toMatchObject({ graph: "baseline", readAs: "graph", finished: true, checkpoints: expect.stringMatching(/^postgres:\/\/.*127\.0\.0\.1/) });
    expect(thread.steps.map((s) => s.slots)).toEqual([["schema"], ["generate"], ["execute"]]);
    expect(thread.steps[1]!.calls[0]).toMatchObject({ role: "generator", model: TEST_MODEL_ID });
    expect(thread.steps[1]!.diff.map((d) => d.field)).toContain("sql");
    expect(thread.steps[2]!.execution).toMatchObject({ ok: true });
    expect(thread.steps[2]!.state).toMatchObject({ sql: record.sql });
  }, 60_000);

  it("is killed (SIGKILL) mid-run and finishes with --resume: nothing lost, nothing redone", async () => {
    const out = path.join(dir, "eval-pg-kill");
    const args = ["bin/sqlmend.js", "eval", "baseline", "--bench", benchDir, "--out", out, "--concurrency", "2", "--max-fix-rounds", "0", "--checkpoints", pg.url];
    const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-kill") };
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    const results = path.join(out, "results.jsonl");
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !(fs.existsSync(results) && fs.readFileSync(results, "utf8").split("\n").filter(Boolean).length >= 3)) {
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    const before = fs.readFileSync(results, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l).id as string);
    expect(before.length).toBeGreaterThanOrEqual(3);
    expect(before.length).toBeLessThan(dev.length);
    const asked = server.requests.length;
    const resumed = captureIO({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-kill") });
    resumed.io.cwd = ROOT;
    expect(await main([...args.slice(1), "--resume"], resumed.io)).toBe(0);
    const ids = fs.readFileSync(results, "utf8").trim().split("\n").map((l) => JSON.parse(l).id as string);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(dev.length);
    const askedAgain = server.requests.slice(asked).map(questionOf);
    for (const id of before) expect(askedAgain).not.toContain(dev.find((q) => q.id === id)!.question);
    expect(resumed.out()).toMatch(/^EX 100\.00%/);
  }, 90_000);

  it("an unreachable server or a wrong URL is one line naming the server, password hidden", async () => {
    const env = { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID };
    const down = captureIO(env);
    expect(await main(["eval", "baseline", "--bench", benchDir, "--out", path.join(dir, "pg-down"), "--limit", "2", "--checkpoints", "postgres://me:secret@127.0.0.1:1/nope"], down.io)).toBe(1);
    expect(down.err().trim().split("\n")).toHaveLength(1);
    expect(down.err()).toMatch(/cannot use PostgreSQL checkpoints at postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/nope: connection refused/);
    expect(down.err()).not.toContain("secret");
    const noDb = captureIO(env);
    expect(await main(["threads", "--checkpoints", `postgres://postgres@127.0.0.1:${pg.port}/no_such_db`], noDb.io)).toBe(1);
    expect(noDb.err()).toMatch(/no_such_db: no such database/);
  }, 60_000);

  it("passwords in --checkpoints and --cache URLs never leave the process: reports, run.json, output, ask's hint", async () => {
    const secret = "s3cr3t-pw";
    const withPassword = pg.url.replace("postgres@", `postgres:${secret}@`);
    const env = { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-secret") };
    const out = path.join(dir, "secret");
    const run = captureIO(env);
    // The Redis cannot be reached (port 9): the run goes on without the cache, which it says, naming the URL.
    expect(await main(["eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "2", "--checkpoints", withPassword, "--cache", `redis://:${secret}@127.0.0.1:9`], run.io), run.err()).toBe(0);
    const written = ["report.md", "report.html", "run.json", "results.jsonl"].map((f) => fs.readFileSync(path.join(out, f), "utf8"));
    for (const text of [...written, run.out(), run.err()]) expect(text).not.toContain(secret);
    // The command line is the config's (its options in declaration order), each URL's password masked.
    expect(written[0]).toMatch(/^- Command: `sqlmend eval .*--cache redis:\/\/:\*\*\*@127\.0\.0\.1:9 --checkpoints postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres`$/m);
    expect(written[1]).toContain("postgres://postgres:***@127.0.0.1");
    const asked = captureIO(env);
    expect(await main(["ask", "baseline", "--db", dev[0]!.dbPath, "--checkpoints", withPassword, dev[0]!.question], asked.io), asked.err()).toBe(0);
    expect(asked.out() + asked.err()).toMatch(/sqlmend inspect \S+ --checkpoints postgres:\/\/postgres:\*\*\*@/);
    expect(asked.out() + asked.err()).not.toContain(secret);
  }, 60_000);
});
