import { END } from "@langchain/langgraph";
import type { SqlStateValue } from "../state/sql-state.ts";
import { DEFAULTS } from "../nodes/common.ts";

/** The debug loop's bound, as `routeAfterExecute` reads it (declared beside the manifests, which count calls with it). */
export { maxFixRoundsOf } from "./manifests/shared.ts";

/** After execute: fix while the SQL fails and rounds remain, else stop. */
export const routeAfterExecute =
  (maxFixRounds: number = DEFAULTS.maxFixRounds) =>
  (state: SqlStateValue): "fix" | typeof END =>
    state.execution && !state.execution.ok && state.fixRounds < maxFixRounds ? "fix" : END;
