/**
 * Scores that agree with the official scorers around the verdict rule (issue 29): how predictions pair with
 * questions, how files are read, several statements, questions without gold, runaway queries, locked databases,
 * R-VES timing, several database roots.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Question } from "../state/question.ts";
import { scoreAll } from "../tools/benchmarks/score.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";

const RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c";

const dir = makeTempDir();
const db = makeDb(dir, "shop.sqlite", "CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1),(2),(3),(4),(5),(6),(7),(8),(9),(10),(11),(12);");
afterAll(() => removeTempDir(dir));

const question = (i: number, extra: Partial<Question> = {}): Question => ({
  id: String(i),
  dbId: "shop",
  dbPath: db,
  question: `q${i}`,
  evidence: "",
  goldSql: `SELECT x FROM t WHERE x = ${i + 1}`,
  ...extra,
});

describe("runaway queries cost only their own verdicts", () => {
  const questions = Array.from({ length: 12 }, (_, i) => question(i));
  const runaways = new Set([1, 4, 7, 10]);
  const predictions = new Map(questions.map((q, i) => [q.id, runaways.has(i) ? RUNAWAY : q.goldSql!]));

  it.each([1, 3])("twelve questions, four runaways in one batch: 8/12 at pool size %i, the same verdicts", async (size) => {
    const executor = createExecutor({ size });
    try {
      const report = await scoreAll(questions, predictions, { executor, semantics: "bird", timeoutMs: 400 });
      expect(report.correct).toBe(8);
      for (const [i, v] of report.verdicts.entries()) {
        if (runaways.has(i)) expect(v.predError).toMatch(/^timeout:/);
        else expect(v, `question ${i}`).toMatchObject({ correct: true });
      }
    } finally {
      await executor.close();
    }
  });
});
