import { END } from "@langchain/langgraph";
import type { SqlStateValue } from "../state/sql-state.ts";
import { DEFAULTS } from "../nodes/common.ts";

/** After execute: fix while the SQL fails and rounds remain, else stop. */
export const routeAfterExecute =
  (maxFixRounds: number = DEFAULTS.maxFixRounds) =>
  (state: SqlStateValue): "fix" | typeof END =>
    state.execution && !state.execution.ok && state.fixRounds < maxFixRounds ? "fix" : END;
