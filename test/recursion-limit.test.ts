/**
 * Loop bounds, not LangGraph's recursion limit, end a thread: each spec derives its limit from its declared bounds
 * (`steps`), `build` attaches it, and `runThread` passes it. A fixed limit of 200 stopped MAGIC at --max-iter 50 and
 * R³ at long review loops with GraphRecursionError.
 */
import { describe, expect, it } from "vitest";
import { MemorySaver } from "@langchain/langgraph";
import { graphSpecs } from "../graphs/index.ts";
import { baselineSpec } from "../graphs/baseline.ts";
import { magicFeedbackSpec } from "../graphs/magic-feedback.ts";
import { r3Spec } from "../graphs/r3.ts";
import { runThread } from "../runner/run/question-thread.ts";
import type { SqlInput } from "../state/sql-state.ts";
import { testDatabase } from "./support/fixtures.ts";
import { scriptedProvider } from "./support/scripted-models.ts";

const SHOP = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
INSERT INTO customers VALUES (1, 'Ada', 'London'), (2, 'Linus', 'Helsinki'), (3, 'Grace', 'Arlington');
`;
const fenced = (sql: string) => `\`\`\`sql\n${sql}\n\`\`\``;

const { dbPath, executor } = testDatabase(SHOP);

describe("recursion limits from loop bounds", () => {
  it("magic-feedback --max-iter 60 with a corrector that is never right runs all 60 iterations", async () => {
    const models = scriptedProvider({
      feedback: "Filter on London, not Helsinki.",
      corrector: fenced("SELECT name FROM customers WHERE city = 'Arlington'"),
      manager: "Check every filter against the question.",
    });
    const graph = magicFeedbackSpec.build({ models, executor }, { maxIter: 60, checkpointer: new MemorySaver() });
    const input = { graph: "magic-feedback", questionId: "1", question: "Who lives in London?", evidence: "", dbId: "shop", dbPath, sql: "SELECT name FROM customers WHERE city = 'Helsinki'", incorrectSql: "SELECT name FROM customers WHERE city = 'Helsinki'", goldSql: "SELECT name FROM customers WHERE city = 'London'" };
    const state = (await runThread(graph, input as unknown as SqlInput, "magic-60")) as unknown as { rounds: number; corrected: boolean };
    expect(state.rounds).toBe(60);
    expect(state.corrected).toBe(false);
  }, 60_000);

  it("r3 --max-review-turns 80 with a writer that never settles runs all 80 rounds", async () => {
    let n = 0;
    const models = scriptedProvider({
      // Each revision differs from the last (a new literal), so no round is consensus.
      writer: () => fenced(`SELECT name FROM customers WHERE id > ${n++}`),
      persona: JSON.stringify({ reviewers: [{ profession: "Database engineer", focus: "filters" }] }),
      reviewer: "Use a different bound.",
    });
    const graph = r3Spec.build({ models, executor }, { kShot: 0, reviewers: 1, maxReviewTurns: 80, checkpointer: new MemorySaver() });
    const state = (await runThread(graph, { graph: "r3", questionId: "1", question: "Who?", evidence: "", dbId: "shop", dbPath }, "r3-80")) as unknown as { rounds: number; stopReason: string };
    expect(state.rounds).toBe(80);
    expect(state.stopReason).toMatch(/turn limit/);
  }, 60_000);

  it("baseline --max-fix-rounds 120 with SQL that never executes uses all 120 fix rounds", async () => {
    // Another failing SQL each round: a round that asked what an earlier one asked would end the loop (an unchanged retry).
    let round = 0;
    const models = scriptedProvider({ generator: fenced("SELECT nope FROM nowhere"), fixer: () => fenced(`SELECT nope${++round} FROM nowhere`) });
    const graph = baselineSpec.build({ models, executor }, { maxFixRounds: 120, checkpointer: new MemorySaver() });
    const state = await runThread(graph, { graph: "baseline", questionId: "1", question: "Who?", evidence: "", dbId: "shop", dbPath }, "fix-120");
    expect(state.fixRounds).toBe(120);
    expect(state.execution?.ok).toBe(false);
  }, 60_000);

  it("a graph built in code and invoked directly (a notebook, Studio, a server) holds its bounds, not LangGraph's 25", async () => {
    const models = scriptedProvider({ generator: fenced("SELECT nope FROM nowhere"), fixer: fenced("SELECT nope FROM nowhere") });
    const graph = baselineSpec.build({ models, executor }, { maxFixRounds: 20 });
    const state = await graph.invoke({ question: "Who?", dbPath });
    expect(state.fixRounds).toBe(20);
    expect(graph.config.recursionLimit).toBe(baselineSpec.recursionLimit({ maxFixRounds: 20 }));
  }, 60_000);

  it("every graph declares a limit that grows with its loop bounds", () => {
    for (const spec of graphSpecs) {
      const limit = spec.recursionLimit({});
      expect(limit, spec.name).toBeGreaterThanOrEqual(25);
      const built = spec.build({ models: scriptedProvider({}), executor }, {});
      expect(built.recursionLimit, spec.name).toBe(limit);
    }
    expect(magicFeedbackSpec.recursionLimit({ maxIter: 100 })).toBeGreaterThan(4 * 100);
    expect(r3Spec.recursionLimit({ maxReviewTurns: 100, maxDebugTurns: 20 })).toBeGreaterThan(100 * (3 + 2 * 20));
  });
});
