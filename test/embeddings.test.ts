import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cosine, createOpenAIEmbedder, embedRecorded } from "../tools/models/embeddings.ts";
import { Bm25Index, createExampleStore } from "../tools/retrieval/examples.ts";
import { createEmbedderFrom, resolveEmbeddingSettings, resolveModelConfig } from "../tools/models/models.ts";
import type { Question } from "../state/question.ts";
import { baselineSpec } from "../graphs/baseline.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { scriptedProvider } from "./support/scripted-models.ts";
import { hashedEmbedding, type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";
import { goldResponder, minibenchFixture, resultsOf, runCli } from "./support/cli.ts";

let dir: string;
let server: OpenAIServer;
beforeAll(async () => {
  dir = makeTempDir();
  server = await startOpenAIServer({ respond: () => ({ content: "" }) });
});
afterAll(async () => {
  await server.close();
  removeTempDir(dir);
});

const question = (id: string, text: string): Question => ({ id, dbId: "db", dbPath: "/nowhere.sqlite", question: text, evidence: "", goldSql: `SELECT '${id}'` });

describe("embedding configuration", () => {
  it("takes the embedding model from the config file, the environment or a flag, with its own base URL when it differs", () => {
    fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify({ model: "chat", baseURL: "http://127.0.0.1:1/v1", embeddingModel: "from-file" }));
    const fromFile = resolveEmbeddingSettings(resolveModelConfig({}, {}, dir));
    expect(fromFile).toMatchObject({ model: "from-file", baseURL: "http://127.0.0.1:1/v1" });
    const fromEnv = resolveEmbeddingSettings(resolveModelConfig({}, { SQLMEND_EMBEDDING_MODEL: "from-env", SQLMEND_EMBEDDING_BASE_URL: "http://127.0.0.1:2/v1" }, dir));
    expect(fromEnv).toMatchObject({ model: "from-env", baseURL: "http://127.0.0.1:2/v1" });
    expect(resolveEmbeddingSettings(resolveModelConfig({ embeddingModel: "from-flag" }, { SQLMEND_EMBEDDING_MODEL: "from-env" }, dir))?.model).toBe("from-flag");
    fs.rmSync(path.join(dir, "sqlmend.config.json"));
    expect(resolveEmbeddingSettings(resolveModelConfig({}, {}, dir))).toBeUndefined();
    expect(createEmbedderFrom(resolveModelConfig({}, {}, dir), {}, dir)).toBeUndefined();
  });

  it("talks to /v1/embeddings through OpenAIEmbeddings and caches vectors by text hash in the data directory", async () => {
    const config = resolveModelConfig({}, { SQLMEND_EMBEDDING_MODEL: "emb", SQLMEND_EMBEDDING_BASE_URL: server.url, SQLMEND_HOME: path.join(dir, "home") }, dir);
    const env = { SQLMEND_HOME: path.join(dir, "home") };
    const embedder = createEmbedderFrom(config, env, dir)!;
    const before = server.embeddingRequests.length;
    const first = await embedRecorded(embedder, ["JetBlue Airways", "Jetblu", "JetBlue Airways"]);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.vectors[0]!.length).toBe(1024);
    expect(cosine(first.vectors[0]!, hashedEmbedding("JetBlue Airways"))).toBeCloseTo(1, 5);
    expect(first.vectors[2]).toEqual(first.vectors[0]);
    expect(server.embeddingRequests.slice(before)).toEqual([expect.objectContaining({ model: "emb", input: ["JetBlue Airways", "Jetblu"] })]);
    expect(first.records[0]).toMatchObject({ role: "embedder", model: "emb", inputTokens: 6 });
    expect(fs.existsSync(path.join(dir, "home", "embeddings.sqlite"))).toBe(true);
    // Another embedder (another process) reads the disk cache.
    const second = await embedRecorded(createEmbedderFrom(config, env, dir)!, ["Jetblu"]);
    expect(second).toMatchObject({ ok: true, records: [] });
    expect(server.embeddingRequests.length).toBe(before + 1);
  });

  it("vectors are the model's, not the server's: the same model on another server (a per-node server, a new port) is served from the cache; an endpoint alias keeps two apart", async () => {
    const home = path.join(dir, "home-endpoints");
    const other = await startOpenAIServer({ respond: () => ({ content: "" }) });
    try {
      const on = (url: string, alias?: string) =>
        createEmbedderFrom(resolveModelConfig({}, { SQLMEND_EMBEDDING_MODEL: "emb", SQLMEND_EMBEDDING_BASE_URL: url, SQLMEND_HOME: home, ...(alias ? { SQLMEND_ENDPOINT_ALIAS: alias } : {}) }, dir), { SQLMEND_HOME: home }, dir)!;
      expect((await embedRecorded(on(server.url), ["per node"])).ok).toBe(true);
      // Another server of the same model: served from the cache, no request.
      expect(await embedRecorded(on(other.url), ["per node"])).toMatchObject({ ok: true, records: [] });
      expect(other.embeddingRequests).toHaveLength(0);
      // Kept apart by name: an aliased server asks its own.
      expect((await embedRecorded(on(other.url, "gpu-b"), ["per node"])).ok).toBe(true);
      expect(other.embeddingRequests).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it("a damaged vector cache is set aside and started again, an unusable one is not used — each said, never silent", async () => {
    const home = path.join(dir, "damaged-home");
    fs.mkdirSync(home);
    const file = path.join(home, "embeddings.sqlite");
    fs.writeFileSync(file, "no database here");
    const env = { SQLMEND_HOME: home };
    const config = resolveModelConfig({}, { SQLMEND_EMBEDDING_MODEL: "emb", SQLMEND_EMBEDDING_BASE_URL: server.url }, dir);
    const warnings: string[] = [];
    const embedder = createEmbedderFrom(config, env, dir, (line) => void warnings.push(line))!;
    expect(warnings).toEqual([expect.stringMatching(/^vector cache .*embeddings\.sqlite is damaged \(file is not a database\): moved to .*embeddings\.sqlite\.damaged-.*, starting a new one \(vectors kept in memory for this run\)$/)]);
    expect(fs.readdirSync(home).filter((f) => f.includes(".damaged-"))).toHaveLength(1);
    expect((await embedRecorded(embedder, ["kept on disk"])).ok).toBe(true);
    // The new file keeps them: another embedder finds them there without a request.
    const before = server.embeddingRequests.length;
    expect(await embedRecorded(createEmbedderFrom(config, env, dir, (line) => void warnings.push(line))!, ["kept on disk"])).toMatchObject({ ok: true, records: [] });
    expect(server.embeddingRequests.length).toBe(before);
    expect(warnings).toHaveLength(1);

    // A data directory that cannot hold the file (a plain file stands where its folder should be).
    const blocked = path.join(dir, "blocked-home");
    fs.writeFileSync(blocked, "");
    const lines: string[] = [];
    const inMemory = createEmbedderFrom(config, { SQLMEND_HOME: blocked }, dir, (line) => void lines.push(line))!;
    expect(lines).toEqual([expect.stringMatching(/^vector cache .* cannot be used \(.*\): running without it \(vectors kept in memory for this run\)$/)]);
    expect((await embedRecorded(inMemory, ["still works"])).ok).toBe(true);
  });

  it("sends large batches in several requests and says so in the one call record", async () => {
    const embedder = createOpenAIEmbedder({ model: "emb", baseURL: server.url, apiKeyEnv: "NONE", timeoutMs: 5000, maxRetries: 0 });
    const before = server.embeddingRequests.length;
    const texts = Array.from({ length: 600 }, (_, i) => `value number ${i}`);
    const outcome = await embedRecorded(embedder, texts);
    expect(outcome.ok && outcome.vectors.length).toBe(600);
    expect(server.embeddingRequests.length - before).toBe(2);
    expect(outcome.records).toHaveLength(1);
    expect(outcome.records[0]!.reply).toMatch(/600 vectors \(0 from cache, 2 requests\)/);
  });

  it("reports a missing key for OpenAI itself as a fallback note, not a crash", async () => {
    const embedder = createOpenAIEmbedder({ model: "text-embedding-3-small", apiKeyEnv: "SQLMEND_TEST_NO_SUCH_KEY", timeoutMs: 1000, maxRetries: 0 }, { env: {} });
    const outcome = await embedRecorded(embedder, ["x"]);
    expect(outcome).toMatchObject({ ok: false, note: expect.stringMatching(/no API key for embeddings: set SQLMEND_TEST_NO_SUCH_KEY/) });
  });
});

describe("few-shot retrieval", () => {
  const questions = [
    question("q1", "How many singers are there?"),
    question("q2", "List the names of all airlines in Germany"),
    question("q3", "What is the average age of singers from France?"),
    question("q4", "Which airline has the largest fleet?"),
  ];

  it("ranks by BM25 from an index built once, never returning the question itself", async () => {
    const store = createExampleStore(questions);
    const ranked = await store.similarRanked("Which airlines fly in Germany?", 2, ["q4"]);
    expect(ranked).toMatchObject({ ranking: "lexical", records: [] });
    expect(ranked.examples[0]!.id).toBe("q2");
    expect(ranked.examples.map((e) => e.id)).not.toContain("q4");
    const index = new Bm25Index(["red apple", "green apple tree", "blue sky"]);
    expect(index.search("apple").map(([doc]) => doc)).toEqual([0, 1]);
    expect(index.search("sky")[0]![0]).toBe(2);
    expect(index.search("nothing")).toEqual([]);
  });

  it("ranks by embeddings when configured (document vectors once), and falls back to BM25 when the endpoint fails", async () => {
    const embedder = createOpenAIEmbedder({ model: "emb", baseURL: server.url, apiKeyEnv: "NONE", timeoutMs: 5000, maxRetries: 0 });
    const store = createExampleStore(questions).withEmbeddings(embedder);
    const before = server.embeddingRequests.length;
    const first = await store.similarRanked("How many singers?", 1);
    expect(first).toMatchObject({ ranking: "embeddings", examples: [expect.objectContaining({ id: "q1" })] });
    expect(first.records.map((r) => r.role)).toEqual(["embedder", "embedder"]);
    const second = await store.similarRanked("Largest airline fleet", 1, ["q2"]);
    expect(second.examples[0]!.id).toBe("q4");
    expect(server.embeddingRequests.length).toBe(before + 3); // the documents once, then one query each

    const failing = await startOpenAIServer({ respond: () => ({ content: "" }), embeddingStatus: 503 });
    try {
      const broken = createExampleStore(questions).withEmbeddings(createOpenAIEmbedder({ model: "emb", baseURL: failing.url, apiKeyEnv: "NONE", timeoutMs: 5000, maxRetries: 0 }));
      const fallback = await broken.similarRanked("airlines in Germany", 1);
      expect(fallback).toMatchObject({ ranking: "lexical", examples: [expect.objectContaining({ id: "q2" })] });
      expect(fallback.note).toMatch(/embeddings unavailable/);
    } finally {
      await failing.close();
    }
  });

  it("the generate node shows the nearest examples by embeddings and counts the requests under role embedder", async () => {
    const executor = createExecutor({ size: 1 });
    try {
      const dbPath = makeDb(dir, "few.sqlite", "CREATE TABLE singer (name TEXT, age INTEGER); INSERT INTO singer VALUES ('Ann', 30);");
      const embedder = createOpenAIEmbedder({ model: "emb", baseURL: server.url, apiKeyEnv: "NONE", timeoutMs: 5000, maxRetries: 0 });
      const models = scriptedProvider({ generator: "```sql\nSELECT count(*) FROM singer\n```" });
      const examples = createExampleStore(questions).withEmbeddings(embedder);
      const state = await baselineSpec.build({ models, executor, examples, embeddings: embedder }, { fewShot: 1 }).invoke({ question: "How many singers do we have?", dbPath });
      const prompt = models.shownTo("generator")[0]!.messages.map((m) => m.content).join("\n");
      expect(prompt).toContain("How many singers are there?");
      expect(prompt).not.toContain("largest fleet");
      expect(state.usage.byRole.embedder?.calls).toBe(2); // the examples once, the question
      expect(state.usage.byRole.generator?.calls).toBe(1);
      expect(state.usage.calls).toBe(3);
    } finally {
      await executor.close();
    }
  });
});

describe("no silent fallback to lexical ranking (issue 30)", () => {
  it("a down embedding endpoint fails the few-shot questions; --embedding-fallback lexical ranks lexically, recorded per question and in the report", async () => {
    const work = path.join(dir, "fallback");
    fs.mkdirSync(work);
    const { benchDir, dev } = await minibenchFixture(work);
    const down = await startOpenAIServer({ respond: goldResponder(dev), embeddingStatus: 503 });
    const sqlmend = (...args: string[]) => runCli(args, work, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(work, "home") });
    const args = (out: string) => ["eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "3", "--few-shot", "2", "--checkpoints", "memory", "--model", "m", "--base-url", down.url, "--embedding-model", "emb", "--max-retries", "0", "--concurrency", "1"];
    try {
      const strict = await sqlmend(...args("strict"));
      expect(strict.code, strict.err).toBe(3);
      const failed = [...(await resultsOf(path.join(work, "strict"))).values()];
      expect(failed).toHaveLength(3);
      for (const r of failed) expect(r.failure).toMatch(/model calls? got no reply \(first: model call failed: embeddings: embedding endpoint failed: /);
      expect(strict.out).toMatch(/^EX -% \(0\/0 answered, bird semantics\); 3 failed/m);

      const allowed = await sqlmend(...args("allowed"), "--embedding-fallback", "lexical");
      expect(allowed.code, allowed.err).toBe(0);
      const records = [...(await resultsOf(path.join(work, "allowed"))).values()];
      expect(records.map((r) => r.failure)).toEqual([undefined, undefined, undefined]);
      for (const r of records) expect((r.outcome as Record<string, unknown>).embeddingFallbacks).toBeGreaterThanOrEqual(1);
      const report = fs.readFileSync(path.join(work, "allowed", "report.md"), "utf8");
      expect(report).toMatch(/embeddingFallbacks: mean \d+\.\d\d, max \d+ \(3 questions\)/);
      expect(report).toContain("--embedding-fallback lexical");
      expect(JSON.parse(fs.readFileSync(path.join(work, "allowed", "run.json"), "utf8")).settings["embedding-fallback"]).toBe("lexical");
      const bad = await sqlmend(...args("bad"), "--embedding-fallback", "bm25");
      expect([bad.code, bad.err]).toEqual([2, expect.stringMatching(/--embedding-fallback takes lexical/)]);
    } finally {
      await down.close();
    }
  }, 60_000);
});
