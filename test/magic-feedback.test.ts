/**
 * MAGIC's feedback-correction cycle on one failure (graph magic-feedback), with scripted agents: who sees what, the
 * stopping rules, prompt revision from iteration 2, the gold never reaching the correction agent, and the no-manager
 * ablation.
 */
import { describe, expect, it } from "vitest";
import { MemorySaver } from "@langchain/langgraph";
import { magicFeedbackSpec } from "../graphs/magic-feedback.ts";
import { magicGuidelineSpec } from "../graphs/magic-guideline.ts";
import { containsSql, LEAK_RUN, leakedRow, redactSql, REDACTED } from "../nodes/magic/leaks.ts";
import { CORRECTION_INSTRUCTIONS, FEEDBACK_INSTRUCTIONS } from "../nodes/magic/prompts.ts";
import { remindersIn } from "../nodes/magic/guideline.ts";
import { testDatabase } from "./support/fixtures.ts";
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

const { dbPath, executor } = testDatabase(SHOP);

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

describe("magic-feedback: what the manager is shown when it revises a prompt (§3.1)", () => {
  it("revises the feedback prompt from s' and the gold, the correction prompt from s' and the feedback it had to apply", async () => {
    const models = scriptedProvider({ feedback: "The incorrect SQL filters on Helsinki; the question asks for London.", corrector: [sqlReply(WRONG), sqlReply(RIGHT)], manager });
    await run(models);
    const saw = models.shownTo("manager").map(text);
    const ofFeedback = saw.find((t) => t.includes("It explains"))!;
    const ofCorrection = saw.find((t) => t.includes("It corrects an SQL query"))!;
    // The previous prompt is the instructions and the data block below them: question, evidence, s', s^gt.
    for (const t of [ofFeedback, ofCorrection]) {
      expect(t).toContain(INCORRECT);
      expect(t).toContain(GOLD);
      expect(t).toContain("Who lives in London?");
      expect(t).toContain("London refers to city = 'London'");
    }
    expect(ofFeedback).toContain(FEEDBACK_INSTRUCTIONS);
    expect(ofCorrection).toContain(CORRECTION_INSTRUCTIONS);
    expect(ofCorrection).toMatch(/Expert feedback:\nThe incorrect SQL filters on Helsinki/);
  });
});

describe("magic-feedback: Figure 6 and Figure 7 as the paper has them", () => {
  it("tells the correction agent its task, its input and the SQL format, not how to reason; shows the manager the failed revisions the feedback agent saw", async () => {
    // Three iterations: the feedback agent of iteration 3 is shown s' and both failed revisions.
    const OTHER = "SELECT name FROM customers WHERE city = 'Paris'";
    const models = scriptedProvider({ feedback: "Wrong city.", corrector: [sqlReply(WRONG), sqlReply(OTHER), sqlReply(RIGHT)], manager });
    const { state } = await run(models, { maxIter: 3 });
    expect(state.rounds).toBe(3);
    // Figure 6: no "Did I ...?" questions for the cycle's correction agent (the guideline brings those).
    expect(models.shownTo("corrector")[0]!.messages[0]!.content).not.toMatch(/Did I|ask yourself/i);
    expect(CORRECTION_INSTRUCTIONS).toMatch(/a question, the database schema, the predicted SQL query and the expert's feedback/);
    expect(text(models.shownTo("feedback")[2]!)).toContain(OTHER);
    // Figure 7: the manager revising the feedback prompt after iteration 2 sees the prompt the feedback agent had in
    // iteration 2 — s' and the failed revision of iteration 1, not iteration 2's, which it had not seen.
    const ofFeedback = models.shownTo("manager").map(text).filter((t) => t.includes("It explains"));
    expect(ofFeedback).toHaveLength(2);
    expect(ofFeedback[1]).toContain(`Revisions tried since, also incorrect:\n\`\`\`sql\n${WRONG}`);
    expect(ofFeedback[1]).not.toContain(OTHER);
    expect(ofFeedback[0]).not.toContain("Revisions tried since");
  });
});

describe("magic-feedback: manager replies that instruct nobody", () => {
  it("re-asks a chat reply, an 'OK.' and a chat line with a SQL block, counts each, and keeps the previous prompt", async () => {
    const chat = ["I am not sure what you mean.", "OK.", "Here is the query:\n```sql\nSELECT name FROM customers WHERE city = 'Paris'\n```"];
    let n = 0;
    const managerOf: Responder = ({ messages }) => (messages.some((m) => m.content.includes("It corrects an SQL query")) ? "Check every filter against the feedback." : chat[n++ % 3]!);
    const models = scriptedProvider({ feedback: "Wrong city.", corrector: [sqlReply(WRONG), sqlReply(RIGHT)], manager: managerOf });
    const { state } = await run(models, { maxUnusableRetries: 2 });
    expect(state.corrected).toBe(true);
    expect(state.feedbackInstructions).toBe("");
    expect(models.shownTo("feedback")[1]!.messages[0]!.content).toBe(FEEDBACK_INSTRUCTIONS);
    expect([state.unusableManagerReplies, state.failedRevisions, state.feedbackRevisions, state.correctionRevisions]).toEqual([3, 1, 0, 1]);
    const asked = models.shownTo("manager").filter((s) => !text(s).includes("It corrects an SQL query"));
    expect(asked).toHaveLength(3);
    expect(asked[1]!.messages.at(-1)!.content).toMatch(/cannot be used .*a chat reply/);
    expect(asked[2]!.messages.at(-1)!.content).toMatch(/cannot be used .*a chat reply/);
    expect(state.attempts.find((a: { node: string }) => a.node === "reviseFeedback").note).toMatch(/3 unusable replies \(last: a SQL query with a line of chat, not instructions\)/);
  });
});

describe("magic-feedback: the leak guard judges meaning, not characters", () => {
  const LONG = "SELECT T1.name, COUNT(T2.id) FROM customers AS T1 JOIN orders AS T2 ON T1.id = T2.customer_id WHERE T1.city = 'London' GROUP BY T1.name";

  it("finds the gold verbatim, re-spaced and re-cased, aliased, and as a long run of its tokens", () => {
    expect(containsSql(`Write ${GOLD} instead.`, GOLD)).toBe(true);
    expect(containsSql("write SELECT   NAME\nfrom Customers WHERE City='London'; instead", GOLD)).toBe(true);
    // Another alias, or none, is the same query.
    expect(containsSql(RIGHT, GOLD)).toBe(true);
    expect(containsSql("SELECT a.name, COUNT(b.id) FROM customers a2 JOIN orders AS b ON a.id = b.customer_id WHERE a.city = 'London' GROUP BY a.name", LONG)).toBe(true);
    // A run of LEAK_RUN gold tokens is a copy; a shorter clause is not.
    expect(LEAK_RUN).toBe(8);
    expect(containsSql("Join them: JOIN orders ON customers.id = orders.customer_id WHERE city = 'London', then group.", LONG)).toBe(true);
    expect(containsSql("Join orders on the customer id, and filter on city = 'London'.", LONG)).toBe(false);
    expect(redactSql("Join them: JOIN orders ON customers.id = orders.customer_id WHERE city = 'London', then group.", LONG)).toBe(`Join them: ${REDACTED}, then group.`);
    // A run the reader is shown anyway (s', the evidence) gives nothing away.
    const sPrime = "SELECT T1.name FROM customers AS T1 JOIN orders AS T2 ON T1.id = T2.customer_id WHERE T1.city = 'London'";
    expect(containsSql(`Your query ${sPrime} lacks the count.`, LONG, [sPrime])).toBe(false);
  });

  it("never redacts inside the SQL under correction, even when it contains the gold (s' = gold + LIMIT 1)", () => {
    const sPrime = `${GOLD} LIMIT 1`;
    const feedback = `Your query ${sPrime} returns one row only: drop the LIMIT.`;
    expect(containsSql(feedback, GOLD, [sPrime])).toBe(false);
    expect(redactSql(feedback, GOLD, [sPrime])).toBe(feedback);
    // Writing the gold out on its own is still a leak.
    expect(redactSql(`Your query ${sPrime} is wrong; the right one is ${GOLD}.`, GOLD, [sPrime])).toBe(`Your query ${sPrime} is wrong; the right one is ${REDACTED}.`);
  });

  it("refuses and redacts an aliased copy of the gold in the feedback", async () => {
    const models = scriptedProvider({ feedback: `Use ${RIGHT} and it works.`, corrector: sqlReply(RIGHT), manager });
    const { state } = await run(models, { maxLeakRetries: 1 });
    expect(models.shownTo("feedback")).toHaveLength(2);
    expect(state.latestFeedback).toBe(`Use ${REDACTED} and it works.`);
    expect(state.leakRefusals).toBe(2);
    expect(state.redactions).toBe(1);
  });

  it("passes on a feedback quoting s' that contains the gold, unredacted", async () => {
    const sPrime = `${GOLD} LIMIT 1`;
    const feedback = `Your query ${sPrime} returns one row only: drop the LIMIT.`;
    const models = scriptedProvider({ feedback, corrector: sqlReply(GOLD), manager });
    const { state } = await run(models, {}, { sql: sPrime, incorrectSql: sPrime });
    expect(state.corrected).toBe(true);
    expect(models.shownTo("feedback")).toHaveLength(1);
    expect(state.latestFeedback).toBe(feedback);
    const shown = text(models.shownTo("corrector")[0]!);
    expect(shown).not.toContain(`${REDACTED} LIMIT 1`);
    expect(shown).toContain(feedback);
  });

  it("refuses revised correction instructions holding an aliased copy of the gold", async () => {
    const models = scriptedProvider({ feedback: "Wrong city.", corrector: sqlReply(WRONG), manager: ({ messages }) => (messages.some((m) => m.content.includes("It corrects an SQL query")) ? `Write ${RIGHT}` : "Be precise.") });
    const { state } = await run(models, { maxIter: 2, maxLeakRetries: 1 });
    expect(state.correctionRevisions).toBe(0);
    expect(state.leakRefusals).toBe(2);
    for (const shown of models.shownTo("corrector")) expect(containsSql(text(shown), GOLD, [INCORRECT])).toBe(false);
  });
});

describe("magic-feedback: nothing unusable is used", () => {
  it("re-asks the manager for a reply with no usable instructions (a refusal, a bare query), then keeps the previous prompt and records it", async () => {
    const replies = ["I'm sorry, I can't help with that.", "SELECT name FROM customers WHERE city = 'Paris'"];
    // The correction revision: a refusal, then usable instructions; the feedback revision: never usable.
    const managerOf: Responder = ({ messages }) => {
      const correction = messages.some((m) => m.content.includes("It corrects an SQL query"));
      const asked = messages.filter((m) => m.role === "user").length;
      if (correction) return asked === 1 ? replies[0]! : "Check every filter against the feedback.";
      return replies[(asked - 1) % 2]!;
    };
    const models = scriptedProvider({ feedback: "Wrong city.", corrector: [sqlReply(WRONG), sqlReply(RIGHT)], manager: managerOf });
    const { state, graph, config } = await run(models, { maxUnusableRetries: 1 });
    expect(state.corrected).toBe(true);
    expect(state.correctionInstructions).toBe("Check every filter against the feedback.");
    expect(state.correctionRevisions).toBe(1);
    // Neither the refusal nor the bare query became the feedback agent's prompt.
    expect(state.feedbackInstructions).toBe("");
    expect(models.shownTo("feedback")[1]!.messages[0]!.content).toBe(FEEDBACK_INSTRUCTIONS);
    expect(state.feedbackRevisions).toBe(0);
    expect([state.unusableManagerReplies, state.failedRevisions]).toEqual([3, 1]);
    expect(state.attempts.find((a: { node: string }) => a.node === "reviseFeedback").note).toMatch(/unusable.*kept the previous feedback instructions/);
    expect(magicFeedbackSpec.outcome!.of((await graph.getState(config)).values)).toEqual({
      iterations: 2,
      success: true,
      leakRefusals: 0,
      redactions: 0,
      feedbackRevisions: 0,
      correctionRevisions: 1,
      unusableManagerReplies: 3,
      failedRevisions: 1,
    });
  });
});

describe("magic-feedback: what the correction agent is shown", () => {
  it("shows it BIRD's evidence by default; --corrector-evidence hidden follows Figure 6", async () => {
    const shown = scriptedProvider({ feedback: "Wrong city.", corrector: sqlReply(RIGHT), manager });
    await run(shown);
    expect(text(shown.shownTo("corrector")[0]!)).toContain("Evidence: London refers to city = 'London'");
    const hidden = scriptedProvider({ feedback: "Wrong city.", corrector: sqlReply(RIGHT), manager });
    await run(hidden, { correctorEvidence: "hidden" });
    expect(text(hidden.shownTo("corrector")[0]!)).not.toContain("Evidence:");
    // The feedback agent still sees it (Figure 5 lists it).
    expect(text(hidden.shownTo("feedback")[0]!)).toContain("Evidence: London refers to city = 'London'");
  });
});

describe("magic-feedback: without the manager (Table 4's ablation)", () => {
  it("keeps fixed prompts and stops when the feedback agent judges the revision correct, whatever the scorer says", async () => {
    // A feedback of its own each iteration (as its prompt, listing the incorrect SQL so far, differs): the corrector's
    // prompt then differs too, so its second reply is a new one, not the first reused.
    let feedbacks = 0;
    const feedback: Responder = ({ messages }) =>
      messages.at(-1)!.content.includes('"correct"') ? (text({ messages }).includes("Revised SQL:\n```sql\nSELECT name FROM customers WHERE city = 'Arlington'") ? '{"correct": false, "reason": "wrong city"}' : '{"correct": true, "reason": "London now"}') : `Wrong city (${++feedbacks}).`;
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
    // Sampling agents: at temperature 0 the same request would be answered once and reused (request-reuse.test.ts).
    const models = scriptedProvider({ feedback, corrector: sqlReply(WRONG) }, { temperature: 0.7 });
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

  it("re-asks a merge that drops most of the guideline's reminders, then keeps the guideline so far", async () => {
    const four = "1. Wrong table\n- Did I ...?\n2. Wrong city\n- Did I ...?\n3. Wrong join\n- Did I ...?\n4. Wrong count\n- Did I ...?";
    const run2 = async (replies: string[]) => {
      const models = scriptedProvider({ manager: replies });
      const graph = magicGuidelineSpec.build({ models, executor }, { checkpointer: new MemorySaver() });
      const state = await graph.invoke({ graph: "magic-guideline", question: "guideline batch 2", dbPath: "", batchNo: 2, batch, guideline: four }, { configurable: { thread_id: `m${++threads}` } });
      return { state, asked: models.shownTo("manager") };
    };
    const dropped = "1. Wrong city\n- Did I filter on the city the question names?";
    const fixed = `${four}\n5. Wrong city again\n- Did I ...?`;
    const recovered = await run2([dropped, fixed]);
    expect([recovered.state.merged, recovered.state.guideline, recovered.state.unusableReplies]).toEqual([true, fixed, 1]);
    expect(text(recovered.asked[1]!)).toMatch(/keeps 1 of the 4 reminders/);
    const failed = await run2([dropped, dropped]);
    expect([failed.state.merged, failed.state.guideline, failed.state.unusableReplies]).toEqual([false, four, 2]);
    expect(failed.state.attempts.at(-1).note).toMatch(/keeps 1 of the 4 reminders.*kept the guideline so far/);
  });

  it("keeps the numbered reminders only: a preface, the markdown fence, a sign-off and a trailing SQL block are dropped and counted", async () => {
    const items = "1. Wrong table\n- Did I ...?\n2. Wrong city\n- Question: \"Who lives in London?\"\n- Incorrect SQL generated by me:\n```sql\nSELECT 1\n```\n- Did I filter on the city the question names?";
    const reply = `Sure! Here is the updated guideline:\n\n\`\`\`markdown\n# Guideline\n\n${items}\n\`\`\`\n\nLet me know if you need anything else.\n\n\`\`\`sql\n${GOLD}\n\`\`\``;
    const state = await merge(reply);
    expect([state.merged, state.guideline, state.strippedLines]).toEqual([true, items, 8]);
    expect(state.attempts.at(-1).note).toMatch(/dropped 8 other lines/);
    expect(magicGuidelineSpec.outcome!.of(state)).toMatchObject({ merged: true, strippedLines: 8 });
  });

  it("counts reminders, not their numbered questions: growing 3 reminders to 4 is a merge", async () => {
    const reminder = (n: number, title: string) => `${n}. ${title}\n- Negative and strict step-by-step ask-to-myself questions:\n   1. Did I check it?\n   2. Have I checked it twice?\n   3. Did I verify the result?`;
    const three = [reminder(1, "Wrong table"), reminder(2, "Wrong join"), reminder(3, "Wrong count")].join("\n");
    const four = ["1. Wrong table", "2. Wrong join", "3. Wrong count", "4. Wrong city"].map((t) => `${t}\n  - Did I check it?`).join("\n");
    const graph = magicGuidelineSpec.build({ models: scriptedProvider({ manager: four }), executor }, { checkpointer: new MemorySaver() });
    const state = await graph.invoke({ graph: "magic-guideline", question: "guideline batch 2", dbPath: "", batchNo: 2, batch, guideline: three }, { configurable: { thread_id: `m${++threads}` } });
    expect([state.merged, state.guideline, state.unusableReplies]).toEqual([true, four, 0]);
    expect(remindersIn(three)).toBe(3);
  });

  it("keeps the guideline so far when the reply is a refusal or chat, not a guideline", async () => {
    const state = await merge("I'm sorry, I can't help with that.");
    expect([state.merged, state.guideline]).toEqual([false, "1. Wrong table\n- Did I ...?"]);
    expect(state.attempts.at(-1).note).toMatch(/no numbered reminder.*kept the guideline so far/);
  });
});
