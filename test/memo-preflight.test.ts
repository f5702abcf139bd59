/**
 * Issue 18, point 2: a memory never holds the questions being evaluated. `memo build` records its source; eval's
 * preflight for memo-sql and memo-refine refuses a memory made from evaluated questions unless allowed, and the report
 * records the memory's identity and size either way.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flagWordingOf } from "../core/config.ts";
import { memoSqlSpec } from "../graphs/memo-sql.ts";
import { memoRefineSpec } from "../graphs/memo-refine.ts";
import { MemoryStore, type NewMemoryEntry, normQuestion } from "../tools/retrieval/memory-store.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";

let dir: string;
let file: string;
const entry = (sourceId: string, question: string): NewMemoryEntry => ({
  sourceId,
  dbId: "shop",
  question,
  evidence: "",
  goldSql: "SELECT 1",
  wrongSql: "SELECT 2",
  errorTypes: ["filter_condition_error"],
  suggestions: "s",
});

beforeAll(() => {
  dir = makeTempDir();
  file = path.join(dir, "memory.sqlite");
  const store = MemoryStore.open(file, { create: true });
  store.setMeta("build", JSON.stringify({ bench: path.join(dir, "bench"), split: "dev" }));
  store.add(entry("shop/7", "How many customers live in Paris?"), { id: "7", outcome: "entry" });
  store.add(entry("shop/8", "How many orders are there?"), { id: "8", outcome: "entry" });
  store.close();
});
afterAll(() => removeTempDir(dir));

const run = (questions: { id: string; question: string }[], split: string, options: Record<string, unknown> = {}) => ({
  questions: questions.map((q) => ({ ...q, dbId: "shop" })),
  bench: path.join(dir, "bench"),
  split,
  options: { memory: "memory.sqlite", ...options },
  cwd: dir,
});

describe("the memory never holds the questions being evaluated", () => {
  it("refuses a memory built from the evaluated split's questions (memo-sql and memo-refine)", () => {
    const evaluated = [{ id: "7", question: "Reworded: customers in Paris?" }, { id: "9", question: "Something else" }];
    // Both entries were built from dev: the evaluated split, whichever of its questions are evaluated.
    for (const spec of [memoSqlSpec, memoRefineSpec]) expect(() => spec.preflight!(run(evaluated, "dev"))).toThrow(/holds 2 entries .*2 built from the evaluated split \(dev\).*first: 7\).*pass options\.allowMemoryOverlap/);
    // A script passes options.allowMemoryOverlap; the launcher's user types --allow-memory-overlap, and reads that.
    const error = (() => {
      try {
        memoSqlSpec.preflight!(run(evaluated, "dev"));
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(flagWordingOf(error)).toMatch(/holds 2 entries .*pass --allow-memory-overlap \(the report will say so\)$/);
  });

  it("the same ids on another split are other questions; the same text on the same database is the same question", () => {
    const fromTrain = memoSqlSpec.preflight!(run([{ id: "7", question: "Another question" }], "train"));
    expect(fromTrain.memory).toMatchObject({ entries: 2, evaluatedQuestionsInMemory: 0, build: { split: "dev" }, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(() => memoSqlSpec.preflight!(run([{ id: "1", question: "how many  ORDERS are there?" }], "train"))).toThrow(/first: 1/);
  });

  it("with --allow-memory-overlap it runs, and the report's settings say so", () => {
    const allowed = memoSqlSpec.preflight!(run([{ id: "8", question: "x" }], "dev", { allowMemoryOverlap: true }));
    expect(allowed.memory).toMatchObject({ evaluatedQuestionsInMemory: 1, overlappingEntries: { split: 2, question: 0, gold: 0 }, overlapAllowed: expect.stringMatching(/--allow-memory-overlap: 2 entries .*2 built from the evaluated split/) });
  });

  it("records the memory's identity: the same entries give the same hash", () => {
    const a = memoSqlSpec.preflight!(run([], "train")).memory as { sha256: string };
    const b = memoSqlSpec.preflight!(run([], "train")).memory as { sha256: string };
    expect(a.sha256).toBe(b.sha256);
    expect(memoSqlSpec.preflight!(run([], "dev", { retrieval: "none" })).memory).toMatch(/not read/);
  });
});

describe("issue 40: memory from the evaluated databases, and punctuation spacing", () => {
  /** A memory built from a paraphrase file (as `memo build --questions syn.json --db-dir ...`) over the dev databases. */
  function paraphraseMemory(name: string): string {
    const memory = path.join(dir, name);
    const store = MemoryStore.open(memory, { create: true });
    store.setMeta("build", JSON.stringify({ bench: path.join(dir, "syn"), split: "dev", questions: path.join(dir, "syn6.json") }));
    // Dev 119's paraphrase with its gold rewritten (same answer, other SQL): neither the text nor the gold guard sees it.
    store.add({ ...entry("pets/0", "Which pet weighs the least?"), dbId: "pets", goldSql: "SELECT PetID FROM Pets ORDER BY weight ASC LIMIT 1" }, { id: "0", outcome: "entry" });
    store.add({ ...entry("zoo/1", "How many lions?"), dbId: "zoo" }, { id: "1", outcome: "entry" });
    store.close();
    return memory;
  }
  const evaluated = () => ({
    questions: [
      { id: "119", dbId: "pets", question: "Find the id of the pet with the smallest weight.", goldSql: "SELECT petid FROM pets ORDER BY weight LIMIT 1" },
      { id: "120", dbId: "pets", question: "What is the id of the lightest pet?", goldSql: "SELECT petid FROM pets ORDER BY weight LIMIT 1" },
      { id: "3", dbId: "shop", question: "How many orders?", goldSql: "SELECT count(*) FROM orders" },
    ],
    bench: path.join(dir, "spider"),
    split: "dev",
    cwd: dir,
  });

  it("refuses a memory holding entries of an evaluated question's database, whatever their text and gold", () => {
    paraphraseMemory("syn.sqlite");
    for (const spec of [memoSqlSpec, memoRefineSpec]) {
      expect(() => spec.preflight!({ ...evaluated(), options: { memory: "syn.sqlite" } })).toThrow(/holds 1 entry .*1 from an evaluated question's database \(pets\) \(evaluated questions hit: 2, first: 119, 120\).*options\.allowMemoryOverlap/);
    }
  });

  it("with --allow-memory-overlap it is kept, and the questions it could answer are counted", () => {
    const allowed = memoSqlSpec.preflight!({ ...evaluated(), options: { memory: "syn.sqlite", allowMemoryOverlap: true } });
    expect(allowed.memory).toMatchObject({ evaluatedQuestionsInMemory: 2, overlappingEntries: { split: 0, question: 0, gold: 0, database: 1 } });
  });

  it('"pet ." and "pet." are the same question text', () => {
    expect(normQuestion("Find the average age of students who do not have any pet .")).toBe(normQuestion("Find the average age of students who do not have any pet."));
    expect(normQuestion("What is ( the name ) ?")).toBe(normQuestion("What is (the name)?"));
    const memory = path.join(dir, "added.sqlite");
    const store = MemoryStore.open(memory, { create: true });
    store.add({ ...entry("added:1", "Find the average age of students who do not have any pet."), dbId: "pets_1", goldSql: "SELECT avg(age) FROM student WHERE stuid NOT IN (SELECT stuid FROM has_pet)" }, { id: "added:1", outcome: "entry" });
    store.close();
    const asked = { ...evaluated(), questions: [{ id: "86", dbId: "pets_1", question: "Find the average age of students who do not have any pet .", goldSql: "SELECT avg(age) FROM student WHERE stuid NOT IN (SELECT T1.stuid FROM student AS T1 JOIN has_pet AS T2 ON T1.stuid = T2.stuid)" }] };
    const allowed = memoSqlSpec.preflight!({ ...asked, options: { memory: "added.sqlite", allowMemoryOverlap: true } });
    expect(allowed.memory).toMatchObject({ evaluatedQuestionsInMemory: 1, overlappingEntries: { question: 1, database: 0 } });
  });
});
