/**
 * `memoAdd`, `memoShow`, `memoSearch`: the memory commands as a script calls them (from the package's entry, options by
 * name), returning what they did as data — the entry added, the memory's counts and entries, the search's ranked hits
 * with their scores — and the launcher printing the same data. A temporary memory and database, the in-process mock
 * model as the labeler (no endpoint).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoAdd, type MemoAddResult, memoSearch, memoShow, MemoryStore, UsageError } from "../index.ts";
import { main } from "../cli/main.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { captureIO } from "./support/cli.ts";

let dir: string;
let db: string;
const io = () => captureIO(dir, { SQLMEND_HOME: path.join(dir, "home"), SQLMEND_CACHE: "off" });
const correction = (question: string) => ({ db, question, wrong: "SELECT name FROM staff WHERE 0", correct: "SELECT name FROM staff WHERE salary > 100" });

beforeAll(() => {
  dir = makeTempDir();
  db = makeDb(dir, "company.sqlite", "CREATE TABLE staff (id INTEGER PRIMARY KEY, name TEXT, salary INTEGER); INSERT INTO staff VALUES (1, 'Ann', 120), (2, 'Bo', 90);");
});
afterAll(() => removeTempDir(dir));

describe("memoAdd", () => {
  it("labels and stores one correction, and returns the entry as stored", async () => {
    const memory = path.join(dir, "added.sqlite");
    const run = io();
    const added: MemoAddResult = await memoAdd({ memory, ...correction("Who earns more than 100?"), model: "mock" }, run.io);
    // The mock labeler's error types and suggestions, as the memory holds them.
    expect(added.entry).toMatchObject({ id: 1, question: "Who earns more than 100?", wrongSql: "SELECT name FROM staff WHERE 0", goldSql: "SELECT name FROM staff WHERE salary > 100", errorTypes: ["select_output_error"], dbId: "company" });
    expect(added.entry.suggestions).not.toBe("");
    expect(added).toMatchObject({ file: memory, entries: 1, sameResult: false });
    const store = MemoryStore.open(memory);
    try {
      expect(store.entries()).toEqual([added.entry]);
    } finally {
      store.close();
    }
    // Data out, nothing printed: printing is the launcher's.
    expect(run.out()).toBe("");
  });

  it("says when both queries give the same result (stored anyway), in the result", async () => {
    const memory = path.join(dir, "same.sqlite");
    const added = await memoAdd({ memory, db, question: "Who is there?", wrong: "SELECT name FROM staff ORDER BY id", correct: "SELECT name FROM staff", model: "mock" }, io().io);
    expect(added.sameResult).toBe(true);
    expect(added.entries).toBe(1);
  });

  it("refuses in the API's words: a misspelt option, a value of the wrong kind, SQL that does not run", async () => {
    const memory = path.join(dir, "refused.sqlite");
    // @ts-expect-error questoin is no option of memoAdd
    await expect(memoAdd({ memory, db, questoin: "q", wrong: "SELECT 1", correct: "SELECT 1", model: "mock" }, io().io)).rejects.toThrow(new UsageError("memoAdd: unknown option 'questoin'"));
    // @ts-expect-error a record where one value goes
    await expect(memoAdd({ ...correction("q"), memory, model: { name: "mock" } }, io().io)).rejects.toThrow(/^memoAdd: model takes one value/);
    await expect(memoAdd({ ...correction("q"), memory, wrong: "SELEC nope", model: "mock" }, io().io)).rejects.toThrow(/^memoAdd: wrong SQL does not execute/);
    expect(fs.existsSync(memory)).toBe(false);
  });
});

describe("memoShow and memoSearch", () => {
  let memory: string;
  const questions = ["Who earns more than 100?", "Which staff earn over 100?", "List the names of well paid staff"];

  beforeAll(async () => {
    memory = path.join(dir, "memory.sqlite");
    for (const question of questions) await memoAdd({ memory, ...correction(question), model: "mock" }, io().io);
  });

  it("memoShow returns the memory's identity, counts and latest entries", async () => {
    const shown = await memoShow({ memory, entries: 2 }, io().io);
    expect(shown).toMatchObject({ file: memory, entries: 3, ranking: "lexical", vectors: {} });
    expect(shown.histogram.select_output_error).toBe(3);
    expect(shown.recent.map((e) => e.question)).toEqual(questions.slice(1));
    expect(shown.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await memoShow({ memory, entries: 0 }, io().io)).recent).toEqual([]);
    // @ts-expect-error entires is no option of memoShow
    await expect(memoShow({ memory, entires: 2 }, io().io)).rejects.toThrow(new UsageError("memoShow: unknown option 'entires'"));
    await expect(memoShow({ memory, entries: -1 }, io().io)).rejects.toThrow(/^memoShow: entries takes a whole number >= 0, not -1/);
  });

  it("the launcher's --json prints what memoShow returns", async () => {
    const run = io();
    expect(await main(["memo", "show", memory, "--entries", "2", "--json"], run.io)).toBe(0);
    const { embeddingModel: _m, embeddedKeys: _k, ...shown } = await memoShow({ memory, entries: 2 }, io().io);
    expect(JSON.parse(run.out())).toEqual(JSON.parse(JSON.stringify(shown)));
  });

  it("memoSearch returns every ranked hit with its score and the filter's decision, never the question's own entries", async () => {
    const found = await memoSearch({ memory, question: "Which staff members earn over 100?", sql: "SELECT name FROM staff" }, io().io);
    expect(found).toMatchObject({ mode: "filtered", ranking: "lexical" });
    expect(found.ranked).toHaveLength(3);
    for (const hit of found.ranked) expect(typeof hit.score).toBe("number");
    // Best first; the three share their error types, so the filter keeps only the best-ranked.
    expect(found.ranked.map((h) => h.score)).toEqual([...found.ranked.map((h) => h.score)].sort((a, b) => b - a));
    expect(found.ranked.filter((h) => h.kept)).toHaveLength(1);
    expect(found.entries).toEqual([found.ranked[0]!.entry]);

    const own = await memoSearch({ memory, question: questions[0]!, sql: "SELECT 1", retrieval: "top4" }, io().io);
    expect(own.mode).toBe("top4");
    expect(own.ranked.map((h) => h.entry.question)).not.toContain(questions[0]);

    // @ts-expect-error "best" is no retrieval mode
    await expect(memoSearch({ memory, question: "q", retrieval: "best" }, io().io)).rejects.toThrow(/^memoSearch: retrieval takes filtered, top4, random, not 'best'/);
  });

  it("the launcher prints memoSearch's hits and scores", async () => {
    const run = io();
    expect(await main(["memo", "search", memory, "Which staff members earn over 100?", "--sql", "SELECT name FROM staff"], run.io)).toBe(0);
    const found = await memoSearch({ memory, question: "Which staff members earn over 100?", sql: "SELECT name FROM staff" }, io().io);
    for (const [i, hit] of found.ranked.entries()) expect(run.out()).toContain(`${String(i + 1).padStart(3)}. ${hit.score.toFixed(3).padStart(8)}  #${hit.entry.id} ${hit.kept ? "KEPT" : "dropped"}`);
  });
});
