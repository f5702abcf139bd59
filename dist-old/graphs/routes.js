import { END } from "@langchain/langgraph";
import { DEFAULTS } from "../nodes/common.js";
/** The debug loop's bound, as `routeAfterExecute` reads it (declared beside the manifests, which count calls with it). */
export { maxFixRoundsOf } from "./manifests/shared.js";
/** After execute: fix while the SQL fails and rounds remain, else stop. */
export const routeAfterExecute = (maxFixRounds = DEFAULTS.maxFixRounds) => (state) => state.execution && !state.execution.ok && state.fixRounds < maxFixRounds ? "fix" : END;
