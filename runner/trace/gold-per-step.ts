/**
 * The gold's verdict on each step of a thread that changed the SQL (`readThread(..., { gold: true })`): scored as eval
 * scores (`scoreQuestion`, databases opened read-only by the executor's workers), on demand, and cached in the data
 * directory (`trace-gold/<run id>.json`, keyed by thread and SQL hash: the run folder may be read-only). Marks the first
 * step that was right, the steps that broke a right SQL or fixed a wrong one, and the last step that changed the SQL.
 */
import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { firstLineOf } from "../../core/errors.ts";
import type { Benchmark, Question } from "../../state/question.ts";
import { SPLITS, type Split } from "../../state/splits.ts";
import { loadSource } from "../../tools/benchmarks/benchmark.ts";
import { scoreQuestion, type Semantics } from "../../tools/benchmarks/score.ts";
import { dataDir } from "../../tools/paths.ts";
import type { SqlExecutor } from "../../tools/sqlite/types.ts";
import type { ReadThreadOptions, StepGold, ThreadView } from "./trace-types.ts";

export interface GoldOptions extends ReadThreadOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The question with its gold SQL and database, when the caller has it (else the run's benchmark is read). */
  question?: Pick<Question, "id" | "dbId" | "dbPath" | "question" | "goldSql"> & Partial<Question>;
  /** An executor to score with (else one is started and closed). */
  executor?: SqlExecutor;
  semantics?: Semantics;
  /** Where verdicts are cached (default: the data directory's `trace-gold/`). */
  cacheDir?: string;
}

type Cached = Record<string, { correct: boolean; error?: string }>;

const sqlKey = (threadId: string, sql: string) => `${threadId}\u0000${createHash("sha256").update(sql).digest("hex").slice(0, 32)}`;

function readCache(file: string): Cached {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Cached;
  } catch {
    return {};
  }
}

/** Benchmarks loaded for gold, by source: a process reading many threads of a run loads its benchmark once (a few kept). */
const loaded = new Map<string, Promise<Benchmark>>();
const LOADED_MAX = 4;
function loadOnce(source: Parameters<typeof loadSource>[0]): Promise<Benchmark> {
  const key = JSON.stringify(source);
  let hit = loaded.get(key);
  if (!hit) {
    hit = loadSource(source);
    hit.catch(() => loaded.delete(key));
    loaded.set(key, hit);
    if (loaded.size > LOADED_MAX) loaded.delete(loaded.keys().next().value!);
  }
  return hit;
}

/** The question of a thread from its run's benchmark (run.json: bench, split, questions, db-dir). */
async function questionOfRun(runDir: string, questionId: string): Promise<{ question?: Question; semantics: Semantics; runId: string; why?: string }> {
  let run: Record<string, unknown>;
  try {
    run = JSON.parse(fs.readFileSync(path.join(runDir, "run.json"), "utf8")) as Record<string, unknown>;
  } catch (error) {
    return { semantics: "bird", runId: path.basename(runDir), why: `${runDir}/run.json does not read: ${firstLineOf(error)}` };
  }
  const semantics: Semantics = run.semantics === "spider" ? "spider" : "bird";
  const runId = typeof run.runId === "string" ? run.runId : path.basename(runDir);
  const s = (v: unknown) => (typeof v === "string" ? v : undefined);
  const split = s(run.split);
  try {
    const bench = await loadOnce({
      ...(s(run.bench) ? { bench: s(run.bench) } : {}),
      ...(split && (SPLITS as readonly string[]).includes(split) ? { split: split as Split } : {}),
      ...(s(run.questions) ? { questions: s(run.questions) } : {}),
      ...(s(run.dbDir) ? { dbDir: s(run.dbDir) } : {}),
    });
    const question = bench.questions.find((q) => q.id === questionId);
    return question ? { question, semantics, runId } : { semantics, runId, why: `question ${questionId} is not in the run's benchmark (its database missing?)` };
  } catch (error) {
    return { semantics, runId, why: `the run's benchmark does not load: ${firstLineOf(error)}` };
  }
}

/** Adds `gold` to every step of `view` that changed the SQL, and `goldSummary` (or `goldNote`: why not). */
export async function goldForThread(view: ThreadView, options: GoldOptions): Promise<void> {
  const questionId = typeof view.state.questionId === "string" ? view.state.questionId : undefined;
  let question = options.question;
  let semantics: Semantics = options.semantics ?? "bird";
  let runId = "threads";
  if (options.run) {
    const found = await questionOfRun(path.resolve(options.cwd, options.run), question?.id ?? questionId ?? "");
    runId = found.runId;
    if (!options.semantics) semantics = found.semantics;
    question ??= found.question;
    if (!question) {
      view.goldNote = found.why ?? "no question";
      return;
    }
  }
  if (!question) {
    view.goldNote = "gold needs the thread's run (--run DIR) or its question";
    return;
  }
  if (!question.goldSql) {
    view.goldNote = `question ${question.id} has no gold SQL`;
    return;
  }
  const cacheDir = options.cacheDir ?? path.join(dataDir(options.env, options.cwd), "trace-gold");
  const cacheFile = path.join(cacheDir, `${runId.replace(/[^\w.-]/g, "_")}.json`);
  const cache = readCache(cacheFile);
  let dirty = false;
  const { createExecutor } = options.executor ? { createExecutor: undefined } : await import("../../tools/sqlite/executor.ts");
  const executor = options.executor ?? createExecutor!({ size: 1 });
  const q = question as Question;
  const verdictOf = async (sql: string): Promise<{ correct: boolean; error?: string }> => {
    const key = sqlKey(view.threadId, sql);
    const hit = cache[key];
    if (hit) return hit;
    const verdict = await scoreQuestion(q, sql, { executor, semantics }).catch((error) => ({ correct: false, predError: `scoring failed: ${firstLineOf(error)}`, goldError: undefined }));
    const kept = { correct: verdict.correct, ...(verdict.predError ? { error: verdict.predError } : verdict.goldError ? { error: `gold: ${verdict.goldError}` } : {}) };
    // A database that could not be read gives no verdict to keep.
    if (!/unreadable|locked|scoring failed/i.test(kept.error ?? "")) {
      cache[key] = kept;
      dirty = true;
    }
    return kept;
  };
  try {
    let previous: boolean | undefined = view.initialSql ? (await verdictOf(view.initialSql)).correct : undefined;
    const changed = view.steps.filter((s) => s.sql !== undefined);
    const summary: NonNullable<ThreadView["goldSummary"]> = {};
    for (const step of changed) {
      const verdict = await verdictOf(step.sql!);
      const marks: StepGold["marks"] = [];
      if (verdict.correct && summary.firstRight === undefined) {
        summary.firstRight = step.step;
        marks.push("first-right");
      }
      if (previous === true && !verdict.correct) {
        marks.push("broke");
        (summary.broke ??= []).push(step.step);
      }
      if (previous === false && verdict.correct) marks.push("fixed");
      if (step === changed.at(-1)) {
        marks.push("last");
        summary.last = step.step;
      }
      step.gold = { sql: step.sql!, correct: verdict.correct, marks, ...(verdict.error ? { error: verdict.error } : {}) };
      previous = verdict.correct;
    }
    if (view.finalSql !== undefined) summary.finalCorrect = view.finalSql ? (await verdictOf(view.finalSql)).correct : false;
    view.goldSummary = summary;
  } finally {
    if (!options.executor) await executor.close();
    if (dirty) {
      try {
        fs.mkdirSync(cacheDir, { recursive: true });
        fs.writeFileSync(`${cacheFile}.tmp`, JSON.stringify(cache));
        fs.renameSync(`${cacheFile}.tmp`, cacheFile);
      } catch {
        // a read-only data directory: verdicts are computed again next time
      }
    }
  }
}
