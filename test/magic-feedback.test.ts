/**
 * MAGIC's feedback-correction cycle on one failure (graph magic-feedback), with scripted agents: who sees what, the
 * stopping rules, prompt revision from iteration 2, the gold never reaching the correction agent, and the no-manager
 * ablation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemorySaver } from "@langchain/langgraph";
import { magicFeedbackSpec } from "../graphs/magic-feedback.ts";
import { magicGuidelineSpec } from "../graphs/magic-guideline.ts";
import { containsSql, leakedRow, redactSql, REDACTED } from "../nodes/magic/leaks.ts";
import { CORRECTION_INSTRUCTIONS, FEEDBACK_INSTRUCTIONS } from "../nodes/magic/prompts.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type Responder, scriptedProvider, type ScriptedProvider } from "./support/scripted-models.ts";

const SHOP = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
INSERT INTO customers VALUES (1, 'Ada', 'London'), (2, 'Linus', 'Helsinki'), (3, 'Grace', 'Arlington'), (4, 'Alan', 'London');
`;
const GOLD = "SELECT name FROM customers WHERE city = 'London'";
const INCORRECT = "SELECT name FROM customers WHERE city = 'Helsinki'";
const RIGHT = "SELECT c.name FROM customers AS c WHERE c.city = 'London'";
const WRONG = "SELECT name FROM customers WHERE city = 'Arlington'";
const sqlReply = (sql: string) => `Did I filter on the right city? No.\n\`\`\`sql\n${sql}\n\`\`\``;

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

const input = () => ({ graph: "magic-feedback", questionId: "7", question: "Who lives in London?", evidence: "London refers to city = 'London'", dbId: "shop", dbPath, sql: INCORRECT, incorrectSql: INCORRECT, goldSql: GOLD });
let threads = 0;
async function run(models: ScriptedProvider, options: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}) {
  const graph = magicFeedbackSpec.build({ models, executor }, { checkpointer: new MemorySaver(), ...options });
  const config = { configurable: { thread_id: `t${++threads}` }, recursionLimit: 200 };
  const state = await graph.invoke({ ...input(), ...overrides }, config);
  return { state, graph, config };
}
/** The manager revises the two agents' instructions; its replies say which agent and which revision they are. */
const manager: Responder = ({ messages, index }) =>
  messages.at(-1)!.content.includes("It corrects an SQL query") ? `Correction instructions v${index}: check every filter.` : `Feedback instructions v${index}: name each wrong filter.`;
const text = (shown: { messages: { content: string }[] }) => shown.messages.map((m) => m.content).join("\n");

describe("magic-feedback: the manager's cycle", () => {
  it("stops on success at iteration k, revising both prompts from iteration 2 only", async () => {
    const models = scriptedProvider({
      feedback: "The incorrect SQL filters on Helsinki; the question asks for London.",
      corrector: [sqlReply(WRONG), sqlReply(RIGHT)],
      manager,
    });
    const { state } = await run(models);
    expect(state.corrected).toBe(true);
    expect(state.rounds).toBe(2);
    expect(state.sql).toBe(RIGHT);
    expect(state.iterations.map((i: { correct: boolean }) => i.correct)).toEqual([false, true]);
    // Iteration 1: the predefined instructions; iteration 2: the manager's revisions of them.
    const feedbackSaw = models.shownTo("feedback");
    const correctorSaw = models.shownTo("corrector");
    expect(feedbackSaw).toHaveLength(2);
    expect(correctorSaw).toHaveLength(2);
    expect(feedbackSaw[0]!.messages[0]!.content).toBe(FEEDBACK_INSTRUCTIONS);
    expect(correctorSaw[0]!.messages[0]!.content).toBe(CORRECTION_INSTRUCTIONS);
    expect(feedbackSaw[1]!.messages[0]!.content).toMatch(/^Feedback instructions v\d: name each wrong filter\.$/);
    expect(correctorSaw[1]!.messages[0]!.content).toMatch(/^Correction instructions v\d: check every filter\.$/);
    expect(models.shownTo("manager")).toHaveLength(2);
    // The feedback agent sees the gold and, from iteration 2, the failed revision too; the correction agent always revises s'.
    expect(text(feedbackSaw[1]!)).toContain(GOLD);
    expect(text(feedbackSaw[1]!)).toContain(WRONG);
    for (const shown of correctorSaw) {
      expect(text(shown)).toContain(INCORRECT);
      expect(text(shown)).toContain("CREATE TABLE");
      expect(text(shown)).toContain("filters on Helsinki");
      expect(containsSql(text(shown), GOLD)).toBe(false);
    }
    // The manager saw the last unhelpful outputs, and the gold as the correction agent's ideal output.
    const managerSaw = models.shownTo("manager").map(text);
    expect(managerSaw.find((t) => t.includes("It corrects an SQL query"))).toContain(sqlReply(WRONG));
    expect(managerSaw.find((t) => t.includes("It corrects an SQL query"))).toContain(GOLD);
    expect(managerSaw.find((t) => t.includes("It explains"))).toContain("filters on Helsinki");
    expect(state.usage.byRole).toMatchObject({ feedback: { calls: 2 }, corrector: { calls: 2 }, manager: { calls: 2 } });
  });

  it("succeeds at iteration 1 without any revision", async () => {
    const models = scriptedProvider({ feedback: "Wrong city.", corrector: sqlReply(RIGHT), manager });
    const { state } = await run(models);
    expect([state.corrected, state.rounds]).toEqual([true, 1]);
    expect(models.shownTo("manager")).toHaveLength(0);
  });

  it("runs exactly max-iter iterations when nothing corrects it (5 by default, not 6)", async () => {
    const models = scriptedProvider({ feedback: "Wrong city.", corrector: sqlReply(WRONG), manager });
    const { state } = await run(models);
    expect([state.corrected, state.rounds]).toEqual([false, 5]);
    expect(models.shownTo("corrector")).toHaveLength(5);
    expect(models.shownTo("feedback")).toHaveLength(5);
    // Revisions before iterations 2..5 only: 4 of each.
    expect(models.shownTo("manager")).toHaveLength(8);
    expect([state.feedbackRevisions, state.correctionRevisions]).toEqual([4, 4]);

    const two = scriptedProvider({ feedback: "Wrong city.", corrector: sqlReply(WRONG), manager });
    const { state: s2 } = await run(two, { maxIter: 2 });
    expect(s2.rounds).toBe(2);
    expect(two.shownTo("corrector")).toHaveLength(2);
  });

  it("keeps both parallel revisions' calls in one step", async () => {
    const models = scriptedProvider({ feedback: "Wrong city.", corrector: [sqlReply(WRONG), sqlReply(RIGHT)], manager });
    const { graph, config } = await run(models);
    const nodesOfCalls: string[][] = [];
    for await (const snapshot of graph.getStateHistory(config)) nodesOfCalls.push(snapshot.values.calls.map((c: { node?: string }) => c.node).sort());
    expect(nodesOfCalls).toContainEqual(["reviseCorrection", "reviseFeedback"]);
  });
});

describe("magic-feedback: the gold never reaches the correction agent", () => {
  it("refuses a feedback holding the gold SQL, asks again (bounded), then redacts it", async () => {
    const leaky = `You should have written:\n\`\`\`sql\nselect name from customers where city = "London";\n\`\`\`\nThe filter is wrong.`;
    const models = scriptedProvider({ feedback: leaky, corrector: [sqlReply(WRONG), sqlReply(RIGHT)], manager });
    const { state } = await run(models, { maxLeakRetries: 2 });
    // Each iteration: the first ask and two re-asks.
    expect(models.shownTo("feedback")).toHaveLength(6);
    expect(text(models.shownTo("feedback")[1]!)).toMatch(/without writing the corrected query/);
    expect(state.latestFeedback).toContain(REDACTED);
    expect(state.latestFeedback).toContain("The filter is wrong.");
    for (const shown of models.shownTo("corrector")) expect(containsSql(text(shown), GOLD)).toBe(false);
    expect(state.attempts.some((a: { note?: string }) => /redacted/.test(a.note ?? ""))).toBe(true);
  });

  it("refuses revised correction instructions that give the gold SQL or a row of its result away; keeps the previous ones", async () => {
    const managerLeaks: Responder = ({ messages, index }) => {
      if (!messages.some((m) => m.content.includes("It corrects an SQL query"))) return "Feedback instructions: be precise.";
      return index % 2 === 0 ? `Write exactly: ${GOLD}` : "The answer must list Ada and Alan."; // SQL, then a gold row (Ada)
    };
    const models = scriptedProvider({ feedback: "Wrong city.", corrector: sqlReply(WRONG), manager: managerLeaks });
    const { state } = await run(models, { maxIter: 3, maxLeakRetries: 1 });
    expect(state.rounds).toBe(3);
    expect(state.correctionInstructions).toBe("");
    expect(state.correctionRevisions).toBe(0);
    for (const shown of models.shownTo("corrector")) {
      expect(shown.messages[0]!.content).toBe(CORRECTION_INSTRUCTIONS);
      expect(containsSql(text(shown), GOLD)).toBe(false);
    }
    expect(state.attempts.filter((a: { node: string; note?: string }) => a.node === "reviseCorrection").every((a: { note?: string }) => /kept the previous correction instructions/.test(a.note ?? ""))).toBe(true);
  });

  it("accepts revised correction instructions naming a gold value the agent is shown anyway", async () => {
    // The gold answer is 'London', which the question and evidence already name.
    const models = scriptedProvider({ feedback: "Wrong column.", corrector: sqlReply(WRONG), manager: ({ messages }) => (messages.at(-1)!.content.includes("It corrects an SQL query") ? "Return the city, which is 'London' here." : "Be precise.") });
    const { state } = await run(models, { maxIter: 2 }, { goldSql: "SELECT city FROM customers WHERE name = 'Ada'" });
    expect(state.correctionRevisions).toBe(1);
    expect(models.shownTo("corrector")[1]!.messages[0]!.content).toBe("Return the city, which is 'London' here.");
  });

  it("normalises SQL when looking for it, and finds gold rows in prose", () => {
    expect(containsSql("try `SELECT  name\nFROM [customers] where city='London';` next", GOLD)).toBe(true);
    expect(containsSql("SELECT name FROM customers WHERE city = 'Paris'", GOLD)).toBe(false);
    expect(redactSql(`use select name from customers where city = 'London' here`, GOLD)).toBe(`use ${REDACTED} here`);
    expect(leakedRow("the result is Ada from London", [["Ada", "London"]])).toEqual(["Ada", "London"]);
    expect(leakedRow("Adam from Londonderry", [["Ada", "London"]])).toBeUndefined();
    expect(leakedRow("step 3", [[3]])).toBeUndefined(); // single-character cells are too common to count
    // A value the correction agent is shown anyway (here in the evidence) gives nothing away; a new one does.
    expect(leakedRow("Filter on title = 'Lecturer'.", [["Lecturer"]], "lecturers refers to title = 'Lecturer'")).toBeUndefined();
    expect(leakedRow("Answer Ada and London.", [["Ada", "London"]], "Who lives in London?")).toEqual(["Ada", "London"]);
  });
});

describe("magic-feedback: without the manager (Table 4's ablation)", () => {
  it("keeps fixed prompts and stops when the feedback agent judges the revision correct, whatever the scorer says", async () => {
    const feedback: Responder = ({ messages }) =>
      messages.at(-1)!.content.includes('"correct"') ? (text({ messages }).includes("Revised SQL:\n```sql\nSELECT name FROM customers WHERE city = 'Arlington'") ? '{"correct": false, "reason": "wrong city"}' : '{"correct": true, "reason": "London now"}') : "Wrong city.";
    const models = scriptedProvider({ feedback, corrector: [sqlReply(WRONG), sqlReply(RIGHT)] });
    const { state } = await run(models, { noManager: true });
    expect([state.rounds, state.corrected, state.judgedCorrect]).toEqual([2, true, true]);
    expect(() => models.shownTo("manager")).not.toThrow();
    expect(models.shownTo("manager")).toHaveLength(0);
    for (const shown of models.shownTo("corrector")) expect(shown.messages[0]!.content).toBe(CORRECTION_INSTRUCTIONS);
    // The feedback agent compares the two results itself (§4: it uses the executor on both); the scorer routes nothing.
    const judgeSaw = models.shownTo("feedback").filter((s) => text(s).includes('"correct"'));
    expect(judgeSaw).toHaveLength(2);
    expect(text(judgeSaw[0]!)).toMatch(/Result of the correct SQL:\n[\s\S]*Ada[\s\S]*Alan[\s\S]*Result of the revised SQL:\n[\s\S]*Grace/);
    // ...and nothing of that reaches the correction agent.
    for (const shown of models.shownTo("corrector")) expect(text(shown)).not.toMatch(/Result of the correct SQL|judged/);
  });

  it("a judge fooled into 'correct' stops the cycle on a wrong revision; the scorer's verdict is still recorded", async () => {
    const feedback: Responder = ({ messages }) => (messages.at(-1)!.content.includes('"correct"') ? '{"correct": true, "reason": "looks fine"}' : "Wrong city.");
    const models = scriptedProvider({ feedback, corrector: sqlReply(WRONG) });
    const { state } = await run(models, { noManager: true });
    expect([state.rounds, state.corrected, state.judgedCorrect]).toEqual([1, false, true]);
  });

  it("stops at exactly max-iter when the judge never accepts", async () => {
    const feedback: Responder = ({ messages }) => (messages.at(-1)!.content.includes('"correct"') ? '{"correct": false, "reason": "no"}' : "Wrong city.");
    const models = scriptedProvider({ feedback, corrector: sqlReply(WRONG) });
    const { state } = await run(models, { noManager: true, maxIter: 3 });
    expect(state.rounds).toBe(3);
    expect(models.shownTo("corrector")).toHaveLength(3);
    // No judge call after the last iteration: the cap stops it.
    expect(models.shownTo("feedback").filter((s) => text(s).includes('"correct"'))).toHaveLength(2);
  });
});

describe("magic-feedback: input", () => {
  it("fails clearly when run without the gold SQL", async () => {
    const models = scriptedProvider({ feedback: "x", corrector: sqlReply(RIGHT), manager });
    const graph = magicFeedbackSpec.build({ models, executor }, { checkpointer: new MemorySaver() });
    await expect(graph.invoke({ ...input(), goldSql: "" }, { configurable: { thread_id: "nogold" } })).rejects.toThrow(/needs the question's gold SQL/);
  });
});

describe("magic-guideline: one merge", () => {
  const batch = [{ questionId: "7", question: "Who lives in London?", evidence: "", incorrectSql: INCORRECT, correctedSql: GOLD, feedback: "Wrong city." }];
  const merge = async (reply: string) => {
    const graph = magicGuidelineSpec.build({ models: scriptedProvider({ manager: reply }), executor }, { checkpointer: new MemorySaver() });
    return graph.invoke({ graph: "magic-guideline", question: "guideline batch 2", dbPath: "", batchNo: 2, batch, guideline: "1. Wrong table\n- Did I ...?" }, { configurable: { thread_id: `m${++threads}` } });
  };

  it("takes a reply in Figure 9's numbered format as the whole new guideline", async () => {
    const state = await merge("```markdown\n1. Wrong table\n- Did I ...?\n2. Wrong city\n- Did I filter on the city the question names?\n```");
    expect([state.merged, state.guideline]).toEqual([true, "1. Wrong table\n- Did I ...?\n2. Wrong city\n- Did I filter on the city the question names?"]);
  });

  it("keeps the guideline so far when the reply is a refusal or chat, not a guideline", async () => {
    const state = await merge("I'm sorry, I can't help with that.");
    expect([state.merged, state.guideline]).toEqual([false, "1. Wrong table\n- Did I ...?"]);
    expect(state.attempts.at(-1).note).toMatch(/no numbered reminder.*kept the guideline so far/);
  });
});
