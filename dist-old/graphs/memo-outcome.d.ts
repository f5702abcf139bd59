import { type OutcomeSpec } from "./outcome.ts";
export declare const memoSqlOutcome: OutcomeSpec;
export declare const memoRefineOutcome: OutcomeSpec;
