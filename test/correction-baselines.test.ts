/**
 * MAGIC Table 1's guideline-independent baselines as correctors (graphs/correction-baselines.ts): the vote over
 * samples (majority, fastest SQL of the winning result, all samples failing), multiple-prompt's table orders, and
 * self-debugging's explain → debug loop. Scripted models answer by role; SQL runs on a real SQLite file.
 */
import { describe, expect, it } from "vitest";
import { MemorySaver } from "@langchain/langgraph";
import { multiplePromptSpec, selfConsistencySpec, selfDebuggingSpec } from "../graphs/correction-baselines.ts";
import { outcomeOf } from "../graphs/outcome.ts";
import { executeSql } from "../nodes/execute.ts";
import { voteOnSamples } from "../nodes/baselines/sample.ts";
import type { Candidate } from "../state/sql-state.ts";
import { testDatabase } from "./support/fixtures.ts";
import { scriptedProvider } from "./support/scripted-models.ts";

const SHOP = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL);
CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT);
INSERT INTO customers VALUES (1, 'Ada', 'London'), (2, 'Linus', 'Helsinki'), (3, 'Grace', NULL);
INSERT INTO orders VALUES (1, 1, 10.5), (2, 1, 20.0), (3, 2, 7.25);
INSERT INTO products VALUES (1, 'pen');
`;
const sqlReply = (sql: string) => `Here it is.\n\`\`\`sql\n${sql}\n\`\`\``;
const FAST = "SELECT name FROM customers WHERE city = 'London'";
// The same result, slowly: a recursive count to 400,000 first.
const SLOW = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 400000) SELECT name FROM customers WHERE city = 'London' AND (SELECT MAX(x) FROM c) > 0";
const OTHER = "SELECT name FROM customers WHERE city = 'Helsinki'";
const BROKEN = "SELECT nme FROM customers";
const INITIAL = "SELECT name FROM customers";

const { dbPath, executor } = testDatabase(SHOP);

const input = (sql: string, question = "Which customers live in London?") => ({ question, dbPath, dbId: "shop", questionId: "7", sql });
const config = (thread: string) => ({ configurable: { thread_id: thread } });
const tablesShown = (prompt: string) => [...prompt.matchAll(/CREATE TABLE "?(\w+)"?/g)].map((m) => m[1]!);

describe("the vote over samples", () => {
  it("takes the majority result's SQL and, when that result came from several SQL, the fastest of them", async () => {
    const run = (id: string, sql: string, index: number): Promise<Candidate> => executeSql(executor, dbPath, sql).then((execution) => ({ id, sql, source: "sampler", execution, meta: { index } }));
    // London (3 votes: slow, fast, slow) beats Helsinki (2); one sample fails. The first London sample is the slow one.
    const candidates = await Promise.all([SLOW, FAST, OTHER, SLOW, OTHER, BROKEN].map((sql, i) => run(`sample:0${i + 1}`, sql, i)));
    expect(candidates[0]!.execution!.elapsedMs).toBeGreaterThan(candidates[1]!.execution!.elapsedMs);
    const { sql, vote } = voteOnSamples(candidates, INITIAL, 6);
    expect(sql).toBe(FAST);
    expect(vote).toMatchObject({ winner: "sample:02", votes: 3, resultTie: false, keptInitial: false, failed: 1, taken: 6 });
    expect(vote.groups.map((g) => g.ids)).toEqual([["sample:01", "sample:02", "sample:04"], ["sample:03", "sample:05"]]);
    expect(vote.speedTie).toMatchObject({ distinctSql: 2 });
    expect(vote.excluded).toEqual([{ id: "sample:06", reason: expect.stringMatching(/^execution error: .*nme/) }]);
    expect(vote.rule).toMatch(/majority \(3 of 5 executed\); fastest of 2 distinct SQL/);
  });

  it("self-consistency: N samples of one prompt at the sampler's temperature, voted, executed; the outcome counts failed samples", async () => {
    const replies = [sqlReply(FAST), sqlReply(OTHER), sqlReply(FAST), sqlReply(BROKEN), "I cannot tell."];
    const models = scriptedProvider({ sampler: ({ index }) => replies[index % replies.length]! });
    const graph = selfConsistencySpec.build({ models, executor }, { checkpointer: new MemorySaver(), samples: 5 });
    const state = await graph.invoke(input(INITIAL), config("sc-1"));
    expect(models.shownTo("sampler")).toHaveLength(5);
    // One prompt, five times: the generation prompt with the whole schema.
    expect(new Set(models.shownTo("sampler").map((s) => JSON.stringify(s.messages))).size).toBe(1);
    expect(models.shownTo("sampler")[0]!.messages.at(-1)!.content).toContain("Write the SQLite query");
    expect(state.sql).toBe(FAST);
    expect(state.execution).toMatchObject({ ok: true, preview: { rows: [["Ada"]] } });
    expect(state.candidates.map((c: Candidate) => c.id)).toEqual(["sample:01", "sample:02", "sample:03", "sample:04", "sample:05"]);
    expect(outcomeOf(selfConsistencySpec, state)).toMatchObject({
      samples: 5,
      prompts: 1,
      samplesWithoutSql: 1,
      samplesFailed: 1,
      distinctResults: 2,
      votes: 2,
      allSamplesFailed: false,
      tieBrokenBySpeed: false,
      decision: "majority",
    });
    expect(state.usage.byRole.sampler.calls).toBe(5);
  });

  it("runs at most 8 samples at once (more tasks listening on the run's abort signal make Node warn of a leak)", async () => {
    let inFlight = 0;
    let most = 0;
    const models = scriptedProvider({
      sampler: async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 15));
        inFlight--;
        return sqlReply(FAST);
      },
    });
    const graph = selfConsistencySpec.build({ models, executor }, { checkpointer: new MemorySaver(), samples: 20 });
    const state = await graph.invoke(input(INITIAL), config("sc-20"));
    expect(state.sampleVote).toMatchObject({ taken: 20, votes: 20 });
    expect(most).toBe(8);
  });

  it("keeps the initial SQL when every sample fails, and says so: a failure never counts as an answer", async () => {
    const models = scriptedProvider({ sampler: [sqlReply(BROKEN), "no idea", sqlReply("SELECT * FROM nowhere")] });
    const graph = selfConsistencySpec.build({ models, executor }, { checkpointer: new MemorySaver(), samples: 3 });
    const state = await graph.invoke(input(INITIAL), config("sc-fail"));
    expect(state.sql).toBe(INITIAL);
    expect(state.execution).toMatchObject({ ok: true, sql: INITIAL });
    expect(state.sampleVote).toMatchObject({ keptInitial: true, winner: null, votes: 0, failed: 2, noSql: 1 });
    expect(outcomeOf(selfConsistencySpec, state)).toMatchObject({ allSamplesFailed: true, decision: "all samples failed: initial SQL kept", samplesFailed: 2, samplesWithoutSql: 1 });
    expect(state.attempts.find((a: { node: string }) => a.node === "vote")).toMatchObject({ ok: false, note: expect.stringMatching(/no sample executed.*initial SQL is kept/) });
  });
});

describe("multiple-prompt", () => {
  it("each prompt shows the tables in another order; who saw which order is recorded with its sample", async () => {
    // The sampler answers with the order it saw, so each sample's SQL says which prompt it came from.
    const models = scriptedProvider({ sampler: ({ messages }) => sqlReply(`SELECT '${tablesShown(messages.at(-1)!.content).join(",")}' AS seen`) });
    const graph = multiplePromptSpec.build({ models, executor }, { checkpointer: new MemorySaver(), samples: 4 });
    const state = await graph.invoke(input(INITIAL), config("mp-4"));
    const orders = models.shownTo("sampler").map((s) => tablesShown(s.messages.at(-1)!.content).join(","));
    expect(orders).toHaveLength(4);
    expect(new Set(orders).size).toBe(4);
    for (const o of orders) expect(o.split(",").sort()).toEqual(["customers", "orders", "products"]);
    for (const c of state.candidates as Candidate[]) expect(c.sql).toBe(`SELECT '${(c.meta!.tableOrder as string[]).join(",")}' AS seen`);
    // Every result differs (one vote each): the earliest sample's, the schema's own order.
    expect(state.sql).toBe("SELECT 'customers,orders,products' AS seen");
    expect(outcomeOf(multiplePromptSpec, state)).toMatchObject({ prompts: 4, samples: 4, resultTie: true, decision: "tie: earliest sample's result" });
  });

  it("three tables have six orders: asked for 20 samples, it sends six prompts and says so", async () => {
    const models = scriptedProvider({ sampler: sqlReply(FAST) });
    const graph = multiplePromptSpec.build({ models, executor }, { checkpointer: new MemorySaver(), samples: 20 });
    const state = await graph.invoke(input(INITIAL), config("mp-20"));
    expect(new Set(models.shownTo("sampler").map((s) => tablesShown(s.messages.at(-1)!.content).join(","))).size).toBe(6);
    expect(state.sampleVote).toMatchObject({ requested: 20, prompts: 6, taken: 6, votes: 6 });
    expect(state.sql).toBe(FAST);
  });
});

describe("self-debugging", () => {
  it("the explainer sees the initial SQL and its execution feedback; the debugger corrects from the explanation; stops when judged correct", async () => {
    const models = scriptedProvider({
      explainer: ({ messages }) =>
        messages.at(-1)!.content.includes(FAST) ? "It lists the London customers.\nVerdict: correct" : "The query lists every customer; the question wants London only.\nVerdict: wrong",
      debugger: sqlReply(FAST),
    });
    const graph = selfDebuggingSpec.build({ models, executor }, { checkpointer: new MemorySaver() });
    const state = await graph.invoke(input(INITIAL), config("sd-1"));
    const first = models.shownTo("explainer")[0]!.messages.at(-1)!.content;
    expect(first).toContain(INITIAL);
    expect(first).toMatch(/Execution result:[\s\S]*Linus/);
    expect(first).toContain("CREATE TABLE");
    expect(models.shownTo("debugger")[0]!.messages.at(-1)!.content).toContain("the question wants London only");
    expect(models.shownTo("explainer")).toHaveLength(2);
    expect(models.shownTo("debugger")).toHaveLength(1);
    expect(state.sql).toBe(FAST);
    expect(state.explanations.map((e: { verdict: string }) => e.verdict)).toEqual(["wrong", "correct"]);
    expect(outcomeOf(selfDebuggingSpec, state)).toMatchObject({ debugTurns: 1, stopReason: "judged correct", stoppedByTurnLimit: false, changed: true });
  });

  it("shows an execution error as feedback, and stops at --max-turns when never judged correct", async () => {
    const models = scriptedProvider({ explainer: "It is off somewhere.\nVerdict: wrong", debugger: [sqlReply(OTHER), sqlReply(FAST)] });
    const graph = selfDebuggingSpec.build({ models, executor }, { checkpointer: new MemorySaver(), maxTurns: 2 });
    const state = await graph.invoke(input(BROKEN), config("sd-limit"));
    expect(models.shownTo("explainer")[0]!.messages.at(-1)!.content).toMatch(/Execution failed \(\w+\): .*nme/);
    expect(models.shownTo("debugger")).toHaveLength(2);
    expect(models.shownTo("explainer")).toHaveLength(3);
    expect(state.sql).toBe(FAST);
    expect(outcomeOf(selfDebuggingSpec, state)).toMatchObject({ debugTurns: 2, stopReason: "turn limit", stoppedByTurnLimit: true });
  });

  it("stops at an unchanged retry: a debugger turn that leaves the SQL as it was would only get the same explanation, reused, not asked", async () => {
    const models = scriptedProvider({ explainer: "It is off somewhere.\nVerdict: wrong", debugger: "I cannot tell what is wrong without more rows." });
    const graph = selfDebuggingSpec.build({ models, executor }, { checkpointer: new MemorySaver(), maxTurns: 3 });
    const state = await graph.invoke(input(INITIAL), config("sd-unchanged"));
    expect(models.shownTo("explainer")).toHaveLength(1);
    expect(models.shownTo("debugger")).toHaveLength(1);
    expect(state.sql).toBe(INITIAL);
    expect(outcomeOf(selfDebuggingSpec, state)).toMatchObject({ debugTurns: 1, stopReason: "unchanged retry", stoppedByTurnLimit: false, reusedReplies: 1, unchangedRetryStops: 1 });
  });
});
