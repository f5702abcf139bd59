import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { main } from "../cli/main.ts";
import type { CliIO } from "../cli/shared/command.ts";
import { baselineSpec } from "../graphs/baseline.ts";
import { createOpenAIEmbedder, type Embedder } from "../tools/models/embeddings.ts";
import { lexicalKeywords, linkKeywords } from "../tools/linking/link.ts";
import { normalizedEditDistance } from "../tools/linking/text.ts";
import { closeValueIndexes, openValueIndex, publish } from "../tools/linking/value-index.ts";
import { readSchema, renderSchema } from "../tools/schema.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { makeDb, makeTempDir, removeTempDir, sha256File } from "./support/fixtures.ts";
import { startOpenAIServer, type OpenAIServer } from "./support/openai-server.ts";
import { scriptedProvider } from "./support/scripted-models.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

const AIRLINES = `
CREATE TABLE airlines (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT, founded DATE, fleet_size INTEGER, rating REAL);
CREATE TABLE flights (id INTEGER PRIMARY KEY, airline_id INTEGER REFERENCES airlines(id), code TEXT, departs TEXT, origin TEXT, destination TEXT);
INSERT INTO airlines VALUES
  (1, 'JetBlue Airways', 'United States', '2000-02-11', 290, 3.5),
  (2, 'Delta Air Lines', 'United States', '1925-05-30', 900, 4.0),
  (3, 'Lufthansa', 'Germany', '1953-01-06', 300, 4.5),
  (4, 'Air France', 'France', '1933-10-07', 220, 4.0),
  (5, 'Aer Lingus', 'Ireland', '1936-04-15', 60, 3.9);
INSERT INTO flights VALUES
  (1, 1, 'B6 1021', '2024-03-04 08:15:00', 'Boston', 'New York'),
  (2, 2, 'DL 88', '2024-03-04 09:00:00', 'Atlanta', 'Boston'),
  (3, 3, 'LH 400', '2024-03-05 13:40:00', 'Frankfurt', 'New York'),
  (4, 4, 'AF 1234', '2024-03-06 07:05:00', 'Paris', 'Dublin');
`;

let dir: string;
let dataDir: string;
let dbPath: string;
const executor = createExecutor({ size: 2 });

beforeAll(() => {
  dir = makeTempDir();
  dbPath = makeDb(dir, "air.sqlite", AIRLINES);
});
afterAll(async () => {
  await executor.close();
  removeTempDir(dir);
});
beforeEach(() => {
  // Each test starts with an empty data directory and no index open in this process.
  dataDir = fs.mkdtempSync(path.join(dir, "home-"));
  closeValueIndexes();
});

function captureIO(cwd: string, env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env: { ...env }, cwd, isTTY: false };
  return { io, out: () => out.join(""), err: () => err.join("") };
}

const embedderOn = (server: OpenAIServer, cacheFile?: string): Embedder =>
  createOpenAIEmbedder({ model: "test-embed", baseURL: server.url, apiKeyEnv: "NO_KEY_NEEDED", timeoutMs: 5000, maxRetries: 0 }, { cacheFile });

describe("value index", () => {
  it("finds a value misspelt in the question, with its table and column", async () => {
    const index = await openValueIndex(dbPath, { dataDir });
    const matches = index.lookup("Jetblu").filter((m) => m.kind === "value");
    expect(matches[0]).toMatchObject({ table: "airlines", column: "name", value: "JetBlue Airways" });
    expect(matches[0]!.distance).toBeLessThanOrEqual(0.3);
    expect(index.lookup("Lufthansaa")[0]).toMatchObject({ value: "Lufthansa", column: "name" });
    expect(index.lookup("Frankfort")[0]).toMatchObject({ value: "Frankfurt", table: "flights", column: "origin" });
    // A swap of neighbouring letters in a short word is one edit; a word under five letters matches only exactly.
    expect(index.lookup("Frnace")[0]).toMatchObject({ value: "France", column: "country" });
    expect(index.lookup("Irland")[0]).toMatchObject({ value: "Ireland" });
    expect(index.lookup("Pars")).toEqual([]);
    expect(index.lookup("Paris")[0]).toMatchObject({ value: "Paris", distance: 0 });
    // Beyond the edit-distance threshold nothing is returned.
    expect(index.lookup("Ryanair").filter((m) => m.kind === "value")).toEqual([]);
    expect(normalizedEditDistance("ryanair", "lufthansa", 0.3)).toBe(Infinity);
  });

  it("matches numbers exactly and dates written in words or as stored", async () => {
    const index = await openValueIndex(dbPath, { dataDir });
    expect(index.lookup("290")).toEqual([expect.objectContaining({ table: "airlines", column: "fleet_size", value: "290", distance: 0 })]);
    // 29 is not "nearly 290": numbers never match by edit distance.
    expect(index.lookup("29")).toEqual([]);
    expect(index.lookup("3.5")[0]).toMatchObject({ column: "rating", value: "3.5" });
    expect(index.lookup("1,234")).toEqual([expect.objectContaining({ column: "code", value: "AF 1234" })]);
    expect(index.lookup("February 11, 2000")[0]).toMatchObject({ column: "founded", value: "2000-02-11", distance: 0 });
    expect(index.lookup("2000-02-11")[0]).toMatchObject({ column: "founded", value: "2000-02-11" });
    // A date inside a timestamp is found through the timestamp's words.
    expect(index.lookup("2024-03-05").map((m) => m.value)).toEqual(["2024-03-05 13:40:00"]);
  });

  it("indexes schema names with the values", async () => {
    const index = await openValueIndex(dbPath, { dataDir });
    expect(index.lookup("fleet size")[0]).toMatchObject({ kind: "column", table: "airlines", column: "fleet_size" });
    expect(index.lookup("flight").some((m) => m.kind === "table" && m.table === "flights")).toBe(true);
  });

  it("works on a database without text columns", async () => {
    const numeric = makeDb(dir, "numbers.sqlite", "CREATE TABLE readings (sensor INTEGER, value REAL); INSERT INTO readings VALUES (1, 20.5), (2, 21.0), (3, 19.75);");
    const index = await openValueIndex(numeric, { dataDir });
    expect(index.lookup("19.75")).toEqual([expect.objectContaining({ table: "readings", column: "value", value: "19.75" })]);
    expect(index.lookup("humidity")).toEqual([]);
    const { linking } = await linkKeywords(["sensor", "19.75", "humidity"], { dbPath: numeric, dataDir, executor });
    expect(linking.values).toEqual([expect.objectContaining({ keyword: "19.75", column: "value" })]);
    expect(linking.columns.map((c) => c.column)).toContain("sensor");
    const empty = makeDb(dir, "empty.sqlite", "CREATE TABLE t (x INTEGER);");
    expect((await openValueIndex(empty, { dataDir })).lookup("anything")).toEqual([]);
  });

  it("is reused while the file is unchanged and rebuilt when it changes; the database is never written", async () => {
    const copy = path.join(dir, "copy.sqlite");
    fs.copyFileSync(dbPath, copy);
    const before = sha256File(copy);
    const first = await openValueIndex(copy, { dataDir });
    expect(first.reused).toBe(false);
    closeValueIndexes(); // as a new process would
    const second = await openValueIndex(copy, { dataDir });
    expect(second.reused).toBe(true);
    expect(second.file).toBe(first.file);
    expect(sha256File(copy)).toBe(before);

    // Touched but the same bytes: still the same index (keyed by content, not by time).
    fs.utimesSync(copy, new Date(), new Date(Date.now() + 5000));
    closeValueIndexes();
    expect((await openValueIndex(copy, { dataDir })).reused).toBe(true);

    const db = new Database(copy);
    db.exec("INSERT INTO airlines VALUES (6, 'Spirit Airlines', 'United States', '1980-01-01', 200, 2.5)");
    db.close();
    closeValueIndexes();
    const third = await openValueIndex(copy, { dataDir });
    expect(third.reused).toBe(false);
    expect(third.file).not.toBe(first.file);
    expect(third.lookup("Spirt")[0]).toMatchObject({ value: "Spirit Airlines" });
  });

  it("rebuilds an index file that is corrupt", async () => {
    const first = await openValueIndex(dbPath, { dataDir });
    fs.writeFileSync(first.file, "SQLMLSH1 garbage");
    closeValueIndexes();
    const again = await openValueIndex(dbPath, { dataDir });
    expect(again.reused).toBe(false);
    expect(again.lookup("Jetblu")[0]).toMatchObject({ value: "JetBlue Airways" });
  });

  it("publishes atomically: the loser of a race keeps the winner's file and leaves no temporary file", async () => {
    const winner = await openValueIndex(dbPath, { dataDir });
    const bytes = fs.readFileSync(winner.file);
    publish(winner.file, (fd) => fs.writeSync(fd, Buffer.from("a late copy")));
    expect(fs.readFileSync(winner.file).equals(bytes)).toBe(true);
    expect(fs.readdirSync(path.dirname(winner.file))).toEqual([path.basename(winner.file)]);
    // A failed write leaves nothing behind either.
    expect(() => publish(path.join(dataDir, "linking", "other.lsh"), () => { throw new Error("disk full"); })).toThrow("disk full");
    expect(fs.readdirSync(path.dirname(winner.file))).toEqual([path.basename(winner.file)]);
  });

  it("survives two processes and this one building the same index at once: one file, the same answers", async () => {
    // Big enough that the builds overlap.
    const big = path.join(dir, "big.sqlite");
    const db = new Database(big);
    db.exec("CREATE TABLE names (id INTEGER PRIMARY KEY, name TEXT)");
    const insert = db.prepare("INSERT INTO names (name) VALUES (?)");
    db.transaction(() => {
      for (let i = 0; i < 40_000; i++) insert.run(`Customer ${i.toString(36)} of Region ${i % 97}`);
      insert.run("JetBlue Airways");
    })();
    db.close();
    const env = { ...process.env, SQLMEND_HOME: dataDir };
    const child = () =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const proc = spawn(process.execPath, ["bin/sqlmend.js", "link", "--db", big, "--keywords", "Jetblu", "--json", "q"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        let err = "";
        proc.stdout.on("data", (d) => (out += d));
        proc.stderr.on("data", (d) => (err += d));
        proc.on("close", (code) => resolve({ code, out, err }));
      });
    const children = [child(), child()];
    await new Promise((r) => setTimeout(r, 300));
    const mine = await openValueIndex(big, { dataDir });
    const results = await Promise.all(children);
    for (const r of results) {
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out).values[0]).toMatchObject({ value: "JetBlue Airways", table: "names", column: "name" });
      expect(JSON.parse(r.out).index).toMatchObject({ file: mine.file, entries: mine.stats.entries });
    }
    expect(mine.lookup("Jetblu")[0]).toMatchObject({ value: "JetBlue Airways" });
    const files = fs.readdirSync(path.join(dataDir, "linking"));
    expect(files).toEqual([path.basename(mine.file)]);
    closeValueIndexes();
    expect((await openValueIndex(big, { dataDir })).stats).toMatchObject({ entries: mine.stats.entries, keys: mine.stats.keys });
  }, 60_000);
});

describe("linking", () => {
  it("ranks lexically when no embedding model is configured, and says so", async () => {
    const { linking, records } = await linkKeywords(["Jetblu", "fleet size", "Germany"], { dbPath, dataDir, executor });
    expect(linking.ranking).toBe("lexical");
    expect(linking.note).toMatch(/no embedding model configured/);
    expect(records).toEqual([]);
    expect(linking.values).toContainEqual(expect.objectContaining({ keyword: "Jetblu", table: "airlines", column: "name", value: "JetBlue Airways" }));
    expect(linking.values.filter((v) => v.keyword === "Jetblu").length).toBeLessThanOrEqual(5);
    expect(linking.columns).toContainEqual(expect.objectContaining({ table: "airlines", column: "fleet_size", via: "name" }));
    expect(linking.columns).toContainEqual(expect.objectContaining({ table: "airlines", column: "country", via: "value" }));
    // A column called "name" is linked by a keyword naming it with its table; the table's other columns are not.
    const named = await linkKeywords(["airline name"], { dbPath, dataDir, executor });
    expect(named.linking.columns).toContainEqual(expect.objectContaining({ table: "airlines", column: "name", via: "name" }));
    expect(named.linking.columns.map((c) => c.column)).not.toContain("country");
  });

  it("links columns by their BIRD description", async () => {
    const bird = path.join(dir, "bird");
    const file = makeDb(bird, "club.sqlite", "CREATE TABLE member (id INTEGER PRIMARY KEY, m_tshirt TEXT, zip INTEGER); INSERT INTO member VALUES (1, 'Large', 28092);");
    fs.mkdirSync(path.join(bird, "database_description"));
    fs.writeFileSync(
      path.join(bird, "database_description", "member.csv"),
      "original_column_name,column_name,column_description,data_format,value_description\nm_tshirt,,the size of the member's t-shirt,text,\nzip,,postal code,integer,\n",
    );
    const { linking } = await linkKeywords(["shirt size", "postal code"], { dbPath: file, dataDir, executor });
    expect(linking.columns).toContainEqual(expect.objectContaining({ column: "m_tshirt", via: "description", keyword: "shirt size" }));
    expect(linking.columns).toContainEqual(expect.objectContaining({ column: "zip", via: "description", keyword: "postal code" }));
  });

  it("ranks by embeddings when configured, counts the requests, and serves repeats from the disk cache", async () => {
    const server = await startOpenAIServer({ respond: () => ({ content: "" }) });
    try {
      const cacheFile = path.join(dataDir, "embeddings.sqlite");
      const first = await linkKeywords(["Jetblu", "fleet size"], { dbPath, dataDir, executor, embeddings: embedderOn(server, cacheFile) });
      expect(first.linking.ranking).toBe("embeddings");
      expect(first.linking.columns).toContainEqual(expect.objectContaining({ table: "airlines", column: "fleet_size", keyword: "fleet size" }));
      expect(first.linking.note).toBeUndefined();
      expect(first.linking.values[0]).toMatchObject({ value: "JetBlue Airways" });
      expect(first.records).toEqual([expect.objectContaining({ role: "embedder", model: "test-embed", outputTokens: 0 })]);
      expect(first.records[0]!.inputTokens).toBeGreaterThan(0);
      expect(server.embeddingRequests).toHaveLength(1);
      expect(server.embeddingRequests[0]!.input).toContain("Jetblu");
      // A new process (a new embedder) finds every vector on disk: no request, nothing counted.
      const again = await linkKeywords(["Jetblu", "fleet size"], { dbPath, dataDir, executor, embeddings: embedderOn(server, cacheFile) });
      expect(again.linking.ranking).toBe("embeddings");
      expect(again.records).toEqual([]);
      expect(server.embeddingRequests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("falls back to lexical with a one-line note when the endpoint fails or is unreachable", async () => {
    const failing = await startOpenAIServer({ respond: () => ({ content: "" }), embeddingStatus: 500 });
    const embeddings = embedderOn(failing);
    try {
      const { linking } = await linkKeywords(["Jetblu"], { dbPath, dataDir, executor, embeddings });
      expect(linking.ranking).toBe("lexical");
      expect(linking.note).toMatch(/^embeddings unavailable \(embedding endpoint failed: .*\); ranked lexically$/);
      expect(linking.note!.split("\n")).toHaveLength(1);
      expect(linking.values[0]).toMatchObject({ value: "JetBlue Airways" });
      // The failed endpoint is left alone for a while: the next question does not wait for it again.
      const requests = failing.embeddingRequests.length;
      expect((await linkKeywords(["Lufthansa"], { dbPath, dataDir, executor, embeddings })).linking.ranking).toBe("lexical");
      expect(failing.embeddingRequests.length).toBe(requests);
    } finally {
      await failing.close();
    }
    const gone = embedderOn(failing); // closed server: connection refused
    const { linking } = await linkKeywords(["Jetblu"], { dbPath, dataDir, executor, embeddings: gone });
    expect(linking.ranking).toBe("lexical");
    expect(linking.note).toMatch(/embeddings unavailable/);
  });

  it("says what it could not read instead of throwing", async () => {
    const bad = path.join(dir, "corrupt.sqlite");
    fs.writeFileSync(bad, "this is not a database at all, just text that goes on ".repeat(100));
    const { linking } = await linkKeywords(["x"], { dbPath: bad, dataDir, executor });
    expect(linking.values).toEqual([]);
    expect(linking.note).toMatch(/value index: .*not a database/);
  });

  it("takes keywords from the question without a model: quoted values, numbers, dates, names, content words", () => {
    const keywords = lexicalKeywords("How many flights did 'Jetblu' fly to New York on March 4, 2024 with more than 1,200 seats?");
    expect(keywords).toEqual(expect.arrayContaining(["Jetblu", "New York", "March 4, 2024", "1,200", "flights", "seats"]));
    expect(keywords).not.toContain("How");
    expect(keywords).not.toContain("many");
  });
});

describe("schema with linking", () => {
  it("shows matched values beside their columns and keeps linked columns first under the budget", async () => {
    const wide = makeDb(
      dir,
      "wide.sqlite",
      `CREATE TABLE t (id INTEGER PRIMARY KEY, ${Array.from({ length: 40 }, (_, i) => `extra_${i} TEXT`).join(", ")}, carrier TEXT);
       INSERT INTO t (id, carrier) VALUES (1, 'JetBlue Airways');`,
    );
    const schema = await readSchema(wide, { executor });
    const { linking } = await linkKeywords(["Jetblu"], { dbPath: wide, dataDir, executor });
    const text = renderSchema(schema, { question: "Which flights?", maxChars: 400, linking });
    expect(text).toContain("carrier TEXT");
    expect(text).toContain("matches the question: 'JetBlue Airways'");
    expect(text).not.toContain("extra_39");
    expect(renderSchema(schema, { question: "Which flights?", maxChars: 400 })).not.toContain("carrier");
  });
});

describe("baseline --link", () => {
  it("links first and puts the matched values in the generator's prompt", async () => {
    process.env.SQLMEND_HOME = dataDir;
    const models = scriptedProvider({
      linker: '{"keywords": ["Jetblu", "fleet"]}',
      generator: "```sql\nSELECT fleet_size FROM airlines WHERE name = 'JetBlue Airways'\n```",
    });
    const graph = baselineSpec.build({ models, executor }, { link: true });
    const state = await graph.invoke({ question: "What is the fleet of Jetblu?", dbPath });
    expect(state.linking).toMatchObject({ keywords: ["Jetblu", "fleet"], ranking: "lexical" });
    expect(state.linking.values[0]).toMatchObject({ value: "JetBlue Airways", table: "airlines", column: "name" });
    const linkerSaw = models.shownTo("linker")[0]!.messages.map((m) => m.content).join("\n");
    expect(linkerSaw).toContain("What is the fleet of Jetblu?");
    const generatorSaw = models.shownTo("generator")[0]!.messages.map((m) => m.content).join("\n");
    expect(generatorSaw).toContain("matches the question: 'JetBlue Airways'");
    expect(state.execution).toMatchObject({ ok: true, preview: { rows: [[290]] } });
    expect(state.usage.byRole.linker?.calls).toBe(1);
  });

  it("falls back to the question's words when the linker's reply is unusable, and is off by default", async () => {
    process.env.SQLMEND_HOME = dataDir;
    const models = scriptedProvider({ linker: "no idea", generator: "```sql\nSELECT 1\n```" });
    const state = await baselineSpec.build({ models, executor }, { link: true }).invoke({ question: "Fleet of Jetblu?", dbPath });
    expect(state.linking.note).toMatch(/keywords: .*used the question's own words/);
    expect(state.linking.values[0]).toMatchObject({ value: "JetBlue Airways" });
    expect(models.shownTo("generator")[0]!.messages.map((m) => m.content).join("\n")).toContain("'JetBlue Airways'");

    const plain = scriptedProvider({ generator: "```sql\nSELECT 1\n```" });
    const off = await baselineSpec.build({ models: plain, executor }).invoke({ question: "Fleet of Jetblu?", dbPath });
    expect(off.linking).toBeNull();
    expect(plain.shownTo("linker")).toEqual([]);
  });
});

describe("sqlmend link and ask --link through the real clients", () => {
  it("prints keywords, columns, values and the ranking; --json; embeddings counted under role embedder", async () => {
    const server = await startOpenAIServer({ respond: () => ({ content: '{"keywords": ["Jetblu", "founded"]}' }) });
    try {
      const env = { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: "test-model", SQLMEND_HOME: dataDir };
      const text = captureIO(dir, env);
      expect(await main(["link", "--db", dbPath, "--structured-method", "jsonMode", "When was Jetblu founded?"], text.io)).toBe(0);
      expect(text.out()).toMatch(/Keywords \(linker\): Jetblu, founded/);
      expect(text.out()).toMatch(/Ranking: lexical \(no embedding model configured/);
      expect(text.out()).toMatch(/Jetblu → airlines\.name = 'JetBlue Airways'/);
      expect(text.out()).toMatch(/airlines\.founded\s+1\.000\s+name/);

      const json = captureIO(dir, { ...env, SQLMEND_EMBEDDING_MODEL: "test-embed" });
      expect(await main(["link", "--db", dbPath, "--structured-method", "jsonMode", "--json", "When was Jetblu founded?"], json.io)).toBe(0);
      const out = JSON.parse(json.out());
      expect(out).toMatchObject({ ranking: "embeddings", keywordSource: "linker", keywords: ["Jetblu", "founded"] });
      expect(out.values[0]).toMatchObject({ value: "JetBlue Airways" });
      expect(out.usage.byRole.embedder.calls).toBe(1);
      expect(out.usage.byRole.linker.calls).toBe(1);
      expect(server.embeddingRequests.at(-1)!.model).toBe("test-embed");
      expect(fs.existsSync(path.join(dataDir, "embeddings.sqlite"))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("uses the question's own words when no model is configured, and --keywords", async () => {
    const run = captureIO(dir, { SQLMEND_HOME: dataDir });
    expect(await main(["link", "--db", dbPath, "Flights of Jetblu to Bostn"], run.io)).toBe(0);
    expect(run.out()).toMatch(/Keywords \(the question's own words \(no model configured\)\)/);
    expect(run.out()).toMatch(/Bostn → flights\.(origin|destination) = 'Boston'/);
    const given = captureIO(dir, { SQLMEND_HOME: dataDir });
    expect(await main(["link", "--db", dbPath, "--keywords", "Lufthansaa", "--json", "anything"], given.io)).toBe(0);
    expect(JSON.parse(given.out()).values[0]).toMatchObject({ value: "Lufthansa", keyword: "Lufthansaa" });
    const bad = captureIO(dir, {});
    expect(await main(["link", "--db", path.join(dir, "missing.sqlite"), "q"], bad.io)).toBe(1);
    expect(bad.err()).toMatch(/database not found/);
  });

  it("ask baseline --link: the generator's prompt carries the matched values; --link is a baseline option in --help", async () => {
    const server = await startOpenAIServer({
      respond: (req) =>
        /keywords/i.test(req.messages.at(-1)?.content ?? "") || req.body.response_format
          ? { content: '{"keywords": ["Jetblu"]}' }
          : { content: "```sql\nSELECT country FROM airlines WHERE name = 'JetBlue Airways'\n```" },
    });
    try {
      const run = captureIO(dir, { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: "test-model", SQLMEND_HOME: dataDir });
      const checkpoints = path.join(dataDir, "ckpt.sqlite");
      const code = await main(["ask", "baseline", "--link", "--db", dbPath, "--checkpoints", checkpoints, "--thread", "t-link", "--json", "Which country is Jetblu from?"], run.io);
      expect(run.err()).toBe("");
      expect(code).toBe(0);
      expect(JSON.parse(run.out()).result.rows).toEqual([["United States"]]);
      const generation = server.requests.find((r) => r.messages.some((m) => m.content.includes("Database schema")))!;
      expect(generation.messages.map((m) => m.content).join("\n")).toContain("matches the question: 'JetBlue Airways'");
      // inspect says what linking found and how it ranked.
      const inspect = captureIO(dir, {});
      expect(await main(["inspect", "t-link", "--checkpoints", checkpoints], inspect.io)).toBe(0);
      expect(inspect.out()).toMatch(/link\s+linking=1 keywords, \d+ columns, 1 values \('JetBlue Airways'\), ranked lexically \(no embedding model configured/);
      expect(inspect.out()).toMatch(/linker \d+\/\d+ tok/);
      const help = captureIO(dir, {});
      expect(await main(["eval", "baseline", "--help"], help.io)).toBe(0);
      expect(help.out() + help.err()).toMatch(/--link\s+link the question/);
    } finally {
      await server.close();
    }
  });

  it("eval baseline --link with an embedding model: EX, the report names the embedding model and the link setting", async () => {
    const bench = path.join(dir, "bench");
    fs.mkdirSync(path.join(bench, "dev_databases", "air"), { recursive: true });
    fs.copyFileSync(dbPath, path.join(bench, "dev_databases", "air", "air.sqlite"));
    fs.writeFileSync(
      path.join(bench, "dev.json"),
      JSON.stringify([
        { question_id: 1, db_id: "air", question: "Which country is Jetblu from?", evidence: "", SQL: "SELECT country FROM airlines WHERE name = 'JetBlue Airways'" },
        { question_id: 2, db_id: "air", question: "Fleet of Lufthansaa?", evidence: "", SQL: "SELECT fleet_size FROM airlines WHERE name = 'Lufthansa'" },
      ]),
    );
    // The generator copies the first value linking matched into its SQL: right only if linking found it.
    const server = await startOpenAIServer({
      respond: (req) => {
        const last = req.messages.at(-1)?.content ?? "";
        const all = req.messages.map((m) => m.content).join("\n");
        if (req.body.response_format || /keywords/i.test(all)) return { content: JSON.stringify({ keywords: [/Jetblu|Lufthansaa/.exec(all)?.[0] ?? "x"] }) };
        const schema = all;
        const value = /matches the question: '([^']+)'/.exec(schema)?.[1] ?? "none";
        const column = /Fleet/.test(last) ? "fleet_size" : "country";
        return { content: `\`\`\`sql\nSELECT ${column} FROM airlines WHERE name = '${value}'\n\`\`\`` };
      },
    });
    try {
      const out = path.join(dir, "eval-link");
      const run = captureIO(dir, { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: "test-model", SQLMEND_HOME: dataDir, SQLMEND_EMBEDDING_MODEL: "test-embed" });
      const code = await main(["eval", "baseline", "--link", "--bench", bench, "--out", out, "--checkpoints", "memory", "--structured-method", "jsonMode"], run.io);
      expect(run.out()).toMatch(/EX 100\.00% \(2\/2/);
      expect(code).toBe(0);
      const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
      expect(report).toMatch(/"embeddings": "test-embed"/);
      expect(report).toMatch(/"link": true/);
      expect(report).toMatch(/\| embedder \| \d+ \|/);
    } finally {
      await server.close();
    }
  });
});
