/**
 * R³ (graphs/r3.ts) with scripted models: the writer's debug loop and memory, personas, parallel reviewers, the
 * rebuttal/revision loop and its stop reasons, each ablation switch, history truncation, a failing reviewer.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { graphOptionsOf } from "../runner/run/run-options.ts";
import { readOptions } from "../core/options.ts";
import { r3Manifest } from "../graphs/manifests/r3.ts";
import { R3_OPTIONS } from "../nodes/r3/options.ts";
import { MemorySaver } from "@langchain/langgraph";
import { r3ReviewSpec, r3Spec } from "../graphs/r3.ts";
import { createExampleStore } from "../tools/retrieval/examples.ts";
import { normaliseSql, sameSql, schemaIdentifiers } from "../tools/sql-normalise.ts";
import { fitHistory } from "../nodes/r3/writer.ts";
import type { HistoryTurn, R3StateValue } from "../state/r3.ts";
import type { NodeFactory } from "../nodes/types.ts";
import type { Question } from "../state/question.ts";
import { testDatabase } from "./support/fixtures.ts";
import { type Responder, scriptedProvider } from "./support/scripted-models.ts";

const SHOP = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL);
INSERT INTO customers VALUES (1, 'Ada', 'London'), (2, 'Linus', 'Helsinki'), (3, 'Grace', NULL);
INSERT INTO orders VALUES (1, 1, 10.5), (2, 1, 20.0), (3, 2, 7.25);
`;

const sql = (text: string) => `Reasoning first.\n\`\`\`sql\n${text}\n\`\`\``;
const PERSONAS = JSON.stringify({
  reviewers: [
    { profession: "Retail data analyst", focus: "customer geography" },
    { profession: "Senior database engineer", focus: "joins" },
    { profession: "BI report auditor", focus: "columns returned" },
  ],
});
const last = (messages: { content: string }[]) => messages.at(-1)?.content ?? "";
const isReviews = (messages: { content: string }[]) => last(messages).includes("Their reviews:");
const isError = (messages: { content: string }[]) => last(messages).includes("Running your query failed");

const { dbPath, executor } = testDatabase(SHOP);

const input = (question: string, extra: Record<string, unknown> = {}) => ({ graph: "r3", question, dbPath, dbId: "shop", ...extra });
const config = (thread: string) => ({ configurable: { thread_id: thread }, recursionLimit: 200 });

function build(script: Record<string, Responder>, options: Record<string, unknown> = {}, extra: { delayMs?: number } = {}) {
  const models = scriptedProvider({ persona: PERSONAS, reviewer: "Looks right to me.", ...script }, extra);
  const graph = r3Spec.build({ models, executor }, { kShot: 0, checkpointer: new MemorySaver(), ...options });
  return { models, graph };
}

describe("the SQL normaliser (consensus)", () => {
  it("ignores white space, keyword case, a trailing semicolon and needless identifier quoting, not literals", () => {
    const shop = schemaIdentifiers([{ name: "customers", columns: [{ name: "Name" }, { name: "city" }] }]);
    expect(sameSql('select  "name" FROM [customers]\nWHERE city = \'London\';', "SELECT name FROM customers WHERE city = 'London'", shop)).toBe(true);
    expect(sameSql("SELECT `id` FROM t", "select id from T ;")).toBe(true);
    expect(sameSql("SELECT name FROM customers WHERE city = 'london'", "SELECT name FROM customers WHERE city = 'London'")).toBe(false);
    expect(sameSql("SELECT name FROM customers", "SELECT id FROM customers")).toBe(false);
    expect(normaliseSql('SELECT "first name" FROM t')).toBe('select "first name" from t'); // quoting that is needed stays
  });

  it("keeps the case of a double-quoted token the schema does not name: SQLite reads it as a string", () => {
    const shop = schemaIdentifiers([{ name: "customers", columns: [{ name: "name" }, { name: "country" }] }]);
    expect(sameSql('SELECT name FROM customers WHERE country = "france"', 'SELECT name FROM customers WHERE country = "France"', shop)).toBe(false);
    expect(sameSql('SELECT "Name" FROM customers WHERE country = "France"', 'select name from customers where "COUNTRY" = "France"', shop)).toBe(true);
    // Without a schema a double-quoted token is never assumed to be an identifier.
    expect(sameSql('SELECT "name" FROM t', "SELECT name FROM t")).toBe(false);
  });
});

describe("r3 graph", () => {
  it("debugs an execution error with the error in its history, then reaches consensus; personas and reviews reach the right agents", async () => {
    const { models, graph } = build({
      writer: ({ messages }) =>
        isReviews(messages)
          ? `I disagree with the first review: the question asks for names only.\n${sql("select NAME from customers where city = 'London';")}`
          : isError(messages)
            ? sql("SELECT name FROM customers WHERE city = 'London'")
            : sql("SELECT nme FROM customers WHERE city = 'London'"),
      reviewer: ({ messages }) => `As ${/Your profession: (.*?)\./.exec(messages[0]!.content)?.[1]}: add the id column.`,
    });
    const state: R3StateValue = await graph.invoke(input("Which customers live in London?"), config("c1"));

    expect(state.sql).toBe("SELECT name FROM customers WHERE city = 'London'");
    expect(state.fixRounds).toBe(1);
    expect(state.rounds).toBe(1);
    expect(state.consensus).toBe(true);
    expect(state.stopReason).toMatch(/^consensus in round 1/);
    expect(state.roundLog).toEqual([expect.objectContaining({ round: 1, outcome: "kept", reviews: 3, failedReviewers: [] })]);

    // The debug turn saw H: the opening (question and schema), its first SQL, and the error.
    const writer = models.shownTo("writer");
    expect(writer).toHaveLength(3);
    const debugPrompt = writer[1]!.messages;
    expect(debugPrompt.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(debugPrompt[1]!.content).toContain("Which customers live in London?");
    expect(debugPrompt[1]!.content).toContain("CREATE TABLE");
    expect(debugPrompt[2]!.content).toContain("SELECT nme");
    expect(debugPrompt[3]!.content).toMatch(/no such column: nme/);

    // Personas: once, from the schema and the SQL that executes.
    expect(models.shownTo("persona")).toHaveLength(1);
    expect(models.shownTo("persona")[0]!.messages[1]!.content).toContain("SELECT name FROM customers WHERE city = 'London'");
    expect(state.personas.map((p) => p.profession)).toEqual(["Retail data analyst", "Senior database engineer", "BI report auditor"]);

    // Each reviewer in its persona saw schema, question, SQL and the result as a table.
    const reviewers = models.shownTo("reviewer");
    expect(reviewers.map((r) => /Your profession: (.*?)\./.exec(r.messages[0]!.content)?.[1]).sort()).toEqual(["BI report auditor", "Retail data analyst", "Senior database engineer"]);
    for (const r of reviewers) {
      expect(r.messages[1]!.content).toContain("CREATE TABLE");
      expect(r.messages[1]!.content).toContain("Which customers live in London?");
      expect(r.messages[1]!.content).toMatch(/name\n-+\nAda\n\(1 row\)/);
    }
    // The writer read all three reviews, after the whole history.
    const revisePrompt = writer[2]!.messages;
    expect(revisePrompt.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "assistant", "user"]);
    for (const who of ["Retail data analyst", "Senior database engineer", "BI report auditor"]) expect(last(revisePrompt)).toContain(`As ${who}: add the id column.`);
    expect(state.history.map((t) => `${t.role}:${t.kind}:${t.round}`)).toEqual(["assistant:sql:0", "user:error:0", "assistant:sql:0", "user:reviews:1", "assistant:sql:1"]);
    expect(state.usage.byRole).toMatchObject({ writer: { calls: 3 }, persona: { calls: 1 }, reviewer: { calls: 3 } });
  });

  it("keeps every reviewer's call of the parallel step in `calls`", async () => {
    const { graph } = build({ writer: sql("SELECT count(*) FROM orders") });
    await graph.invoke(input("How many orders?"), config("calls"));
    const history = [];
    for await (const s of graph.getStateHistory(config("calls"))) history.push(s);
    const afterReview = history.find((s) => s.next.includes("revise"));
    expect(afterReview).toBeDefined();
    const calls = afterReview!.values.calls as { role: string; node: string; step: number }[];
    expect(calls).toHaveLength(3);
    expect(calls.every((c) => c.role === "reviewer" && c.node === "review")).toBe(true);
    expect(new Set(calls.map((c) => c.step)).size).toBe(1);
  });

  it("revises until the turn limit when the writer never settles", async () => {
    let n = 0;
    const { graph, models } = build({ writer: () => sql(`SELECT count(*) + ${n++} FROM orders`) }, { maxReviewTurns: 2 });
    const state: R3StateValue = await graph.invoke(input("How many orders?"), config("limit"));
    expect(state.rounds).toBe(2);
    expect(state.consensus).toBe(false);
    expect(state.stopReason).toBe("turn limit: 2 review rounds without consensus");
    expect(state.roundLog.map((r) => r.outcome)).toEqual(["revised", "revised"]);
    expect(state.sql).toBe("SELECT count(*) + 2 FROM orders");
    // The last revision was executed before stopping.
    expect(state.execution).toMatchObject({ ok: true, sql: state.sql });
    expect(models.shownTo("reviewer")).toHaveLength(6);
    expect(models.shownTo("persona")).toHaveLength(1); // once per question, not per round
  });

  it("a reviewer's fix of a double-quoted literal's case is a revision, not consensus", async () => {
    const { graph } = build(
      {
        writer: ({ messages }) => (isReviews(messages) ? sql('SELECT name FROM customers WHERE city = "London"') : sql('SELECT name FROM customers WHERE city = "london"')),
        reviewer: 'The city is stored as "London": the filter finds nothing.',
      },
      { maxReviewTurns: 1 },
    );
    const state: R3StateValue = await graph.invoke(input("Which customers live in London?"), config("dq-case"));
    expect(state.roundLog[0]).toMatchObject({ outcome: "revised", sqlAfter: 'SELECT name FROM customers WHERE city = "London"' });
    expect(state.consensus).toBe(false);
    expect(state.sql).toBe('SELECT name FROM customers WHERE city = "London"');
    expect(state.execution?.preview?.rows).toEqual([["Ada"]]);
  });

  it("caps debug turns per review round", async () => {
    const { graph, models } = build({ writer: sql("SELECT nope FROM nowhere") }, { maxDebugTurns: 2, maxReviewTurns: 1 });
    const state: R3StateValue = await graph.invoke(input("How many orders?"), config("debugcap"));
    // Round 1: two debug turns, then reviewers see the error; the kept SQL is consensus.
    expect(state.fixRounds).toBe(2);
    expect(state.roundDebugTurns).toBe(0);
    expect(models.shownTo("reviewer")[0]!.messages[1]!.content).toMatch(/The query failed to execute: .*no such table: nowhere/);
    expect(state.stopReason).toMatch(/^consensus/);
  });

  it("runs reviewers in parallel: a round takes about one reviewer's time", async () => {
    const spans: { start: number; end: number }[] = [];
    const reviewer: Responder = async () => {
      const start = performance.now();
      await new Promise((r) => setTimeout(r, 200));
      spans.push({ start, end: performance.now() });
      return "Fine.";
    };
    const { graph } = build({ writer: sql("SELECT count(*) FROM orders"), reviewer });
    await graph.invoke(input("How many orders?"), config("parallel"));
    expect(spans).toHaveLength(3);
    const starts = spans.map((s) => s.start);
    const ends = spans.map((s) => s.end);
    expect(Math.max(...starts)).toBeLessThan(Math.min(...ends)); // all three were in flight at once (whatever the load)
  });

  it("goes on without a failing reviewer and says which failed", async () => {
    const { graph, models } = build({
      writer: ({ messages }) => (isReviews(messages) ? sql("SELECT name, city FROM customers") : sql("SELECT name FROM customers")),
      reviewer: ({ messages }) => {
        if (messages[0]!.content.includes("Senior database engineer")) throw new Error("connection reset by peer");
        return "Return the city too.";
      },
    }, { maxReviewTurns: 1 });
    const state: R3StateValue = await graph.invoke(input("Where do customers live?"), config("fail"));
    const round1 = state.reviews.filter((r) => r.round === 1);
    expect(round1).toHaveLength(3);
    expect(round1.find((r) => r.reviewer === 1)).toMatchObject({ ok: false, profession: "Senior database engineer", error: expect.stringMatching(/connection reset/) });
    expect(state.roundLog[0]).toMatchObject({ outcome: "revised", reviews: 2, failedReviewers: [1] });
    const revise = last(models.shownTo("writer")[1]!.messages);
    expect(revise).toContain("Return the city too.");
    expect(revise).toContain("1 reviewer could not answer");
    expect(state.sql).toBe("SELECT name, city FROM customers");
  });

  it("cuts a runaway review, so the writer's prompt stays near its budget", async () => {
    const { graph, models } = build({ writer: sql("SELECT name FROM customers"), reviewer: "y".repeat(200_000) }, { maxReviewTurns: 1 });
    const state: R3StateValue = await graph.invoke(input("Names?"), config("huge"));
    expect(state.reviews.every((r) => r.ok && r.text.length < 5000 && /review cut: \d+ more characters/.test(r.text))).toBe(true);
    const revise = models.shownTo("writer")[1]!.messages.map((m) => m.content).join("");
    expect(revise.length).toBeLessThan(4 * 12_000);
  });

  it("stops when every reviewer fails, keeping the SQL", async () => {
    const { graph, models } = build({
      writer: sql("SELECT name FROM customers"),
      reviewer: () => {
        throw new Error("down");
      },
    });
    const state: R3StateValue = await graph.invoke(input("Names?"), config("allfail"));
    expect(state.sql).toBe("SELECT name FROM customers");
    expect(state.stopReason).toBe("every reviewer failed in round 1");
    expect(models.shownTo("writer")).toHaveLength(1); // nothing to answer: no revise call
  });

  it("validates the personas: an empty profession is left out and the missing reviewers asked for", async () => {
    const { graph, models } = build({ writer: sql("SELECT 1"), persona: [JSON.stringify({ reviewers: [{ profession: " ", focus: "" }] }), PERSONAS] }, { maxReviewTurns: 1 });
    const state: R3StateValue = await graph.invoke(input("One?"), config("revalidate"));
    expect(models.shownTo("persona")).toHaveLength(2);
    expect(models.shownTo("persona")[1]!.messages.map((m) => m.content).join("\n")).toMatch(/cannot sit \(a profession of 0 characters\).*Propose 3 more reviewers/);
    expect(state.personas.map((p) => p.profession)).toEqual(["Retail data analyst", "Senior database engineer", "BI report auditor"]);
    expect([state.personasStandby, state.personasDropped]).toEqual([0, 1]);
  });

  it("keeps the distinct personas of a reply that repeats one profession, and asks only for the missing one", async () => {
    // A model that repeats a profession however often it is asked for the whole panel: today's panel was all standby.
    const repeats = JSON.stringify({ reviewers: [{ profession: "Data analyst", focus: "a" }, { profession: "Query tuner", focus: "b" }, { profession: "data analyst ", focus: "c" }] });
    const one = JSON.stringify({ reviewers: [{ profession: "Data analyst", focus: "again" }, { profession: "Retail domain expert", focus: "sales" }] });
    const persona: Responder = ({ messages }) => (messages.some((m) => m.content.includes("more reviewer")) ? one : repeats);
    const { graph, models } = build({ writer: sql("SELECT 1"), persona }, { reviewers: 3, maxReviewTurns: 1 });
    const state: R3StateValue = await graph.invoke(input("One?"), config("distinct"));
    expect(models.shownTo("persona")).toHaveLength(2);
    const followUp = models.shownTo("persona")[1]!.messages.map((m) => m.content).join("\n");
    expect(followUp).toMatch(/"data analyst" twice/);
    expect(followUp).toMatch(/These stay on the panel: Data analyst, Query tuner\. Propose 1 more reviewer,/);
    expect(state.personas.map((p) => p.profession)).toEqual(["Data analyst", "Query tuner", "Retail domain expert"]);
    // Recorded: two proposals left out (the repeat in each reply), no standby reviewer.
    expect([state.personasStandby, state.personasDropped]).toEqual([0, 2]);
    const outcome = r3Spec.outcome!.of(state as unknown as Record<string, unknown>);
    expect(outcome).toMatchObject({ personasGenerated: 3, personasStandby: 0, personasDropped: 2 });
    expect(r3Spec.outcome!.summarize!([outcome])).toContain("personas: generated 3, standby 0 (standby in 0 of 1 questions); 2 proposals left out (a profession repeated or of the wrong length)");
    expect(state.attempts.find((a) => a.node === "persona")!.note).toMatch(/2 proposals left out .*asked for 1 more, got 1/);
  });

  it("takes a replacement agent in a slot (here: a rule-based reviewer)", async () => {
    const ruleReviewer: NodeFactory = () => async (state) => {
      const s = state as unknown as R3StateValue;
      return { reviews: [{ round: s.rounds + 1, reviewer: s.reviewerIndex, profession: "linter", ok: true, text: `rule check #${s.reviewerIndex}` }] } as never;
    };
    const { graph, models } = build({ writer: sql("SELECT count(*) FROM orders") }, { slots: { review: ruleReviewer }, reviewers: 2 });
    const state: R3StateValue = await graph.invoke(input("How many orders?"), config("swap"));
    expect(models.shownTo("reviewer")).toHaveLength(0);
    expect(state.reviews.map((r) => r.text).sort()).toEqual(["rule check #0", "rule check #1"]);
    expect(last(models.shownTo("writer")[1]!.messages)).toContain("rule check #1");
  });

  it("convenes no panel when the writer never gives SQL", async () => {
    const { graph, models } = build({ writer: "I cannot answer that." }, { maxDebugTurns: 1 });
    const state: R3StateValue = await graph.invoke(input("How many orders?"), config("nosql"));
    expect(state.sql).toBe("");
    expect(state.stopReason).toBe("no SQL to review: the writer gave none");
    // The first SQL and one debug turn, each asked again twice (MAX_SQL_REASKS) when its reply holds no SQL.
    const writer = models.shownTo("writer");
    expect(writer).toHaveLength(6);
    expect(last(writer[1]!.messages)).toMatch(/^Your reply held no SQL query/);
    // Not an empty query and its "error"; after a reply without SQL, user and assistant still alternate.
    expect(last(writer[3]!.messages)).toMatch(/^There is no SQL query to run yet/);
    expect(writer[3]!.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "assistant", "user", "assistant", "user"]);
    expect(models.shownTo("persona")).toHaveLength(0);
    expect(state.attempts.filter((a) => a.note?.includes("reply holds no SQL (after 2 re-asks)"))).toHaveLength(2);
    expect(state.writerReasks).toBe(4);
    expect(state.stopKind).toBe("writer gave no SQL");
  });

  it("asks the writer again when a revision holds no SQL, instead of starting another review round", async () => {
    const { graph, models } = build(
      {
        writer: ({ messages }) =>
          last(messages).startsWith("Your reply held no SQL")
            ? sql("SELECT name FROM customers WHERE city = 'London'")
            : isReviews(messages)
              ? "Good point: I will return the names of London's customers."
              : sql("SELECT * FROM customers WHERE city = 'London'"),
        reviewer: "Return only the names.",
      },
      { maxReviewTurns: 1 },
    );
    const state: R3StateValue = await graph.invoke(input("Names of London's customers?"), config("reask"));
    expect(state.roundLog.map((r) => r.outcome)).toEqual(["revised"]);
    expect(state.sql).toBe("SELECT name FROM customers WHERE city = 'London'");
    expect(state.writerReasks).toBe(1);
    expect(models.shownTo("reviewer")).toHaveLength(3); // one round, not two
    expect(state.attempts.find((a) => a.node === "revise")?.note).toMatch(/asked again 1 time/);
  });

  it("stops the loop when a revision holds no SQL even when asked again", async () => {
    const { graph, models } = build(
      { writer: ({ messages }) => (isReviews(messages) || last(messages).startsWith("Your reply held no SQL") ? "I agree with the reviewers." : sql("SELECT * FROM customers")) },
      { maxReviewTurns: 3 },
    );
    const state: R3StateValue = await graph.invoke(input("Names of customers?"), config("reask-stop"));
    expect(state.roundLog.map((r) => r.outcome)).toEqual(["unusable"]);
    expect(state.stopKind).toBe("writer gave no SQL");
    expect(state.stopReason).toMatch(/the writer gave no SQL in round 1/);
    expect(state.sql).toBe("SELECT * FROM customers");
    expect(models.shownTo("reviewer")).toHaveLength(3);
    expect(models.shownTo("writer")).toHaveLength(1 + 1 + 2);
  });

  it("keeps user and assistant alternating when a writer call fails (strict chat templates refuse two user turns)", async () => {
    let calls = 0;
    const { graph, models } = build(
      {
        writer: () => {
          if (calls++ === 0) throw new Error("connection reset");
          return sql("SELECT count(*) FROM orders");
        },
      },
      { reviewers: 0 },
    );
    const state: R3StateValue = await graph.invoke(input("How many orders?"), config("alternate"));
    expect(state.sql).toBe("SELECT count(*) FROM orders");
    const retry = models.shownTo("writer")[1]!.messages;
    expect(retry.map((m) => m.role)).toEqual(["system", "user"]);
    expect(retry[1]!.content).toContain("How many orders?");
    expect(retry[1]!.content).toMatch(/There is no SQL query to run yet/);
  });

  it("fills the panel when the persona reply is short or unusable", async () => {
    const { graph } = build({ writer: sql("SELECT 1"), persona: "no JSON here" }, { reviewers: 2, maxReviewTurns: 1 });
    const state: R3StateValue = await graph.invoke(input("One?"), config("standby"));
    expect(state.personas).toHaveLength(2);
    expect(state.attempts.find((a) => a.node === "persona")!.note).toMatch(/no usable personas/);
  });
});

describe("ablation switches (Table 3)", () => {
  it("--reviewers 0: the writer and its debug loop only", async () => {
    const { graph, models } = build({ writer: ({ messages }) => (isError(messages) ? sql("SELECT count(*) FROM orders") : sql("SELECT count(*) FROM order")) }, { reviewers: 0 });
    const state: R3StateValue = await graph.invoke(input("How many orders?"), config("r0"));
    expect(state.sql).toBe("SELECT count(*) FROM orders");
    expect(state.rounds).toBe(0);
    expect(state.stopReason).toMatch(/^no reviewers/);
    expect(models.shownTo("persona")).toHaveLength(0);
    expect(models.shownTo("reviewer")).toHaveLength(0);
  });

  it("--reviewers 1 and 5: that many personas and reviews a round", async () => {
    for (const n of [1, 5]) {
      const { graph, models } = build({ writer: sql("SELECT count(*) FROM orders") }, { reviewers: n });
      const state: R3StateValue = await graph.invoke(input("How many orders?"), config(`r${n}`));
      expect(state.personas).toHaveLength(n);
      expect(models.shownTo("reviewer")).toHaveLength(n);
      expect(state.reviews).toHaveLength(n);
      expect(models.shownTo("persona")[0]!.messages[1]!.content).toContain(`Propose ${n} reviewer`);
    }
  });

  it("--result-rows caps the rows of the result table reviewers see", async () => {
    const { graph, models } = build({ writer: sql("SELECT name FROM customers ORDER BY id") }, { resultRows: 2, reviewers: 1, maxReviewTurns: 1 });
    await graph.invoke(input("Customer names?"), config("rows"));
    const shown = models.shownTo("reviewer")[0]!.messages[1]!.content.split("Its result:")[1]!;
    expect(shown).toContain("Ada");
    expect(shown).toContain("Linus");
    expect(shown).not.toContain("Grace");
    expect(shown).toContain("(2 of 3 rows shown)");
  });

  it("--reasoning pot asks for a program before the SQL; cot for reasoning", async () => {
    const pot = build({ writer: "```python\nrows = orders\nprint(len(rows))\n```\n" + sql("SELECT count(*) FROM orders") }, { reasoning: "pot", reviewers: 0 });
    const state: R3StateValue = await pot.graph.invoke(input("How many orders?"), config("pot"));
    expect(pot.models.shownTo("writer")[0]!.messages[0]!.content).toMatch(/Python program/);
    expect(state.sql).toBe("SELECT count(*) FROM orders"); // the program is not taken for SQL
    const cot = build({ writer: sql("SELECT count(*) FROM orders") }, { reasoning: "cot", reviewers: 0 });
    await cot.graph.invoke(input("How many orders?"), config("cot"));
    expect(cot.models.shownTo("writer")[0]!.messages[0]!.content).toMatch(/step by step/);
    expect(cot.models.shownTo("writer")[0]!.messages[0]!.content).not.toMatch(/Python/);
  });

  it("--k-shot K shows the K most similar training questions (never the question itself); 0 is zero-shot", async () => {
    const q = (id: string, question: string, goldSql: string): Question => ({ id, dbId: "shop", question, evidence: "", goldSql, dbPath, descriptionDir: "", difficulty: "simple" }) as Question;
    const examples = createExampleStore([
      q("t1", "How many customers live in Paris?", "SELECT count(*) FROM customers WHERE city = 'Paris'"),
      q("t2", "List the order totals", "SELECT total FROM orders"),
      q("t3", "How many customers are there?", "SELECT count(*) FROM customers"),
      q("self", "How many customers live in London?", "SELECT 'leak'"),
    ]);
    const models = scriptedProvider({ writer: sql("SELECT count(*) FROM customers WHERE city = 'London'") });
    const graph = r3Spec.build({ models, executor, examples }, { kShot: 2, reviewers: 0 });
    const state: R3StateValue = await graph.invoke(input("How many customers live in London?", { questionId: "self" }));
    const opening = models.shownTo("writer")[0]!.messages[1]!.content;
    expect(state.shots.map((s) => s.id)).toEqual(["t1", "t3"]);
    expect(state.shotsRanking).toBe("bm25");
    expect(opening).toContain("SELECT count(*) FROM customers WHERE city = 'Paris'");
    expect(opening).not.toContain("leak");

    // A dev question's id also names an unrelated training question (both splits count from 0): that one still shows.
    const sameId: R3StateValue = await r3Spec
      .build({ models: scriptedProvider({ writer: sql("SELECT 1") }), executor, examples }, { kShot: 2, reviewers: 0 })
      .invoke(input("How many customers live in London?", { questionId: "t1" }));
    expect(sameId.shots.map((s) => s.id)).toEqual(["t1", "t3"]);

    const zero = scriptedProvider({ writer: sql("SELECT 1") });
    await r3Spec.build({ models: zero, executor, examples }, { kShot: 0, reviewers: 0 }).invoke(input("How many customers live in London?"));
    expect(zero.shownTo("writer")[0]!.messages[1]!.content).not.toContain("Examples of questions");

    // Dense embeddings rank when given: a toy embedder for which London and totals are alike (BM25 would pick t1).
    const embedder = { model: "toy", embed: async (texts: string[]) => texts.map((t) => (/London|totals/.test(t) ? [1, 0] : [0, 1])) };
    const dense = scriptedProvider({ writer: sql("SELECT 1") });
    const denseState: R3StateValue = await r3Spec
      .build({ models: dense, executor, examples, embeddings: embedder }, { kShot: 1, reviewers: 0 })
      .invoke(input("How many customers live in London?", { questionId: "self" }));
    expect(denseState.shotsRanking).toBe("embeddings (toy)");
    expect(denseState.shots.map((s) => s.id)).toEqual(["t2"]);
    const failing = { model: "broken", embed: async () => Promise.reject(new Error("endpoint down")) };
    const fallback: R3StateValue = await r3Spec
      .build({ models: scriptedProvider({ writer: sql("SELECT 1") }), executor, examples, embeddings: failing }, { kShot: 1, reviewers: 0 })
      .invoke(input("How many customers live in London?", { questionId: "self" }));
    expect(fallback.shotsRanking).toMatch(/^bm25 \(embeddings failed: .*endpoint down/);
    expect(fallback.shots.map((s) => s.id)).toEqual(["t1"]);
  });
});

describe("history budget", () => {
  it("cuts the oldest turns first, keeps the newest; the question and schema are outside the cut", () => {
    const turn = (i: number): HistoryTurn => ({ role: i % 2 ? "user" : "assistant", kind: "sql", round: 0, content: `${i}`.repeat(400) });
    const turns = [0, 1, 2, 3, 4].map(turn);
    const { turns: kept, dropped } = fitHistory(["system", "opening ".repeat(100)], turns, 500);
    expect(dropped).toBe(3);
    expect(kept.map((t) => t.content[0])).toEqual(["3", "4"]);
    expect(fitHistory(["x".repeat(100_000)], turns, 500).turns).toEqual([turns[4]]);
  });

  it("in the graph: a long debug history is cut, the writer still sees the question and schema", async () => {
    const long = "x".repeat(4000);
    const { graph, models } = build({ writer: ({ messages }) => (isError(messages) ? `${long}\n${sql("SELECT nope2 FROM orders")}` : sql("SELECT nope1 FROM orders")) }, { reviewers: 0, maxDebugTurns: 3, historyTokens: 1500 });
    const state: R3StateValue = await graph.invoke(input("How many orders?"), config("budget"));
    const lastPrompt = models.shownTo("writer").at(-1)!.messages;
    expect(lastPrompt[1]!.content).toContain("How many orders?");
    expect(lastPrompt[1]!.content).toContain("CREATE TABLE");
    expect(lastPrompt.length).toBeLessThan(2 + state.history.length - 1);
    expect(state.attempts.some((a) => /history cut to the budget/.test(a.note ?? ""))).toBe(true);
  });
});

describe("r3-review (corrector)", () => {
  it("reviews the given SQL as the writer's own answer and revises it", async () => {
    const models = scriptedProvider({
      persona: PERSONAS,
      reviewer: "The question asks for London only.",
      writer: ({ messages }) => (isReviews(messages) ? sql("SELECT name FROM customers WHERE city = 'London'") : sql("SELECT 1")),
    });
    const graph = r3ReviewSpec.build({ models, executor }, { maxReviewTurns: 2, checkpointer: new MemorySaver() });
    const state: R3StateValue = await graph.invoke({ ...input("Which customers live in London?"), graph: "r3-review", sql: "SELECT name FROM customers" }, config("corr"));
    expect(state.sql).toBe("SELECT name FROM customers WHERE city = 'London'");
    expect(state.roundLog.map((r) => r.outcome)).toEqual(["revised", "kept"]);
    expect(state.stopReason).toMatch(/^consensus in round 2/);
    const first = models.shownTo("writer")[0]!.messages;
    expect(first.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(first[2]!.content).toContain("SELECT name FROM customers");
    expect(Object.keys(r3ReviewSpec.slots)).not.toContain("write");
  });
});

describe("docs/methods/r3.md: Table 3's commands", () => {
  it("one command per row, configuring what the row is (reviewers, reasoning, 5-shot, the debug loop)", () => {
    const page = fs.readFileSync(path.join(import.meta.dirname, "..", "docs", "methods", "r3.md"), "utf8");
    const block = page.split("Reproducing Table 3")[1]!.split("```sh")[1]!.split("```")[0]!;
    const rows = new Map<string, ReturnType<typeof readOptions<typeof R3_OPTIONS>>>();
    for (const line of block.split("\n").filter((l) => l.includes("sqlmend eval r3 "))) {
      const [command, row] = line.split("#").map((s) => s.trim());
      const tokens = command!.split(/\s+/);
      const values: Record<string, unknown> = {};
      tokens.forEach((t, i) => {
        if (t.startsWith("--") && !["--bench", "--out", "--model"].includes(t)) values[t.slice(2)] = tokens[i + 1];
      });
      expect(rows.has(row!), `row ${row} twice`).toBe(false);
      rows.set(row!, readOptions(R3_OPTIONS, graphOptionsOf(r3Manifest, values)));
    }
    expect([...rows.keys()]).toEqual(["CoT", "PoT", "1R-Lp + CoT", "1R-Lp + PoT", "R³: 3R-Lp + PoT"]);
    const want = {
      CoT: { reviewers: 0, reasoning: "cot", maxDebugTurns: 0 },
      PoT: { reviewers: 0, reasoning: "pot", maxDebugTurns: 0 },
      "1R-Lp + CoT": { reviewers: 1, reasoning: "cot", maxDebugTurns: 3, maxReviewTurns: 5 },
      "1R-Lp + PoT": { reviewers: 1, reasoning: "pot", maxDebugTurns: 3, maxReviewTurns: 5 },
      "R³: 3R-Lp + PoT": { reviewers: 3, reasoning: "pot", maxDebugTurns: 3, maxReviewTurns: 5 },
    };
    for (const [row, options] of rows) expect(options, row).toMatchObject({ kShot: 5, ...want[row as keyof typeof want] });
  });

  it("agrees with itself and the paper: Table 2's CoT row and the options table run the writer alone, shots by embeddings, departures declared", () => {
    const r3 = fs.readFileSync(path.join(import.meta.dirname, "..", "docs", "methods", "r3.md"), "utf8");
    // Table 2's CoT row: the same writer-alone set-up as Table 3's CoT row.
    const table2Cot = /\(and `([^`]*)` for its CoT row/.exec(r3)![1]!.split(/\s+/);
    const values: Record<string, unknown> = {};
    table2Cot.forEach((t, i) => t.startsWith("--") && (values[t.slice(2)] = table2Cot[i + 1]));
    expect(readOptions(R3_OPTIONS, graphOptionsOf(r3Manifest, values))).toMatchObject({ reviewers: 0, maxDebugTurns: 0, reasoning: "cot", kShot: 0 });
    // The options table says what the Table 3 commands do for --reviewers 0, and whose the loop defaults are.
    const row = (flag: string) => r3.split("\n").find((l) => l.startsWith(`| \`${flag}`))!;
    expect(row("--reviewers")).toMatch(/CoT \/ PoT rows also take `--max-debug-turns 0`/);
    const defaults = readOptions(R3_OPTIONS, {});
    expect(row("--max-review-turns")).toContain(`| \`${defaults.maxReviewTurns}\``);
    expect(row("--max-debug-turns")).toContain(`| \`${defaults.maxDebugTurns}\``);
    for (const flag of ["--max-review-turns", "--max-debug-turns"]) expect(row(flag)).toMatch(/sqlmend's choice: the paper gives no value/);
    // Table 3's shots are ranked by embeddings, as the paper's; BM25 without an embedding model is declared.
    const block = r3.split("Reproducing Table 3")[1]!.split("```sh")[1]!.split("```")[0]!;
    expect(block).toMatch(/^E="--embedding-model \S+"$/m);
    for (const line of block.split("\n").filter((l) => l.includes("sqlmend eval r3 "))) expect(line).toContain(" $E ");
    const departures = r3.split("**Departures from the paper**")[1]!.split("\n\n")[1]!;
    expect(departures).toMatch(/BM25/);
    expect(departures).toMatch(/5 review rounds and 3 debug turns, are sqlmend's/);
  });

  it("the CoT row's command makes exactly one writer call: no reviewers, no debug loop", async () => {
    const { graph, models } = build({ writer: sql("SELECT nope FROM customers") }, { reviewers: 0, maxDebugTurns: 0, reasoning: "cot" });
    const state: R3StateValue = await graph.invoke(input("Names?"), config("cot-row"));
    expect(models.shown.map((s) => s.role)).toEqual(["writer"]);
    expect(state.stopKind).toBe("no reviewers");
  });
});
