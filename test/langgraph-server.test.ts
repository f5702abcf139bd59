/**
 * `eval --server URL`: the LangGraph dev server (`@langchain/langgraph-cli dev`) started by the test on 127.0.0.1 with
 * the project's langgraph.json and the scripted model endpoint; a short eval through it gives the verdicts and SQL of
 * the same eval in process.
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import type { Question } from "../state/question.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";
import { captureIO as capture, minibenchFixture, questionOf } from "./support/cli.ts";
import { type ServeHandle, startServe } from "../runner/lab/serve.ts";
import { tidyGraphModule } from "./support/user-modules.ts";

/** A graph of the user's (baseline with a tidy step), served beside the built-ins. */
const TIDY_GRAPH = tidyGraphModule(path.resolve(import.meta.dirname, "..", "index.ts"));

let dir: string;
let benchDir: string;
let dev: Question[];
let models: OpenAIServer;
let serve: ServeHandle;
let serverUrl: string;
let serverLog = "";

const captureIO = (env: NodeJS.ProcessEnv = {}) => capture(dir, env);
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
const results = (out: string) => new Map(fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).map((r) => [r.id, r]));

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev } = await minibenchFixture(dir));
  // Every third question answered wrongly, one with SQL that fails (so the fix loop runs on the server).
  models = await startOpenAIServer({
    respond: (req) => {
      const q = dev.find((x) => x.question === questionOf(req));
      const fixing = /error/i.test(req.messages.at(-1)?.content ?? "") && !q;
      const sql = fixing ? "SELECT 1" : !q ? "SELECT 1" : Number(q.id) === 1 ? "SELECT nosuchcolumn FROM nosuchtable" : Number(q.id) % 3 === 0 ? "SELECT 42" : q.goldSql!;
      return { content: `\`\`\`sql\n${sql}\n\`\`\``, usage: { prompt_tokens: 100, completion_tokens: 10 } };
    },
  });
  const port = await freePort();
  // Served as `sqlmend serve --graph FILE` serves: the built-in graphs and a graph module of the user's.
  fs.writeFileSync(path.join(dir, "tidy-graph.mts"), TIDY_GRAPH);
  serve = await startServe({
    graphs: [path.join(dir, "tidy-graph.mts")],
    port,
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, OPENAI_BASE_URL: models.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "server-home") },
    log: (text) => (serverLog = (serverLog + text).slice(-4000)),
    readyTimeoutMs: 90_000,
  });
  serverUrl = serve.url;
}, 120_000);
afterAll(async () => {
  await serve?.close();
  await models?.close();
  removeTempDir(dir);
});

describe("eval --server (a LangGraph server runs the graphs)", () => {
  it("gives the verdicts and SQL of the same eval in process, with the threads on the server", async () => {
    const env = { OPENAI_BASE_URL: models.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") };
    const common = ["eval", "baseline", "--bench", benchDir, "--limit", "7", "--max-fix-rounds", "1", "--checkpoints", "memory"];
    const local = path.join(dir, "local");
    const inProcess = captureIO(env);
    expect(await main([...common, "--out", local], inProcess.io)).toBe(0);
    const remote = path.join(dir, "remote");
    const run = captureIO(env);
    const code = await main([...common, "--out", remote, "--server", serverUrl], run.io);
    expect(run.err(), serverLog.slice(-1500)).not.toMatch(/failed|error/i);
    expect(code).toBe(0);
    const [a, b] = [results(local), results(remote)];
    expect(b.size).toBe(7);
    for (const [id, r] of a) expect({ id, correct: b.get(id)?.correct, sql: b.get(id)?.sql, iterations: b.get(id)?.iterations }).toEqual({ id, correct: r.correct, sql: r.sql, iterations: r.iterations });
    expect(run.out().split("\n")[0]).toBe(inProcess.out().split("\n")[0]);
    // The question's thread is on the server, under the id derived from the run's thread id.
    const { serverThreadId } = await import("../runner/run/remote-graph.ts");
    const thread = b.get("2")!.thread as string;
    const state = (await fetch(`${serverUrl}/threads/${serverThreadId(thread)}/state`).then((r) => r.json())) as { values: { question: string } };
    expect(state.values.question).toBe(dev.find((q) => q.id === "2")!.question);

    // Resumed: finished threads are read back from the server, nothing is asked again.
    const asked = models.requests.length;
    expect(await main([...common, "--out", remote, "--server", serverUrl, "--resume"], captureIO(env).io)).toBe(0);
    expect(models.requests.length).toBe(asked);
  }, 120_000);

  it("sqlmend serve --graph FILE serves a graph of the user's: eval --server --graph FILE gives the in-process verdicts and outcome", async () => {
    expect(serve.graphs).toContain("tidy-baseline");
    const env = { OPENAI_BASE_URL: models.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-tidy") };
    const common = ["eval", "--graph", path.join(dir, "tidy-graph.mts"), "--bench", benchDir, "--limit", "4", "--max-fix-rounds", "1", "--checkpoints", "memory"];
    const local = path.join(dir, "tidy-local");
    expect(await main([...common, "--out", local], captureIO(env).io)).toBe(0);
    const remote = path.join(dir, "tidy-remote");
    const run = captureIO(env);
    expect(await main([...common, "--out", remote, "--server", serverUrl], run.io), `${run.err()}\n${serverLog.slice(-1500)}`).toBe(0);
    const [a, b] = [results(local), results(remote)];
    expect(b.size).toBe(4);
    for (const [id, r] of a) expect({ id, correct: b.get(id)?.correct, sql: b.get(id)?.sql, outcome: b.get(id)?.outcome }).toEqual({ id, correct: r.correct, sql: r.sql, outcome: r.outcome });
    expect([...b.values()].every((r) => (r.outcome as { tidied?: number }).tidied === 1)).toBe(true);
  }, 120_000);

  it("serves each graph with a narrow input (question, database, evidence, SQL to correct), not its whole state", async () => {
    const assistants = (await fetch(`${serverUrl}/assistants/search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ limit: 100 }) }).then((r) => r.json())) as { assistant_id: string; graph_id: string }[];
    const inputs: Record<string, string[]> = {};
    for (const a of assistants) {
      const schemas = (await fetch(`${serverUrl}/assistants/${a.assistant_id}/schemas`).then((r) => r.json())) as { input_schema?: { properties?: Record<string, unknown> } };
      inputs[a.graph_id] = Object.keys(schemas.input_schema?.properties ?? {}).sort();
    }
    const base = ["dbId", "dbPath", "descriptionDir", "evidence", "graph", "question", "questionId", "sql"];
    for (const graph of ["baseline", "repair", "r3", "r3-review", "ts-sql", "ts-sql-refine", "memo-sql", "memo-refine", "magic"]) expect(inputs[graph], graph).toEqual(base);
    expect(inputs["magic-feedback"]).toEqual([...base, "goldSql", "incorrectSql"].sort());
    expect(inputs["magic-guideline"]).toEqual([...base, "batch", "batchNo", "guideline"].sort());
  }, 60_000);

  it("a server that is not there, or does not serve the graph, is one line before any question runs", async () => {
    const env = { OPENAI_BASE_URL: models.url, SQLMEND_MODEL: TEST_MODEL_ID };
    const down = captureIO(env);
    expect(await main(["eval", "baseline", "--bench", benchDir, "--limit", "2", "--out", path.join(dir, "down"), "--checkpoints", "memory", "--server", "http://127.0.0.1:9"], down.io)).toBe(1);
    expect(down.err().trim().split("\n")).toHaveLength(1);
    expect(down.err()).toMatch(/LangGraph server at http:\/\/127\.0\.0\.1:9: .*is it running/);
    const swapped = captureIO(env);
    expect(await main(["eval", "baseline", "--bench", benchDir, "--limit", "2", "--out", path.join(dir, "swap"), "--server", serverUrl, "--node", "generate=./x.ts"], swapped.io)).toBe(2);
    expect(swapped.err()).toMatch(/--node swaps a node in this process/);
  }, 60_000);
});
