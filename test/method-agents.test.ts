/**
 * The scripted TS-SQL agents of test/support/method-agents.ts measure the real thing: the data agent writes rows only
 * for the tables its prompt shows, rows the real schema accepts (foreign keys on, integer columns holding integers),
 * and rows on which the gold query's answer can tell queries apart (not empty, not only NULL or 0).
 */
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import type { Question } from "../state/question.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { DATA_MAX_ROWS, DATA_MIN_ROWS, methodAgents } from "./support/method-agents.ts";
import { readSchema } from "../tools/schema.ts";
import { compactSchema } from "../nodes/ts-sql/common.ts";
import { rowsOfReply } from "../nodes/ts-sql/data.ts";

let dir: string;
let dev: Question[];
beforeAll(async () => {
  dir = makeTempDir();
  await buildMinibench(path.join(dir, "minibench"));
  dev = (await loadBenchmark(path.join(dir, "minibench"), { split: "dev" })).questions;
});
afterAll(() => removeTempDir(dir));

type Tables = Record<string, Record<string, unknown>[]>;

/** The data prompt's tables as the data node shows them (`compactSchema`), optionally only some columns. */
async function tablesText(dbPath: string, tables: string[], keep?: (t: string, c: string) => boolean): Promise<string> {
  return compactSchema(await readSchema(dbPath), tables, { keep, samples: true }).text;
}

/** The scripted agent's reply (every listed table, rows as objects of its shown columns) as row objects, tables without rows left out. */
const replyTables = (content: string): Tables =>
  Object.fromEntries(Object.entries(rowsOfReply((JSON.parse(/```json\n([\s\S]*?)\n```/.exec(content)![1]!) as { tables: Parameters<typeof rowsOfReply>[0] }).tables)).filter(([, rows]) => rows.length));

/** The gold query's tables and their foreign-key ancestors, as `relevantTables` hands them to the data agent. */
function shownTables(db: Database.Database, gold: string): string[] {
  const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((r) => r.name);
  const picked = new Set(names.filter((n) => new RegExp(`\\b${n}\\b`, "i").test(gold)));
  const queue = [...picked];
  while (queue.length) {
    for (const fk of db.prepare(`PRAGMA foreign_key_list("${queue.pop()}")`).all() as { table: string }[]) {
      if (!picked.has(fk.table)) queue.push(fk.table), picked.add(fk.table);
    }
  }
  return names.filter((n) => picked.has(n));
}

/** Loads rows into the real schema with foreign keys on, parents first; returns the refusals and the gold's rows. */
function load(db: Database.Database, tables: Tables, gold: string): { refused: string[]; rows: unknown[][] } {
  const scratch = new Database(":memory:");
  const refused: string[] = [];
  try {
    scratch.pragma("foreign_keys = ON");
    for (const t of Object.keys(tables)) scratch.exec((db.prepare("SELECT sql FROM sqlite_master WHERE name = ?").get(t) as { sql: string }).sql);
    const order = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name).filter((n) => tables[n]);
    for (const t of order) {
      const types = new Map((db.prepare(`PRAGMA table_info("${t}")`).all() as { name: string; type: string }[]).map((c) => [c.name, c.type]));
      for (const row of tables[t]!) {
        for (const [c, v] of Object.entries(row)) if (/INT/i.test(types.get(c) ?? "") && typeof v === "string") refused.push(`${t}.${c} holds text ${JSON.stringify(v)}`);
        const cols = Object.keys(row);
        try {
          scratch.prepare(`INSERT INTO "${t}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`).run(...cols.map((c) => row[c]));
        } catch (error) {
          refused.push(`${t}: ${(error as Error).message}`);
        }
      }
    }
    return { refused, rows: scratch.prepare(gold).raw(true).all() as unknown[][] };
  } finally {
    scratch.close();
  }
}

const informative = (rows: unknown[][]) => rows.length > 0 && rows.some((r) => r.some((v) => v !== null && v !== 0));

describe("method-agents: TS-SQL's scripted data agent", () => {
  it("writes valid rows for the shown tables on which every gold answer that can be informative is", async () => {
    const agents = methodAgents({ questions: [dev] });
    const problems: string[] = [];
    let rows = 0;
    for (const q of dev) {
      const db = new Database(q.dbPath, { readonly: true });
      const shown = shownTables(db, q.goldSql!);
      const ddl = await tablesText(q.dbPath, shown);
      const reply = agents.respond({ model: "agent/data", messages: [{ role: "user", content: `Tables:\n${ddl}\nQuestion: ${q.question}` }] } as never) as { content: string };
      const tables = replyTables(reply.content);
      expect(Object.keys(tables).sort()).toEqual([...shown].sort());
      const { refused, rows: answer } = load(db, tables, q.goldSql!);
      const real = db.prepare(q.goldSql!).raw(true).all() as unknown[][];
      if (refused.length) problems.push(`${q.id}: ${refused.slice(0, 2).join("; ")}`);
      if (informative(real) && !informative(answer)) problems.push(`${q.id}: the gold's answer on the test data is ${JSON.stringify(answer)}`);
      rows += Object.values(tables).reduce((n, r) => n + r.length, 0);
      db.close();
    }
    expect(problems).toEqual([]);
    // As few rows as make the answers informative: not the whole database.
    expect(rows / dev.length).toBeLessThan(120);
  });

  it("writes 3 to 8 rows a table, as the data prompt asks (more only up to a count the question names)", async () => {
    const agents = methodAgents({ questions: [dev] });
    const outside: string[] = [];
    const perTable: number[] = [];
    for (const q of dev) {
      const db = new Database(q.dbPath, { readonly: true });
      const ddl = await tablesText(q.dbPath, shownTables(db, q.goldSql!));
      db.close();
      const reply = agents.respond({ model: "agent/data", messages: [{ role: "user", content: `Tables:\n${ddl}\nQuestion: ${q.question}` }] } as never) as { content: string };
      const tables = replyTables(reply.content);
      // "at least 10 reviews": ten rows of a table are what the question's own count needs.
      const named = Math.max(0, ...[...q.question.matchAll(/\bat least (\d+)\b/g)].map((m) => Number(m[1])));
      for (const [t, r] of Object.entries(tables)) {
        perTable.push(r.length);
        if (r.length > Math.max(DATA_MAX_ROWS, named)) outside.push(`${q.id} ${t}: ${r.length} rows`);
      }
    }
    expect(outside).toEqual([]);
    const mean = perTable.reduce((a, b) => a + b, 0) / perTable.length;
    expect(mean).toBeGreaterThanOrEqual(DATA_MIN_ROWS);
    expect(mean).toBeLessThanOrEqual(DATA_MAX_ROWS);
  });

  it("writes no rows for a parent table its prompt leaves out, so the schema refuses the children (as for a model)", async () => {
    const agents = methodAgents({ questions: [dev] });
    const q = dev.find((x) => /enrollments/i.test(x.goldSql ?? ""))!;
    const ddl = await tablesText(q.dbPath, ["enrollments"]);
    const reply = agents.respond({ model: "agent/data", messages: [{ role: "user", content: `Tables:\n${ddl}\nQuestion: ${q.question}` }] } as never) as { content: string };
    expect(Object.keys(replyTables(reply.content))).toEqual(["enrollments"]);
  });

  it("writes only the columns its prompt shows (issue 32: the others are left NULL), every one of them in each row (issue 40)", async () => {
    const agents = methodAgents({ questions: [dev] });
    const q = dev.find((x) => /FROM students/i.test(x.goldSql ?? "") && !/JOIN/i.test(x.goldSql ?? ""))!;
    const db = new Database(q.dbPath, { readonly: true });
    const all = (db.prepare(`PRAGMA table_info("students")`).all() as { name: string }[]).map((c) => c.name);
    db.close();
    const ddl = await tablesText(q.dbPath, ["students"], (_t, c) => q.goldSql!.includes(c));
    const reply = agents.respond({ model: "agent/data", messages: [{ role: "user", content: `Tables:\n${ddl}\nQuestion: ${q.question}` }] } as never) as { content: string };
    const sent = (JSON.parse(/```json\n([\s\S]*?)\n```/.exec(reply.content)![1]!) as { tables: { students: Record<string, unknown>[] } }).tables.students;
    const columns = Object.keys(sent[0]!);
    expect(columns.length).toBeLessThan(all.length);
    expect(sent.every((r) => JSON.stringify(Object.keys(r)) === JSON.stringify(columns))).toBe(true);
    expect(ddl).toMatch(/other columns not needed here/);
  });
});
