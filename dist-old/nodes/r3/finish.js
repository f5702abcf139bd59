import { readOptions } from "../../core/options.js";
import { R3_LOOP_OPTIONS } from "./options.js";
/**
 * Why the review loop stops now, or undefined while it goes on. Asked by the routes when the SQL has been executed
 * and debugged (or kept), so one function decides both whether and why the loop ends.
 */
export function stopOf(state, opts) {
    if (opts.reviewers === 0)
        return { kind: "no reviewers", reason: "no reviewers: the writer and its debug loop only" };
    // Nothing to review (the writer never gave SQL, e.g. its model is down): a panel would only spend calls.
    if (!state.sql.trim())
        return { kind: "writer gave no SQL", reason: "no SQL to review: the writer gave none" };
    const last = state.roundLog.at(-1);
    if (last?.outcome === "kept")
        return { kind: "consensus", reason: `consensus in round ${last.round}: the writer kept its SQL` };
    if (last?.outcome === "no-reviews")
        return { kind: "every reviewer failed", reason: `every reviewer failed in round ${last.round}` };
    // Re-asked and still no SQL: another round would show reviewers the same SQL again.
    if (last?.outcome === "unusable")
        return { kind: "writer gave no SQL", reason: `the writer gave no SQL in round ${last.round} (asked again); kept the previous SQL` };
    if (state.rounds >= opts.maxReviewTurns)
        return { kind: "round limit", reason: `turn limit: ${state.rounds} review round${state.rounds > 1 ? "s" : ""} without consensus` };
    return undefined;
}
export const stopReasonOf = (state, opts) => stopOf(state, opts)?.reason;
/** Slot `finish`: records why the loop stopped (no model call). Out: stopReason, stopKind. */
export const finishNode = (_deps, options) => async (state) => {
    const stop = stopOf(state, readOptions(R3_LOOP_OPTIONS, options));
    return { stopReason: stop?.reason ?? "stopped", stopKind: stop?.kind ?? "" };
};
