import fs from "node:fs";
import { UserError } from "../../core/errors.ts";
import { EXIT } from "../../core/exit.ts";
import type { Question } from "../../state/question.ts";
import { Progress, type ProgressMetric, type RunIO } from "./progress.ts";
import { gracefulInterrupt } from "./stop-signals.ts";
import { pool } from "./pool.ts";
import { readJsonLines } from "./atomic-files.ts";

/**
 * The one loop over questions, shared by every command that runs many (`eval`, `magic guideline`, `memo build`,
 * `ts-sql audit`): what is already recorded is not run again (a record the command calls failed is, by `--resume`),
 * the rest run with bounded concurrency, each record is saved the moment its question ends (a kill loses only the
 * questions in flight), progress goes to stderr, and the first Ctrl-C (or SIGTERM, SIGHUP) stops starting questions. What is a command's
 * own comes in the config: how one question runs, what its record holds, where records are kept.
 */

/** Where a command keeps its records: read back on resume, one appended per finished question. */
export interface RecordStore<R> {
  /** The records already kept, by question id. */
  load(): Map<string, R>;
  /** Keeps one record (called once per finished question, in finishing order). */
  append(record: R): void;
  /**
   * Called once the loop ends (stopped or not): a store that appended a rerun question's record beside its old one
   * rewrites itself to one record per question.
   */
  compact?(): void;
  /**
   * The records kept, read back as `load` reads them. A store that can lets the loop hold no finished question's
   * record in memory (memory flat over thousands of questions): the loop's records are read back once it ends.
   */
  reread?(): Map<string, R>;
}

/**
 * Records as JSON lines (`results.jsonl`, `audit.jsonl`), one line per question: `parse` reads a file's text to
 * records (the last line of an id wins; a half-written line from a kill is dropped, and the file rewritten clean). A
 * finished question's line is appended; a question run again (it failed before) is appended too, and the loop's end
 * rewrites the file with its latest line only (`compact`), so a reader counting lines counts what the report counts.
 * Only a kill between the two leaves an older line, which the next load drops.
 */
export function jsonLinesStore<R extends { id: string }>(file: string, parse: (text: string) => R[]): RecordStore<R> {
  let superseded = false;
  const loaded = new Set<string>();
  return {
    load: () => {
      const records = new Map(readJsonLines(file, parse).map((r) => [r.id, r]));
      for (const id of records.keys()) loaded.add(id);
      return records;
    },
    append: (record) => {
      if (loaded.has(record.id)) superseded = true;
      loaded.add(record.id);
      fs.appendFileSync(file, `${JSON.stringify(record)}\n`);
    },
    compact: () => {
      if (superseded) readJsonLines(file, parse);
      superseded = false;
    },
    // Read only: `compact` has made the file one line per question.
    reread: () => new Map((fs.existsSync(file) ? parse(fs.readFileSync(file, "utf8")) : []).map((r) => [r.id, r])),
  };
}

export interface QuestionRunConfig<R> {
  /** The command as the user typed it ("eval", "magic guideline"): named in messages. */
  command: string;
  io: RunIO;
  /** The selected questions, in the order records are returned. */
  questions: Question[];
  store: RecordStore<R>;
  concurrency: number;
  /**
   * Runs one question to its record. Never throws for a question's own failure (that is a record `failed` says so of);
   * a `UserError` stops the run. `previous`: the failed record of an earlier run, when this one runs it again (its
   * thread is finished with the failure in it: run it on a fresh thread).
   */
  run(question: Question, previous?: R): Promise<R>;
  /** A record of a question that did not run to the end: counted apart, and run again by a resumed run. */
  failed(record: R): boolean;
  /**
   * A failed record whose question failed because the model endpoint gave no reply (connection refused, timeouts, 5xx,
   * 429 beyond the retries). After `ENDPOINT_DOWN_AFTER` such records in a row (in finishing order) the endpoint is
   * taken for down: no new question starts, the run ends as a Ctrl-C would (outputs written, `--resume` continues).
   * Default: never.
   */
  endpointDown?(record: R): string | undefined;
  /** A warning about a finished question (e.g. its damaged checkpoints were deleted and it restarted), printed on stderr. */
  note?(record: R): string | undefined;
  /** What the progress line counts (default: EX over the records). */
  progress: { metric?: ProgressMetric; of(record: R): { hit: boolean; tokens: number }; extra?: () => string };
  /** Called after each record is kept (MAGIC merges complete batches). */
  afterEach?(question: Question, record: R): void;
  /** Called once no question runs any more, before the records are read back: let go of what only questions used. */
  afterAll?(): Promise<unknown>;
  /**
   * The first line on stderr after "sqlmend ", given what the runner found; `counts.line` is the standard part
   * ("6 questions (3 already done, 1 failed before and run again)"). Default: the command, then that line.
   */
  describe?(counts: StartCounts): string;
}

export interface StartCounts {
  questions: number;
  done: number;
  retried: number;
  /** "6 questions (3 already done, 1 failed before and run again)". */
  line: string;
}

export interface QuestionRunResult<R> {
  /** The latest record of every selected question that has one, in the order of `questions`. */
  records: R[];
  /** Records that `failed` says failed (included in `records`). */
  failed: R[];
  /** Selected questions with no record (the run was stopped before them). */
  notRun: number;
  /** Questions run by this invocation (resumed ones included). */
  ranNow: number;
  /** Their ids. */
  ranNowIds: string[];
  /** Failed records of an earlier run that this run tried again. */
  retried: number;
  /** A stop signal (Ctrl-C, SIGTERM, SIGHUP) stopped the run early. */
  stopped: boolean;
  /** Set when the run stopped starting questions because the model endpoint looked down: one line saying why. */
  endpointDown?: string;
  /**
   * The exit status every command ends with: stopped by a signal, its status (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP:
   * `STOP_SIGNALS`); `EXIT.incomplete` (3) questions failed or not run (`--resume` runs them); else `EXIT.ok`.
   */
  exitCode: number;
}

/** Questions whose failure says the endpoint did not answer, in a row, before a run stops starting new ones. */
export const ENDPOINT_DOWN_AFTER = 5;

export async function runQuestions<R>(config: QuestionRunConfig<R>): Promise<QuestionRunResult<R>> {
  const { io, questions } = config;
  const done = config.store.load();
  const retry = questions.filter((q) => done.has(q.id) && config.failed(done.get(q.id)!));
  const todo = questions.filter((q) => !done.has(q.id) || config.failed(done.get(q.id)!));
  const doneBefore = questions.length - todo.length;
  const line = `${questions.length} questions (${doneBefore} already done${retry.length ? `, ${retry.length} failed before and run again` : ""})`;
  const counts: StartCounts = { questions: questions.length, done: doneBefore, retried: retry.length, line };
  io.stderr(`sqlmend ${config.describe?.(counts) ?? `${config.command}: ${line}`}, concurrency ${config.concurrency}\n`);
  const progress = new Progress(questions.length, io, doneBefore, config.progress.metric, config.progress.extra);
  // After a resume the line counts the whole run: the questions kept from before too.
  const again = new Set(todo.map((q) => q.id));
  for (const q of questions) {
    const record = done.get(q.id);
    if (record === undefined || again.has(q.id)) continue;
    const { hit, tokens } = config.progress.of(record);
    progress.before({ correct: hit, tokens });
  }
  let fatal: unknown;
  let ranNow = 0;
  let downInARow = 0;
  let endpointDown: string | undefined;
  const ranNowIds: string[] = [];
  const interrupt = gracefulInterrupt(io, config.command);
  try {
    await pool(
      todo,
      config.concurrency,
      async (q) => {
        let record: R;
        try {
          const before = done.get(q.id);
          record = await config.run(q, before !== undefined && config.failed(before) ? before : undefined);
        } catch (error) {
          // A question's own failure is its record's business; anything else (a UserError: the run cannot go on) stops
          // the run once the questions in flight are done.
          fatal ??= error;
          return;
        }
        config.store.append(record);
        // Read back at the end when the store can: a finished question's record is not held for the whole run.
        if (config.store.reread) done.delete(q.id);
        else done.set(q.id, record);
        ranNow++;
        ranNowIds.push(q.id);
        const { hit, tokens } = config.progress.of(record);
        const note = config.note?.(record);
        if (note) io.stderr(`${io.isTTY ? "\n" : ""}sqlmend ${config.command}: warning: question ${q.id}: ${note}\n`);
        const failed = config.failed(record);
        progress.record({ correct: hit, tokens, failed });
        const down = failed ? config.endpointDown?.(record) : undefined;
        downInARow = down ? downInARow + 1 : 0;
        if (down && downInARow >= ENDPOINT_DOWN_AFTER && !endpointDown) {
          endpointDown = `the model endpoint looks down: ${downInARow} questions in a row failed (last: ${q.id}: ${down})`;
          io.stderr(`${io.isTTY ? "\n" : ""}sqlmend ${config.command}: ${endpointDown}; starting no more questions\n`);
        }
        config.afterEach?.(q, record);
      },
      () => interrupt.stopping() || fatal !== undefined || endpointDown !== undefined,
    );
  } finally {
    interrupt.release();
    progress.finish();
    config.store.compact?.();
  }
  if (fatal !== undefined) throw fatal instanceof Error ? fatal : new UserError(String(fatal));
  await config.afterAll?.();
  const kept = config.store.reread?.() ?? done;
  const records = questions.map((q) => kept.get(q.id)).filter((r): r is R => r !== undefined);
  const failed = records.filter((r) => config.failed(r));
  const notRun = questions.length - records.length;
  const stopped = interrupt.stopping();
  return {
    records,
    failed,
    notRun,
    ranNow,
    ranNowIds,
    retried: retry.length,
    stopped,
    ...(endpointDown ? { endpointDown } : {}),
    exitCode: stopped ? interrupt.status()! : failed.length || notRun ? EXIT.incomplete : EXIT.ok,
  };
}

/**
 * What every command prints at the end about questions it could not answer: the failed ones, and a stop for a down
 * endpoint with how to resume ("" when the run answered everything).
 */
export function unfinishedLines<R extends { id: string }>(run: QuestionRunResult<R>, why: (record: R) => string | undefined): string {
  const lines: string[] = [];
  const failed = failedLine(run.failed, why);
  if (failed) lines.push(failed);
  if (run.endpointDown) lines.push(`Stopped: ${run.endpointDown}; ${run.notRun} questions not run. Check the endpoint, then --resume runs the failed and the rest.`);
  if (lines.length && !run.stopped) lines.push(`Exit status ${EXIT.incomplete}: finished, but questions failed or were not run; --resume runs them again.`);
  return lines.map((line) => `${line}\n`).join("");
}

/** The thread for a question's next attempt: `base` the first time, then `base#2`, `base#3`, ... after `previous`. */
export function nextThread(base: string, previous: string | undefined): string {
  if (previous === undefined) return base;
  const attempt = /#(\d+)$/.exec(previous);
  return `${base}#${attempt ? Number(attempt[1]) + 1 : 2}`;
}

/** "3 questions failed (e.g. 17: model call failed: ...); --resume runs them again", or "" when none did. */
export function failedLine<R extends { id: string }>(failed: R[], why: (record: R) => string | undefined): string {
  if (!failed.length) return "";
  const first = failed[0]!;
  return `${failed.length} question${failed.length === 1 ? "" : "s"} failed (e.g. ${first.id}: ${why(first) ?? "no reason recorded"}); --resume runs ${failed.length === 1 ? "it" : "them"} again`;
}
