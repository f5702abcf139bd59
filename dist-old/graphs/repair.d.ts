/**
 * The debug loop alone, as a corrector: execute the given SQL, fix execution errors up to maxFixRounds.
 * The simplest corrector, and the reference for how correctors take initial SQL (`--initial`).
 */
export declare const repairSpec: import("./spec.ts").GraphSpec<{
    schema: import("../index.ts").NodeFactory;
    execute: import("../index.ts").NodeFactory;
    fix: import("../index.ts").NodeFactory;
}>;
/**
 * The given SQL, executed and left as it is: another system's predictions (`--initial FILE --correct all`) become a
 * run with eval's outputs — results.jsonl, report.md, report.html — that `compare` and experiments put beside ours.
 */
export declare const asGivenSpec: import("./spec.ts").GraphSpec<{
    execute: import("../index.ts").NodeFactory;
}>;
