/**
 * `readRun` on a folder written by hand: every verdict (a question without gold is unscored, a failed one keeps its
 * cost apart, a question whose database was missing is skipped, from run.json), a line that does not read is
 * counted, not fatal, and a selected question with no record is "not run".
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readRun } from "../runner/trace/read-trace.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";

const dir = makeTempDir();
afterAll(() => removeTempDir(dir));

const record = (id: string, more: Record<string, unknown>) =>
  JSON.stringify({ id, dbId: "pets", question: `q${id}`, sql: "SELECT 1", correct: false, inputTokens: 10, outputTokens: 2, calls: 1, latencyMs: 5, iterations: 0, usageByRole: {}, thread: `eval:r1:${id}`, ...more });

describe("readRun", () => {
  it("gives each question its verdict, counts skipped and not-run questions and unreadable lines, and what failures cost", async () => {
    fs.writeFileSync(path.join(dir, "run.json"), JSON.stringify({ runId: "r1", graph: "repair", split: "dev", semantics: "bird", models: {}, settings: { node: { fix: { path: "fix.ts", sha256: "x" } } }, questionHashes: { a: "1", b: "2", c: "3", d: "4", e: "skipped:zoo", f: "6" } }));
    fs.writeFileSync(
      path.join(dir, "results.jsonl"),
      [
        record("a", { correct: true, initialSql: "SELECT 0", initialCorrect: false, correction: "applied" }),
        record("b", {}),
        record("c", { goldError: "no gold SQL" }),
        record("d", { error: "slot 'fix': boom", failure: "the graph could not finish: slot 'fix': boom", calls: 3, inputTokens: 300, errorDetail: { slot: "fix", errorClass: "Error", message: "boom" } }),
        "{not json",
        JSON.stringify({ id: "x", correct: "yes" }),
      ].join("\n"),
    );
    const run = await readRun(dir);
    expect(run.questions.map((q) => [q.id, q.verdict])).toEqual([["a", "right"], ["b", "wrong"], ["c", "unscored"], ["d", "failed"], ["e", "skipped"]]);
    expect(run.kind).toBe("corrector");
    expect(run.nodeModules).toEqual({ fix: path.join(dir, "fix.ts") });
    expect(run.questions[0]).toMatchObject({ initialSql: "SELECT 0", initialCorrect: false, correction: "applied" });
    expect(run.questions[3]).toMatchObject({ failure: "the graph could not finish: slot 'fix': boom", error: { slot: "fix" } });
    expect(run.questions[4]).toMatchObject({ dbId: "zoo", threadId: "" });
    expect(run.droppedLines).toBe(2);
    expect(run.summary).toMatchObject({ selected: 6, notRun: 1, byVerdict: { right: 1, wrong: 1, unscored: 1, failed: 1, skipped: 1 }, ex: { correct: 1, scored: 2, pct: 50 } });
    expect(run.summary.failedCost).toEqual({ calls: 3, inputTokens: 300, outputTokens: 2, latencyMs: 5 });
    expect(run.summary.totalCost).toMatchObject({ calls: 6, inputTokens: 330 });
  });

  it("a folder without run.json is one line", async () => {
    await expect(readRun(path.join(dir, "nope"))).rejects.toThrow(/nope: no run\.json \(is it an 'sqlmend eval' --out folder\?\)/);
  });
});
