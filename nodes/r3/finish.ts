import { readOptions } from "../../core/options.ts";
import type { R3StateValue } from "../../state/r3.ts";
import { R3_LOOP_OPTIONS } from "./options.ts";
import type { R3NodeFactory } from "./types.ts";

type LoopOptions = { reviewers: number; maxReviewTurns: number };

/**
 * Why the review loop stops now, or undefined while it goes on. Asked by the routes when the SQL has been executed
 * and debugged (or kept), so one function decides both whether and why the loop ends.
 */
export function stopReasonOf(state: Pick<R3StateValue, "roundLog" | "rounds" | "sql">, opts: LoopOptions): string | undefined {
  if (opts.reviewers === 0) return "no reviewers: the writer and its debug loop only";
  // Nothing to review (the writer never gave SQL, e.g. its model is down): a panel would only spend calls.
  if (!state.sql.trim()) return "no SQL to review: the writer gave none";
  const last = state.roundLog.at(-1);
  if (last?.outcome === "kept") return `consensus in round ${last.round}: the writer kept its SQL`;
  if (last?.outcome === "no-reviews") return `every reviewer failed in round ${last.round}`;
  if (state.rounds >= opts.maxReviewTurns) return `turn limit: ${state.rounds} review round${state.rounds > 1 ? "s" : ""} without consensus`;
  return undefined;
}

/** Slot `finish`: records why the loop stopped (no model call). Out: stopReason. */
export const finishNode: R3NodeFactory = (_deps, options) => async (state) => ({
  stopReason: stopReasonOf(state, readOptions(R3_LOOP_OPTIONS, options)) ?? "stopped",
});
