import { readOptions } from "../../core/options.js";
import { readSchema } from "../../tools/schema.js";
import { sameSql, schemaIdentifiers } from "../../tools/sql-normalise.js";
import { withCalls } from "../common.js";
import { R3_LOOP_OPTIONS } from "./options.js";
import { reviewsTurn } from "./prompts.js";
import { askWriter, droppedNote, reaskNote } from "./writer.js";
/**
 * Slot `revise` (role "writer"): the writer reads every review of the round (H ← H + r; y'' = LLM(H)) and revises,
 * or rebuts and keeps its SQL. Consensus when y'' equals y after normalising (white space, keyword case, a trailing
 * semicolon, identifier quoting; a double-quoted token counts as an identifier only when the schema names such a table
 * or column, else it is a string literal and keeps its case); then the SQL keeps its exact previous text. In: reviews of round `rounds + 1`,
 * history, sql. Out: sql, history, rounds + 1, roundDebugTurns 0, roundLog, consensus. With no review at all (every
 * reviewer failed) it asks nothing and the loop stops.
 */
export const reviseNode = (deps, options) => async (state) => {
    const opts = readOptions(R3_LOOP_OPTIONS, options);
    const round = state.rounds + 1;
    const ofRound = state.reviews.filter((r) => r.round === round).sort((a, b) => a.reviewer - b.reviewer);
    const usable = ofRound.filter((r) => r.ok);
    const failedReviewers = ofRound.filter((r) => !r.ok).map((r) => r.reviewer);
    const log = (outcome, sqlAfter) => ({ round, outcome, sqlBefore: state.sql, sqlAfter, reviews: usable.length, failedReviewers });
    const next = { rounds: round, roundDebugTurns: 0 };
    if (!usable.length) {
        return { roundLog: [log("no-reviews", state.sql)], ...next, attempts: [{ node: "revise", sql: state.sql, ok: false, note: `round ${round}: every reviewer failed; kept the SQL` }] };
    }
    const turn = await askWriter(deps, state, opts, { role: "user", kind: "reviews", round, content: reviewsTurn(state.sql, usable, failedReviewers.length) });
    const dropped = [droppedNote(turn.dropped), reaskNote(turn.reasks)].filter(Boolean).join("; ");
    const reasks = { writerReasks: state.writerReasks + turn.reasks };
    if (!turn.sql) {
        // Asked again and still no SQL: the loop stops here (stop reason "the writer gave no SQL"), the SQL as it was.
        const note = [dropped, `${turn.error}; kept the previous SQL`].filter(Boolean).join("; ");
        return withCalls({ roundLog: [log("unusable", state.sql)], ...next, ...reasks, history: turn.turns, attempts: [{ node: "revise", sql: state.sql, ok: false, note }] }, turn.records);
    }
    const names = await identifiersOf(deps, state);
    const kept = sameSql(turn.sql, state.sql, names.identifiers);
    const sql = kept ? state.sql : turn.sql;
    return withCalls({
        // roundLog first: `inspect`'s one-line summary of the step shows the outcome before it cuts the line.
        roundLog: [log(kept ? "kept" : "revised", sql)],
        consensus: kept,
        sql,
        ...next,
        ...reasks,
        history: turn.turns,
        attempts: [{ node: "revise", sql, ok: true, ...(dropped || names.note ? { note: [dropped, names.note].filter(Boolean).join("; ") } : {}) }],
    }, turn.records);
};
/**
 * The schema's table and column names, for telling a double-quoted identifier from a double-quoted string. Without
 * them (the schema cannot be read) every double-quoted token stays as written, and the note says so.
 */
async function identifiersOf(deps, state) {
    try {
        const schema = await readSchema(state.dbPath, { descriptionDir: state.descriptionDir || undefined, executor: deps.executor });
        return { identifiers: schemaIdentifiers(schema.tables) };
    }
    catch (error) {
        return { note: `schema unreadable for consensus (${error instanceof Error ? error.message : String(error)}): double-quoted tokens compared as written` };
    }
}
