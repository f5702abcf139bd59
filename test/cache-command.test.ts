/**
 * `sqlmend cache info|clear`: what the response and vector caches hold per model, and removing part of it — the next
 * run asks the model again for exactly what was removed, and nothing else.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDir, sha256File } from "./support/fixtures.ts";
import { minibenchFixture, runCli } from "./support/cli.ts";
import { type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";
import { agentsConfig, methodAgents } from "./support/method-agents.ts";

let dir: string;
let benchDir: string;
let server: OpenAIServer;
const home = () => path.join(dir, "home");
const sqlmend = (...args: string[]) => runCli(args, dir, { OPENAI_API_KEY: "k", SQLMEND_HOME: home() });
const byModel = (from: number) => server.requests.slice(from).reduce<Record<string, number>>((n, r) => ({ ...n, [r.model]: (n[r.model] ?? 0) + 1 }), {});

beforeAll(async () => {
  dir = makeTempDir();
  const fixture = await minibenchFixture(dir);
  benchDir = fixture.benchDir;
  server = await startOpenAIServer({ respond: methodAgents({ questions: [fixture.dev] }).respond });
  fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify({ ...agentsConfig({ baseURL: server.url }), embeddingModel: undefined }));
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

describe("sqlmend cache", () => {
  it("info counts the replies per model; clear --model removes that model's alone, and only they are asked again", async () => {
    const run = (out: string) => sqlmend("eval", "r3", "--bench", benchDir, "--limit", "6", "--out", out, "--checkpoints", "memory");
    expect((await run("a")).code).toBe(0);
    const asked = byModel(0);
    expect(Object.keys(asked).length).toBeGreaterThan(1);
    // Vectors of two embedding models, as the embedder stores them (model@endpoint).
    const vectors = new Database(path.join(home(), "embeddings.sqlite"));
    vectors.exec("CREATE TABLE vectors (model TEXT NOT NULL, hash TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model, hash)) WITHOUT ROWID");
    const put = vectors.prepare("INSERT INTO vectors VALUES (?, ?, x'00000000')");
    for (const [model, n] of [["agent/writer@http://127.0.0.1/v1", 3], ["emb@http://127.0.0.1/v1", 2]] as const) for (let i = 0; i < n; i++) put.run(model, `h${i}`);
    vectors.close();

    const info = JSON.parse((await sqlmend("cache", "info", "--json")).out);
    // Every request the server answered is one stored reply, under the model it went to.
    expect(Object.fromEntries(info.responses.byModel.map((m: { model: string; replies: number }) => [m.model, m.replies]))).toEqual(asked);
    expect(info.responses.threads).toBe(6);
    expect(info.vectors.vectors).toBe(5);
    const human = await sqlmend("cache", "info");
    expect(human.out).toMatch(new RegExp(`^  ${Object.values(asked).reduce((a, b) => a + b, 0)} replies from 6 threads; \\d+ tokens they cost when made$`, "m"));
    expect(human.out).toMatch(/^  agent\/writer +\d+ +\d+ +\d+ +20\d\d-/m);

    // A model the caches do not hold is said, naming those they do; nothing is removed.
    const typo = await sqlmend("cache", "clear", "--model", "agent/writter");
    expect(typo.code).toBe(1);
    expect(typo.err).toMatch(/^sqlmend cache: no model 'agent\/writter' in the caches of .*: they hold .*'agent\/writer'.*\(sqlmend cache info lists them\)$/m);
    expect(JSON.parse((await sqlmend("cache", "info", "--json")).out).responses.replies).toBe(info.responses.replies);
    const cleared = await sqlmend("cache", "clear", "--model", "agent/writer");
    expect(cleared.code, cleared.err).toBe(0);
    expect(cleared.out).toMatch(new RegExp(`^removed ${asked["agent/writer"]} replies and 3 vectors from `));
    const before = server.requests.length;
    expect((await run("b")).code).toBe(0);
    // Only the writer's replies were gone: only the writer is asked again (its new prompts then follow from them).
    expect(Object.keys(byModel(before))).toEqual(["agent/writer"]);
    expect(byModel(before)["agent/writer"]).toBe(asked["agent/writer"]);

    // --before a day after today: every reply; --all then leaves nothing, counters included.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const old = await sqlmend("cache", "clear", "--before", tomorrow);
    expect(old.out).toMatch(/^removed \d+ replies and 0 vectors/);
    expect(JSON.parse((await sqlmend("cache", "info", "--json")).out).responses.replies).toBe(0);
    expect((await sqlmend("cache", "clear", "--all")).out).toMatch(/^removed 0 replies and 2 vectors/);
    const empty = JSON.parse((await sqlmend("cache", "info", "--json")).out);
    expect([empty.responses.replies, empty.responses.threads, empty.vectors.vectors]).toEqual([0, 0, 0]);
  }, 120_000);

  it("says what is wrong in one line: nothing named to remove, a bad day, a damaged file (left as it is)", async () => {
    for (const [args, message] of [
      [["clear"], /say what to remove: --all, --model NAME, --before YYYY-MM-DD/],
      [["clear", "--before", "2026-02-30"], /--before takes a day as YYYY-MM-DD, not '2026-02-30'/],
      [["clear", "--all", "--model", "m"], /--all removes everything: give it alone/],
      [["info", "--model", "m"], /--all, --model and --before go with 'cache clear'/],
      [["purge"], /unknown cache command 'purge' \(commands: info, clear\)/],
    ] as const) {
      const r = await sqlmend("cache", ...args);
      expect([r.code, r.err]).toEqual([2, expect.stringMatching(message)]);
    }
    const other = path.join(dir, "other-home");
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, "responses.sqlite"), "not a database, but a file someone wants back");
    const hash = sha256File(path.join(other, "responses.sqlite"));
    const damaged = await runCli(["cache", "clear", "--all"], dir, { SQLMEND_HOME: other });
    expect(damaged.code).toBe(1);
    expect(damaged.err).toMatch(/^sqlmend cache: cannot read the caches in .*: file is not a database$/m);
    expect(sha256File(path.join(other, "responses.sqlite"))).toBe(hash);
  });
});
