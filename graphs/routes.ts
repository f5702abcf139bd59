import { END } from "@langchain/langgraph";
import type { SqlStateValue } from "../state/sql-state.ts";
import { UNCHANGED_RETRY } from "../state/unchanged-retry.ts";
import { DEFAULTS } from "../nodes/common.ts";

/** The debug loop's bound, as `routeAfterExecute` reads it (declared beside the manifests, which count calls with it). */
export { maxFixRoundsOf } from "./manifests/shared.ts";

/** The last fix round asked what an earlier one had (`fixSqlNode`): the next would too, so the loop ends. */
const fixUnchanged = (state: SqlStateValue) => !!state.attempts.findLast((a) => a.node === "fix")?.note?.startsWith(UNCHANGED_RETRY);

/** After execute: fix while the SQL fails, rounds remain and the last round was not an unchanged retry, else stop. */
export const routeAfterExecute =
  (maxFixRounds: number = DEFAULTS.maxFixRounds) =>
  (state: SqlStateValue): "fix" | typeof END =>
    state.execution && !state.execution.ok && state.fixRounds < maxFixRounds && !fixUnchanged(state) ? "fix" : END;
