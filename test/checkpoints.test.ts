import { randomBytes } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import { HumanMessage } from "@langchain/core/messages";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../cli/command.ts";
import { BLOB_TYPE, BlobSerializer, PACKED_WRITES } from "../cli/checkpoint-blobs.ts";
import { openCheckpointer } from "../cli/checkpoints.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";

let dir: string;
beforeAll(() => {
  dir = makeTempDir("sqlmend-checkpoints-");
});
afterAll(() => removeTempDir(dir));

// A graph of any shape: a large field set once, then six steps that change only a counter and a growing list.
const State = Annotation.Root({
  big: Annotation<string>({ reducer: (_a, b) => b, default: () => "" }),
  step: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
});
const BIG = randomBytes(25_000).toString("hex"); // 50 000 characters that deflate cannot shrink

function buildGraph(checkpointer: SqliteSaver) {
  return new StateGraph(State)
    .addNode("load", () => ({ big: BIG, step: 1 }))
    .addNode("work", (s: typeof State.State) => ({ step: s.step + 1, log: [`step ${s.step} ${"x".repeat(300)}`] }))
    .addEdge(START, "load")
    .addEdge("load", "work")
    .addConditionalEdges("work", (s: typeof State.State) => (s.step < 7 ? "work" : END))
    .compile({ checkpointer });
}

const storedBytes = (db: Database.Database) =>
  db
    .prepare(
      `SELECT (SELECT coalesce(sum(length(checkpoint) + length(metadata)), 0) FROM checkpoints)
            + (SELECT coalesce(sum(length(value)), 0) FROM writes)
            + (SELECT coalesce(sum(length(value)), 0) FROM blobs)`,
    )
    .pluck()
    .get() as number;

describe("checkpoints with content-addressed blobs", () => {
  it("writes a large field that stays unchanged across steps once, and reads every checkpoint back as it was", async () => {
    const store = openCheckpointer(path.join(dir, "one.sqlite"), {}, dir);
    try {
      const graph = buildGraph(store.saver as SqliteSaver);
      const config = { configurable: { thread_id: "t1" } };
      await graph.invoke({}, config);
      // Eight checkpoints hold the 50 000 characters; they are stored once (plus small references and steps).
      expect(storedBytes(store.db!)).toBeLessThan(BIG.length * 1.2);
      // (hex deflates to about half: one blob that size, no second copy)
      expect(store.db!.prepare("SELECT count(*) FROM blobs WHERE length(value) >= ?").pluck().get(BIG.length * 0.4)).toBe(1);
      expect(store.db!.prepare("SELECT DISTINCT type FROM checkpoints").pluck().all()).toEqual([BLOB_TYPE]);
      // A task's writes share one row (load writes big and step; each work step writes step and log).
      const rows = store.db!.prepare("SELECT task_id, count(*) AS n FROM writes WHERE thread_id = 't1' GROUP BY task_id").all() as { n: number }[];
      expect(rows.every((r) => r.n === 1)).toBe(true);
      expect(store.db!.prepare("SELECT count(*) FROM writes WHERE channel = ?").pluck().get(PACKED_WRITES)).toBe(7);

      const final = await graph.getState(config);
      expect(final.values.big).toBe(BIG);
      expect(final.values.step).toBe(7);
      expect(final.values.log).toHaveLength(6);
      const history = [];
      for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot);
      expect(history.length).toBeGreaterThanOrEqual(8);
      for (const snapshot of history.filter((s) => s.values.step >= 1)) expect(snapshot.values.big).toBe(BIG);
      // The tasks' results (what `inspect` shows per step) come back from the pending writes.
      expect(history.some((s) => s.tasks.some((t) => (t.result as { big?: string } | undefined)?.big === BIG))).toBe(true);
      const lastWork = history.find((s) => s.tasks.some((t) => t.name === "work" && (t.result as { step?: number } | undefined)?.step === 7));
      expect(lastWork?.tasks[0]?.result).toEqual({ step: 7, log: [`step 6 ${"x".repeat(300)}`] });
    } finally {
      store.close();
    }

    // The same thread without blobs, for scale: every checkpoint repeats the field.
    const plainDb = new Database(path.join(dir, "plain.sqlite"));
    try {
      await buildGraph(new SqliteSaver(plainDb)).invoke({}, { configurable: { thread_id: "t1" } });
      const plain = plainDb.prepare("SELECT sum(length(checkpoint)) + (SELECT sum(length(value)) FROM writes) FROM checkpoints").pluck().get() as number;
      expect(plain).toBeGreaterThan(BIG.length * 7);
    } finally {
      plainDb.close();
    }
  });

  it("resumes a thread from its checkpoint after the process that wrote it is gone", async () => {
    const file = path.join(dir, "resume.sqlite");
    const first = openCheckpointer(file, {}, dir);
    const config = { configurable: { thread_id: "t2" } };
    try {
      const interrupted = new StateGraph(State)
        .addNode("load", () => ({ big: BIG, step: 1 }))
        .addNode("work", (s: typeof State.State) => ({ step: s.step + 1, log: [`step ${s.step}`] }))
        .addEdge(START, "load")
        .addEdge("load", "work")
        .addConditionalEdges("work", (s: typeof State.State) => (s.step < 7 ? "work" : END))
        .compile({ checkpointer: first.saver, interruptBefore: ["work"] });
      await interrupted.invoke({}, config);
    } finally {
      first.close();
    }
    const second = openCheckpointer(file, {}, dir, { mustExist: true });
    try {
      const graph = buildGraph(second.saver as SqliteSaver);
      expect((await graph.getState(config)).next).toEqual(["work"]);
      const done = await graph.invoke(null, config);
      expect(done.big).toBe(BIG);
      expect(done.step).toBe(7);
    } finally {
      second.close();
    }
  });

  it("round-trips values that look like references, LangChain messages, Sets and Maps", async () => {
    const db = new Database(":memory:");
    try {
      const serde = new BlobSerializer(db);
      const long = "y".repeat(2000);
      const value = {
        forged: { $blob: "0123456789abcdef0123456789abcdef" },
        escaped: { $esc: { $blob: long } },
        list: [long, long, { $esc: 1 }],
        message: new HumanMessage(long),
        set: new Set([long, "a"]),
        map: new Map([["k", long]]),
        nothing: null,
      };
      const [type, bytes] = await serde.dumpsTyped(value);
      expect(type).toBe(BLOB_TYPE);
      expect(bytes.length).toBeLessThan(1000);
      const back = (await serde.loadsTyped(type, bytes)) as typeof value;
      expect(back.forged).toEqual(value.forged);
      expect(back.escaped).toEqual(value.escaped);
      expect(back.list).toEqual(value.list);
      expect(back.message).toBeInstanceOf(HumanMessage);
      expect(back.message.content).toBe(long);
      expect(back.set).toEqual(value.set);
      expect(back.map).toEqual(value.map);
      expect(back.nothing).toBeNull();
      // Small values (metadata) stay plain JSON, which SqliteSaver's metadata filters read with json_extract.
      const [, small] = await serde.dumpsTyped({ source: "loop", step: 3 });
      expect(JSON.parse(new TextDecoder().decode(small))).toEqual({ source: "loop", step: 3 });
    } finally {
      db.close();
    }
  });

  it("reads files written before blobs existed", async () => {
    const file = path.join(dir, "old.sqlite");
    const old = new Database(file);
    await buildGraph(new SqliteSaver(old)).invoke({}, { configurable: { thread_id: "old" } });
    old.close();
    const store = openCheckpointer(file, {}, dir, { mustExist: true });
    try {
      const tuple = await store.saver.getTuple({ configurable: { thread_id: "old", checkpoint_ns: "" } });
      expect((tuple!.checkpoint.channel_values as { big: string }).big).toBe(BIG);
    } finally {
      store.close();
    }
  });

  it("still refuses another SQLite database, and a file that is not one", async () => {
    const foreign = makeDb(dir, "app.sqlite", "CREATE TABLE users (id INTEGER); INSERT INTO users VALUES (1);");
    expect(() => openCheckpointer(foreign, {}, dir)).toThrow(UserError);
    expect(() => openCheckpointer(foreign, {}, dir)).toThrow(/another database \(it has table 'users'\)/);
    const db = new Database(foreign, { readonly: true });
    expect(db.prepare("SELECT name FROM sqlite_master").pluck().all()).toEqual(["users"]); // nothing added
    db.close();
    const garbage = path.join(dir, "garbage.sqlite");
    (await import("node:fs")).writeFileSync(garbage, "not a database at all, just text ".repeat(100));
    expect(() => openCheckpointer(garbage, {}, dir)).toThrow(/cannot open checkpoint file/);
  });
});
