/**
 * Every command has its function (issue 38, point 6): exec, benchInfo, cacheInfo/cacheClear, merge, link and ask
 * called from a script return as data what their command prints, from the same body.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ask, benchInfo, cacheClear, cacheInfo, exec, link, merge, quietIO } from "../index.ts";
import { startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";
import { encodeCell } from "../cli/commands/exec.ts";
import type { Question } from "../state/question.ts";
import { minibenchFixture, runCli } from "./support/cli.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";

let dir: string;
let benchDir: string;
let dev: Question[];
const env = () => ({ SQLMEND_HOME: path.join(dir, "home") });
const io = () => quietIO({ cwd: dir, env: env() });
const sqlmend = (...args: string[]) => runCli(args, dir, env());

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev } = await minibenchFixture(dir));
  makeDb(dir, "shop.sqlite", "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price REAL); INSERT INTO item VALUES (1, 'pen', 1.5), (2, 'book', 12.0), (3, 'lamp', NULL);");
});
afterAll(() => removeTempDir(dir));

describe("the explore and upkeep API", () => {
  it("exec returns the rows, columns and truncation exec --json prints, and a refused statement as data", async () => {
    const sql = "SELECT id, name, price, 9223372036854775807 AS big FROM item ORDER BY id";
    const result = await exec({ db: "shop.sqlite", sql, maxRows: 2 }, io());
    const printed = await sqlmend("exec", "--db", "shop.sqlite", "--max-rows", "2", "--json", sql);
    expect(printed.code).toBe(0);
    if (!result.ok) throw new Error(result.message);
    const json = JSON.parse(printed.out) as { columns: string[]; rowCount: number; truncated: boolean };
    expect([result.columns, result.rowCount, result.truncated]).toEqual([json.columns, json.rowCount, json.truncated]);
    expect([result.rowCount, result.truncated, result.rows.length]).toEqual([3, true, 2]);
    // The cells keep SQLite's storage classes: the CLI's lossless JSON is the API's rows, encoded.
    expect(result.rows[0]).toEqual([1n, "pen", 1.5, 9223372036854775807n]);
    expect(printed.out).toContain(`"rows":[${result.rows.map((row) => `[${row.map(encodeCell).join(",")}]`).join(",")}]`);

    const refused = await exec({ db: "shop.sqlite", sql: "DROP TABLE item" }, io());
    expect(refused).toMatchObject({ ok: false, kind: "rejected" });
    const cli = await sqlmend("exec", "--db", "shop.sqlite", "DROP TABLE item");
    expect(cli.err).toContain(`rejected: ${!refused.ok && refused.message}`);
    await expect(exec({ db: "shop.sqlite", sql: "SELECT 1", maxRows: -1 }, io())).rejects.toThrow("exec: maxRows takes a whole number >= 0, not -1");
    await expect(exec({ db: "shop.sqlite" } as never, io())).rejects.toThrow("exec: sql is required");
  });

  it("benchInfo returns the splits, question counts and databases bench info prints", async () => {
    const info = await benchInfo({ bench: benchDir }, io());
    if (info.layout === "own") throw new Error("a benchmark folder");
    const printed = await sqlmend("bench", "info", benchDir);
    expect(printed.code).toBe(0);
    expect(info.splits.map((s) => s.split).sort()).toEqual(["dev", "train"]);
    expect(printed.out).toContain(`splits:      ${info.splits.map((s) => s.split).join(", ")}\n`);
    const devSplit = info.splits.find((s) => s.split === "dev")!;
    expect(devSplit.questions).toBe(dev.length);
    for (const s of info.splits) {
      expect(printed.out).toContain(`${s.split}: ${s.file} over ${s.dbFolder}/\n  questions: ${s.questions}`);
      expect(printed.out).toContain(`; ${s.withGold} of the ${s.runnable} runnable have gold SQL\n  databases: ${s.databases.present.length} present`);
    }
    const own = path.join(dir, "own.jsonl");
    fs.writeFileSync(own, `${JSON.stringify({ question: "How many items?", db_id: "shop" })}\n`);
    const ownInfo = await benchInfo({ questions: "own.jsonl", dbDir: "." }, io());
    expect(ownInfo).toMatchObject({ layout: "own", summary: { questions: 1, runnable: 1, withGold: 0, databases: { present: ["shop"], missing: [] } } });
    await expect(benchInfo({ questions: "own.jsonl" }, io())).rejects.toThrow("benchInfo: questions FILE and dbDir DIR go together");
  });

  it("cacheInfo returns what cache info --json prints; cacheClear removes a model's vectors and says how many", async () => {
    fs.mkdirSync(path.join(dir, "home"), { recursive: true });
    const vectors = new Database(path.join(dir, "home", "embeddings.sqlite"));
    vectors.exec("CREATE TABLE vectors (model TEXT NOT NULL, hash TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model, hash)) WITHOUT ROWID");
    for (const [model, n] of [["emb-a@http://127.0.0.1/v1", 3], ["emb-b", 2]] as const) for (let i = 0; i < n; i++) vectors.prepare("INSERT INTO vectors VALUES (?, ?, x'00')").run(model, `h${i}`);
    vectors.close();

    const { dir: home, redisInUse, ...files } = await cacheInfo(io());
    expect([home, redisInUse, files.vectors.vectors]).toEqual([path.join(dir, "home"), false, 5]);
    expect(files).toEqual(JSON.parse((await sqlmend("cache", "info", "--json")).out));

    await expect(cacheClear({ model: "emb-c" }, io())).rejects.toThrow(/no model 'emb-c' in the caches of .*: they hold 'emb-a', 'emb-b'/);
    await expect(cacheClear({ all: true, model: "emb-a" }, io())).rejects.toThrow("cacheClear: all removes everything: give it alone, or name model and/or before");
    await expect(cacheClear({ before: "2026-02-30" }, io())).rejects.toThrow("cacheClear: before takes a day as YYYY-MM-DD, not '2026-02-30'");
    expect(await cacheClear({ model: "emb-a" }, io())).toMatchObject({ dir: path.join(dir, "home"), replies: 0, vectors: 3 });
    expect((await sqlmend("cache", "clear", "--all")).out).toMatch(/^removed 0 replies and 2 vectors from /);
    expect((await cacheInfo(io())).vectors.vectors).toBe(0);
  });

  it("link returns the keywords, columns and values link --json prints; the question's own words without a model", async () => {
    makeDb(dir, "flights.sqlite", "CREATE TABLE airlines (id INTEGER PRIMARY KEY, name TEXT, country TEXT); INSERT INTO airlines VALUES (1, 'JetBlue Airways', 'USA'), (2, 'Lufthansa', 'Germany');");
    const found = await link({ db: "flights.sqlite", question: "Which country is Jetblu from?" }, io());
    expect(found.keywordSource).toBe("question");
    expect(found.values.map((v) => `${v.keyword} → ${v.table}.${v.column} = ${v.value}`)).toContain("Jetblu → airlines.name = JetBlue Airways");
    const printed = await sqlmend("link", "--db", "flights.sqlite", "--json", "Which country is Jetblu from?");
    expect(printed.code, printed.err).toBe(0);
    const { index: printedIndex, ...printedRest } = JSON.parse(printed.out);
    const { index, ...rest } = found;
    expect(printedRest).toEqual(rest);
    // Built once here (this test's own data directory), the same index the command then opened.
    expect(index).toMatchObject({ reused: false });
    expect(printedIndex).toMatchObject({ file: index!.file, entries: index!.entries });
    // The index is in the caller's data directory (SQLMEND_HOME), where no other process rebuilds it.
    expect(index!.file.startsWith(path.join(dir, "home"))).toBe(true);

    const given = await link({ db: "flights.sqlite", question: "anything", keywords: ["Lufthansaa"] }, io());
    expect([given.keywordSource, given.keywords, given.values[0]?.value]).toEqual(["keywords", ["Lufthansaa"], "Lufthansa"]);
    await expect(link({ db: "flights.sqlite", question: "q", structuredMethod: "xml" as "text" }, io())).rejects.toThrow("link: structuredMethod takes auto, ");
    await expect(link({ db: "nowhere.sqlite", question: "q" }, io())).rejects.toThrow("database not found: nowhere.sqlite");
  });

  it("merge returns the merged run's figures merge prints, and writes the folder merge writes", async () => {
    const shards = ["1/2", "2/2"].map((shard, i) => ({ shard, out: path.join(dir, `shard-${i + 1}`) }));
    for (const { shard, out } of shards) {
      const ran = await sqlmend("eval", "baseline", "--bench", benchDir, "--limit", "5", "--model", "mock", "--checkpoints", "memory", "--shard", shard, "--out", out);
      expect(ran.code, ran.err).toBe(0);
    }
    const merged = await merge({ shards: shards.map((s) => path.relative(dir, s.out)), out: "merged-api" }, io());
    const printed = await sqlmend("merge", ...shards.map((s) => s.out), "--out", "merged-cli");
    expect(printed.code).toBe(0);
    expect(merged).toMatchObject({ outDir: path.join(dir, "merged-api"), shards: 2, questions: 5, failed: 0, ignored: 0 });
    expect(merged.records.map((r) => r.id)).toEqual(dev.slice(0, 5).map((q) => q.id));
    expect(printed.out).toContain(`Merged 2 shards: 5 questions\nEX ${merged.ex!.toFixed(2)}% (${merged.correct}/${merged.scored})\n`);
    expect(fs.readFileSync(merged.files.results, "utf8")).toBe(fs.readFileSync(path.join(dir, "merged-cli", "results.jsonl"), "utf8"));
    expect(fs.readFileSync(merged.files.report, "utf8")).toContain("sqlmend merge shard-1 shard-2 --out merged-api");
    await expect(merge({ shards: [], out: "x" }, io())).rejects.toThrow("merge: shards takes a value each time");
  }, 120_000);

  it("ask returns the SQL, its result, usage and thread ask --json prints; the run's error apart from the result's", async () => {
    const sqlFor = (prompt: string) => (/broken/.test(prompt) ? "SELECT nope FROM item" : "SELECT name FROM item WHERE price IS NOT NULL ORDER BY id");
    const server = await startOpenAIServer({ respond: (req) => ({ content: `\`\`\`sql\n${sqlFor(req.messages.at(-1)?.content ?? "")}\n\`\`\`` }) });
    try {
      const model = { model: TEST_MODEL_ID, baseUrl: server.url, cache: "off" } as const;
      const checkpoints = path.join(dir, "checkpoints.sqlite");
      const answer = await ask({ graph: "baseline", db: "shop.sqlite", question: "Which items have a price?", thread: "t-api", checkpoints, maxFixRounds: 0, ...model }, io());
      expect(answer).toMatchObject({ graph: "baseline", thread: "t-api", checkpoints, sql: "SELECT name FROM item WHERE price IS NOT NULL ORDER BY id", iterations: 0, warnings: [] });
      expect(answer.result).toMatchObject({ columns: ["name"], rows: [["pen"], ["book"]] });
      expect([answer.usage.calls, answer.error, answer.resultError]).toEqual([1, undefined, undefined]);

      const printed = await sqlmend("ask", "baseline", "--db", "shop.sqlite", "--thread", "t-cli", "--checkpoints", checkpoints, "--max-fix-rounds", "0", "--model", TEST_MODEL_ID, "--base-url", server.url, "--cache", "off", "--json", "Which items have a price?");
      expect(printed.code, printed.err).toBe(0);
      const json = JSON.parse(printed.out);
      expect({ ...json, thread: "t-api", latencyMs: 0, usage: null }).toEqual({ thread: "t-api", sql: answer.sql, result: answer.result, iterations: answer.iterations, checkpoints, latencyMs: 0, usage: null });
      expect(json.usage.calls).toBe(answer.usage.calls);

      // Its SQL fails: the answer says why in resultError (ask --json's error), the run itself did not fail.
      const broken = await ask({ graph: "baseline", db: "shop.sqlite", question: "A broken one?", maxFixRounds: 0, checkpoints: "memory", ...model }, io());
      expect([broken.sql, broken.result, broken.resultError, broken.error]).toEqual(["SELECT nope FROM item", undefined, "sql: no such column: nope", undefined]);
      const brokenJson = JSON.parse((await sqlmend("ask", "baseline", "--db", "shop.sqlite", "--max-fix-rounds", "0", "--checkpoints", "memory", "--model", TEST_MODEL_ID, "--base-url", server.url, "--json", "A broken one?")).out);
      expect(brokenJson.error).toBe(broken.resultError);

      // A graph option the graph does not declare, a misspelt option: refused by name before anything runs.
      await expect(ask({ graph: "baseline", db: "shop.sqlite", question: "q", options: { reviewers: 2 } as never, ...model }, io())).rejects.toThrow("ask: unknown option 'options.reviewers'");
      await expect(ask({ graph: "baseline", db: "shop.sqlite", question: "q", maxFixRound: 1, ...model } as never, io())).rejects.toThrow("ask: unknown option 'maxFixRound'");
      await expect(ask({ graph: "baseline", db: "shop.sqlite", question: "q", sql: "SELECT 1", ...model }, io())).rejects.toThrow("ask: sql applies to corrector graphs; 'baseline' is a generator");
    } finally {
      await server.close();
    }
  }, 60_000);
});
