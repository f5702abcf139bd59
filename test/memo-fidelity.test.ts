/**
 * Issue 28, Memo-SQL (points 8–12): no memory from the evaluated split or its answers, exemplars and memory cases before
 * the target question, three random decompositions that ask for different things, identical paths solved once, and
 * memo-refine's critic given memo-sql's context.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemorySaver } from "@langchain/langgraph";
import { memoSqlSpec } from "../graphs/memo-sql.ts";
import { memoRefineSpec } from "../graphs/memo-refine.ts";
import { decompositionSeed, decomposePrompt } from "../nodes/memo/prompts.ts";
import { createExampleStore } from "../tools/retrieval/examples.ts";
import { MemoryStore, type NewMemoryEntry } from "../tools/retrieval/memory-store.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import type { Candidate } from "../state/sql-state.ts";
import type { MemoPlan } from "../state/memo.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { scriptedProvider, type Shown } from "./support/scripted-models.ts";

const SHOP = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
INSERT INTO customers VALUES (1, 'Ada', 'London'), (2, 'Linus', 'Helsinki'), (3, 'Grace', NULL);
`;
const QUESTION = "How many customers live in London?";
const RIGHT = "SELECT count(*) FROM customers WHERE city = 'London'";
const sqlReply = (sql: string) => `Reasoning first.\n\`\`\`sql\n${sql}\n\`\`\``;
const userText = (s: Shown) => s.messages.filter((m) => m.role === "user").map((m) => m.content)[0]!;

let dir: string;
let dbPath: string;
const executor = createExecutor({ size: 2 });

beforeAll(() => {
  dir = makeTempDir();
  dbPath = makeDb(dir, "shop.sqlite", SHOP);
});
afterAll(async () => {
  await executor.close();
  removeTempDir(dir);
});

// ---------------------------------------------------------------- point 8

describe("point 8: no memory holding the evaluated benchmark's answers", () => {
  // Paraphrase pairs as Spider's dev has them: questions 2k and 2k+1 share their gold SQL.
  const gold = (k: number) => `SELECT name FROM customers WHERE id = ${k}`;
  const dev = Array.from({ length: 6 }, (_, i) => ({ id: String(i), dbId: "shop", question: `${i % 2 ? "Give the name of" : "What is the name of"} customer number ${Math.floor(i / 2)}?`, goldSql: gold(Math.floor(i / 2)) }));
  const entryOf = (q: (typeof dev)[number], over: Partial<NewMemoryEntry> = {}): NewMemoryEntry => ({
    sourceId: `${q.dbId}/${q.id}`,
    dbId: q.dbId,
    question: q.question,
    evidence: "",
    goldSql: q.goldSql,
    wrongSql: "SELECT 1",
    errorTypes: ["select_output_error"],
    suggestions: "return the name",
    ...over,
  });
  const memory = (name: string, build: { bench: string; split: string }, entries: NewMemoryEntry[]) => {
    const file = path.join(dir, name);
    const store = MemoryStore.open(file, { create: true });
    store.setMeta("build", JSON.stringify(build));
    for (const e of entries) store.add(e, { id: e.sourceId, outcome: "entry" });
    store.close();
    return name;
  };
  const preflight = (file: string, options: Record<string, unknown> = {}) =>
    memoSqlSpec.preflight!({ questions: [dev[0]!, dev[2]!, dev[4]!], bench: path.join(dir, "bench"), split: "dev", options: { memory: file, ...options }, cwd: dir });

  it("refuses a memory built from the paraphrase neighbours of the evaluated questions (same split, other ids and wording)", () => {
    const file = memory("neighbours.sqlite", { bench: path.join(dir, "bench"), split: "dev" }, [dev[1]!, dev[3]!, dev[5]!].map((q) => entryOf(q)));
    for (const spec of [memoSqlSpec, memoRefineSpec]) {
      expect(() => spec.preflight!({ questions: [dev[0]!, dev[2]!, dev[4]!], bench: path.join(dir, "bench"), split: "dev", options: { memory: file }, cwd: dir })).toThrow(
        /holds 3 entries .*3 built from the evaluated split \(dev\).*options\.allowMemoryOverlap/,
      );
    }
  });

  it("refuses an entry from elsewhere whose gold SQL, in canonical spelling, is an evaluated question's gold", () => {
    const elsewhere = { bench: path.join(dir, "other-bench"), split: "train" };
    const file = memory("same-gold.sqlite", elsewhere, [
      entryOf(dev[1]!, { sourceId: "shop/900", question: "Customer 0's name?", goldSql: "select NAME from customers  where id=0;" }),
      entryOf(dev[3]!, { sourceId: "shop/901", question: "Who lives in Helsinki?", goldSql: "SELECT name FROM customers WHERE city = 'Helsinki'" }),
    ]);
    // The other entry's text and gold are another question's, but it is of an evaluated database (issue 40).
    expect(() => preflight(file)).toThrow(/holds 2 entries .*1 whose gold SQL is an evaluated question's; 1 from an evaluated question's database \(shop\).*first: 0, 2, 4\)/);
    // With the override the run goes ahead and the report's settings say what overlaps.
    expect(preflight(file, { allowMemoryOverlap: true }).memory).toMatchObject({ overlappingEntries: { split: 0, question: 0, gold: 1, database: 1 }, overlapAllowed: expect.stringMatching(/gold SQL/) });
    // The same SQL on another database is not that question's answer.
    const otherDb = memory("other-db.sqlite", elsewhere, [entryOf(dev[1]!, { sourceId: "zoo/1", dbId: "zoo", question: "Zoo question", goldSql: gold(0) })]);
    expect(preflight(otherDb).memory).toMatchObject({ entries: 1, evaluatedQuestionsInMemory: 0 });
  });
});

// ---------------------------------------------------------------- point 10

describe("point 10: three random decompositions ask for different things", () => {
  it("over many questions, the three paths' instructions differ pairwise (size and starting point)", () => {
    const words = ["singer", "concert", "stadium", "average", "age", "country", "name", "year", "most", "least", "each", "France", "2014", "capacity"];
    let x = 7;
    const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
    const questions = Array.from({ length: 2000 }, (_, i) => `${Array.from({ length: 4 + (next() % 9) }, () => words[next() % words.length]).join(" ")} ${i}?`);
    const ctx = { schemaText: "CREATE TABLE singer (id INTEGER)", question: "", evidence: "", linkingText: "" };
    let samePair = 0;
    for (const question of questions) {
      const asks = [0, 1, 2].map((p) => {
        const seed = decompositionSeed(question, p);
        const prompt = String(decomposePrompt({ ...ctx, question }, "random", seed)[1]!.content);
        // What the prompt asks for, the seed's own hex left out: the instruction itself.
        return { prompt: prompt.replace(seed.seed, "<seed>"), size: seed.size, start: seed.start };
      });
      for (const [a, b] of [[0, 1], [0, 2], [1, 2]] as const) {
        if (asks[a]!.prompt === asks[b]!.prompt || asks[a]!.size === asks[b]!.size || asks[a]!.start === asks[b]!.start) samePair++;
      }
    }
    expect(samePair).toBe(0);
  });
});

// ---------------------------------------------------------------- points 9, 11, 12 (graphs)

const lastUser = (r: { messages: { role: string; content: string }[] }) => r.messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");

function script(decomposer: (prompt: string) => string) {
  return scriptedProvider({
    linker: '{"keywords": ["city", "London"]}',
    decomposer: ({ messages }) => decomposer(lastUser({ messages })),
    solver: sqlReply("SELECT id FROM customers WHERE city = 'London'"),
    reflector: '{"problem": false, "issue": ""}',
    writer: ({ messages }) => (lastUser({ messages }).includes("nested subqueries") ? sqlReply("SELECT count(*) FROM customers WHERE city = 'Londn'") : sqlReply(RIGHT)),
    critic: ({ messages }) =>
      lastUser({ messages }).includes("Londn") ? '{"wrong": true, "errorTypes": ["filter_condition_error"], "suggestions": "spell London"}' : '{"wrong": false, "errorTypes": [], "suggestions": ""}',
    refiner: sqlReply(RIGHT),
  });
}

const examples = createExampleStore([
  { id: "t1", dbId: "shop", dbPath: "x", question: "How many customers live in Paris?", evidence: "", goldSql: "SELECT count(*) FROM customers WHERE city = 'Paris'" },
  { id: "t2", dbId: "shop", dbPath: "x", question: "Names of customers in Rome", evidence: "", goldSql: "SELECT name FROM customers WHERE city = 'Rome'" },
]);
const input = () => ({ questionId: "q1", question: QUESTION, dbPath, dbId: "shop" });
let memoryFile: string;
beforeAll(() => {
  memoryFile = path.join(dir, "memory.sqlite");
  const store = MemoryStore.open(memoryFile, { create: true });
  store.add({ sourceId: "m1", dbId: "shop", question: "How many customers live in Oslo?", evidence: "", goldSql: "SELECT count(*) FROM customers WHERE city = 'Oslo'", wrongSql: "SELECT count(*) FROM customers WHERE city = 'oslo'", errorTypes: ["filter_condition_error"], suggestions: "match the stored spelling" });
  store.close();
});
const runMemo = (models: ReturnType<typeof script>, options: Record<string, unknown> = {}) =>
  memoSqlSpec.build({ models, executor, examples }, { memory: memoryFile, checkpointer: new MemorySaver(), ...options }).invoke(input(), { configurable: { thread_id: `t-${Math.random()}` }, recursionLimit: 200 });

/** The questions a prompt shows, in reading order. */
const questionsIn = (prompt: string) => [...prompt.matchAll(/^(?:Case \d+\. )?Question: (.*)$/gm)].map((m) => m[1]!.trim());

describe("point 9: exemplars and memory cases come before the target question", () => {
  it("the writer's and the critic's last question is the one to answer", async () => {
    const models = script(() => '{"simple": false, "fits": true, "subQuestions": ["Customers in London", "How many"]}');
    await runMemo(models);
    const writers = models.shownTo("writer").map(userText);
    const critics = models.shownTo("critic").map(userText);
    expect(writers.length).toBeGreaterThan(0);
    expect(critics.length).toBeGreaterThan(0);
    for (const prompt of [...writers, ...critics]) {
      const shown = questionsIn(prompt);
      expect(shown.length).toBeGreaterThan(1); // exemplars or memory cases were shown
      expect(shown.at(-1)).toBe(QUESTION);
      expect(shown.slice(0, -1)).not.toContain(QUESTION);
    }
  });
});

describe("point 11: identical paths are solved once", () => {
  it("three identical plans: each solver, reflector and writer prompt is sent once, the candidates count for every path", async () => {
    const models = script(() => '{"simple": true, "fits": true, "subQuestions": []}');
    const state = await runMemo(models, { noIcl: true });
    const prompts = (role: string) => models.shownTo(role).map(userText);
    for (const role of ["solver", "reflector", "writer"]) {
      const sent = prompts(role);
      expect(sent.length, role).toBeGreaterThan(0);
      expect(new Set(sent).size, `${role}: every prompt once`).toBe(sent.length);
    }
    expect(prompts("solver")).toHaveLength(1);
    expect(prompts("writer")).toHaveLength(3);
    // One vote per path, as three identical paths would have cast: nine candidates, six copied from the table-wise path.
    expect(state.candidates).toHaveLength(9);
    expect(state.candidates.filter((c: Candidate) => c.meta?.sharedFrom).map((c: Candidate) => c.id).sort()).toEqual(["atomic:cte", "atomic:join", "atomic:nested", "hierarchical:cte", "hierarchical:join", "hierarchical:nested"]);
    expect(state.memoPlans.filter((p: MemoPlan) => p.solvedBy === "table").map((p: MemoPlan) => p.strategy).sort()).toEqual(["atomic", "hierarchical"]);
    expect(state.memoVote.groups[0].ids).toHaveLength(9);
    const outcome = memoSqlSpec.outcome!.of(state);
    expect(outcome).toMatchObject({ collapsedPaths: 2, candidates: 9 });
    expect(outcome["decomposition.atomic"]).toMatch(/the same plan as table: solved once/);
  });

  it("different plans are solved apart", async () => {
    const models = script((p) => `{"simple": false, "fits": true, "subQuestions": ["${p.includes("Atomic") ? "filter" : p.includes("Hierarchical") ? "inner" : "table"} step", "count"]}`);
    const state = await runMemo(models, { noIcl: true });
    expect(models.shownTo("writer")).toHaveLength(9);
    expect(memoSqlSpec.outcome!.of(state)).toMatchObject({ collapsedPaths: 0 });
  });
});

describe("point 12: memo-refine's critic works with memo-sql's critic's context", () => {
  it("links first, and its critic sees the same linking block memo-sql's critic sees", async () => {
    const sql = "SELECT count(*) FROM customers WHERE city = 'Londn'";
    const refineModels = script(() => "{}");
    await memoRefineSpec
      .build({ models: refineModels, executor }, { memory: memoryFile, checkpointer: new MemorySaver() })
      .invoke({ ...input(), sql }, { configurable: { thread_id: `r-${Math.random()}` }, recursionLimit: 100 });
    const memoModels = script(() => '{"simple": true, "fits": true, "subQuestions": []}');
    await runMemo(memoModels, { noIcl: true });
    const linkingBlock = (prompt: string) => /^Columns the question likely refers to: .*$/m.exec(prompt)?.[0];
    const refineCritic = userText(refineModels.shownTo("critic")[0]!);
    const memoCritic = userText(memoModels.shownTo("critic")[0]!);
    expect(linkingBlock(memoCritic)).toBeDefined();
    expect(linkingBlock(refineCritic)).toBe(linkingBlock(memoCritic));
    // The schema text too is the linked one (matched values beside their columns), as memo-sql's.
    expect(refineCritic.split("\n\n")[0]).toBe(memoCritic.split("\n\n")[0]);
  });
});
