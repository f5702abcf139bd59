/**
 * Memory flat with the work (issue 42): readSchema caches each database's schema for the whole run. A promise made
 * inside a graph run carries that run's context (LangChain's config, LangGraph's loop: the whole question) for as long
 * as it lives, so the cache must keep the schema itself once read, not the promise of the question that read it first:
 * otherwise every database of a run pins one finished question.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { readSchema } from "../tools/schema.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const executor = createExecutor({ size: 1 });
let dir: string;
let db: string;
beforeAll(() => {
  dir = makeTempDir("sqlmend-schema-cache-");
  db = makeDb(dir, "shop/shop.sqlite", "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO item VALUES (1, 'pen');");
});
afterAll(async () => {
  await executor.close();
  removeTempDir(dir);
});

/** Collects until a registered object is finalized (a WeakRef would keep it alive through the test's job), or gives up. */
async function collected(finalized: () => boolean): Promise<boolean> {
  for (let i = 0; i < 20 && !finalized(); i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return finalized();
}

describe("readSchema's cache", () => {
  it("keeps no finished question's context alive: the schema is cached, not the promise of the run that read it", async () => {
    // The worker started outside the question: its pipes, made in a context, would keep that one (once per worker).
    expect((await executor.run(db, "SELECT 1")).ok).toBe(true);
    const context = new AsyncLocalStorage<{ question: string; state: number[] }>();
    let store: { question: string; state: number[] } | undefined = { question: "q1", state: Array.from({ length: 1000 }, (_, i) => i) };
    const schema = await context.run(store, () => readSchema(db, { executor }));
    expect(schema.tables.map((t) => t.name)).toEqual(["item"]);
    let gone = false;
    const registry = new FinalizationRegistry(() => (gone = true));
    registry.register(store, "q1");
    store = undefined;
    expect(await collected(() => gone)).toBe(true);
    // Still cached: another question gets the same schema without reading the file again.
    expect(await readSchema(db, { executor })).toBe(schema);
  });
});
