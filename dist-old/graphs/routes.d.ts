import { END } from "@langchain/langgraph";
import type { SqlStateValue } from "../state/sql-state.ts";
/** The debug loop's bound, as `routeAfterExecute` reads it (declared beside the manifests, which count calls with it). */
export { maxFixRoundsOf } from "./manifests/shared.ts";
/** After execute: fix while the SQL fails and rounds remain, else stop. */
export declare const routeAfterExecute: (maxFixRounds?: number) => (state: SqlStateValue) => "fix" | typeof END;
