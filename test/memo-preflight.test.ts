/**
 * Issue 18, point 2: a memory never holds the questions being evaluated. `memo build` records its source; eval's
 * preflight for memo-sql and memo-refine refuses a memory made from evaluated questions unless allowed, and the report
 * records the memory's identity and size either way.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoSqlSpec } from "../graphs/memo-sql.ts";
import { memoRefineSpec } from "../graphs/memo-refine.ts";
import { MemoryStore, type NewMemoryEntry } from "../tools/retrieval/memory-store.ts";
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
    for (const spec of [memoSqlSpec, memoRefineSpec]) expect(() => spec.preflight!(run(evaluated, "dev"))).toThrow(/holds 2 entries .*2 built from the evaluated split \(dev\).*first: 7\).*--allow-memory-overlap/);
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
