import type { Command } from "@langchain/langgraph";
import type { SelfDebuggingStateUpdate, SelfDebuggingStateValue } from "../../state/baselines.ts";
import type { NodeFactory } from "../types.ts";
/** A self-debugging node: reads the graph's state, returns an update (a replacement may route with a Command). */
type SelfDebuggingNodeFactory = NodeFactory<SelfDebuggingStateValue, SelfDebuggingStateUpdate | Command>;
/**
 * Slot `explain` (role `explainer`). In: question, evidence, schemaText, sql, execution, rounds. Out: explanations
 * (+1), verdict, stopReason — set when the loop ends here: `judged correct`, `turn limit` (wrong, no turns left),
 * `explainer got no reply`; "" when the debugger goes on. A reply with no verdict line counts as wrong (`unclear`).
 */
export declare const explainNode: SelfDebuggingNodeFactory;
/**
 * Slot `debug` (role `debugger`). In: question, evidence, schemaText, sql, execution, the latest explanation. Out:
 * sql (kept, with the reason in attempts, when the reply holds none), rounds + 1.
 */
export declare const debugNode: SelfDebuggingNodeFactory;
export {};
