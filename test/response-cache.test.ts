/**
 * The response cache (tools/models/response-cache.ts) against the local OpenAI-compatible server: what makes a key,
 * the occurrence rule (n identical sampled requests stay n replies, in order, on a rerun), the modes, a damaged file
 * set aside, token honesty, and a rerun of a finished eval through the launcher answered from the cache.
 */
import fs from "node:fs";
import { spawn } from "node:child_process";
import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import Database from "better-sqlite3";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { main } from "../cli/main.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { callModel, callStructured } from "../tools/models/llm.ts";
import { createOpenAIProvider, type ModelConfig } from "../tools/models/models.ts";
import { closeResponseStores, openResponseStore, ResponseCache, ResponseStore } from "../tools/models/response-cache.ts";
import type { CacheMode } from "../tools/models/cache-modes.ts";
import { usageOfCalls } from "../state/usage.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";
import { agentsConfig, methodAgents } from "./support/method-agents.ts";
import { goldResponder, minibenchFixture, runCli } from "./support/cli.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
let dir: string;
let server: OpenAIServer;
let counter = 0;

beforeAll(async () => {
  dir = makeTempDir();
  // Every reply differs (a counter), so a served reply is told apart from a fresh one.
  server = await startOpenAIServer({ respond: () => ({ content: `reply ${++counter}`, usage: { prompt_tokens: 11, completion_tokens: 5 } }) });
});
afterAll(async () => {
  closeResponseStores();
  await server?.close();
  removeTempDir(dir);
});

const config = (extra: Partial<ModelConfig> = {}): ModelConfig => ({ model: "m", baseURL: server.url, roles: {}, maxRetries: 0, ...extra });
const provider = (file: string, mode: Exclude<CacheMode, "off">, extra: Partial<ModelConfig> = {}) => {
  const cache = new ResponseCache(openResponseStore(file, () => {}), mode);
  return createOpenAIProvider(config(extra), { OPENAI_API_KEY: "k" }, { cache });
};
const ask = (models: ReturnType<typeof provider>, text = "hello") => callModel(models, "generator", [{ role: "user", content: text }]);

describe("response cache", () => {
  it("serves the k-th identical request the k-th stored reply, spends no tokens on it and says what it saved", async () => {
    const file = path.join(dir, "order.sqlite");
    const first = provider(file, "on", { temperature: 0.8 });
    const before = server.requests.length;
    const made = [await ask(first), await ask(first), await ask(first)];
    expect(server.requests.length - before).toBe(3);
    expect(new Set(made.map((c) => c.text)).size).toBe(3);
    expect(made.every((c) => !c.record.cached && c.record.inputTokens === 11)).toBe(true);

    const again = provider(file, "on", { temperature: 0.8 });
    const served = [await ask(again), await ask(again), await ask(again)];
    expect(server.requests.length - before).toBe(3);
    expect(served.map((c) => c.text)).toEqual(made.map((c) => c.text));
    for (const c of served) expect(c.record).toMatchObject({ cached: true, inputTokens: 0, outputTokens: 0, savedInputTokens: 11, savedOutputTokens: 5 });
    expect(usageOfCalls(served.map((c) => c.record))).toMatchObject({ calls: 3, inputTokens: 0, outputTokens: 0, cached: 3, savedTokens: 48 });
    expect(again.cacheStats).toMatchObject({ lookups: 3, hits: 3, writes: 0, savedInputTokens: 33 });
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT model, occurrence, input_tokens FROM responses ORDER BY occurrence").all()).toEqual([0, 1, 2].map((occurrence) => ({ model: "m", occurrence, input_tokens: 11 })));
    db.close();
    // A fourth identical request is a new sample.
    const fourth = await ask(again);
    expect(server.requests.length - before).toBe(4);
    expect(made.map((c) => c.text)).not.toContain(fourth.text);
  });

  it("numbers identical requests per thread: a resumed thread goes on counting, a fresh thread counts from 0", async () => {
    const file = path.join(dir, "threads.sqlite");
    // LangGraph installs LangChain's async context on import; this test runs no graph, so it installs it itself.
    AsyncLocalStorageProviderSingleton.initializeGlobalInstance(new AsyncLocalStorage());
    const inThread = <T>(thread: string, fn: () => Promise<T>) => AsyncLocalStorageProviderSingleton.runWithConfig({ configurable: { thread_id: thread } }, fn) as Promise<T>;
    const before = server.requests.length;
    const run1 = provider(file, "on", { temperature: 1 });
    const made = await inThread("run1:q", async () => [await ask(run1, "sample"), await ask(run1, "sample")]);
    expect(made[0]!.text).not.toBe(made[1]!.text);
    // The same thread resumed by another process: the next number, a new sample.
    const resumed = await inThread("run1:q", () => ask(provider(file, "on", { temperature: 1 }), "sample"));
    expect(server.requests.length - before).toBe(3);
    expect(made.map((c) => c.text)).not.toContain(resumed.text);
    // A fresh run (new thread id): the stored samples in order, then a new one.
    const run2 = provider(file, "on", { temperature: 1 });
    const again = await inThread("run2:q", async () => [await ask(run2, "sample"), await ask(run2, "sample"), await ask(run2, "sample")]);
    expect(again.map((c) => c.text)).toEqual([...made, resumed].map((c) => c.text));
    expect(server.requests.length - before).toBe(3);
  });

  it("keys by temperature, model, endpoint alias and the structured-output request; not by the endpoint's URL", async () => {
    const file = path.join(dir, "keys.sqlite");
    await ask(provider(file, "on"));
    const count = () => server.requests.length;
    let before = count();
    await ask(provider(file, "on"));
    expect(count() - before).toBe(0);
    before = count();
    await ask(provider(file, "on", { temperature: 0.5 }));
    await ask(provider(file, "on", { model: "other" }));
    await ask(provider(file, "on", { maxTokens: 7 }));
    await ask(provider(file, "on"), "hello again");
    expect(count() - before).toBe(4);
    // The API key is not part of the key (LangChain's parameters carry it).
    before = count();
    await ask(createOpenAIProvider(config(), { OPENAI_API_KEY: "another-key" }, { cache: new ResponseCache(openResponseStore(file, () => {}), "on") }));
    expect(count() - before).toBe(0);
    before = count();
    await ask(provider(file, "on", { temperature: 0.5 }));
    await ask(provider(file, "on", { model: "other" }));
    await ask(provider(file, "on", { maxTokens: 7 }));
    await ask(provider(file, "on"), "hello again");
    expect(count() - before).toBe(0);
    const other = await startOpenAIServer({ respond: () => ({ content: "elsewhere" }) });
    try {
      // Another server of the same model (another node's vLLM, a restart on another port): the same replies.
      const moved = await ask(provider(file, "on", { baseURL: other.url }));
      expect(moved.record.cached).toBe(true);
      expect(other.requests.length).toBe(0);
      // Kept apart only when the user names the endpoint (--endpoint-alias, "endpointAlias" in the config).
      const apart = await ask(provider(file, "on", { baseURL: other.url, endpointAlias: "quantised" }));
      expect(apart.text).toBe("elsewhere");
      expect(other.requests.length).toBe(1);
      expect((await ask(provider(file, "on", { baseURL: server.url, endpointAlias: "quantised" }))).text).toBe("elsewhere");
      expect(other.requests.length).toBe(1);
    } finally {
      await other.close();
    }
    // Structured output: the schema and the method are part of the key.
    const json = await startOpenAIServer({ respond: () => ({ content: '{"a":1,"b":"x"}' }) });
    try {
      const models = () => provider(file, "on", { baseURL: json.url, structuredMethod: "jsonSchema" });
      const asked = (schema: z.ZodType) => callStructured(models(), "generator", [{ role: "user", content: "give json" }], schema, { name: "reply" });
      await asked(z.object({ a: z.number() }));
      await asked(z.object({ a: z.number() }));
      expect(json.requests.length).toBe(1);
      await asked(z.object({ a: z.number(), b: z.string() }));
      expect(json.requests.length).toBe(2);
      const tools = await callStructured(provider(file, "on", { baseURL: json.url, structuredMethod: "jsonMode" }), "generator", [{ role: "user", content: "give json" }], z.object({ a: z.number() }), { name: "reply" });
      expect(tools.ok).toBe(true);
      expect(json.requests.length).toBe(3);
    } finally {
      await json.close();
    }
  });

  it("a reply stored by an earlier version (keyed by the endpoint's URL) still serves a rerun", async () => {
    const file = path.join(dir, "legacy.sqlite");
    const made = await ask(provider(file, "on"), "stored long ago");
    // Rekey the stored reply as earlier versions did: the URL in the key.
    const db = new Database(file);
    const { key } = db.prepare("SELECT key FROM responses").get() as { key: string };
    let legacyKey = "";
    const spy = new ResponseCache(openResponseStore(file, () => {}), "read");
    const keyOf = spy.keyOf.bind(spy);
    spy.keyOf = (endpoint, prompt, llmKey) => {
      if (endpoint === server.url) legacyKey = keyOf(endpoint, prompt, llmKey);
      return keyOf(endpoint, prompt, llmKey);
    };
    await callModel(createOpenAIProvider(config(), { OPENAI_API_KEY: "k" }, { cache: spy }), "generator", [{ role: "user", content: "stored long ago" }]);
    expect(legacyKey).not.toBe("");
    db.prepare("UPDATE responses SET key = ? WHERE key = ?").run(legacyKey, key);
    db.close();
    const before = server.requests.length;
    const served = await ask(provider(file, "on"), "stored long ago");
    expect(server.requests.length).toBe(before);
    expect(served).toMatchObject({ text: made.text, record: { cached: true } });
  });

  it("read uses hits and never writes; refresh never reads and overwrites", async () => {
    const file = path.join(dir, "modes.sqlite");
    const stored = await ask(provider(file, "on"), "mode");
    const before = server.requests.length;
    const read = provider(file, "read");
    expect((await ask(read, "mode")).text).toBe(stored.text);
    await ask(read, "not stored");
    await ask(provider(file, "read"), "not stored");
    expect(server.requests.length - before).toBe(2);
    const refreshed = await ask(provider(file, "refresh"), "mode");
    expect(refreshed.text).not.toBe(stored.text);
    expect(refreshed.record.cached).toBeUndefined();
    expect((await ask(provider(file, "on"), "mode")).text).toBe(refreshed.text);
  });

  it("caches streamed replies too", async () => {
    const file = path.join(dir, "stream.sqlite");
    const first = await ask(provider(file, "on", { streaming: true }), "streamed");
    const before = server.requests.length;
    const again = await ask(provider(file, "on", { streaming: true }), "streamed");
    expect(server.requests.length).toBe(before);
    expect(again.text).toBe(first.text);
    expect(again.record.cached).toBe(true);
  });

  it("sets a damaged file aside with a warning and goes on", async () => {
    const file = path.join(dir, "damaged.sqlite");
    fs.writeFileSync(file, "this is not a database, just bytes ".repeat(200));
    const warnings: string[] = [];
    const store = new ResponseStore(file, (line) => warnings.push(line));
    expect(warnings.join("\n")).toMatch(/is damaged .*moved to .*damaged-/);
    expect(fs.readdirSync(dir).some((f) => f.startsWith("damaged.sqlite.damaged-"))).toBe(true);
    const models = createOpenAIProvider(config(), { OPENAI_API_KEY: "k" }, { cache: new ResponseCache(store, "on") });
    const reply = await ask(models, "after damage");
    expect(reply.ok).toBe(true);
    expect(models.cacheStats?.writes).toBe(1);
    store.close();
  });

  it("two stores on one file (two processes) share it", async () => {
    const file = path.join(dir, "shared.sqlite");
    const a = new ResponseCache(new ResponseStore(file, () => {}), "on");
    const b = new ResponseCache(new ResponseStore(file, () => {}), "on");
    const pa = createOpenAIProvider(config(), { OPENAI_API_KEY: "k" }, { cache: a });
    const pb = createOpenAIProvider(config(), { OPENAI_API_KEY: "k" }, { cache: b });
    await Promise.all(Array.from({ length: 20 }, (_, i) => ask(i % 2 ? pa : pb, `shared ${i}`)));
    const before = server.requests.length;
    const pc = createOpenAIProvider(config(), { OPENAI_API_KEY: "k" }, { cache: new ResponseCache(new ResponseStore(file, () => {}), "on") });
    await Promise.all(Array.from({ length: 20 }, (_, i) => ask(pc, `shared ${i}`)));
    expect(server.requests.length).toBe(before);
  });
});

describe("a rerun of a finished eval", () => {
  it("is answered from the cache: no request reaches the server, same verdicts, hits in the progress line and report.md", async () => {
    const work = path.join(dir, "eval");
    fs.mkdirSync(work);
    const benchDir = path.join(work, "minibench");
    await buildMinibench(benchDir);
    const dev = (await loadBenchmark(benchDir, { split: "dev" })).questions;
    const agents = methodAgents({ questions: [dev] });
    const local = await startOpenAIServer({ respond: agents.respond });
    fs.writeFileSync(path.join(work, "sqlmend.config.json"), JSON.stringify({ ...agentsConfig({ baseURL: local.url }), embeddingModel: undefined }));
    let home = "home";
    const sqlmend = async (...args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const env = { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(work, home) };
      const code = await main(args, { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env, cwd: work, isTTY: false });
      return { code, out: out.join(""), err: err.join("") };
    };
    try {
      const first = await sqlmend("eval", "r3", "--bench", benchDir, "--limit", "6", "--out", "a", "--checkpoints", "memory");
      expect(first.code, first.err).toBe(0);
      const made = local.requests.length;
      expect(made).toBeGreaterThan(6);
      const second = await sqlmend("eval", "r3", "--bench", benchDir, "--limit", "6", "--out", "b", "--checkpoints", "ck.sqlite");
      expect(second.code, second.err).toBe(0);
      expect(local.requests.length - made).toBe(0);
      const verdicts = (out: string) =>
        fs.readFileSync(path.join(work, out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; correct: boolean; sql: string; inputTokens: number; cachedCalls?: number; calls: number; thread: string })
          .sort((x, y) => x.id.localeCompare(y.id));
      const [a, b] = [verdicts("a"), verdicts("b")];
      expect(b.map((r) => [r.id, r.correct, r.sql])).toEqual(a.map((r) => [r.id, r.correct, r.sql]));
      expect(b.every((r) => r.inputTokens === 0 && r.cachedCalls === r.calls)).toBe(true);
      expect(second.err).toMatch(/cache 100% \(\d+\/\d+\), saved \d+k? tokens/);
      expect(second.out).toMatch(/^Response cache: (\d+) of \1 model calls served \(100\.00%\)/m);
      expect(fs.readFileSync(path.join(work, "b", "report.md"), "utf8")).toMatch(/Response cache: (\d+) of \1 model calls served \(100\.00%\), \d+ tokens saved/);
      expect(fs.readFileSync(path.join(work, "b", "report.html"), "utf8")).toMatch(/<svg[^>]*role="img"/);
      // inspect says which calls the cache served.
      const shown = await sqlmend("inspect", b[0]!.thread, "--checkpoints", "ck.sqlite");
      expect(shown.code, shown.err).toBe(0);
      expect(shown.out).toMatch(/writer 0\/0 tok \(cached\)/);
      // --cache off: every call reaches the server again.
      const off = await sqlmend("eval", "r3", "--bench", benchDir, "--limit", "6", "--out", "c", "--checkpoints", "memory", "--cache", "off");
      expect(off.code, off.err).toBe(0);
      expect(local.requests.length - made).toBe(made);
      // Two processes filling one cache at once (WAL, busy timeout): both finish, no warning, and what they stored
      // answers a third run entirely.
      const child = (out: string) =>
        new Promise<{ code: number | null; err: string }>((resolve) => {
          const env: NodeJS.ProcessEnv = { ...process.env, OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(work, "home2") };
          delete env.SQLMEND_CACHE;
          const p = spawn(process.execPath, [path.join(ROOT, "bin", "sqlmend.js"), "eval", "baseline", "--bench", benchDir, "--limit", "8", "--out", out, "--checkpoints", "memory"], { cwd: work, env, stdio: ["ignore", "ignore", "pipe"] });
          let err = "";
          p.stderr.on("data", (d: Buffer) => (err += d.toString()));
          p.on("exit", (code) => resolve({ code, err }));
        });
      const pair = await Promise.all([child("p1"), child("p2")]);
      for (const p of pair) {
        expect(p.code, p.err).toBe(0);
        expect(p.err).not.toMatch(/warning|damaged|failed/i);
      }
      const afterPair = local.requests.length;
      home = "home2";
      const third = await sqlmend("eval", "baseline", "--bench", benchDir, "--limit", "8", "--out", "p3", "--checkpoints", "memory");
      expect(third.code, third.err).toBe(0);
      expect(local.requests.length).toBe(afterPair);
      expect(third.out).toMatch(/^Response cache: (\d+) of \1 model calls served \(100\.00%\)/m);

      home = "home";
      const bad = await sqlmend("eval", "r3", "--bench", benchDir, "--out", "d", "--cache", "sometimes");
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(/--cache takes on, off, read, refresh or redis:\/\/HOST:PORT, not 'sometimes'/);
    } finally {
      await local.close();
    }
  });
});

describe("endpoints are not identities", () => {
  it("a run resumes on another server of the same model and a fresh run there is served from the cache; an alias keeps servers apart", async () => {
    const work = path.join(dir, "endpoints");
    fs.mkdirSync(work);
    const { benchDir, dev } = await minibenchFixture(work);
    const [a, b] = [await startOpenAIServer({ respond: goldResponder(dev) }), await startOpenAIServer({ respond: goldResponder(dev) })];
    const sqlmend = (...args: string[]) => runCli(args, work, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(work, "home") });
    const on = (server: OpenAIServer, out: string, limit: string) => ["eval", "baseline", "--bench", benchDir, "--out", out, "--limit", limit, "--checkpoints", "memory", "--model", "m", "--base-url", server.url];
    try {
      expect((await sqlmend(...on(a, "run", "2"))).code).toBe(0);
      const runJson = JSON.parse(fs.readFileSync(path.join(work, "run", "run.json"), "utf8"));
      expect(runJson.models.baseURL).toBeUndefined();
      expect(runJson.endpoints).toEqual({ baseURL: a.url });
      expect(fs.readFileSync(path.join(work, "run", "report.md"), "utf8")).toContain(a.url);
      // The server moved (another port, another node): --resume goes on there.
      const resumed = await sqlmend(...on(b, "run", "3"), "--resume");
      expect(resumed.code, resumed.err).toBe(0);
      expect(b.requests.length).toBe(1);
      // A fresh run on b: every reply from the cache a's run filled.
      expect((await sqlmend(...on(b, "fresh", "2"))).code).toBe(0);
      expect(b.requests.length).toBe(1);
      // Named apart: a different identity (resume refused) and its own cache entries.
      const apart = await sqlmend(...on(b, "run", "3"), "--resume", "--endpoint-alias", "node-b");
      expect(apart.code).toBe(1);
      expect(apart.err).toMatch(/--resume: .*: models\S*endpointAlias was \(not set\), now "node-b"/);
      expect((await sqlmend(...on(b, "apart", "2"), "--endpoint-alias", "node-b")).code).toBe(0);
      expect(b.requests.length).toBe(3);
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);

  it("a run.json written before endpoints left the identity resumes (its URL moved to endpoints)", async () => {
    const work = path.join(dir, "old-run");
    fs.mkdirSync(work);
    const { benchDir, dev } = await minibenchFixture(work);
    const server = await startOpenAIServer({ respond: goldResponder(dev) });
    const sqlmend = (...args: string[]) => runCli(args, work, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(work, "home") });
    const args = ["eval", "baseline", "--bench", benchDir, "--out", "run", "--limit", "2", "--checkpoints", "memory", "--model", "m", "--base-url", server.url];
    try {
      expect((await sqlmend(...args)).code).toBe(0);
      const file = path.join(work, "run", "run.json");
      const { endpoints, models, ...rest } = JSON.parse(fs.readFileSync(file, "utf8"));
      const { model, ...others } = models;
      fs.writeFileSync(file, JSON.stringify({ ...rest, models: { model, baseURL: endpoints.baseURL, ...others } }));
      const resumed = await sqlmend(...args, "--resume");
      expect(resumed.code, resumed.err).toBe(0);
      expect(JSON.parse(fs.readFileSync(file, "utf8"))).toMatchObject({ models: { model: "m" }, endpoints: { baseURL: server.url } });
    } finally {
      await server.close();
    }
  }, 60_000);
});
