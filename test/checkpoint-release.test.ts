/**
 * Memory flat with the work (issue 42): the chunked checkpointer keeps, per thread, the latest frame (the next one's
 * compression dictionary) and the chunk and split memo entries that thread taught it. When a question's thread ends,
 * `runThread` releases them; what another running thread still uses stays, and the finished thread's checkpoints
 * still read.
 */
import path from "node:path";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LightSqliteSaver } from "../storage/checkpoint-chunks.ts";
import { openCheckpointer, type OpenedCheckpointer } from "../storage/checkpoints.ts";
import { runThread, type RunnableGraph } from "../runner/run/question-thread.ts";
import type { SqlInput } from "../state/sql-state.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";

let dir: string;
let store: OpenedCheckpointer;
beforeAll(() => {
  dir = makeTempDir("sqlmend-release-");
  store = openCheckpointer(path.join(dir, "checkpoints.sqlite"), {}, dir);
});
afterAll(() => {
  store?.close();
  removeTempDir(dir);
});

/** A schema text shared by every question (split into memo pieces) and a long reply of each question's own. */
const SCHEMA = Array.from({ length: 60 }, (_, i) => `CREATE TABLE t${i} (id INTEGER PRIMARY KEY, name TEXT, city TEXT, total REAL);`).join("\n");
const State = Annotation.Root({
  question: Annotation<string>(),
  dbPath: Annotation<string>(),
  schemaText: Annotation<string>(),
  reply: Annotation<string>(),
  steps: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
});

function graphOf(saver: LightSqliteSaver): RunnableGraph {
  const step = (state: typeof State.State) => ({
    schemaText: SCHEMA,
    // A reply of its own, long enough to be split and memoised; a slice of a bigger text, as SQL cut from a reply is.
    reply: `${state.question} ${"because every row must be checked against its city. ".repeat(40)}`.concat("x".repeat(2000)).slice(0, 2500),
    steps: 1,
  });
  return new StateGraph(State).addNode("a", step).addNode("b", step).addNode("c", step).addEdge(START, "a").addEdge("a", "b").addEdge("b", "c").addEdge("c", END).compile({ checkpointer: saver }) as unknown as RunnableGraph;
}

const input = (question: string) => ({ question, dbPath: "db.sqlite" }) as unknown as SqlInput;

describe("a finished thread's cache entries", () => {
  it("are released when its question ends; another thread's stay; its checkpoints still read", async () => {
    const saver = store.saver as LightSqliteSaver;
    const graph = graphOf(saver);
    expect(saver.cacheSizes()).toMatchObject({ latest: 0, known: 0, splits: 0 });

    // Thread B runs by hand (not through runThread): it stays open, as a question still in flight would.
    await (graph as unknown as { invoke(i: unknown, c: unknown): Promise<unknown> }).invoke(input("Question B?"), { configurable: { thread_id: "eval:run:b" } });
    const withB = saver.cacheSizes();
    expect(withB.latest).toBe(1);
    expect(withB.known + withB.splits).toBeGreaterThan(2);

    const finished = await runThread(graph, input("Question A?"), "eval:run:a");
    expect(finished).toMatchObject({ steps: 3 });
    // A's frame dictionary and the entries only A used are gone; B's (the shared schema's included) are kept.
    expect(saver.cacheSizes()).toEqual({ ...withB });

    // B's end releases the rest.
    saver.releaseThread("eval:run:b");
    expect(saver.cacheSizes()).toEqual({ latest: 0, known: 0, splits: 0, threads: 0 });

    // Nothing lost: the released threads read back, and A resumed is finished as it was.
    const again = await runThread(graph, input("Question A?"), "eval:run:a");
    expect(again).toMatchObject({ steps: 3, reply: expect.stringContaining("Question A?") });
    const b = await saver.getTuple({ configurable: { thread_id: "eval:run:b", checkpoint_ns: "" } });
    expect((b!.checkpoint.channel_values as { schemaText: string }).schemaText).toBe(SCHEMA);
  });
});
