import type { R3StateValue } from "../../state/r3.ts";
import type { R3NodeFactory } from "./types.ts";
type LoopOptions = {
    reviewers: number;
    maxReviewTurns: number;
};
/** Why the loop stopped, as the report counts it (`stopReason` says it in a sentence). */
export type StopKind = "consensus" | "round limit" | "writer gave no SQL" | "no reviewers" | "every reviewer failed";
/**
 * Why the review loop stops now, or undefined while it goes on. Asked by the routes when the SQL has been executed
 * and debugged (or kept), so one function decides both whether and why the loop ends.
 */
export declare function stopOf(state: Pick<R3StateValue, "roundLog" | "rounds" | "sql">, opts: LoopOptions): {
    kind: StopKind;
    reason: string;
} | undefined;
export declare const stopReasonOf: (state: Pick<R3StateValue, "roundLog" | "rounds" | "sql">, opts: LoopOptions) => string | undefined;
/** Slot `finish`: records why the loop stopped (no model call). Out: stopReason, stopKind. */
export declare const finishNode: R3NodeFactory;
export {};
