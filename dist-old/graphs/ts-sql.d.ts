import { Send } from "@langchain/langgraph";
import { type BuildOptions } from "./spec.ts";
import { type Outcome } from "./outcome.ts";
import { type TsSqlStateValue } from "../state/ts-sql.ts";
type Route = "data" | "sample" | "execute" | Send;
/**
 * After the data check: back to the data agent while rounds remain and the rows violate the schema or miss what the
 * linking found (coverage gaps; the candidate SQL has no say, see `checkDataNode`); then one `coder` task per coder
 * model (Send); without usable rows, no test case.
 */
export declare const routeAfterCheck: (options: BuildOptions) => (state: TsSqlStateValue) => Route | Route[];
/** After the test: done when the SQL passes or the revisions are used up; else revise. */
export declare const routeAfterTest: (options: BuildOptions) => (state: TsSqlStateValue) => "revise" | "execute";
/**
 * What a TS-SQL question went through (results.jsonl's `outcome`): the test data built (tables, rows, data turns,
 * violations and coverage gaps left), the test code (how it was chosen, coder turns), each tested SQL's verdict,
 * revisions, and why testing was skipped. Read off the finished state; the audit records it too.
 */
export declare function tsSqlOutcome(raw: Record<string, unknown>): Outcome;
/** report.md's TS-SQL lines: how many questions got a test case and why the rest did not, then the generic sums. */
export declare function summarizeTsSql(outcomes: Outcome[]): string[];
/** TS-SQL as a generator: its own initial SQL (A.1), then the test case and Algorithm 1's revision loop. */
export declare const tsSqlSpec: import("./spec.ts").GraphSpec<{
    schema: import("../index.ts").NodeFactory;
    generate: import("../index.ts").NodeFactory;
    link: import("../index.ts").NodeFactory;
    data: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    sample: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    check: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    coder: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    inspect: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    vote: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    test: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    revise: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    execute: import("../index.ts").NodeFactory;
}>;
/** TS-SQL as a corrector (Table 5): builds the test case for the given SQL and revises it. */
export declare const tsSqlRefineSpec: import("./spec.ts").GraphSpec<{
    link: import("../index.ts").NodeFactory;
    data: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    sample: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    check: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    coder: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    inspect: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    vote: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    test: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    revise: import("../nodes/ts-sql/common.ts").TsSqlNodeFactory;
    execute: import("../index.ts").NodeFactory;
}>;
export {};
