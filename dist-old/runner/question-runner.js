import fs from "node:fs";
import { UserError } from "../core/errors.js";
import { EXIT } from "../core/exit.js";
import { Progress } from "./progress.js";
import { gracefulInterrupt } from "./stop-signals.js";
import { pool } from "./pool.js";
import { readJsonLines } from "./atomic-files.js";
/**
 * Records as JSON lines (`results.jsonl`, `audit.jsonl`), one line per question: `parse` reads a file's text to
 * records (the last line of an id wins; a half-written line from a kill is dropped, and the file rewritten clean). A
 * finished question's line is appended; a question run again (it failed before) is appended too, and the loop's end
 * rewrites the file with its latest line only (`compact`), so a reader counting lines counts what the report counts.
 * Only a kill between the two leaves an older line, which the next load drops.
 */
export function jsonLinesStore(file, parse) {
    let superseded = false;
    const loaded = new Set();
    return {
        load: () => {
            const records = new Map(readJsonLines(file, parse).map((r) => [r.id, r]));
            for (const id of records.keys())
                loaded.add(id);
            return records;
        },
        append: (record) => {
            if (loaded.has(record.id))
                superseded = true;
            loaded.add(record.id);
            fs.appendFileSync(file, `${JSON.stringify(record)}\n`);
        },
        compact: () => {
            if (superseded)
                readJsonLines(file, parse);
            superseded = false;
        },
    };
}
/** Questions whose failure says the endpoint did not answer, in a row, before a run stops starting new ones. */
export const ENDPOINT_DOWN_AFTER = 5;
export async function runQuestions(config) {
    const { io, questions } = config;
    const done = config.store.load();
    const retry = questions.filter((q) => done.has(q.id) && config.failed(done.get(q.id)));
    const todo = questions.filter((q) => !done.has(q.id) || config.failed(done.get(q.id)));
    const doneBefore = questions.length - todo.length;
    const line = `${questions.length} questions (${doneBefore} already done${retry.length ? `, ${retry.length} failed before and run again` : ""})`;
    const counts = { questions: questions.length, done: doneBefore, retried: retry.length, line };
    io.stderr(`sqlmend ${config.describe?.(counts) ?? `${config.command}: ${line}`}, concurrency ${config.concurrency}\n`);
    const progress = new Progress(questions.length, io, doneBefore, config.progress.metric, config.progress.extra);
    let fatal;
    let ranNow = 0;
    let downInARow = 0;
    let endpointDown;
    const ranNowIds = [];
    const interrupt = gracefulInterrupt(io, config.command);
    try {
        await pool(todo, config.concurrency, async (q) => {
            let record;
            try {
                const before = done.get(q.id);
                record = await config.run(q, before !== undefined && config.failed(before) ? before : undefined);
            }
            catch (error) {
                // A question's own failure is its record's business; anything else (a UserError: the run cannot go on) stops
                // the run once the questions in flight are done.
                fatal ??= error;
                return;
            }
            config.store.append(record);
            done.set(q.id, record);
            ranNow++;
            ranNowIds.push(q.id);
            const { hit, tokens } = config.progress.of(record);
            const note = config.note?.(record);
            if (note)
                io.stderr(`${io.isTTY ? "\n" : ""}sqlmend ${config.command}: warning: question ${q.id}: ${note}\n`);
            const failed = config.failed(record);
            progress.record({ correct: hit, tokens, failed });
            const down = failed ? config.endpointDown?.(record) : undefined;
            downInARow = down ? downInARow + 1 : 0;
            if (down && downInARow >= ENDPOINT_DOWN_AFTER && !endpointDown) {
                endpointDown = `the model endpoint looks down: ${downInARow} questions in a row failed (last: ${q.id}: ${down})`;
                io.stderr(`${io.isTTY ? "\n" : ""}sqlmend ${config.command}: ${endpointDown}; starting no more questions\n`);
            }
            config.afterEach?.(q, record);
        }, () => interrupt.stopping() || fatal !== undefined || endpointDown !== undefined);
    }
    finally {
        interrupt.release();
        progress.finish();
        config.store.compact?.();
    }
    if (fatal !== undefined)
        throw fatal instanceof Error ? fatal : new UserError(String(fatal));
    const records = questions.map((q) => done.get(q.id)).filter((r) => r !== undefined);
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
        exitCode: stopped ? interrupt.status() : failed.length || notRun ? EXIT.incomplete : EXIT.ok,
    };
}
/**
 * What every command prints at the end about questions it could not answer: the failed ones, and a stop for a down
 * endpoint with how to resume ("" when the run answered everything).
 */
export function unfinishedLines(run, why) {
    const lines = [];
    const failed = failedLine(run.failed, why);
    if (failed)
        lines.push(failed);
    if (run.endpointDown)
        lines.push(`Stopped: ${run.endpointDown}; ${run.notRun} questions not run. Check the endpoint, then --resume runs the failed and the rest.`);
    if (lines.length && !run.stopped)
        lines.push(`Exit status ${EXIT.incomplete}: finished, but questions failed or were not run; --resume runs them again.`);
    return lines.map((line) => `${line}\n`).join("");
}
/** The thread for a question's next attempt: `base` the first time, then `base#2`, `base#3`, ... after `previous`. */
export function nextThread(base, previous) {
    if (previous === undefined)
        return base;
    const attempt = /#(\d+)$/.exec(previous);
    return `${base}#${attempt ? Number(attempt[1]) + 1 : 2}`;
}
/** "3 questions failed (e.g. 17: model call failed: ...); --resume runs them again", or "" when none did. */
export function failedLine(failed, why) {
    if (!failed.length)
        return "";
    const first = failed[0];
    return `${failed.length} question${failed.length === 1 ? "" : "s"} failed (e.g. ${first.id}: ${why(first) ?? "no reason recorded"}); --resume runs ${failed.length === 1 ? "it" : "them"} again`;
}
