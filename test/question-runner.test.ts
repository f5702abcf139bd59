/**
 * The one loop over questions (runner/run/question-loop.ts) that eval, magic guideline, memo build and the TS-SQL audit
 * share: what it skips and reruns on resume, its bound on concurrency, when records are kept, and how a run stops.
 */
import fs from "node:fs";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import { UserError } from "../core/errors.ts";
import { failedLine, jsonLinesStore, type RecordStore, runQuestions } from "../runner/run/question-loop.ts";
import type { Question } from "../state/question.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";

type Rec = { id: string; ok: boolean; error?: string; tokens: number };

const question = (id: string): Question => ({ id, dbId: "db", dbPath: "/nowhere.sqlite", question: `q${id}`, evidence: "", goldSql: "SELECT 1" }) as Question;
const questions = ["1", "2", "3", "4", "5", "6"].map(question);

function memoryStore(initial: Rec[] = []): RecordStore<Rec> & { appended: Rec[] } {
  const appended: Rec[] = [];
  return { appended, load: () => new Map(initial.map((r) => [r.id, r])), append: (r) => void appended.push(r) };
}

function captured() {
  const err: string[] = [];
  return { io: { stderr: (t: string) => void err.push(t), isTTY: false }, err: () => err.join("") };
}

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeTempDir));

describe("runQuestions", () => {
  it("skips recorded questions, runs failed ones again, and returns the latest records in question order", async () => {
    const store = memoryStore([
      { id: "2", ok: true, tokens: 1 },
      { id: "4", ok: false, error: "model call failed: 503", tokens: 0 },
    ]);
    const ran: string[] = [];
    const out = captured();
    const result = await runQuestions<Rec>({
      command: "test",
      io: out.io,
      questions,
      store,
      concurrency: 2,
      run: async (q) => {
        ran.push(q.id);
        return q.id === "6" ? { id: q.id, ok: false, error: "endpoint down", tokens: 0 } : { id: q.id, ok: q.id !== "3", tokens: 10 };
      },
      failed: (r) => r.error !== undefined,
      progress: { of: (r) => ({ hit: r.ok, tokens: r.tokens }) },
    });
    expect(ran.sort()).toEqual(["1", "3", "4", "5", "6"]);
    expect(store.appended.map((r) => r.id).sort()).toEqual(["1", "3", "4", "5", "6"]);
    expect(result.records.map((r) => r.id)).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(result.records.find((r) => r.id === "4")).toMatchObject({ ok: true });
    expect(result).toMatchObject({ ranNow: 5, retried: 1, notRun: 0, stopped: false });
    expect(result.failed.map((r) => r.id)).toEqual(["6"]);
    expect(out.err()).toMatch(/^sqlmend test: 6 questions \(1 already done, 1 failed before and run again\), concurrency 2\n/);
    // The progress share is over the questions answered in the whole run (question 2 kept from before), the failure
    // counted apart.
    expect(out.err()).toMatch(/6\/6 {2}EX 80\.0% {2}failed 1 {2}tokens 41/);
    expect(failedLine(result.failed, (r) => r.error)).toBe("1 question failed (e.g. 6: endpoint down); --resume runs it again");
  });

  it("keeps at most `concurrency` questions in flight and keeps each record as its question ends", async () => {
    let inFlight = 0;
    let most = 0;
    const store = memoryStore();
    const keptWhenStarted: number[] = [];
    await runQuestions<Rec>({
      command: "test",
      io: captured().io,
      questions,
      store,
      concurrency: 3,
      run: async (q) => {
        keptWhenStarted.push(store.appended.length);
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 10 * Number(q.id)));
        inFlight--;
        return { id: q.id, ok: true, tokens: 0 };
      },
      failed: () => false,
      progress: { of: () => ({ hit: true, tokens: 0 }) },
    });
    expect(most).toBe(3);
    // Question 4 starts when question 1 ends, and question 1's record is kept by then.
    expect(keptWhenStarted[3]).toBeGreaterThanOrEqual(1);
  });

  it("a UserError stops the run: no new question starts, those in flight are kept, and the error is thrown", async () => {
    const store = memoryStore();
    const started: string[] = [];
    const run = runQuestions<Rec>({
      command: "test",
      io: captured().io,
      questions,
      store,
      concurrency: 2,
      run: async (q) => {
        started.push(q.id);
        if (q.id === "1") throw new UserError("thread 'x' already holds another question");
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { id: q.id, ok: true, tokens: 0 };
      },
      failed: () => false,
      progress: { of: () => ({ hit: true, tokens: 0 }) },
    });
    await expect(run).rejects.toThrow(/already holds another question/);
    expect(started).toEqual(["1", "2"]);
    expect(store.appended.map((r) => r.id)).toEqual(["2"]);
  });

  it("with a JSON-lines store, a resumed run drops a half-written last line and reruns that question", async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const file = path.join(dir, "results.jsonl");
    const parse = (text: string) => text.split("\n").flatMap((line) => {
      try {
        return line.trim() ? [JSON.parse(line) as Rec] : [];
      } catch {
        return [];
      }
    });
    fs.writeFileSync(file, `${JSON.stringify({ id: "1", ok: true, tokens: 1 })}\n{"id":"2","ok":tr`);
    const ran: string[] = [];
    const result = await runQuestions<Rec>({
      command: "test",
      io: captured().io,
      questions: questions.slice(0, 3),
      store: jsonLinesStore(file, parse),
      concurrency: 1,
      run: async (q) => (ran.push(q.id), { id: q.id, ok: true, tokens: 0 }),
      failed: () => false,
      progress: { of: () => ({ hit: true, tokens: 0 }) },
    });
    expect(ran).toEqual(["2", "3"]);
    expect(result.records.map((r) => r.id)).toEqual(["1", "2", "3"]);
    expect(parse(fs.readFileSync(file, "utf8")).map((r) => r.id)).toEqual(["1", "2", "3"]);
    expect(fs.readFileSync(file, "utf8").trim().split("\n")).toHaveLength(3);
  });
});

describe("runQuestions: memory flat with the work", () => {
  it("holds no finished question's record while the run goes on when its store reads them back; returns them all at the end", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const dir = makeTempDir();
    dirs.push(dir);
    const file = path.join(dir, "results.jsonl");
    const parse = (text: string) => text.split("\n").flatMap((line) => (line.trim() ? [JSON.parse(line) as Rec] : []));
    // Each record made for the run carries a big payload; the registry hears when one is collected.
    let collected = 0;
    const registry = new FinalizationRegistry(() => void collected++);
    const finishedBefore: number[] = [];
    const result = await runQuestions<Rec>({
      command: "test",
      io: captured().io,
      questions,
      store: jsonLinesStore(file, parse),
      concurrency: 1,
      run: async (q) => {
        if (q.id === "6") {
          // Five questions have finished: none of their records may still be held by the loop.
          for (let i = 0; i < 20 && collected < 5; i++) {
            gc();
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
          finishedBefore.push(collected);
        }
        const record = { id: q.id, ok: true, tokens: Number(q.id), payload: "x".repeat(100_000) } as Rec;
        registry.register(record, q.id);
        return record;
      },
      failed: () => false,
      progress: { of: () => ({ hit: true, tokens: 0 }) },
    });
    expect(finishedBefore).toEqual([5]);
    expect(result.records.map((r) => [r.id, r.tokens])).toEqual(questions.map((q) => [q.id, Number(q.id)]));
  });
});

describe("runQuestions: failed questions and a down endpoint", () => {
  const fail = (id: string): Rec => ({ id, ok: false, error: "model call failed: connect ECONNREFUSED 127.0.0.1:9", tokens: 0 });
  const config = (run: (q: Question) => Promise<Rec>, out = captured()) => ({
    command: "test",
    io: out.io,
    questions: ["1", "2", "3", "4", "5", "6", "7", "8"].map(question),
    store: memoryStore(),
    concurrency: 1,
    run,
    failed: (r: Rec) => r.error !== undefined,
    endpointDown: (r: Rec) => (r.error?.includes("ECONNREFUSED") ? r.error : undefined),
    progress: { of: (r: Rec) => ({ hit: r.ok, tokens: r.tokens }) },
  });

  it("stops starting questions after five endpoint failures in a row and ends with status 3", async () => {
    const out = captured();
    const ran: string[] = [];
    const result = await runQuestions<Rec>(config(async (q) => (ran.push(q.id), fail(q.id)), out));
    expect(ran).toEqual(["1", "2", "3", "4", "5"]);
    expect(result).toMatchObject({ notRun: 3, stopped: false, exitCode: 3 });
    expect(result.endpointDown).toMatch(/^the model endpoint looks down: 5 questions in a row failed \(last: 5: model call failed: connect ECONNREFUSED/);
    expect(out.err()).toMatch(/sqlmend test: the model endpoint looks down: .*; starting no more questions\n/);
  });

  it("an answered question resets the count; a failed question alone still gives status 3, none gives 0", async () => {
    const ran: string[] = [];
    const result = await runQuestions<Rec>(config(async (q) => (ran.push(q.id), q.id === "5" ? { id: q.id, ok: true, tokens: 1 } : fail(q.id))));
    expect(ran).toHaveLength(8);
    expect(result).toMatchObject({ notRun: 0, exitCode: 3 });
    expect(result.endpointDown).toBeUndefined();
    const fine = await runQuestions<Rec>(config(async (q) => ({ id: q.id, ok: true, tokens: 1 })));
    expect(fine.exitCode).toBe(0);
  });

  it("runs a failed record again with the previous record in hand (for a fresh thread)", async () => {
    const seen: (string | undefined)[] = [];
    const store = memoryStore([fail("1"), { id: "2", ok: true, tokens: 1 }]);
    await runQuestions<Rec>({ ...config(async (q, previous?: Rec) => (seen.push(previous?.error), { id: q.id, ok: true, tokens: 1 })), store, questions: ["1", "2", "3"].map(question) });
    expect(seen).toEqual([fail("1").error, undefined]);
  });
});

describe("the progress line after a resume", () => {
  it("counts the whole run: the questions kept from before are in its EX and tokens, not only those run now", async () => {
    // 4 of 6 done before, all right; the 2 run now are wrong: the run's EX at 6/6 is 66.7 %, not 0 %.
    const before = ["1", "2", "3", "4"].map((id) => ({ id, ok: true, tokens: 10 }));
    const out = captured();
    await runQuestions<Rec>({
      command: "eval",
      io: out.io,
      questions,
      store: memoryStore(before),
      concurrency: 1,
      run: async (q) => ({ id: q.id, ok: false, tokens: 10 }),
      failed: () => false,
      progress: { of: (r) => ({ hit: r.ok, tokens: r.tokens }) },
    });
    expect(out.err()).toMatch(/\] 6\/6 {2}EX 66\.7% {2}tokens 60 /);
  });
});
