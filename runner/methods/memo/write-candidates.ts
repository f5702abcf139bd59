/**
 * `memo candidates` (`writeCandidates`): each question's candidates as its writers wrote them, from a finished
 * memo-sql eval's threads, for memo-refine's `candidates` option.
 */
import fs from "node:fs";
import path from "node:path";
import { type CliIO, defaultIO } from "../../../core/io.ts";
import { UserError } from "../../../core/errors.ts";
import { checkConfig, type ConfigInput, inApiWords, opt, optionUsageError } from "../../../core/config.ts";
import { CANDIDATES_CONFIG, type CandidatesConfig } from "./candidates-config.ts";

/** The options of `memo candidates` (`CANDIDATES_CONFIG`): `run` (a memo-sql eval's folder), `out` (the file), `checkpoints`. */
export type CandidatesOptions = ConfigInput<typeof CANDIDATES_CONFIG> & { run: string; out: string };

/** What `memo candidates` wrote. */
export interface CandidatesResult {
  exitCode: number;
  file: string;
  /** Questions with their candidates as written, and those candidates in all. */
  questions: number;
  candidates: number;
  /** Questions of the run left out: no candidates as written in their thread. */
  missing: string[];
}

/**
 * Each question's candidates as its writers wrote them, from a finished memo-sql eval (its threads in the checkpoint
 * store), for memo-refine's `candidates` option — so Table 3's variants all correct the same nine candidates (A.8).
 * `sqlmend memo candidates` is this.
 */
export async function writeCandidates(options: CandidatesOptions, io: CliIO = defaultIO()): Promise<CandidatesResult> {
  return inApiWords("writeCandidates", () => candidatesFile(checkConfig("writeCandidates", CANDIDATES_CONFIG, options), io));
}

/** The one body `sqlmend memo candidates` and `writeCandidates` run, on the typed config. */
export async function candidatesFile(config: CandidatesConfig, io: CliIO): Promise<CandidatesResult> {
  if (config.run === undefined) throw optionUsageError`${opt("run")} DIR is required (a memo-sql eval's output directory)`;
  if (config.out === undefined) throw optionUsageError`${opt("out")} FILE is required`;
  const runDir = path.resolve(io.cwd, config.run);
  const [{ parseResults }, { openReadyCheckpointer }, { memoSqlSpec }, { CANDIDATES_KIND }] = await Promise.all([
    import("../../run/results-record.ts"),
    import("../../../storage/checkpoints.ts"),
    import("../../../graphs/memo-sql.ts"),
    import("../../../nodes/memo/candidates.ts"),
  ]);
  let text: string;
  try {
    text = fs.readFileSync(path.join(runDir, "results.jsonl"), "utf8");
  } catch {
    throw new UserError(`no results.jsonl in ${config.run}`);
  }
  const records = [...parseResults(text).records.values()];
  const store = await openReadyCheckpointer(config.checkpoints, io.env, io.cwd, { mustExist: true });
  try {
    // Reading checkpoints runs no node: deps that refuse to be used.
    const inert = { models: { forRole: () => { throw new Error("no model"); } }, executor: { run: () => { throw new Error("no SQL"); }, close: async () => {} } } as unknown as Parameters<typeof memoSqlSpec.build>[0];
    const graph = memoSqlSpec.build(inert, { checkpointer: store.saver });
    const questions: Record<string, { dbId: string; question: string; candidates: { id: string; sql: string }[] }> = {};
    const missing: string[] = [];
    for (const r of records) {
      const state = (await graph.getState({ configurable: { thread_id: r.thread } })) as { values: { candidates?: { id: string; sql: string; meta?: { order?: number; written?: string; rounds?: number } }[] } };
      const list = [...(state.values.candidates ?? [])].sort((a, b) => (a.meta?.order ?? 0) - (b.meta?.order ?? 0));
      // The SQL as written; a candidate from before `written` was recorded is usable only if it was never refined.
      if (!list.length || list.some((c) => c.meta?.written === undefined && (c.meta?.rounds ?? 0) > 0)) {
        missing.push(r.id);
        continue;
      }
      questions[r.id] = { dbId: r.dbId, question: r.question, candidates: list.map((c) => ({ id: c.id, sql: c.meta?.written ?? c.sql })) };
    }
    const file = path.resolve(io.cwd, config.out);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify({ kind: CANDIDATES_KIND, source: { run: runDir, questions: records.length }, questions }, null, 1)}\n`);
    const counts = Object.values(questions).map((q) => q.candidates.length);
    const total = counts.reduce((a, b) => a + b, 0);
    io.stdout(`Candidates: ${total} for ${counts.length} questions → ${file}\n${missing.length ? `No candidates as written for ${missing.length} questions (first: ${missing[0]}): left out\n` : ""}`);
    return { exitCode: 0, file, questions: counts.length, candidates: total, missing };
  } finally {
    store.close();
  }
}
