import { baselineOptions } from "./manifests/baseline.ts";
export { baselineOptions };
/**
 * The baseline: [link →] schema → generate → execute → fix on error (at most maxFixRounds) → done.
 * With --link, the link slot first finds the columns and stored values the question names, and the schema shows them.
 * The initial text-to-SQL method that correctors revise, and the control in every comparison.
 */
export declare const baselineSpec: import("./spec.ts").GraphSpec<{
    link: import("../index.ts").NodeFactory;
    schema: import("../index.ts").NodeFactory;
    generate: import("../index.ts").NodeFactory;
    execute: import("../index.ts").NodeFactory;
    fix: import("../index.ts").NodeFactory;
}>;
