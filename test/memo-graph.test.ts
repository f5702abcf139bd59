/**
 * The memo-sql generator and memo-refine corrector with scripted models: the nine candidates, the critic↔refiner loop
 * with the memory, the vote, and each switch of Tables 3 and 5.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemorySaver } from "@langchain/langgraph";
import { memoSqlSpec } from "../graphs/memo-sql.ts";
import { memoRefineSpec } from "../graphs/memo-refine.ts";
import { majorityVote } from "../nodes/memo/correct.ts";
import { examplesWantedBy } from "../runner/run/run-options.ts";
import { runThread } from "../runner/run/question-thread.ts";
import { createExampleStore } from "../tools/retrieval/examples.ts";
import { MemoryStore, type NewMemoryEntry } from "../tools/retrieval/memory-store.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import type { Candidate } from "../state/sql-state.ts";
import type { MemoStateValue } from "../state/memo.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type Responder, scriptedProvider, type Shown } from "./support/scripted-models.ts";

const SHOP = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL);
INSERT INTO customers VALUES (1, 'Ada', 'London'), (2, 'Linus', 'Helsinki'), (3, 'Grace', NULL);
INSERT INTO orders VALUES (1, 1, 10.5), (2, 1, 20.0), (3, 2, 7.25);
`;
const QUESTION = "How many customers live in London?";
const RIGHT = "SELECT count(*) FROM customers WHERE city = 'London'";
const TYPO = "SELECT count(*) FROM customers WHERE id IN (SELECT id FROM customers WHERE city = 'Londn')";
const FIXED = "SELECT count(*) FROM customers WHERE id IN (SELECT id FROM customers WHERE city = 'London')";

const sqlReply = (sql: string) => `Reasoning first.\n\`\`\`sql\n${sql}\n\`\`\``;
const text = (s: Shown) => s.messages.map((m) => m.content).join("\n");
/** What the user turns said (structured calls add a JSON-format turn after the prompt). */
const lastUser = (r: { messages: { role: string; content: string }[] }) => r.messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");

let dir: string;
let dbPath: string;
let memoryFile: string;
const executor = createExecutor({ size: 2 });

const entry = (over: Partial<NewMemoryEntry>): NewMemoryEntry => ({
  sourceId: "m",
  dbId: "shop",
  question: "How many customers live in Paris?",
  evidence: "",
  goldSql: "SELECT count(*) FROM customers WHERE city = 'Paris'",
  wrongSql: "SELECT count(*) FROM customers WHERE city = 'paris'",
  errorTypes: ["filter_condition_error"],
  suggestions: "match the stored spelling of the city",
  ...over,
});

beforeAll(() => {
  dir = makeTempDir();
  dbPath = makeDb(dir, "shop.sqlite", SHOP);
  memoryFile = path.join(dir, "memory.sqlite");
  const store = MemoryStore.open(memoryFile, { create: true });
  store.add(entry({ sourceId: "m1", wrongSql: "SELECT count(*) FROM customers WHERE id IN (SELECT id FROM customers WHERE city = 'paris')" }));
  store.add(entry({ sourceId: "m2", question: "How many customers live in Rome?", errorTypes: ["filter_condition_error"] })); // subsumed by m1
  store.add(entry({ sourceId: "m3", question: "How many customers live in Oslo?", errorTypes: ["filter_condition_error", "null_handling_error"] }));
  store.add(entry({ sourceId: "m4", question: "How many customers live in Bern?", errorTypes: ["filter_condition_error"] }));
  store.add(entry({ sourceId: "m5", question: "How many customers live in Lima?", errorTypes: ["filter_condition_error"] }));
  store.add(entry({ sourceId: "self", question: QUESTION, wrongSql: "SELECT 'SELF ENTRY'", errorTypes: ["quantifier_intent_error"] }));
  // Made from the question being answered (same database and id) under a reworded text: excluded by id.
  store.add(entry({ sourceId: "shop/q-self", question: "Number of London residents among customers", wrongSql: "SELECT 'SELF BY ID'", errorTypes: ["temporal_semantics_error"] }));
  store.close();
});
afterAll(async () => {
  await executor.close();
  removeTempDir(dir);
});

/** Every role of the pipeline, scripted. The nested-style candidate has a typo the critic catches; the refiner fixes it. */
function script(over: Record<string, Responder> = {}) {
  return scriptedProvider({
    linker: '{"keywords": ["city", "London"]}',
    decomposer: ({ messages }) => {
      const prompt = lastUser({ messages });
      if (prompt.includes("Atomic operational")) return '{"simple": false, "fits": false, "subQuestions": []}';
      if (prompt.includes("no particular scheme")) return '{"simple": false, "fits": true, "subQuestions": ["Count London customers"]}';
      if (prompt.includes("Hierarchical")) return '{"simple": false, "fits": true, "subQuestions": ["Inner: customers in London", "Outer: count them"]}';
      return '{"simple": false, "fits": true, "subQuestions": ["Customers in London", "How many are they"]}';
    },
    solver: ({ messages }) => (lastUser({ messages }).includes("A reviewer found this problem") ? sqlReply("SELECT id FROM customers WHERE city = 'London'") : sqlReply("SELECT name FROM customers WHERE city = 'London'")),
    reflector: ({ messages }) => (lastUser({ messages }).includes("Current step: Inner:") ? '{"problem": true, "issue": "select the id, not the name"}' : '{"problem": false, "issue": ""}'),
    writer: ({ messages }) => {
      const prompt = lastUser({ messages });
      if (prompt.includes("nested subqueries")) return sqlReply(TYPO);
      if (prompt.includes("common table expressions")) return sqlReply("WITH l AS (SELECT * FROM customers WHERE city = 'London') SELECT count(*) FROM l");
      return sqlReply(RIGHT);
    },
    critic: ({ messages }) =>
      lastUser({ messages }).includes("Londn")
        ? '{"wrong": true, "errorTypes": ["Filter Condition Error"], "suggestions": "the city is spelled London"}'
        : '{"wrong": false, "errorTypes": [], "suggestions": ""}',
    refiner: sqlReply(FIXED),
    ...over,
  });
}

const examples = createExampleStore([
  { id: "t1", dbId: "shop", dbPath: "x", question: "How many orders are there?", evidence: "", goldSql: "SELECT count(*) FROM orders" },
  { id: "t2", dbId: "shop", dbPath: "x", question: "Names of customers in Paris", evidence: "", goldSql: "SELECT name FROM customers WHERE city = 'Paris'" },
  { id: "q-self", dbId: "shop", dbPath: "x", question: QUESTION, evidence: "", goldSql: "SELECT 'SELF EXEMPLAR'" },
  // The same id on another database is another question (train and dev both number from 0).
  { id: "q-self", dbId: "zoo", dbPath: "y", question: "How many animals live in London zoo?", evidence: "", goldSql: "SELECT 'SAME ID OTHER DB'" },
]);
const input = () => ({ questionId: "q-self", question: QUESTION, dbPath, dbId: "shop" });
const run = (models: ReturnType<typeof script>, options: Record<string, unknown> = {}, thread = `t-${Math.random()}`) =>
  memoSqlSpec.build({ models, executor, examples }, { memory: memoryFile, checkpointer: new MemorySaver(), ...options }).invoke(input(), { configurable: { thread_id: thread }, recursionLimit: 200 });

describe("memo-sql", () => {
  it("writes nine candidates over three paths and styles, corrects them with the memory, and votes", async () => {
    const models = script();
    const graph = memoSqlSpec.build({ models, executor, examples }, { memory: memoryFile, checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "full" }, recursionLimit: 200 };
    const state = await graph.invoke(input(), config);

    // Decomposition: two paradigms applied, the atomic one judged a bad fit → a free decomposition (recorded).
    expect(Object.fromEntries(state.memoPlans.map((p: { strategy: string; applied: string }) => [p.strategy, p.applied]))).toEqual({ table: "table", hierarchical: "hierarchical", atomic: "random" });
    // ReAct+Reflect: the hierarchical path's first step was reflected on and revised once.
    const hier = state.memoSteps.filter((s: { strategy: string }) => s.strategy === "hierarchical").map((s: { index: number; kind: string }) => `${s.index}:${s.kind}`);
    expect(hier).toEqual(["0:act", "0:reflect", "0:revise", "1:act", "1:reflect"]);
    const reflectorSaw = models.shownTo("reflector").map(text).find((t) => t.includes("Current step: Outer"))!;
    expect(reflectorSaw).toContain("Inner: customers in London"); // earlier steps are shown

    // Nine candidates, each with its path and style, all reaching the vote.
    expect(state.candidates).toHaveLength(9);
    expect(state.candidates.map((c: Candidate) => c.id).sort()).toEqual(
      ["table", "hierarchical", "atomic"].flatMap((s) => ["join", "cte", "nested"].map((y) => `${s}:${y}`)).sort(),
    );
    expect(state.candidates.every((c: Candidate) => c.meta?.final === true)).toBe(true);
    // The nested candidates were caught by the critic and fixed by the refiner.
    const nested = state.candidates.find((c: Candidate) => c.id === "table:nested")!;
    expect(nested.sql).toBe(FIXED);
    expect(nested.meta).toMatchObject({ rounds: 1, accepted: true });
    expect(state.rounds).toBe(3);
    expect(state.memoVote.groups).toHaveLength(1);
    expect(state.memoVote.groups[0].ids).toHaveLength(9);
    expect(state.sql).toBe(RIGHT); // table:join comes first in candidate order
    expect(state.execution.preview.rows).toEqual([[1]]);

    // The critic saw retrieved memory entries (filtered), never the question's own entry.
    const criticSaw = models.shownTo("critic").map(text);
    // Identical SQL is criticised once per question: three distinct candidates (join, cte, nested on every path), then
    // the one refined SQL; the other branches reuse those verdicts (and the refiner's rewrite) and say whose they were.
    expect(criticSaw).toHaveLength(4);
    expect(models.shownTo("refiner")).toHaveLength(1);
    const verdicts = state.candidates.flatMap((c: Candidate) => (c.meta!.verdicts as { reusedFrom?: string }[]).map((v) => v.reusedFrom ?? "asked"));
    expect(verdicts.filter((v: string) => v === "asked")).toHaveLength(4);
    expect(verdicts).toHaveLength(12);
    for (const t of criticSaw) {
      expect(t).toContain("Past mistakes on similar questions");
      expect(t).not.toContain("SELF ENTRY");
      expect(t).not.toContain("SELF BY ID");
    }
    const memo = nested.meta!.memory as { mode: string; ranking: string; shown: number[] };
    expect(memo).toMatchObject({ mode: "filtered", ranking: "lexical" });
    expect(memo.shown).toEqual([1, 3]); // m2, m4, m5 are subsumed by m1
    // Writers got exemplars by question + skeleton, never the question itself; linking reached the prompts.
    const writerSaw = models.shownTo("writer").map(text);
    expect(writerSaw.every((t) => t.includes("Examples of questions") && !t.includes("SELF EXEMPLAR"))).toBe(true);
    expect(writerSaw.every((t) => t.includes("SAME ID OTHER DB"))).toBe(true);
    expect(text(models.shownTo("decomposer")[0]!)).toContain("Columns the question likely refers to: customers.city");

    // Parallel calls stay visible: the step after the fan-out holds all three decomposers' calls.
    const history: { next: string[]; values: { calls?: { node?: string }[] } }[] = [];
    for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot);
    const fanOut = history.find((s) => s.values.calls?.length && s.values.calls.every((c: { node?: string }) => c.node === "decompose"));
    expect(fanOut!.values.calls!.length).toBeGreaterThanOrEqual(3);
    // One path's three styles are written in parallel in one step.
    const writeStep = history.find((s) => (s.values.calls ?? []).filter((c) => c.node === "write").length >= 3);
    expect(writeStep).toBeDefined();
    expect(state.usage.byRole.critic.calls).toBe(4);

    // The gates: the paths end at different steps, so collect runs more than once and vote runs as each candidate
    // ends; each passes exactly once (nine critics in one step, one decision).
    const scheduled = (node: string) => history.filter((s) => s.next.includes(node)).length;
    expect(scheduled("collect")).toBeGreaterThan(1);
    expect(scheduled("vote")).toBeGreaterThan(1);
    const firstCritics = history.filter((s) => s.values.calls?.some((c: { node?: string }) => c.node === "critic")).at(-1)!;
    expect(firstCritics.values.calls!.filter((c: { node?: string }) => c.node === "critic")).toHaveLength(3);
    expect(state.attempts.filter((a: { node: string }) => a.node === "vote")).toHaveLength(1);
  }, 30_000);

  it("resumes a question killed mid-step from its checkpoint, redoing only the unfinished branch", async () => {
    // One critic hangs (a process about to be killed); the run is aborted once the other branches are done.
    let calls = 0;
    let hung!: () => void;
    const hanging = new Promise<void>((resolve) => (hung = resolve));
    const critic = script().forRole("critic");
    const answer = async (messages: Shown["messages"]) => String((await critic.model.invoke(messages.map((m) => [m.role === "user" ? "human" : m.role, m.content] as [string, string]))).content);
    const first = script({
      critic: async ({ messages }) => {
        if (++calls === 2) {
          hung();
          await new Promise(() => {});
        }
        return answer(messages);
      },
    });
    const saver = new MemorySaver();
    const controller = new AbortController();
    const killed = memoSqlSpec
      .build({ models: first, executor, examples }, { memory: memoryFile, checkpointer: saver })
      .invoke(input(), { configurable: { thread_id: "killed" }, recursionLimit: 200, signal: controller.signal });
    await hanging;
    await new Promise((r) => setTimeout(r, 500)); // the other branches of the step finish
    controller.abort();
    await expect(killed).rejects.toThrow();

    const second = script();
    const state = (await runThread(memoSqlSpec.build({ models: second, executor, examples }, { memory: memoryFile, checkpointer: saver }), input(), "killed")) as unknown as MemoStateValue;
    expect(state.sql).toBe(RIGHT);
    expect(state.candidates.every((c: Candidate) => c.meta?.final)).toBe(true);
    expect(state.memoVote?.groups[0]?.ids).toHaveLength(9);
    // Only the killed critic ran again (then the refinement that followed it, if its candidate needed one).
    expect(second.shownTo("writer")).toHaveLength(0);
    expect(second.shownTo("decomposer")).toHaveLength(0);
    // Identical SQL is criticised once per question: 3 distinct candidates, then 1 refined SQL.
    expect(first.shownTo("critic").length - 1 + second.shownTo("critic").length).toBe(4);
  });

  it("ranks memory entries and exemplars with the shared embedder when one is configured", async () => {
    const vec = (t: string) => [t.includes("London") ? 1 : 0, t.includes("orders") ? 1 : 0, 0.5];
    let requests = 0;
    const embedder = {
      model: "toy",
      embed: async (texts: string[]) => texts.map(vec),
      embedCounted: async (texts: string[]) => {
        requests++;
        return { vectors: texts.map(vec), usage: { calls: 1, inputTokens: texts.length, latencyMs: 1, cached: 0 } };
      },
    };
    const models = script();
    const state = await memoSqlSpec
      .build({ models, executor, examples, embeddings: embedder }, { memory: memoryFile, styles: 1 })
      .invoke(input(), { recursionLimit: 200 });
    for (const c of state.candidates as Candidate[]) {
      expect(c.meta!.icl).toBe("embeddings");
      expect(c.meta!.memory).toMatchObject({ ranking: "embeddings", mode: "filtered" });
    }
    expect(models.shownTo("writer").every((s) => !text(s).includes("SELF EXEMPLAR"))).toBe(true);
    // Every embedding request counts in usage (role embedder), like linking's: none is lost or counted twice.
    expect(state.usage.byRole.embedder.calls).toBe(requests);
    expect(requests).toBeGreaterThan(3);
  });

  it("never throws on unusable replies: every step keeps going and says why", async () => {
    const junk = "I am not sure what you mean.";
    const models = script({ linker: junk, decomposer: junk, solver: junk, reflector: junk, writer: junk, critic: junk, refiner: junk });
    const state = await run(models);
    expect(state.memoPlans.every((p: { applied: string; note?: string }) => p.applied === "none" && /decomposition failed/.test(p.note ?? ""))).toBe(true);
    expect(state.candidates).toHaveLength(9);
    expect(state.candidates.every((c: Candidate) => c.sql === "" && c.meta?.final)).toBe(true);
    expect(models.shownTo("critic")).toHaveLength(0); // nothing to criticise
    expect(state.memoVote).toMatchObject({ winner: null, rule: expect.stringMatching(/no candidate executed/) });
    expect(state.sql).toBe("");
    // Every path fell back to the question whole: one plan, written once per style (its candidates count for all three paths).
    expect(state.attempts.filter((a: { node: string; note?: string }) => a.node === "write" && /no candidate SQL/.test(a.note ?? ""))).toHaveLength(3);
  });

  it("falls back to no decomposition when the model judges the question simple", async () => {
    const state = await run(script({ decomposer: '{"simple": true, "fits": true, "subQuestions": []}' }), { noRefine: true });
    expect(state.memoPlans.map((p: { applied: string; subQuestions: string[] }) => `${p.applied}:${p.subQuestions.join("|")}`)).toEqual([
      `none:${QUESTION}`,
      `none:${QUESTION}`,
      `none:${QUESTION}`,
    ]);
  });

  it("Table 5 switches: no linking, random decomposition, no reflect, no ReAct, one style, no refine, no ICL", async () => {
    const a = script();
    const noLink = await run(a, { noLinking: true, noRefine: true, styles: 1 });
    expect(a.shownTo("linker")).toHaveLength(0);
    expect(noLink.linking).toBeNull();
    expect(a.shown.every((s) => !text(s).includes("Columns the question likely refers to"))).toBe(true);

    const b = script();
    const random = await run(b, { decomposition: "random", noRefine: true, styles: 1 });
    expect(random.memoPlans.every((p: { applied: string }) => p.applied === "random")).toBe(true);
    expect(b.shownTo("decomposer").every((s) => text(s).includes("no particular scheme"))).toBe(true);

    const c = script();
    const noReflect = await run(c, { noReflect: true, noRefine: true, styles: 1 });
    expect(c.shownTo("reflector")).toHaveLength(0);
    expect(noReflect.memoSteps.every((s: { kind: string }) => s.kind === "act")).toBe(true);

    const r = script();
    const noReact = await run(r, { noReact: true, noRefine: true, styles: 1 });
    expect(r.shownTo("solver")).toHaveLength(0);
    expect(r.shownTo("reflector")).toHaveLength(0);
    expect(noReact.memoSteps).toHaveLength(0);
    expect(noReact.candidates).toHaveLength(3);
    const tableWriter = r.shownTo("writer").map(text).find((t) => t.includes("1. Customers in London"))!;
    expect(tableWriter).toContain("The question breaks down into these sub-questions:\n1. Customers in London\n2. How many are they");
    expect(noReact.sql).toBe(RIGHT);

    const d = script();
    const oneStyle = await run(d, { styles: 1, noRefine: true });
    expect(oneStyle.candidates.map((x: Candidate) => x.id)).toEqual(expect.arrayContaining(["table:join", "hierarchical:join", "atomic:join"]));
    expect(oneStyle.candidates).toHaveLength(3);

    const e = script();
    const noRefine = await run(e, { noRefine: true });
    expect(e.shownTo("critic")).toHaveLength(0);
    expect(e.shownTo("refiner")).toHaveLength(0);
    expect(noRefine.candidates.find((x: Candidate) => x.id === "table:nested")!.sql).toBe(TYPO); // uncorrected
    expect(noRefine.memoVote.groups.map((g: { ids: string[] }) => g.ids.length)).toEqual([6, 3]);
    expect(noRefine.sql).toBe(RIGHT);

    const f = script();
    const noIcl = await run(f, { noIcl: true, noRefine: true, styles: 1 });
    expect(f.shownTo("writer").every((s) => !text(s).includes("Examples of questions"))).toBe(true);
    expect(noIcl.candidates[0].meta.icl).toBe("off");
    expect(oneStyle.candidates[0].meta.icl).toBe("lexical");
  }, 30_000);
});

describe("memo-refine (corrector) and Table 3's correction variants", () => {
  const correct = (models: ReturnType<typeof script>, options: Record<string, unknown> = {}, sql = TYPO) =>
    memoRefineSpec.build({ models, executor }, { memory: memoryFile, ...options }).invoke({ ...input(), sql }, { recursionLimit: 100 });

  it("loops critic ↔ refiner until the critic accepts", async () => {
    const models = script();
    const state = await correct(models);
    expect(state.sql).toBe(FIXED);
    expect(state.rounds).toBe(1);
    expect(models.shownTo("critic")).toHaveLength(2);
    expect(text(models.shownTo("refiner")[0]!)).toContain("the city is spelled London");
    expect(text(models.shownTo("refiner")[0]!)).toContain("filter_condition_error");
  });

  it("stops after refineRounds when the critic never accepts", async () => {
    const models = script({ critic: '{"wrong": true, "errorTypes": ["E4"], "suggestions": "still wrong"}', refiner: sqlReply(RIGHT) });
    const state = await correct(models, { refineRounds: 3 });
    // The refiner keeps answering RIGHT and the critic keeps rejecting it: the same SQL with the same verdict is
    // criticised and rewritten once; the third round reuses both (no calls) and says so.
    expect(models.shownTo("refiner")).toHaveLength(2);
    expect(models.shownTo("critic")).toHaveLength(2);
    expect(state.candidates[0].meta.verdicts.map((v: { reusedFrom?: string }) => v.reusedFrom ?? "asked")).toEqual(["asked", "asked", "initial"]);
    expect(state.rounds).toBe(3);
    expect(state.sql).toBe(RIGHT);
    expect(state.candidates[0].meta).toMatchObject({ final: true, accepted: false, rounds: 3 });
  });

  it("retrieval filtered | top4 | random | none decides what the critic is shown", async () => {
    const cases = (s: Shown) => [...text(s).matchAll(/^Case \d+\./gm)].length;
    const filtered = script();
    await correct(filtered, { refineRounds: 1 });
    expect(cases(filtered.shownTo("critic")[0]!)).toBe(2);

    const top4 = script();
    const t4 = await correct(top4, { retrieval: "top4", refineRounds: 1 });
    expect(cases(top4.shownTo("critic")[0]!)).toBe(4);
    expect(t4.candidates[0].meta.memory).toMatchObject({ mode: "top4", ranking: "lexical" });

    const random = script();
    const r = await correct(random, { retrieval: "random", refineRounds: 1 });
    expect(cases(random.shownTo("critic")[0]!)).toBe(4);
    expect(r.candidates[0].meta.memory).toMatchObject({ mode: "random", ranking: "random" });
    expect(text(random.shownTo("critic")[0]!)).not.toContain("SELF ENTRY");

    const none = script();
    const n = await correct(none, { retrieval: "none", refineRounds: 1 });
    expect(text(none.shownTo("critic")[0]!)).not.toContain("Past mistakes");
    expect(n.candidates[0].meta.memory).toEqual({ mode: "none" });

    // Without a memory file the critic works without memory, and says so.
    const bare = script();
    const b = await memoRefineSpec.build({ models: bare, executor }, {}).invoke({ ...input(), sql: TYPO });
    expect(b.candidates[0].meta.memory.note).toMatch(/no memory file/);
    expect(text(bare.shownTo("critic")[0]!)).not.toContain("Past mistakes");
  });

  it("resolves a relative --memory against the launcher's working directory", async () => {
    expect(path.relative(process.cwd(), dir)).not.toBe("");
    const models = script();
    const state = await memoRefineSpec.build({ models, executor }, { memory: "memory.sqlite", cwd: dir, refineRounds: 1 }).invoke({ ...input(), sql: TYPO });
    expect(state.candidates[0].meta.memory).toMatchObject({ mode: "filtered", shown: [1, 3] });
  });

  it("refuses a memory file that is not one, when the graph is built", () => {
    expect(() => memoRefineSpec.build({ models: script(), executor }, { memory: dbPath })).toThrow(/not a Memo-SQL memory/);
  });
});

describe("majority vote", () => {
  const cand = (id: string, order: number, execution: Candidate["execution"]): Candidate => ({ id, sql: `SELECT '${id}'`, source: "t", execution, meta: { order, final: true } });
  const ok = (fingerprint: string, rowCount = 1) => ({ sql: "", ok: true, fingerprint, elapsedMs: 0, preview: { columns: ["x"], rows: [], rowCount, truncated: false } });
  const failed = { sql: "", ok: false, error: "no such table", errorKind: "sql", elapsedMs: 0 };

  it("excludes execution errors, keeps empty results, and breaks ties by candidate order", () => {
    const cs = [cand("c", 2, ok("B")), cand("a", 0, failed), cand("b", 1, ok("EMPTY", 0)), cand("d", 3, ok("EMPTY", 0)), cand("e", 4, ok("B")), cand("f", 5, failed), cand("g", 6, failed)];
    const keep = majorityVote(cs, "keep");
    expect(keep.excluded.map((x) => x.id)).toEqual(["a", "f", "g"]);
    // Two groups of two: the empty group's first member (b, order 1) precedes c (order 2).
    expect(keep.winner).toBe("b");
    expect(keep.rule).toMatch(/tie/);
    const discard = majorityVote(cs, "discard");
    expect(discard.winner).toBe("c");
    expect(discard.excluded.map((x) => x.reason)).toContain("empty result (voteEmpty=discard)");
    // All empty under discard: the empties still vote (nothing else ran).
    expect(majorityVote([cand("x", 0, ok("E", 0)), cand("y", 1, failed)], "discard").winner).toBe("x");
    // A clear majority beats order.
    expect(majorityVote([cand("p", 0, ok("P")), cand("q", 1, ok("Q")), cand("r", 2, ok("Q"))], "keep").winner).toBe("q");
    // Nothing executes: the first candidate with SQL.
    const none = majorityVote([cand("z", 1, failed), cand("y", 0, failed)], "keep");
    expect(none).toMatchObject({ winner: "y", rule: expect.stringMatching(/no candidate executed/) });
  });

  it("memo-sql with voteEmpty discard prefers a non-empty result over an empty majority", async () => {
    const models = script({ writer: ({ messages }) => (lastUser({ messages }).includes("nested subqueries") ? sqlReply(RIGHT) : sqlReply("SELECT name FROM customers WHERE city = 'Atlantis'")) });
    const kept = await run(models, { noRefine: true });
    expect(kept.execution.preview.rowCount).toBe(0); // 6 empty vs 3
    const discarded = await run(script({ writer: ({ messages }) => (lastUser({ messages }).includes("nested subqueries") ? sqlReply(RIGHT) : sqlReply("SELECT name FROM customers WHERE city = 'Atlantis'")) }), { noRefine: true, voteEmpty: "discard" });
    expect(discarded.sql).toBe(RIGHT);
  });
});

describe("launcher wiring", () => {
  it("eval loads training examples for memo-sql unless ICL is off", () => {
    expect(examplesWantedBy(memoSqlSpec, {}, {})).toMatch(/memo-sql: 5 exemplars/);
    expect(examplesWantedBy(memoSqlSpec, {}, { noIcl: true })).toBeUndefined();
    expect(examplesWantedBy(memoRefineSpec, {}, {})).toBeUndefined();
  });
});

describe("issue 18", () => {
  it("--decomposition random: three different decompositions, each recorded in the outcome", async () => {
    const models = script({
      decomposer: ({ messages }) => {
        const seed = /Random seed (\w+)/.exec(lastUser({ messages }))?.[1] ?? "none";
        return JSON.stringify({ simple: false, fits: true, subQuestions: [`Part A of ${seed}`, `Part B of ${seed}`] });
      },
    });
    const state = await run(models, { decomposition: "random", noRefine: true, styles: 1 });
    const prompts = models.shownTo("decomposer").map(lastUser);
    expect(prompts).toHaveLength(3);
    expect(new Set(prompts).size).toBe(3);
    const seeds = state.memoPlans.map((p: { seed?: string }) => p.seed);
    expect(new Set(seeds).size).toBe(3);
    const outcome = memoSqlSpec.outcome!.of(state as unknown as Record<string, unknown>);
    expect(outcome.distinctDecompositions).toBe(3);
    for (const strategy of ["table", "hierarchical", "atomic"]) expect(outcome[`decomposition.${strategy}`]).toMatch(/^random \(seed \w+\): Part A of \w+ \| Part B of \w+$/);
  });

  it("a last-round refinement that fails to execute gives way to the last SQL that executed", async () => {
    const models = script({ critic: '{"wrong": true, "errorTypes": ["E2"], "suggestions": "fix it"}', refiner: sqlReply("SELECT count(*) FROM no_such_table") });
    const state = await memoRefineSpec.build({ models, executor }, { memory: memoryFile, refineRounds: 1 }).invoke({ ...input(), sql: TYPO }, { recursionLimit: 100 });
    expect(models.shownTo("refiner")).toHaveLength(1);
    expect(state.sql).toBe(TYPO);
    expect(state.execution.ok).toBe(true);
    expect(state.candidates[0].meta.reverted).toMatchObject({ sql: "SELECT count(*) FROM no_such_table" });
    expect(memoRefineSpec.outcome!.of(state as unknown as Record<string, unknown>)).toMatchObject({ revertedRefinements: 1 });
  });

  it("keeps the solver's ReAct reasoning in memoSteps", async () => {
    const state = await run(script(), { noRefine: true, styles: 1 });
    const acts = state.memoSteps.filter((s: { kind: string }) => s.kind !== "reflect");
    expect(acts.length).toBeGreaterThan(0);
    expect(acts.every((s: { reasoning?: string }) => s.reasoning === "Reasoning first.")).toBe(true);
  });

  it("declares per-question diagnostics as the graph's outcome, the oracle figure only through the eval hook", async () => {
    const state = (await run(script())) as unknown as Record<string, unknown>;
    const outcome = memoSqlSpec.outcome!.of(state);
    expect(outcome).toMatchObject({ candidates: 9, distinctResults: 1, voteMargin: 9, decompositionFallbacks: 1, criticCalls: 4, criticReused: 8, revertedRefinements: 0, maxRefinements: 1 });
    expect(outcome.refinementsPerCandidate).toBeCloseTo(3 / 9);
    expect(outcome.memoryShownPerCall).toBe(2);
    expect("oracleGoldInCandidates" in outcome).toBe(false);
    const asked: string[] = [];
    const oracle = await memoSqlSpec.outcome!.oracle!(state, async (sql) => (asked.push(sql), sql === RIGHT));
    expect(oracle).toEqual({ oracleGoldInCandidates: true });
    expect(asked).toHaveLength(1); // one scorer call per distinct result
    const lines = memoSqlSpec.outcome!.summarize!([{ ...outcome, ...oracle }]);
    expect(lines.some((l) => l.startsWith("decomposition."))).toBe(false);
    expect(lines.find((l) => l.startsWith("oracleGoldInCandidates"))).toMatch(/oracle: scored against the gold/);
    expect(lines).toContain("voteMargin: mean 9.00, max 9 (1 questions)");
  });

  it("memo-refine --candidates corrects the same fixed candidates under every retrieval setting, then votes", async () => {
    const file = path.join(dir, "candidates.json");
    const nine = ["table", "hierarchical", "atomic"].flatMap((p) => ["join", "cte", "nested"].map((y) => ({ id: `${p}:${y}`, sql: y === "nested" ? TYPO : y === "cte" ? "SELECT count(*) FROM customers" : RIGHT })));
    fs.writeFileSync(file, JSON.stringify({ kind: "sqlmend-memo-candidates", questions: { "q-self": { dbId: "shop", question: QUESTION, candidates: nine } } }));
    const seen: string[][] = [];
    for (const retrieval of ["filtered", "top4", "none"]) {
      const models = script();
      const state = await memoRefineSpec.build({ models, executor }, { memory: memoryFile, retrieval, candidates: file }).invoke({ ...input(), sql: "SELECT 0" }, { recursionLimit: 100 });
      expect(state.candidates).toHaveLength(9);
      expect(state.candidates.every((c: Candidate) => c.meta?.final)).toBe(true);
      seen.push(models.shownTo("critic").map(lastUser).map((t) => /Query under review:\n(.*)/.exec(t)![1]!).slice(0, 3).sort());
      // Nested ones were fixed; the vote picks among the nine (6 give 1 row of 1, CTE's 3 give 3).
      expect(state.memoVote.groups.map((g: { ids: string[] }) => g.ids.length)).toEqual([6, 3]);
      expect(memoRefineSpec.outcome!.of(state as unknown as Record<string, unknown>)).toMatchObject({ candidates: 9, candidatesFrom: "candidates file", distinctResults: 2, voteMargin: 3 });
    }
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
    // A question the file does not hold fails, rather than being corrected on other candidates.
    await expect(memoRefineSpec.build({ models: script(), executor }, { candidates: file }).invoke({ ...input(), questionId: "other", sql: RIGHT })).rejects.toThrow(/not in the candidates file/);
    expect(() => memoRefineSpec.build({ models: script(), executor }, { candidates: path.join(dir, "nope.json") })).toThrow(/candidates file not found/);
  });

  it("Table 3's rows (A.8) on the same nine candidates: what each variant shows the critic and how often it may refine", async () => {
    const file = path.join(dir, "candidates-t3.json");
    const nine = ["table", "hierarchical", "atomic"].flatMap((p) => ["join", "cte", "nested"].map((y, i) => ({ id: `${p}:${y}`, sql: [RIGHT, "SELECT count(*) FROM customers WHERE city = 'Paris'", TYPO][i]! })));
    fs.writeFileSync(file, JSON.stringify({ kind: "sqlmend-memo-candidates", questions: { "q-self": { dbId: "shop", question: QUESTION, candidates: nine } } }));
    const cases = (t: string) => [...t.matchAll(/^Case \d+\./gm)].length;
    // A critic that never accepts the typo: the refiner keeps it, so a variant's round limit shows.
    const rows: [string, Record<string, unknown>, { shown: number[]; mode: string; maxRounds: number }][] = [
      ["direct correction", { retrieval: "none", refineRounds: 1 }, { shown: [0], mode: "none", maxRounds: 1 }],
      ["DIN-SQL-like critique-refine", { retrieval: "none" }, { shown: [0], mode: "none", maxRounds: 3 }],
      ["RAG top4, unfiltered", { retrieval: "top4" }, { shown: [4], mode: "top4", maxRounds: 3 }],
      ["random RAG, 4 entries", { retrieval: "random" }, { shown: [4], mode: "random", maxRounds: 3 }],
      ["Memo-SQL, filtered", {}, { shown: [2], mode: "filtered", maxRounds: 3 }],
    ];
    for (const [row, options, want] of rows) {
      const models = script({ refiner: sqlReply(TYPO.replace("count(*)", "count(id)")), critic: ({ messages }) => (lastUser({ messages }).includes("Londn") ? '{"wrong": true, "errorTypes": ["E2"], "suggestions": "London"}' : '{"wrong": false, "errorTypes": [], "suggestions": ""}') });
      const state = await memoRefineSpec.build({ models, executor }, { memory: memoryFile, candidates: file, ...options }).invoke({ ...input(), sql: RIGHT }, { recursionLimit: 200 });
      expect(state.candidates, row).toHaveLength(9);
      expect([...new Set(models.shownTo("critic").map((s) => cases(text(s))))], row).toEqual(want.shown);
      expect(state.candidates.every((c: Candidate) => (c.meta!.memory as { mode: string }).mode === want.mode), row).toBe(true);
      expect(Math.max(...state.candidates.map((c: Candidate) => c.meta!.rounds as number)), row).toBe(want.maxRounds);
    }
  });
});

