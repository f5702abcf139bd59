/**
 * Gold per step (issue 37, point 3): each step that changed the SQL gets the scorer's verdict; the first right step,
 * a step that broke a right SQL and one that fixed a wrong one, and the last change are marked; verdicts are cached
 * by thread and SQL (a second read scores nothing), and a question without gold SQL says so instead of a verdict.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { goldForThread } from "../runner/trace/gold-per-step.ts";
import type { ThreadView, TraceStep } from "../runner/trace/trace-types.ts";
import type { SqlExecutor } from "../tools/sqlite/types.ts";
import { testDatabase } from "./support/fixtures.ts";

const { dir, dbPath, executor } = testDatabase(`
CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT, kind TEXT);
INSERT INTO pets VALUES (1, 'Rex', 'dog'), (2, 'Tom', 'cat'), (3, 'Fido', 'dog');
`);

const GOLD = "SELECT name FROM pets WHERE kind = 'dog'";
const step = (n: number, sql?: string): TraceStep => ({ step: n, checkpointId: `c${n}`, slots: ["s"], roles: [], writes: {}, diff: [], calls: [], next: [], ...(sql !== undefined ? { sql } : {}) });
const view = (threadId: string, steps: TraceStep[], initialSql?: string): ThreadView => ({
  threadId,
  readAs: "generic",
  finished: true,
  next: [],
  state: { questionId: "q1" },
  steps,
  finalSql: [...steps].reverse().find((s) => s.sql !== undefined)?.sql ?? initialSql ?? "",
  ...(initialSql !== undefined ? { initialSql } : {}),
});
const question = { id: "q1", dbId: "pets", dbPath, question: "Which pets are dogs?", goldSql: GOLD };

describe("goldForThread", () => {
  it("marks first-right, broke, fixed and last over the steps that changed the SQL", async () => {
    const v = view("t-marks", [step(1), step(2, "SELECT name FROM pets"), step(3, GOLD), step(4), step(5, "SELECT 1"), step(6, `${GOLD} ORDER BY id`)]);
    const cacheDir = path.join(dir, "gold-cache");
    await goldForThread(v, { env: {}, cwd: dir, question, executor, cacheDir });
    expect(v.steps.map((s) => s.gold && [s.gold.correct, s.gold.marks])).toEqual([undefined, [false, []], [true, ["first-right", "fixed"]], undefined, [false, ["broke"]], [true, ["fixed", "last"]]]);
    expect(v.goldSummary).toEqual({ firstRight: 3, broke: [5], last: 6, finalCorrect: true });
    // Cached by thread and SQL: a second read asks the executor nothing.
    const refusing = { run: () => Promise.reject(new Error("scored again")), compare: () => Promise.reject(new Error("scored again")) } as unknown as SqlExecutor;
    const again = view("t-marks", [step(2, "SELECT name FROM pets"), step(3, GOLD)]);
    await goldForThread(again, { env: {}, cwd: dir, question, executor: refusing, cacheDir });
    expect(again.steps.map((s) => s.gold?.correct)).toEqual([false, true]);
    expect(fs.readdirSync(cacheDir)).toEqual(["threads.json"]);
  });

  it("a corrector's initial SQL counts as the step before: a first change that breaks a right SQL is marked", async () => {
    const v = view("t-initial", [step(3, "SELECT 2")], GOLD);
    await goldForThread(v, { env: {}, cwd: dir, question, executor, cacheDir: path.join(dir, "gold-cache-2") });
    expect(v.steps[0]!.gold).toMatchObject({ correct: false, marks: ["broke", "last"] });
    expect(v.goldSummary).toEqual({ broke: [3], last: 3, finalCorrect: false });
  });

  it("says why there is no verdict: a question without gold SQL", async () => {
    const v = view("t-nogold", [step(1, GOLD)]);
    await goldForThread(v, { env: {}, cwd: dir, question: { ...question, goldSql: undefined }, executor });
    expect(v.goldNote).toBe("question q1 has no gold SQL");
    expect(v.steps[0]!.gold).toBeUndefined();
  });
});
