import { type TsSqlNodeFactory } from "./common.ts";
/** The last ```javascript block of a reply (else the last unlabelled block); null when there is none. */
export declare function extractCode(reply: string): string | null;
/**
 * Slot `coder` (role "coder", §3.1.2, A.4 / A.5). One turn of one coder model, run under `Send` with `coderTask`
 * {model, round}. In: testData, question, evidence, the model's previous candidate and inspection problem. Out:
 * codeCandidates (this model's entry), then on to `inspect` with the same task. The temperature rises 0.01 a round.
 * Under `noTestCode` the model predicts the expected result (JSON) instead of writing code.
 */
export declare const coderNode: TsSqlNodeFactory;
/**
 * Slot `inspect` (§3.1.3, A.5): runs the candidate code on the test data in the sandbox. An error, an empty result
 * or code without comments goes back to the same coder model (a new `coder` task, round + 1) while refinements
 * remain; otherwise the candidate is final and `vote` is told. No model call. Under `noInspection` the first code
 * is final whatever it gives.
 */
export declare const inspectNode: TsSqlNodeFactory;
