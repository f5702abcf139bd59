import path from "node:path";
import { describe, expect, it } from "vitest";
import { MemorySaver } from "@langchain/langgraph";
import { baselineSpec } from "../graphs/baseline.ts";
import { repairSpec } from "../graphs/repair.ts";
import type { NodeFactory } from "../nodes/types.ts";
import { openCheckpointer } from "../storage/checkpoints.ts";
import { runThread } from "../runner/run/question-thread.ts";
import { sha256File, testDatabase } from "./support/fixtures.ts";
import { scriptedProvider } from "./support/scripted-models.ts";

const SHOP = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL);
INSERT INTO customers VALUES (1, 'Ada', 'London'), (2, 'Linus', 'Helsinki'), (3, 'Grace', NULL);
INSERT INTO orders VALUES (1, 1, 10.5), (2, 1, 20.0), (3, 2, 7.25);
`;

const sqlReply = (sql: string) => `Here you go.\n\`\`\`sql\n${sql}\n\`\`\``;

const { dir, dbPath, executor } = testDatabase(SHOP);

const input = (question: string, extra: Record<string, unknown> = {}) => ({ question, dbPath, dbId: "shop", ...extra });
const config = (thread: string) => ({ configurable: { thread_id: thread } });

describe("baseline graph", () => {
  it("generates, executes, and fixes an execution error; each role sees what it needs", async () => {
    const models = scriptedProvider({
      generator: sqlReply("SELECT nme FROM customers WHERE city = 'London'"),
      fixer: sqlReply("SELECT name FROM customers WHERE city = 'London'"),
    });
    const graph = baselineSpec.build({ models, executor }, { checkpointer: new MemorySaver() });
    const state = await graph.invoke(input("Which customers live in London?", { evidence: "city is the home city" }), config("t1"));

    expect(state.sql).toBe("SELECT name FROM customers WHERE city = 'London'");
    expect(state.execution).toMatchObject({ ok: true, preview: { columns: ["name"], rows: [["Ada"]], rowCount: 1 } });
    expect(state.fixRounds).toBe(1);
    expect(state.attempts.map((a: { node: string; ok: boolean }) => `${a.node}:${a.ok}`)).toEqual(["generate:true", "execute:false", "fix:true", "execute:true"]);

    const generatorSaw = models.shownTo("generator")[0]!.messages.map((m) => m.content).join("\n");
    expect(generatorSaw).toContain("CREATE TABLE");
    expect(generatorSaw).toContain("customers");
    expect(generatorSaw).toContain("Evidence: city is the home city");
    const fixerSaw = models.shownTo("fixer")[0]!.messages.map((m) => m.content).join("\n");
    expect(fixerSaw).toContain("SELECT nme FROM customers");
    expect(fixerSaw).toMatch(/no such column: nme/);

    expect(state.usage.calls).toBe(2);
    expect(state.usage.byRole.generator?.calls).toBe(1);
    expect(state.usage.byRole.fixer?.calls).toBe(1);
    expect(state.usage.inputTokens).toBeGreaterThan(0);
  });

  it("stops fixing after maxFixRounds and never throws on unusable replies", async () => {
    const models = scriptedProvider({ generator: "I am not sure what you mean.", fixer: "Sorry, no idea." });
    const graph = baselineSpec.build({ models, executor }, { maxFixRounds: 2 });
    const state = await graph.invoke(input("How many orders?"));
    expect(state.sql).toBe("");
    expect(state.fixRounds).toBe(2);
    expect(state.execution?.ok).toBe(false);
    const notes = state.attempts.filter((a: { note?: string }) => a.note?.includes("kept the previous SQL"));
    expect(notes.length).toBe(3); // the generation and both fix rounds said why
    expect(models.shownTo("fixer")).toHaveLength(2);
  });

  it("leaves SQL that executes alone: no fixer call", async () => {
    const models = scriptedProvider({ generator: sqlReply("SELECT count(*) FROM orders") });
    const state = await baselineSpec.build({ models, executor }).invoke(input("How many orders?"));
    expect(state.execution?.preview?.rows).toEqual([[3]]);
    expect(models.shownTo("fixer")).toHaveLength(0);
  });

  it("refuses hostile SQL from the model and leaves the database file unchanged", async () => {
    const before = sha256File(dbPath);
    const models = scriptedProvider({ generator: sqlReply("DROP TABLE orders"), fixer: sqlReply("DELETE FROM orders") });
    const state = await baselineSpec.build({ models, executor }, { maxFixRounds: 1 }).invoke(input("Remove the orders"));
    expect(state.execution).toMatchObject({ ok: false, errorKind: "rejected" });
    expect(sha256File(dbPath)).toBe(before);
  });

  it("takes a user's node in a slot (swap a node for a new strategy)", async () => {
    const fixedGenerator: NodeFactory = () => async () => ({ sql: "SELECT name FROM customers ORDER BY id", attempts: [{ node: "my-generate", sql: "x", ok: true }] });
    const models = scriptedProvider({});
    const state = await baselineSpec.build({ models, executor }, { slots: { generate: fixedGenerator } }).invoke(input("Names?"));
    expect(state.execution?.preview?.rows).toEqual([["Ada"], ["Linus"], ["Grace"]]);
    expect(models.shown).toHaveLength(0);
    // A misspelt slot does not compile, and a script that gets past the types is stopped when the graph is built.
    // @ts-expect-error 'generte' is no slot of baseline
    expect(() => baselineSpec.build({ models, executor }, { slots: { generte: fixedGenerator } })).toThrow("graph 'baseline' has no slot 'generte' (slots: link, schema, generate, execute, fix)");
  });
});

describe("repair graph (a corrector)", () => {
  it("fixes the SQL it is given", async () => {
    const models = scriptedProvider({ fixer: sqlReply("SELECT total FROM orders WHERE id = 2") });
    const state = await repairSpec.build({ models, executor }).invoke(input("Total of order 2?", { sql: "SELECT totl FROM orders WHERE id = 2" }));
    expect(state.execution?.preview?.rows).toEqual([[20]]);
    expect(models.shownTo("fixer")[0]!.messages.at(-1)!.content).toContain("SELECT totl FROM orders");
  });
});

describe("checkpoints", () => {
  it("keeps every step in a SQLite file, resumes unfinished threads, and keeps only the latest calls in state", async () => {
    const store = openCheckpointer(path.join(dir, "ckpt.sqlite"), {}, dir);
    try {
      const models = scriptedProvider({ generator: sqlReply("SELECT nme FROM customers"), fixer: sqlReply("SELECT name FROM customers") });
      const graph = baselineSpec.build({ models, executor }, { checkpointer: store.saver });
      const state = await runThread(graph, input("Names?"), "ck1");
      expect(state.sql).toBe("SELECT name FROM customers");
      expect(state.calls).toHaveLength(1); // the fixer's, the latest; the generator's stays in history
      expect(state.calls[0]!.role).toBe("fixer");
      const history = [];
      for await (const s of graph.getStateHistory(config("ck1"))) history.push(s);
      const ran = history.flatMap((s: { tasks: { name: string }[] }) => s.tasks.map((t) => t.name));
      expect(ran).toEqual(expect.arrayContaining(["schema", "generate", "execute", "fix"]));
      // A finished thread is returned as it is: no second model call.
      const again = await runThread(graph, input("Names?"), "ck1");
      expect(again.sql).toBe(state.sql);
      expect(models.shown).toHaveLength(2);
      // A different question on the same thread is refused rather than mixed in.
      await expect(runThread(graph, input("Other?"), "ck1")).rejects.toThrow(/another question/);
    } finally {
      store.close();
    }
  });

  it("finishes a thread whose process died between a node's writes and the next checkpoint", async () => {
    // The checkpointer fails once, as a kill would, right after a node's writes were saved.
    class DiesOnce extends MemorySaver {
      dieAtStep: number | undefined;
      constructor(step: number) {
        super();
        this.dieAtStep = step;
      }
      override async put(...args: Parameters<MemorySaver["put"]>) {
        if (args[2].step === this.dieAtStep) {
          this.dieAtStep = undefined;
          throw new Error("killed");
        }
        return super.put(...args);
      }
    }
    for (const step of [0, 1, 2]) {
      const models = scriptedProvider({ generator: sqlReply("SELECT count(*) FROM orders") });
      const graph = baselineSpec.build({ models, executor }, { checkpointer: new DiesOnce(step) });
      await expect(runThread(graph, input("How many orders?"), `die-${step}`)).rejects.toThrow(/killed/);
      const state = await runThread(graph, input("How many orders?"), `die-${step}`);
      expect(state.sql).toBe("SELECT count(*) FROM orders");
      expect(state.execution?.ok).toBe(true);
    }
  });

  it("refuses to put checkpoints inside another SQLite database", () => {
    expect(() => openCheckpointer(dbPath, {}, dir)).toThrow(/another database/);
  });
});

describe("few-shot examples", () => {
  it("keep the question itself out by database and wording, not by id (dev and train ids both count from 0)", async () => {
    const { createExampleStore } = await import("../tools/retrieval/examples.ts");
    const train = [
      { id: "0", dbId: "shop", dbPath, question: "How many customers are there?", evidence: "", goldSql: "SELECT count(*) FROM customers" },
      { id: "1", dbId: "shop", dbPath, question: "List the cities of customers", evidence: "", goldSql: "SELECT city FROM customers" },
    ];
    const models = scriptedProvider({ generator: sqlReply("SELECT city FROM customers") });
    const graph = baselineSpec.build({ models, executor, examples: createExampleStore(train) }, { fewShot: 1, checkpointer: new MemorySaver() });
    // Dev question 0 is the same question as train question 1.
    await graph.invoke(input("List the cities of customers", { questionId: "0" }), config("few-shot-self"));
    const prompt = models.shownTo("generator")[0]!.messages.map((m) => m.content).join("\n");
    expect(prompt).toContain("How many customers are there?");
    expect(prompt).not.toContain("SELECT city FROM customers");
  });
});
