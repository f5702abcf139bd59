import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlSkeleton } from "../tools/sql-skeleton.ts";
import { ErrorTypeSchema, MemoryStore, type NewMemoryEntry, subsumptionFilter } from "../tools/retrieval/memory-store.ts";
import { cosine, type Embedder } from "../tools/models/embeddings.ts";
import { DenseKeyIndex } from "../tools/retrieval/key-index.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";

let dir: string;
beforeAll(() => {
  dir = makeTempDir();
});
afterAll(() => removeTempDir(dir));

const entry = (over: Partial<NewMemoryEntry>): NewMemoryEntry => ({
  sourceId: "q",
  dbId: "shop",
  question: "How many customers live in London?",
  evidence: "",
  goldSql: "SELECT count(*) FROM customers WHERE city = 'London'",
  wrongSql: "SELECT count(*) FROM customers",
  errorTypes: ["filter_condition_error"],
  suggestions: "filter on the city",
  ...over,
});

describe("SQL skeleton", () => {
  it("masks literals and identifiers, keeps keywords, functions and structure", () => {
    const sql = "select T1.name, COUNT(*) from customers as T1 join \"order items\" T2 on T1.id = T2.cid where T1.city = 'London' and T2.total > -10.5 -- note\n group by T1.name order by 2 desc limit 3";
    expect(sqlSkeleton(sql)).toBe("SELECT _, count(*) FROM _ AS _ JOIN _ _ ON _ = _ WHERE _ = ? AND _ > ? GROUP BY _ ORDER BY ? DESC LIMIT ?");
    // Same shape on another database and other values: same skeleton.
    expect(sqlSkeleton("SELECT a.title, count(*) FROM books AS a JOIN loans b ON a.id = b.book WHERE a.lang = 'fr' AND b.days > 7 GROUP BY a.title ORDER BY 1 DESC LIMIT 10")).toBe(
      sqlSkeleton(sql),
    );
    expect(sqlSkeleton("SELECT name FROM t WHERE x = 'O''Brien' AND strftime('%Y', d) = '2024'")).toBe("SELECT _ FROM _ WHERE _ = ? AND strftime(?, _) = ?");
    expect(sqlSkeleton("SELECT name FROM t WHERE city = 'London'", { identifiers: "keep" })).toBe("SELECT name FROM t WHERE city = ?");
  });
});

describe("taxonomy", () => {
  it("accepts the nine types in the spellings models use and rejects others", () => {
    expect(ErrorTypeSchema.parse("E1")).toBe("join_logic_error");
    expect(ErrorTypeSchema.parse("Filter Condition Error")).toBe("filter_condition_error");
    expect(ErrorTypeSchema.parse("Aggregation and Grouping Error")).toBe("aggregation_grouping_error");
    expect(ErrorTypeSchema.parse("Subquery Logical Error")).toBe("subquery_logic_error");
    expect(ErrorTypeSchema.parse("quantifier_intent_error")).toBe("quantifier_intent_error");
    expect(ErrorTypeSchema.safeParse("syntax_error").success).toBe(false);
    expect(ErrorTypeSchema.safeParse("E10").success).toBe(false);
  });
});

describe("subsumption filter", () => {
  it("drops an entry whose error types are contained in those of an entry kept before it", () => {
    const ranked = [
      { id: 1, errorTypes: ["select_output_error", "filter_condition_error"] },
      { id: 2, errorTypes: ["select_output_error"] }, // ⊆ 1
      { id: 3, errorTypes: ["join_logic_error"] },
      { id: 4, errorTypes: ["join_logic_error", "select_output_error"] }, // not ⊆ any single kept set
      { id: 5, errorTypes: ["filter_condition_error", "select_output_error"] }, // = 1
    ];
    const out = subsumptionFilter(ranked);
    expect(out.filter((o) => o.kept).map((o) => o.item.id)).toEqual([1, 3, 4]);
    expect(out[1]).toMatchObject({ kept: false, subsumedBy: 0 });
    expect(out[4]).toMatchObject({ kept: false, subsumedBy: 0 });
  });
});

describe("dense key index", () => {
  it("ranks by cosine like the plain computation, honours keep, and refuses vectors of another size", () => {
    let x = 7;
    const rnd = () => ((x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) - 0.5;
    const vectors = Array.from({ length: 50 }, () => Array.from({ length: 10 }, rnd));
    const index = new DenseKeyIndex();
    vectors.forEach((v, i) => i !== 3 && index.set(i, v)); // 3 has no vector
    const query = Array.from({ length: 10 }, rnd);
    const expected = vectors
      .map((v, i) => ({ i, s: cosine(query, v) }))
      .filter(({ i }) => i !== 3 && i % 2 === 0)
      .sort((a, b) => b.s - a.s)
      .slice(0, 5);
    const hits = index.search(query, vectors.length, 5, (i) => i % 2 === 0);
    expect(hits.map((h) => h.index)).toEqual(expected.map((e) => e.i));
    hits.forEach((h, j) => expect(h.score).toBeCloseTo(expected[j]!.s, 5));
    expect(index.size).toBe(49);
    expect(index.set(3, [1, 2])).toBe(false);
    expect(index.has(3)).toBe(false);
    expect(index.search([1, 2], vectors.length, 5, () => true)).toEqual([]);
  });
});

describe("memory store", () => {
  it("retrieves by question + skeleton, filters by subsumption, and never returns the question's own entries", async () => {
    const store = MemoryStore.open(path.join(dir, "m1.sqlite"), { create: true });
    store.add(entry({ sourceId: "1", errorTypes: ["filter_condition_error", "select_output_error"] }));
    store.add(entry({ sourceId: "2", question: "How many customers live in Paris?", errorTypes: ["filter_condition_error"] }));
    store.add(entry({ sourceId: "3", question: "Average total of orders per customer", wrongSql: "SELECT avg(total) FROM orders", errorTypes: ["aggregation_grouping_error"] }));
    store.add(entry({ sourceId: "self", question: "How many customers live in Rome?", errorTypes: ["null_handling_error"] }));

    const r = await store.retrieve({ question: "How many customers live in Rome?", sql: "SELECT count(*) FROM customers WHERE city = 'Rome'", exclude: { ids: ["self"] } });
    expect(r.ranking).toBe("lexical");
    expect(r.ranked.map((x) => x.entry.sourceId)).not.toContain("self");
    expect(r.ranked[0]!.entry.sourceId).toBe("1"); // question words and skeleton both match
    expect(r.ranked.find((x) => x.entry.sourceId === "2")).toMatchObject({ kept: false });
    expect(r.entries.map((e) => e.sourceId)).toEqual(["1", "3"]);

    // Same question text under another id is excluded too.
    const byText = await store.retrieve({ question: "how many customers  live in ROME?", sql: "SELECT 1", exclude: { ids: ["other"], question: "how many customers  live in ROME?" } });
    expect(byText.ranked.map((x) => x.entry.sourceId)).not.toContain("self");

    const top4 = await store.retrieve({ question: "customers in Paris", sql: "SELECT 1" }, { mode: "top4" });
    expect(top4.entries).toHaveLength(4);
    expect(top4.ranked.every((x) => x.kept)).toBe(true);
    const random = await store.retrieve({ question: "customers in Paris", sql: "SELECT 1", exclude: { ids: ["self"] } }, { mode: "random" });
    expect(random.entries).toHaveLength(3);
    expect(random.entries.map((e) => e.sourceId)).not.toContain("self");
    expect((await store.retrieve({ question: "x", sql: "SELECT 1" }, { mode: "none" })).entries).toEqual([]);
    store.close();
  });

  it("retrieval does not depend on the order entries were written (a concurrent build writes them in any order)", async () => {
    // Twelve entries that tie for a query (same words, same skeleton), and a few that do not.
    const entries = [
      ...Array.from({ length: 12 }, (_, i) => entry({ sourceId: `tie-${i}`, suggestions: `hint ${i}` })),
      ...Array.from({ length: 4 }, (_, i) => entry({ sourceId: `other-${i}`, question: `Average total of orders ${i}`, wrongSql: "SELECT avg(total) FROM orders", errorTypes: ["aggregation_grouping_error"] })),
    ];
    const shuffled = [...entries].sort((a, b) => (`${b.sourceId}`.split("").reverse().join("") < `${a.sourceId}`.split("").reverse().join("") ? -1 : 1));
    expect(shuffled.map((e) => e.sourceId)).not.toEqual(entries.map((e) => e.sourceId));
    const picks = async (name: string, order: NewMemoryEntry[]) => {
      const store = MemoryStore.open(path.join(dir, name), { create: true });
      for (const e of order) store.add(e);
      const request = { question: "How many customers live in Oslo?", sql: "SELECT count(*) FROM customers" };
      const out = [];
      for (const mode of ["filtered", "top4", "random"] as const) out.push((await store.retrieve(request, { mode })).entries.map((e) => e.sourceId));
      store.close();
      return out;
    };
    const [inOrder, reordered] = [await picks("order-a.sqlite", entries), await picks("order-b.sqlite", shuffled)];
    expect(inOrder[1]).toHaveLength(4);
    expect(reordered).toEqual(inOrder);
  });

  it("sees an entry another process adds without a rebuild, and refuses a file that is another database", async () => {
    const file = path.join(dir, "m2.sqlite");
    const reader = MemoryStore.open(file, { create: true });
    expect((await reader.retrieve({ question: "late orders", sql: "SELECT 1" })).entries).toHaveLength(0);
    const writer = MemoryStore.open(file);
    writer.add(entry({ sourceId: "w", question: "Which orders were late?" }));
    writer.close();
    expect((await reader.retrieve({ question: "late orders", sql: "SELECT 1" })).entries.map((e) => e.sourceId)).toEqual(["w"]);
    reader.close();

    const other = makeDb(dir, "bench.sqlite", "CREATE TABLE t (x);");
    expect(() => MemoryStore.open(other)).toThrow(/not a Memo-SQL memory/);
    expect(() => MemoryStore.open(path.join(dir, "missing.sqlite"))).toThrow(/memory file not found/);
  });

  it("ranks with embeddings when an embedder is given, and falls back to lexical when it fails", async () => {
    const vec = (text: string) => [text.includes("London") ? 1 : 0, text.includes("orders") ? 1 : 0, 0.1];
    const embedder: Embedder = { model: "toy", embed: async (texts) => texts.map(vec) };
    const file = path.join(dir, "m3.sqlite");
    const store = MemoryStore.open(file, { create: true, embedder });
    store.add(entry({ sourceId: "a", question: "orders per day", errorTypes: ["temporal_semantics_error"] }));
    store.add(entry({ sourceId: "b", question: "people in London", errorTypes: ["filter_condition_error"] }));
    const r = await store.retrieve({ question: "London residents", sql: "SELECT 1" });
    expect(r.ranking).toBe("embeddings");
    expect(r.ranked[0]!.entry.sourceId).toBe("b");
    store.close();
    const failing = MemoryStore.open(file, { embedder: { model: "down", embed: async () => Promise.reject(new Error("connection refused")) } });
    const f = await failing.retrieve({ question: "London residents", sql: "SELECT 1" });
    expect(f.ranking).toBe("lexical");
    expect(f.note).toMatch(/connection refused/);
    failing.close();
  });

  it("embeds the memory's keys once when several critics retrieve at the same time, and reports the requests", async () => {
    const file = path.join(dir, "m4.sqlite");
    const seed = MemoryStore.open(file, { create: true });
    for (let i = 0; i < 70; i++) seed.add(entry({ sourceId: `s${i}`, question: `How many orders on day ${i}?`, errorTypes: ["filter_condition_error"] }));
    seed.close();
    const embedded: string[] = [];
    const vec = (t: string) => [t.length % 7, t.includes("orders") ? 1 : 0, 1];
    const embedder: Embedder = {
      model: "toy",
      embed: async (texts) => texts.map(vec),
      embedCounted: async (texts) => {
        embedded.push(...texts);
        await new Promise((r) => setTimeout(r, 5));
        return { vectors: texts.map(vec), usage: { calls: 1, inputTokens: texts.length, latencyMs: 5, cached: 0 } };
      },
    };
    const store = MemoryStore.open(file, { embedder });
    const nine = await Promise.all(Array.from({ length: 9 }, (_, i) => store.retrieve({ question: `orders ${i}`, sql: "SELECT 1" })));
    expect(nine.every((r) => r.ranking === "embeddings")).toBe(true);
    // 70 keys once (two batches), plus one query vector per retrieval.
    expect(embedded.filter((t) => t.startsWith("How many orders"))).toHaveLength(70);
    expect(embedded).toHaveLength(70 + 9);
    // The requests are counted once (role embedder): 2 key batches by the first caller, 1 query each.
    expect(nine.flatMap((r) => r.records).every((c) => c.role === "embedder")).toBe(true);
    expect(nine.reduce((n, r) => n + r.records.length, 0)).toBe(2 + 9);
    store.close();
    // The vectors were stored in the file: a new process embeds only its queries.
    embedded.length = 0;
    const again = MemoryStore.open(file, { embedder });
    expect(again.embeddedCount).toBe(70);
    await again.retrieve({ question: "orders", sql: "SELECT 1" });
    expect(embedded).toHaveLength(1);
    again.close();
  });

  it("ranks densely even when the memory file cannot take the vectors (read-only)", async () => {
    const file = path.join(dir, "m5.sqlite");
    const seed = MemoryStore.open(file, { create: true });
    seed.add(entry({ sourceId: "a", question: "orders per day" }));
    seed.add(entry({ sourceId: "b", question: "people in London" }));
    seed.close();
    const embedder: Embedder = { model: "toy", embed: async (texts) => texts.map((t) => [t.includes("London") ? 1 : 0, 0.1]) };
    const store = MemoryStore.open(file, { embedder });
    // No write reaches the file from here on, as on a read-only mount.
    (store as unknown as { db: { pragma: (p: string) => void } }).db.pragma("query_only = ON");
    const r = await store.retrieve({ question: "London residents", sql: "SELECT 1" });
    expect(r).toMatchObject({ ranking: "embeddings" });
    expect(r.ranked[0]!.entry.sourceId).toBe("b");
    store.close();
    expect(MemoryStore.open(file).vectorModels()).toEqual({});
  });
});
