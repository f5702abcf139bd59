import type { ChatInput } from "../../tools/models/llm.ts";
import type { TestResult, TestTablesValue } from "../../state/ts-sql.ts";
/** JSON for a prompt: a string cell longer than a few lines (a test code may return a megabyte) is cut and measured. */
export declare const showJson: (value: unknown) => string;
/** The test tables as JSON, a line per row (rows beyond a cap are counted, not shown). */
export declare function showTables(tables: TestTablesValue): string;
export declare function showResult(result: TestResult | undefined, limit?: number): string;
/**
 * The 1-shot example of the data agent (A.3) and the coder (A.4), written for this project: a small library schema,
 * a question with a condition, a join, a grouping and a "most", test rows that cover each condition both ways with
 * a single right answer, and the commented test code that answers it. `test/ts-sql-checks.test.ts` loads the rows
 * into the schema, runs the code in the sandbox and the SQL on the rows, and checks all three agree with `expected`.
 */
export declare const ONE_SHOT: {
    schema: string;
    foreignKeys: string;
    question: string;
    evidence: string;
    tables: TestTablesValue;
    reasoning: string;
    code: string;
    expected: TestResult;
    /** A query that answers the question (the example's own check; never shown to an agent as a hint). */
    sql: string;
};
export declare function dataPrompt(args: {
    schema: string;
    foreignKeys: string;
    relevant: string;
    question: string;
    evidence: string;
    feedback?: {
        previous: string;
        problems: string;
    };
}): ChatInput[];
export declare function coderPrompt(args: {
    schema: string;
    foreignKeys: string;
    /** The test rows; null under `--no-data-agent schema` (Table 4: the code is written from the schema alone). */
    tables: TestTablesValue | null;
    dbId: string;
    question: string;
    evidence: string;
    previous?: {
        code: string;
        result?: TestResult;
        problem: string;
    };
}): ChatInput[];
/** The `noTestCode` ablation (Table 4, w/o CG): the expected result predicted directly from the data. */
export declare function expectedResultPrompt(args: {
    schema: string;
    foreignKeys: string;
    tables: TestTablesValue;
    question: string;
    evidence: string;
    previous?: {
        reply: string;
        problem: string;
    };
}): ChatInput[];
export declare function selectPrompt(args: {
    schema: string;
    foreignKeys: string;
    tables: TestTablesValue;
    question: string;
    evidence: string;
    a: {
        code: string;
        result?: TestResult;
    };
    b: {
        code: string;
        result?: TestResult;
    };
}): ChatInput[];
export declare function revisePrompt(args: {
    schema: string;
    question: string;
    evidence: string;
    tables: TestTablesValue;
    code: string;
    codeKind: "code" | "prediction";
    expected: TestResult;
    sql: string;
    sqlResult?: TestResult;
    sqlError?: string;
}): ChatInput[];
