import { END } from "@langchain/langgraph";
import type { SqlStateValue } from "../state/sql-state.ts";
import { DEFAULTS } from "../nodes/common.ts";

/** The debug loop's bound, as `routeAfterExecute` reads it. */
export const maxFixRoundsOf = (options: { maxFixRounds?: number }): number => options.maxFixRounds ?? DEFAULTS.maxFixRounds;

/** After execute: fix while the SQL fails and rounds remain, else stop. */
export const routeAfterExecute =
  (maxFixRounds: number = DEFAULTS.maxFixRounds) =>
  (state: SqlStateValue): "fix" | typeof END =>
    state.execution && !state.execution.ok && state.fixRounds < maxFixRounds ? "fix" : END;
