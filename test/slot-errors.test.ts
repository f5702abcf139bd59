/**
 * Slot errors everywhere: a node breaking its contract inside a fan-out (a `Send` branch) stops its question with the
 * same one-line slot message as a single node — not LangGraph's "Multiple errors occurred during superstep N" — and
 * the endings that used to be quiet (a critic that never marks its candidate final, a gate that never decides, a
 * TS-SQL vote returning a plain update) are errors naming the slot, never an answer.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Command, Send } from "@langchain/langgraph";
import { firstLineOf, SlotContractError } from "../core/errors.ts";
import { selfConsistencySpec } from "../graphs/correction-baselines.ts";
import { memoRefineSpec } from "../graphs/memo-refine.ts";
import { memoSqlSpec } from "../graphs/memo-sql.ts";
import type { GraphSpec } from "../graphs/spec.ts";
import { tsSqlRefineSpec } from "../graphs/ts-sql.ts";
import type { NodeFactory } from "../nodes/types.ts";
import { answerQuestion, type GraphRunner } from "../runner/run/question-thread.ts";
import type { Question } from "../state/question.ts";
import type { ModelProvider } from "../tools/models/models.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { scriptedProvider } from "./support/scripted-models.ts";
import { minibenchFixture, resultsOf, runCli } from "./support/cli.ts";

const SHOP = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
INSERT INTO customers VALUES (1, 'Ada', 'London'), (2, 'Linus', 'Helsinki'), (3, 'Grace', 'London');
`;
const GIVEN = "SELECT name FROM customers WHERE city = 'London'";
const sqlReply = (sql: string) => `\`\`\`sql\n${sql}\n\`\`\``;

let dir: string;
let dbPath: string;
const executor = createExecutor({ size: 1 });
beforeAll(() => {
  dir = makeTempDir();
  dbPath = makeDb(dir, "shop.sqlite", SHOP);
});
afterAll(async () => {
  await executor.close();
  removeTempDir(dir);
});

const question = (): Question => ({ id: "1", dbId: "shop", dbPath, question: "Who lives in London?", evidence: "" });
let threads = 0;

/** One question through `answerQuestion` (what eval records in results.jsonl), with replacement nodes in some slots. */
async function runWith(spec: GraphSpec, models: ModelProvider, slots: Record<string, NodeFactory>, options: Record<string, unknown> = {}) {
  const graph = spec.build({ models, executor }, { slots, ...options });
  const runner: GraphRunner = {
    spec,
    graphSpecs: [spec],
    graph,
    deps: { models, executor },
    ...(spec.kind === "corrector" ? { initial: { kind: "predictions" as const, file: "given.json", predictions: new Map([["1", GIVEN]]) } } : {}),
    scenario: "all",
    semantics: "bird",
  };
  return answerQuestion(runner, question(), `slot-errors-${++threads}`);
}

/**
 * A replacement node for a fan-out slot: every branch waits until all `branches` have started, then returns `value`,
 * so the broken returns land in one superstep together (as real parallel branches do).
 */
function together<T>(branches: number, value: () => T): NodeFactory {
  let started = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return () => async () => {
    if (++started === branches) release();
    await all;
    return value() as never;
  };
}

// memo-sql with no ReAct, one style and no linking: three paths, three candidates, three critics in one step.
const MEMO_FAST = { noReact: true, styles: 1, noLinking: true };
const memoModels = () =>
  scriptedProvider({
    decomposer: '{"simple": false, "fits": true, "subQuestions": ["Customers in London"]}',
    writer: sqlReply(GIVEN),
    critic: '{"wrong": false, "errorTypes": [], "suggestions": ""}',
  });

describe("a contract broken inside a fan-out stops the question with the slot's one line", () => {
  it("memo-sql: three critics in parallel returning plain updates", async () => {
    const run = await runWith(memoSqlSpec, memoModels(), { critic: together(3, () => ({})) }, MEMO_FAST);
    expect(run.error).toBe(
      "slot 'critic' of graph 'memo-sql' must return a Command routing to refine or vote (new Command({ update, goto })); got a plain update (3 parallel branches failed)",
    );
    expect(run.sql).toBe("");
    expect(run.outcome).toBeUndefined();
  });

  it("ts-sql-refine: two coder models' coders returning plain updates", async () => {
    const models = scriptedProvider({ linker: '{"keywords": ["London"]}' });
    const run = await runWith(tsSqlRefineSpec, models, { coder: together(2, () => ({ codeCandidates: [] })) }, { noDataAgent: true, coderModels: ["m1", "m2"] });
    expect(run.error).toBe("slot 'coder' of graph 'ts-sql-refine' must return a Command routing to inspect (new Command({ update, goto })); got a plain update (2 parallel branches failed)");
    expect(run.outcome).toBeUndefined();
  });

  it("self-consistency: samples whose update lacks their candidate", async () => {
    // Its own prompts node asks the three samples in one branch; a replacement may fan out one branch a sample.
    const perSample: NodeFactory = () => async (state) => {
      const s = state as unknown as { sql: string; question: string; evidence: string; dbPath: string; schemaText: string };
      return new Command({ update: { initialSql: s.sql }, goto: [0, 1, 2].map((index) => new Send("sample", { index, question: s.question, evidence: s.evidence, dbPath: s.dbPath, schemaText: s.schemaText })) }) as never;
    };
    const one = await runWith(selfConsistencySpec, scriptedProvider({}), { sample: together(1, () => ({ attempts: [] })) }, { samples: 3 });
    expect(one.error).toBe("slot 'sample' of graph 'self-consistency' must return candidates in its update (missing: candidates; got keys: attempts)");
    const run = await runWith(selfConsistencySpec, scriptedProvider({}), { prompts: perSample, sample: together(3, () => ({ attempts: [] })) }, { samples: 3 });
    expect(run.error).toBe("slot 'sample' of graph 'self-consistency' must return candidates in its update (missing: candidates; got keys: attempts) (3 parallel branches failed)");
    expect(run.outcome).toBeUndefined();
  });
});

describe("the quiet endings are errors naming the slot", () => {
  // What a critic that forgets `final` returns: its candidate, verdict recorded, sent to the vote.
  const forgetfulCritic: NodeFactory = () => async (payload) => {
    const { candidate } = payload as unknown as { candidate: { id: string; meta?: Record<string, unknown> } };
    return new Command({ update: { candidates: [{ ...candidate, meta: { ...candidate.meta, accepted: true } }] }, goto: "vote" }) as never;
  };

  it("memo-refine: a critic that never marks its candidate final", async () => {
    const run = await runWith(memoRefineSpec, scriptedProvider({ linker: '{"keywords": []}' }), { critic: forgetfulCritic });
    expect(run.error).toBe(
      "slot 'critic' of graph 'memo-refine' must mark the candidates it routes to vote final (meta: { final: true }), or the vote waits for them forever; got 'initial' not final",
    );
    expect(run.outcome).toBeUndefined();
  });

  it("memo-sql: the same critic in the fan-out (three critics at once)", async () => {
    const run = await runWith(memoSqlSpec, memoModels(), { critic: forgetfulCritic }, MEMO_FAST);
    expect(run.error).toMatch(/^slot 'critic' of graph 'memo-sql' must mark the candidates it routes to vote final \(meta: \{ final: true \}\), or the vote waits for them forever; got '[a-z]+:join' not final( \(3 parallel branches failed\))?$/);
  });

  it("memo-refine: a critic whose Command routes nowhere", async () => {
    const run = await runWith(memoRefineSpec, scriptedProvider({ linker: '{"keywords": []}' }), { critic: () => async () => new Command({ goto: [] }) as never });
    expect(run.error).toBe("slot 'critic' of graph 'memo-refine' must return a Command routing to refine or vote; got a Command routing nowhere (its branch would end there)");
  });

  it("memo-refine: a vote that keeps waiting when every candidate is final", async () => {
    const run = await runWith(memoRefineSpec, scriptedProvider({ linker: '{"keywords": []}', critic: '{"wrong": false, "errorTypes": [], "suggestions": ""}' }), { vote: () => async () => new Command({ goto: [] }) as never });
    expect(run.error).toBe("slot 'vote' of graph 'memo-refine' must route to __end__ once every candidate is final (goto: [] only while some are pending); got no route with every candidate final (1)");
  });

  const CODE = "```javascript\n// the London customers' names\nresult = customers.filter((c) => c.city === 'London').map((c) => ({ name: c.name }));\n```";

  it("ts-sql-refine: a vote returning a plain update instead of its Command", async () => {
    const models = scriptedProvider({ linker: '{"keywords": ["London"]}', coder: CODE });
    const vote: NodeFactory = () => async (state) => {
      const codes = (state as unknown as { codeCandidates: { done: boolean }[] }).codeCandidates;
      return (codes.some((c) => c.done) ? { testCode: null } : {}) as never;
    };
    const run = await runWith(tsSqlRefineSpec, models, { vote }, { noDataAgent: "sample" });
    expect(models.shownTo("coder")).toHaveLength(1);
    expect(run.error).toBe(
      "slot 'vote' of graph 'ts-sql-refine' must return a Command routing to test, execute or data once every coder model's code is done ({} only while coders work); got a plain update with every coder's code done (coder)",
    );
    expect(run.outcome).toBeUndefined();
  });

  it("ts-sql-refine: an inspection that hands its code to the vote not done", async () => {
    const models = scriptedProvider({ linker: '{"keywords": ["London"]}', coder: CODE });
    const inspect: NodeFactory = () => async (state) => new Command({ update: { codeCandidates: (state as unknown as { codeCandidates: unknown[] }).codeCandidates }, goto: "vote" }) as never;
    const run = await runWith(tsSqlRefineSpec, models, { inspect }, { noDataAgent: "sample" });
    expect(run.error).toBe("slot 'inspect' of graph 'ts-sql-refine' must mark the code candidate it routes to vote done (done: true), or the vote waits for it forever; got 'coder' not done");
  });

  it("the default nodes keep to the new rules (a whole memo-refine and ts-sql-refine question answers)", async () => {
    const memo = await runWith(memoRefineSpec, scriptedProvider({ linker: '{"keywords": []}', critic: '{"wrong": false, "errorTypes": [], "suggestions": ""}' }), {});
    expect(memo.error).toBeUndefined();
    expect(memo.sql).toBe(GIVEN);
    const ts = await runWith(tsSqlRefineSpec, scriptedProvider({ linker: '{"keywords": ["London"]}', coder: CODE }), {}, { noDataAgent: "sample" });
    expect(ts.error).toBeUndefined();
    // The coder ran, inspection handed its code over, the vote decided: the question ended by its own rules (on this
    // tiny table the 1/10 sample lacks the linked value, which the outcome says).
    expect(ts.outcome, JSON.stringify(ts.outcome)).toMatchObject({ coderTurns: 1, skipped: "empty test result: the data lacks the linked values" });
  });
});

describe("firstLineOf over parallel failures", () => {
  it("names the first slot error among a step's errors and how many branches failed", () => {
    const aggregated = new AggregateError(
      [new Error("model call failed: connection refused\nat stack"), new SlotContractError("slot 'sample' of graph 'g' must return candidates"), new SlotContractError("slot 'sample' of graph 'g' (second)")],
      "Multiple errors occurred during superstep 9. See the \"errors\" field of this exception for more details.",
    );
    expect(firstLineOf(aggregated)).toBe("slot 'sample' of graph 'g' must return candidates (3 parallel branches failed)");
    expect(firstLineOf(new AggregateError([new Error("a\nb"), new Error("c")], "Multiple errors"))).toBe("a (2 parallel branches failed)");
    expect(firstLineOf(new AggregateError([new AggregateError([new Error("x"), new Error("y")]), new Error("z")]))).toBe("x (3 parallel branches failed)");
    expect(firstLineOf(new Error("\n  one line  \nmore"))).toBe("one line");
  });
});

describe("through eval", () => {
  it("a fan-out's broken samples: results.jsonl records the slot's line as the question's failure, not an answer; exit 3", async () => {
    const { benchDir, dev } = await minibenchFixture(dir);
    const q = dev[0]!;
    const initial = path.join(dir, "initial.json");
    fs.writeFileSync(initial, JSON.stringify({ [q.id]: `${q.goldSql}\t----- bird -----\t${q.dbId}` }));
    const node = path.join(dir, "no-candidate-sample.mjs");
    fs.writeFileSync(node, "export default () => async () => ({ attempts: [] });\n");
    const out = path.join(dir, "eval-broken-sample");
    const env = { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home"), SQLMEND_CACHE: "off" };
    const args = ["eval", "self-consistency", "--bench", benchDir, "--out", out, "--ids", q.id, "--initial", initial, "--correct", "all", "--samples", "3"];
    const run = await runCli([...args, "--node", `sample=${node}`, "--model", "mock", "--checkpoints", "memory"], dir, env);
    expect(run.code).toBe(3);
    const record = (await resultsOf(out)).get(q.id)!;
    // The initial SQL is the gold's: scored, it would count as right.
    expect(record.failure ?? record.error).toMatch(/^the graph could not finish: slot 'sample' of graph 'self-consistency' must return candidates in its update \(missing: candidates; got keys: attempts\)( \([23] parallel branches failed\))?$/);
    expect(record.correct).not.toBe(true);
    expect(fs.readFileSync(path.join(out, "report.md"), "utf8")).toContain("slot 'sample' of graph 'self-consistency' must return candidates");
  }, 60_000);
});
