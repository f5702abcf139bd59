import { readOptions } from "../../core/options.js";
import { withCalls } from "../common.js";
import { R3_LOOP_OPTIONS } from "./options.js";
import { errorTurn, noSqlTurn } from "./prompts.js";
import { askWriter, droppedNote, reaskNote } from "./writer.js";
/**
 * Slot `debug` (role "writer"): the debug loop's turn. H ← H + e; y' = LLM(H); H ← H + y'. In: sql, execution
 * (failed), history; with no SQL at all the writer is asked for one afresh rather than shown an empty query. Out: sql,
 * history, fixRounds + 1, roundDebugTurns + 1. An unusable reply keeps the SQL and still counts the turn, so the loop
 * ends.
 */
export const debugNode = (deps, options) => async (state) => {
    const opts = readOptions(R3_LOOP_OPTIONS, options);
    const error = state.execution && !state.execution.ok ? `${state.execution.errorKind}: ${state.execution.error}` : "unknown error";
    const content = state.sql.trim() ? errorTurn(state.sql, error) : noSqlTurn();
    const turn = await askWriter(deps, state, opts, { role: "user", kind: "error", round: state.rounds, content });
    const note = [droppedNote(turn.dropped), reaskNote(turn.reasks), turn.sql ? undefined : `${turn.error}; kept the previous SQL`].filter(Boolean).join("; ") || undefined;
    return withCalls({
        history: turn.turns,
        ...(turn.sql ? { sql: turn.sql } : {}),
        fixRounds: state.fixRounds + 1,
        roundDebugTurns: state.roundDebugTurns + 1,
        writerReasks: state.writerReasks + turn.reasks,
        attempts: [{ node: "debug", sql: turn.sql ?? state.sql, ok: !!turn.sql, ...(note ? { note } : {}) }],
    }, turn.records);
};
