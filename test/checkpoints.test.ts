import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { deflateRawSync } from "node:zlib";
import Database from "better-sqlite3";
import { HumanMessage } from "@langchain/core/messages";
import { Annotation, END, Send, START, StateGraph } from "@langchain/langgraph";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../cli/shared/command.ts";
import { BLOB_TYPE, BlobSerializer } from "../storage/checkpoint-blobs.ts";
import { CHUNK_TYPE, ChunkSerializer, FRAME_CHAIN, PACKED_WRITES, SPLIT_MIN, createTables, splitPieces } from "../storage/checkpoint-chunks.ts";
import { openCheckpointer } from "../storage/checkpoints.ts";
import { main } from "../cli/main.ts";
import { inputOf } from "../runner/run/question-thread.ts";
import { baselineSpec } from "../graphs/baseline.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { scriptedProvider } from "./support/scripted-models.ts";

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
            + (SELECT coalesce(sum(length(value)), 0) FROM chunks)`,
    )
    .pluck()
    .get() as number;

// A schema-like text: many lines, as prompts embed it.
const SCHEMA = Array.from(
  { length: 60 },
  (_, i) => `CREATE TABLE t${i} (\n  id INTEGER PRIMARY KEY, -- row ${i}\n  name TEXT NOT NULL, -- examples: 'a${i}', 'b${i}'\n);\n`,
).join("\n");

describe("checkpoints in chunks", () => {
  it("writes a large field that stays unchanged across steps once, and reads every checkpoint back as it was", async () => {
    const store = openCheckpointer(path.join(dir, "one.sqlite"), {}, dir);
    try {
      const graph = buildGraph(store.saver as SqliteSaver);
      const config = { configurable: { thread_id: "t1" } };
      await graph.invoke({}, config);
      // Eight checkpoints hold the 50 000 characters; they are stored once (plus small references and steps).
      expect(storedBytes(store.db!)).toBeLessThan(BIG.length * 0.7);
      // (hex deflates to about half: one chunk that size, no second copy)
      expect(store.db!.prepare("SELECT count(*) FROM chunks WHERE length(value) >= ?").pluck().get(BIG.length * 0.4)).toBe(1);
      expect(store.db!.prepare("SELECT DISTINCT type FROM checkpoints").pluck().all()).toEqual([CHUNK_TYPE]);
      // Each checkpoint row only names its frame; frames chain within the thread.
      expect(store.db!.prepare("SELECT max(length(checkpoint)) FROM checkpoints").pluck().get()).toBeLessThan(8);
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

  it("round-trips every kind of value, and values that look like references stay values", async () => {
    const db = new Database(":memory:");
    try {
      const serde = new ChunkSerializer(db);
      const long = "y".repeat(2000);
      const lines = `${SCHEMA}\n😀 ünïcode line\n\n\n${"no newline at the end ".repeat(40)}`;
      const values: unknown[] = [
        { forged: { $r: 1 }, str: { $s: [1, "x"] }, esc: { $e: { $r: 2 } }, blob: { $blob: "0123456789abcdef0123456789abcdef" } },
        { $r: 1 },
        { $s: [1] },
        { $e: {} },
        [{ $r: 1 }, { $r: "x", other: 1 }],
        { nested: { deeper: { $e: { $s: [long, long] } } }, list: [long, long, { $e: 1 }] },
        '{"$r":1}',
        lines,
        `${lines}${lines}`,
        `${lines}\ud83d cut in half\n${lines}\ude00\n`, // lone surrogates (a reply cut mid-emoji)
        "",
        "$",
        0,
        -1.5,
        true,
        null,
        [],
        {},
        { message: new HumanMessage(long), set: new Set([long, "a"]), map: new Map([["k", long]]), nothing: null },
        { text: lines, again: [lines, { inner: lines }] },
        Array.from({ length: 50 }, (_, i) => ({ i, sql: `SELECT ${i} FROM t WHERE name = 'value number ${i}'` })),
      ];
      for (const value of values) {
        const [type, bytes] = await serde.dumpsTyped(value);
        expect(type).toBe(CHUNK_TYPE);
        expect(await serde.loadsTyped(type, bytes)).toEqual(value);
        // SqliteSaver reads pending writes as TEXT: the bytes must be that text.
        expect(await serde.loadsTyped(type, new TextDecoder().decode(bytes))).toEqual(value);
      }
      const [type, bytes] = await serde.dumpsTyped(values.find((v) => v !== null && typeof v === "object" && "message" in v));
      const back = (await serde.loadsTyped(type, bytes)) as { message: HumanMessage };
      expect(back.message).toBeInstanceOf(HumanMessage);
      // A forged reference never reaches a chunk: the object is escaped, so it reads back as itself.
      expect(new TextDecoder().decode((await serde.dumpsTyped({ $r: 1 }))[1])).toBe('{"$e":{"$r":1}}');
      // Small values (metadata) stay plain JSON, which SqliteSaver's metadata filters read with json_extract.
      const [, small] = await serde.dumpsTyped({ source: "loop", step: 3 });
      expect(JSON.parse(new TextDecoder().decode(small))).toEqual({ source: "loop", step: 3 });
    } finally {
      db.close();
    }
  });

  it("reads every value back as LangGraph's own serializer would, the state's objects encoded as they are (not via text)", async () => {
    const db = new Database(":memory:");
    try {
      const serde = new ChunkSerializer(db);
      const long = "z".repeat(300);
      const cycle: Record<string, unknown> = { name: long };
      cycle.self = cycle;
      let deep: unknown = { leaf: long };
      for (let i = 0; i < 400; i++) deep = { [`level${i % 3}`]: deep };
      const values: unknown[] = [
        { call: { role: "generator", method: undefined, reply: long }, attempts: [{ sql: long, note: undefined }], list: [1, undefined, 2] },
        // eslint-disable-next-line no-sparse-arrays
        [long, , long],
        undefined,
        { when: new Date(0), inside: { when: new Date(86_400_000), text: long } },
        { custom: { toJSON: () => ({ shown: long }) } },
        Object.assign(Object.create(null) as object, { bare: long }),
        { nan: Number.NaN, inf: Number.POSITIVE_INFINITY, zero: -0 },
        cycle,
        deep,
        { task: new Send("node", { question: long }), bytes: new Uint8Array([1, 2, 3]), map: new Map([["k", [long]]]) },
        { v: 4, id: "c1", ts: "t", channel_values: { call: { model: long, method: undefined }, when: new Date(0), message: new HumanMessage(long) }, channel_versions: { call: 2 }, versions_seen: {} },
      ];
      const langGraphs = new JsonPlusSerializer();
      for (const value of values) {
        const [type, bytes] = await serde.dumpsTyped(value);
        const expected = await langGraphs.loadsTyped(...(await langGraphs.dumpsTyped(value)));
        expect(await serde.loadsTyped(type, bytes)).toEqual(expected);
      }
    } finally {
      db.close();
    }
  });

  it("stores a schema text once, whether in the state or inside prompts that quote it", async () => {
    const db = new Database(":memory:");
    try {
      const serde = new ChunkSerializer(db);
      const chunkBytes = () => db.prepare("SELECT coalesce(sum(length(value)), 0) FROM chunks").pluck().get() as number;
      await serde.dumpsTyped({ schemaText: SCHEMA });
      const once = chunkBytes();
      for (let q = 0; q < 10; q++) {
        const prompt = `Database schema:\n${SCHEMA}\n\nQuestion: question number ${q}?\nEvidence: none\n`;
        await serde.dumpsTyped({ schemaText: SCHEMA, calls: [{ role: "generator", messages: [{ role: "user", content: prompt }], reply: `SELECT ${q}` }] });
      }
      // Another process (another serializer on the file) finds the large pieces already there.
      const before = db.prepare("SELECT count(*) FROM chunks").pluck().get() as number;
      await new ChunkSerializer(db).dumpsTyped({ schemaText: SCHEMA });
      expect(db.prepare("SELECT count(*) FROM chunks").pluck().get()).toBe(before);
      // Ten prompts add their own lines and at most a piece of schema each where their cuts differ, not ten schemas.
      expect(chunkBytes() - once).toBeLessThan(once * 2);
      expect(splitPieces(SCHEMA).join("")).toBe(SCHEMA);
      expect(SCHEMA.length).toBeGreaterThan(SPLIT_MIN);
      const inner = splitPieces(SCHEMA);
      const outer = splitPieces(`Database schema:\n${SCHEMA}\n\nQuestion: q?`);
      expect(outer.filter((p) => inner.includes(p)).length).toBeGreaterThanOrEqual(inner.length - 2);
    } finally {
      db.close();
    }
  });

  it("a checkpoint whose row cannot be written leaves none of its chunks behind, and the thread goes on from the last one", async () => {
    const file = path.join(dir, "atomic.sqlite");
    const store = openCheckpointer(file, {}, dir);
    try {
      const graph = buildGraph(store.saver as SqliteSaver);
      await graph.invoke({}, { configurable: { thread_id: "a" } });
      const chunks = () => store.db!.prepare("SELECT count(*) FROM chunks").pluck().get() as number;
      const before = chunks();
      // The next checkpoint's row is refused (a disk full, say): its chunks and frame must not stay as orphans.
      store.db!.exec("CREATE TEMP TRIGGER refuse BEFORE INSERT ON checkpoints BEGIN SELECT RAISE(ABORT, 'disk full'); END");
      await expect(graph.invoke({}, { configurable: { thread_id: "b" } })).rejects.toThrow(/disk full/);
      expect(chunks()).toBe(before);
      store.db!.exec("DROP TRIGGER refuse");
      // The frames that follow chain to one that was committed: every checkpoint of the thread reads back.
      const done = (await graph.invoke({}, { configurable: { thread_id: "b" } })) as typeof State.State;
      expect(done.step).toBe(7);
      for await (const tuple of store.saver.list({ configurable: { thread_id: "b" } })) expect(tuple.checkpoint.channel_values).toBeDefined();
      expect((await graph.getState({ configurable: { thread_id: "b" } })).values).toMatchObject({ big: BIG, step: 7 });
    } finally {
      store.close();
    }
  });

  it("reads rows written in the previous format (json+blobs), and continues their threads in the new one", async () => {
    const file = path.join(dir, "previous.sqlite");
    const old = new Database(file);
    old.pragma("journal_mode = WAL");
    try {
      await buildGraph(new SqliteSaver(old, new BlobSerializer(old))).invoke({}, { configurable: { thread_id: "prev" } });
      expect(old.prepare("SELECT DISTINCT type FROM checkpoints").pluck().all()).toEqual([BLOB_TYPE]);
      // A row as the previous version wrote it, by hand: a blob reference, a deflated checkpoint behind a 0 byte.
      const hash = "00112233445566778899aabbccddeeff";
      old.prepare("INSERT INTO blobs (hash, value) VALUES (?, ?)").run(hash, JSON.stringify(`old ${"z".repeat(300)}`));
      const checkpoint = JSON.stringify({
        v: 4,
        id: "1f000000-0000-6000-8000-000000000001",
        ts: "2026-01-01T00:00:00.000Z",
        channel_values: { big: { $blob: hash }, step: 9, log: [{ $esc: { $blob: "literal" } }] },
        channel_versions: { big: 1, step: 1, log: 1 },
        versions_seen: {},
      });
      const row = Buffer.concat([Buffer.from([0]), deflateRawSync(checkpoint)]);
      old
        .prepare("INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, type, checkpoint, metadata) VALUES (?, '', ?, ?, ?, ?)")
        .run("by-hand", "1f000000-0000-6000-8000-000000000001", BLOB_TYPE, row, Buffer.from('{"source":"loop","step":9,"parents":{}}'));
      old
        .prepare("INSERT INTO writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value) VALUES (?, '', ?, ?, 0, ?, ?, ?)")
        .run("by-hand", "1f000000-0000-6000-8000-000000000001", "task", PACKED_WRITES, BLOB_TYPE, Buffer.from(`[["big",{"$blob":"${hash}"}],["step",10]]`));
    } finally {
      old.close();
    }
    const store = openCheckpointer(file, {}, dir, { mustExist: true });
    try {
      const byHand = await store.saver.getTuple({ configurable: { thread_id: "by-hand", checkpoint_ns: "" } });
      expect(byHand!.checkpoint.channel_values).toEqual({ big: `old ${"z".repeat(300)}`, step: 9, log: [{ $blob: "literal" }] });
      expect(byHand!.metadata).toEqual({ source: "loop", step: 9, parents: {} });
      expect(byHand!.pendingWrites).toEqual([
        ["task", "big", `old ${"z".repeat(300)}`],
        ["task", "step", 10],
      ]);
      const graph = buildGraph(store.saver as SqliteSaver);
      const config = { configurable: { thread_id: "prev" } };
      expect((await graph.getState(config)).values).toMatchObject({ big: BIG, step: 7 });
      // The old thread goes on in the new format; its whole history reads back.
      const done = await graph.invoke({ log: ["again"] }, config);
      expect(done.step).toBe(7);
      expect(done.log).toHaveLength(13);
      const types = store.db!.prepare("SELECT type, count(*) AS n FROM checkpoints WHERE thread_id = 'prev' GROUP BY type").all() as { type: string }[];
      expect(types.map((t) => t.type).sort()).toEqual([BLOB_TYPE, CHUNK_TYPE].sort());
      const history = [];
      for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot);
      for (const snapshot of history.filter((s) => s.values.step >= 1)) expect(snapshot.values.big).toBe(BIG);
    } finally {
      store.close();
    }
  });

  it("resumes after the writing process is killed mid-run (SIGKILL), with every checkpoint it committed readable", async () => {
    const file = path.join(dir, "killed.sqlite");
    // The child runs two threads at once; at step 5 of thread 'b' a node never returns, and the parent kills it.
    // It invokes as the runner does (runner/run/question-thread.ts), with LangGraph's default durability, "async": the checkpoint that
    // ends a step is committed after the next step's nodes have started. So the stuck node says so only once the
    // checkpoint it started from (step 5) is committed; thread 'a' is not waited for and is killed wherever it is.
    const script = `import { openCheckpointer } from ${JSON.stringify(pathToFileURL(path.resolve("storage/checkpoints.ts")).href)};
      import { Annotation, END, Send, START, StateGraph } from "@langchain/langgraph";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
      const State = Annotation.Root({
        big: Annotation({ reducer: (_a, b) => b, default: () => "" }),
        step: Annotation({ reducer: (_a, b) => b, default: () => 0 }),
        log: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
      });
      const store = openCheckpointer(process.argv[1], {}, process.cwd());
      const graph = new StateGraph(State)
        .addNode("load", () => ({ big: process.argv[2], step: 1 }))
        .addNode("work", async (s, config) => {
          if (config.configurable.thread_id === "b" && s.step === 5) {
            const b = { configurable: { thread_id: "b", checkpoint_ns: "" } };
            while ((await store.saver.getTuple(b))?.checkpoint.channel_values.step !== 5) await new Promise((r) => setTimeout(r, 1));
            process.stdout.write("stuck\\n");
            await new Promise(() => {});
          }
          return { step: s.step + 1, log: ["step " + s.step + " " + process.argv[2].slice(0, 200)] };
        })
        .addEdge(START, "load")
        .addEdge("load", "work")
        .addConditionalEdges("work", (s) => (s.step < 9 ? "work" : END))
        .compile({ checkpointer: store.saver });
      await Promise.all([graph.invoke({}, { configurable: { thread_id: "a" } }), graph.invoke({}, { configurable: { thread_id: "b" } })]);`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, file, SCHEMA], { stdio: "pipe" });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d) => String(d).includes("stuck") && resolve());
      child.on("close", (code) => reject(new Error(`child exited ${code} before it was killed: ${err}`)));
    });
    child.kill("SIGKILL");
    await new Promise((resolve) => child.on("close", resolve));

    const store = openCheckpointer(file, {}, dir, { mustExist: true });
    try {
      const Big = Annotation.Root({
        big: Annotation<string>({ reducer: (_a, b) => b, default: () => "" }),
        step: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
        log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
      });
      const graph = new StateGraph(Big)
        .addNode("load", () => ({ big: SCHEMA, step: 1 }))
        .addNode("work", (s: typeof Big.State) => ({ step: s.step + 1, log: [`step ${s.step} ${SCHEMA.slice(0, 200)}`] }))
        .addEdge(START, "load")
        .addEdge("load", "work")
        .addConditionalEdges("work", (s: typeof Big.State) => (s.step < 9 ? "work" : END))
        .compile({ checkpointer: store.saver });
      const b = { configurable: { thread_id: "b" } };
      const stopped = await graph.getState(b);
      expect(stopped.values.step).toBe(5);
      expect(stopped.next).toEqual(["work"]);
      for (const thread of ["a", "b"]) {
        const config = { configurable: { thread_id: thread } };
        // Thread 'a' may have been killed too, a step or two on, perhaps between a task's writes and the next
        // checkpoint (then `next` is empty and the task pending): resume as the runner does.
        const state = await graph.getState(config);
        const done = state.next.length || state.tasks.length ? await graph.invoke(null, config) : state.values;
        expect(done.step).toBe(9);
        expect(done.big).toBe(SCHEMA);
        expect(done.log).toEqual(Array.from({ length: 8 }, (_, i) => `step ${i + 1} ${SCHEMA.slice(0, 200)}`));
      }
      for (const thread of ["a", "b"]) {
        for await (const snapshot of graph.getStateHistory({ configurable: { thread_id: thread } })) {
          expect(snapshot.values.log).toHaveLength(Math.max(0, (snapshot.values.step ?? 0) - 1));
          if (snapshot.values.step >= 1) expect(snapshot.values.big).toBe(SCHEMA);
        }
      }
    } finally {
      store.close();
    }
  }, 60_000);

  it("chains frames within a thread and reads any checkpoint of a long thread, also after the writer is gone", async () => {
    const file = path.join(dir, "long.sqlite");
    const Counter = Annotation.Root({
      schemaText: Annotation<string>({ reducer: (_a, b) => b, default: () => "" }),
      n: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
      notes: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    const build = (checkpointer: SqliteSaver) =>
      new StateGraph(Counter)
        .addNode("tick", (s: typeof Counter.State) => ({ schemaText: SCHEMA, n: s.n + 1, notes: [`note ${s.n}`] }))
        .addEdge(START, "tick")
        .addConditionalEdges("tick", (s: typeof Counter.State) => (s.n < FRAME_CHAIN * 2 + 3 ? "tick" : END))
        .compile({ checkpointer });
    const first = openCheckpointer(file, {}, dir);
    try {
      await build(first.saver as SqliteSaver).invoke({}, { configurable: { thread_id: "long" }, recursionLimit: 100 });
    } finally {
      first.close();
    }
    const second = openCheckpointer(file, {}, dir, { mustExist: true });
    try {
      const graph = build(second.saver as SqliteSaver);
      const history = [];
      for await (const snapshot of graph.getStateHistory({ configurable: { thread_id: "long" } })) history.push(snapshot);
      expect(history.length).toBeGreaterThan(FRAME_CHAIN * 2);
      for (const snapshot of history) {
        expect(snapshot.values.notes).toEqual(Array.from({ length: snapshot.values.n }, (_, i) => `note ${i}`));
        if (snapshot.values.n > 0) expect(snapshot.values.schemaText).toBe(SCHEMA);
      }
      // ~40 checkpoints of a state holding a 4 KB schema: far less than one plain copy each.
      expect(storedBytes(second.db!)).toBeLessThan(SCHEMA.length * 3);
    } finally {
      second.close();
    }
  });

  it("creates SqliteSaver's tables with its columns and keys, without a second copy of the keys", () => {
    const theirs = new Database(":memory:");
    const ours = new Database(":memory:");
    try {
      const setup = (saver: SqliteSaver) => (saver as unknown as { setup(): void }).setup();
      setup(new SqliteSaver(theirs));
      createTables(ours);
      setup(new SqliteSaver(ours)); // finds the tables and prepares its queries on them
      for (const table of ["checkpoints", "writes"]) {
        expect(ours.pragma(`table_info(${table})`)).toEqual(theirs.pragma(`table_info(${table})`));
      }
      expect(ours.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'index'").pluck().get()).toBe(0);
    } finally {
      theirs.close();
      ours.close();
    }
  });

  it("says in one line that a checkpoint file is damaged, never with a stack trace", async () => {
    const file = path.join(dir, "damaged.sqlite");
    const store = openCheckpointer(file, {}, dir);
    try {
      await buildGraph(store.saver as SqliteSaver).invoke({}, { configurable: { thread_id: "t" } });
    } finally {
      store.close();
    }
    const db = new Database(file);
    try {
      // The large field's chunk goes missing; a frame is overwritten with garbage.
      db.prepare("DELETE FROM chunks WHERE length(value) > 20000").run();
      const frame = db.prepare("SELECT max(id) FROM chunks WHERE hash = 0").pluck().get() as number;
      db.prepare("UPDATE chunks SET value = ? WHERE id = ?").run(Buffer.from([0, 1, 2, 3, 4, 5]), frame);
    } finally {
      db.close();
    }
    const reopened = openCheckpointer(file, {}, dir, { mustExist: true });
    try {
      const error = await reopened.saver.getTuple({ configurable: { thread_id: "t", checkpoint_ns: "" } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UserError);
      expect((error as Error).message).toMatch(/^checkpoint data is damaged: /);
      const history: unknown[] = [];
      const listed = await (async () => {
        for await (const tuple of reopened.saver.list({ configurable: { thread_id: "t" } })) history.push(tuple);
      })().catch((e: unknown) => e);
      expect((listed as Error).message).toMatch(/checkpoint data is damaged: (chunk \d+ is missing|frame \d+ does not inflate)/);
    } finally {
      reopened.close();
    }
    // Rows and chunks damaged by hand: a cycle, a reference out of range, text that is not JSON, an old row's lost blob.
    const mem = new Database(":memory:");
    try {
      const serde = new ChunkSerializer(mem);
      mem.prepare("INSERT INTO chunks (id, hash, value) VALUES (5, 7, '{\"$r\":5}')").run();
      const bad: [string, string][] = [
        [CHUNK_TYPE, '{"a":{"$r":5}}'],
        [CHUNK_TYPE, '{"a":{"$r":-1}}'],
        [CHUNK_TYPE, '{"a":{"$s":[null]}}'],
        [CHUNK_TYPE, '{"a":{"$r":"x"}}'],
        [CHUNK_TYPE, "{not json"],
        [BLOB_TYPE, '{"a":{"$blob":"ffffffffffffffffffffffffffffffff"}}'],
      ];
      for (const [type, text] of bad) {
        const error = await serde.loadsTyped(type, text).catch((e: unknown) => e);
        expect(error, text).toBeInstanceOf(UserError);
        expect((error as Error).message, text).toMatch(/^checkpoint data is damaged: [^\n]+$/);
      }
      const frameRow = Uint8Array.from([1, 0x85, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]);
      expect(((await serde.loadsTyped(CHUNK_TYPE, frameRow).catch((e: unknown) => e)) as Error).message).toMatch(/damaged/);
    } finally {
      mem.close();
    }

    // Through the launcher: one line on stderr, exit status 1.
    const out: string[] = [];
    const err: string[] = [];
    const io = { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t), env: {}, cwd: dir, isTTY: false };
    expect(await main(["inspect", "t", "--checkpoints", file, "--graph", "baseline"], io)).toBe(1);
    expect(err.join("")).toMatch(/^sqlmend inspect: checkpoint data is damaged: [^\n]*\n$/);
  });

  it("keeps a scripted baseline run on minibench within twice the text of its prompts and replies", async () => {
    const benchDir = path.join(dir, "mb");
    await buildMinibench(benchDir);
    const dev = (await loadBenchmark(benchDir, { split: "dev" })).questions.slice(0, 12);
    const gold = new Map(dev.map((q) => [q.question, q.goldSql!]));
    let text = 0;
    const models = scriptedProvider({
      generator: ({ messages }) => {
        const reply = `\`\`\`sql\n${gold.get(/Question: (.*)/.exec(messages.at(-1)!.content)?.[1] ?? "") ?? "SELECT 1"}\n\`\`\``;
        text += messages.reduce((n, m) => n + m.content.length, 0) + reply.length;
        return reply;
      },
    });
    const executor = createExecutor();
    const file = path.join(dir, "size.sqlite");
    const store = openCheckpointer(file, {}, dir);
    try {
      const graph = baselineSpec.build({ models, executor }, { checkpointer: store.saver });
      for (const [i, q] of dev.entries()) await graph.invoke(inputOf(q, "baseline"), { configurable: { thread_id: `eval:size:${i}` } });
      store.db!.pragma("wal_checkpoint(TRUNCATE)");
      const bytes = fs.statSync(file).size;
      expect(text).toBeGreaterThan(20_000);
      expect(bytes / text).toBeLessThanOrEqual(2);
      // and every question reads back
      const final = await graph.getState({ configurable: { thread_id: "eval:size:3" } });
      expect((final.values as { schemaText: string }).schemaText).toContain("CREATE TABLE");
    } finally {
      store.close();
      await executor.close();
    }
  }, 60_000);

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
