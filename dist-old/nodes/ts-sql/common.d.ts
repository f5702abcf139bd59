import type { Linking } from "../../state/linking.ts";
import type { ChatInput } from "../../tools/models/llm.ts";
import type { TestResult, TsSqlStateUpdate, TsSqlStateValue } from "../../state/ts-sql.ts";
import type { JsonScalar } from "../../tools/sandbox/sandbox.ts";
import { type DbSchema } from "../../tools/schema.ts";
import type { Row, ScratchExecutor, SqlExecutor, SqlValue } from "../../tools/sqlite/types.ts";
import type { NodeDeps, NodeFactory } from "../types.ts";
import type { Command } from "@langchain/langgraph";
/** A prompt's fingerprint (sha256 of its messages), to tell a retry that would send the same prompt again. */
export declare const promptHash: (messages: readonly ChatInput[]) => string;
/** A TS-SQL node: reads TS-SQL's state; returns an update, or a Command where it routes a loop itself. */
export type TsSqlNodeFactory = NodeFactory<TsSqlStateValue, TsSqlStateUpdate | Command>;
export interface SchemaFacts {
    schema: DbSchema;
    /** CREATE TABLE text as the database declares it, by table name. */
    ddl: Map<string, string>;
}
/** The database's structure (no rows): described tables and their CREATE statements. */
export declare function schemaFacts(deps: NodeDeps, state: Pick<TsSqlStateValue, "dbPath" | "descriptionDir">): Promise<SchemaFacts>;
/**
 * The tables a test case needs: those the linking found, those the candidate SQL names, and the tables their
 * foreign keys point to (rows must have parents). All tables when nothing points anywhere.
 */
export declare function relevantTables(schema: DbSchema, linking: Linking | null, sql: string): string[];
export declare function foreignKeyLines(schema: DbSchema, tables: string[]): string;
/** CREATE statements of some tables: structure only, never a value. */
export declare function ddlText(facts: SchemaFacts, tables: string[]): string;
/** A cell as a JSON scalar (64-bit integers beyond 2^53 as strings, blobs as hex). */
export declare function jsonCell(value: SqlValue): JsonScalar;
export declare const toTestResult: (columns: string[], rows: Row[]) => TestResult;
/**
 * How a test compares results (Algorithm 1, line 5). Rows are a multiset (duplicates count, column order free), so
 * a missing or wrong DISTINCT and a duplicated row still fail (the shared BIRD set semantics would let both pass).
 * Row order counts only when order is asked for — the question asks for it, or the tested SQL orders its rows
 * (`ORDER BY` at the top, not under `LIMIT 1`) — and the test code sorts (else its order means nothing). A test
 * code's `.sort(` "for readability" does not make order count.
 */
export type Comparison = "ordered" | "multiset";
/** Whether test code sorts (`.sort(` / `.toSorted(` outside comments and strings): its row order is then deliberate. */
export declare function codeOrders(code: string): boolean;
export declare const questionOrders: (question: string) => boolean;
/** Whether an SQL orders its rows: a top-level ORDER BY whose LIMIT is not 1 (one row has no order). */
export declare function sqlOrders(sql: string): boolean;
/**
 * The comparison of one test run: ordered when order is asked for (`questionOrders`, `sqlOrders`) and the test code
 * sorts; a multiset otherwise, and always for a predicted result (no code).
 */
export declare const comparisonOf: (testCode: {
    code: string;
} | null | undefined, kind: "code" | "prediction", asked: {
    question: string;
    sql: string;
}) => Comparison;
/** The SQL's result against the expected one: Spider's multiset comparison (column order free), ordered when asked. */
export declare function matchesExpected(sqlRows: readonly (readonly (JsonScalar | SqlValue)[])[], expected: TestResult, comparison?: Comparison): boolean;
/**
 * No answer at all: no rows, or only NULLs (an aggregate over no matching rows returns one row of NULL). Test data
 * on which the question's answer is that says nothing about the SQL, so non-duality and inspection both refuse it.
 */
export declare const isEmptyAnswer: (rows: readonly (readonly unknown[])[]) => boolean;
/** The scratch-database executor, or why this run has none. */
export declare function scratchOf(executor: SqlExecutor): ScratchExecutor | undefined;
export { codersOf } from "./options.ts";
export declare const coderLabel: (model: string) => string;
/** BIRD's column descriptions of some tables (documentation, not rows), a line each. */
export declare function descriptionLines(schema: DbSchema, tables: string[]): string;
/** A variant of a candidate SQL that differs in one thing a test can see (`sqlVariants`). */
export interface SqlVariant {
    kind: "distinct" | "limit" | "order";
    sql: string;
}
/**
 * Variants of the candidate that differ from it in one way a test compares: DISTINCT toggled on the outer SELECT, the
 * outer LIMIT dropped, the outer ORDER BY's directions flipped. When the candidate and a variant disagree on the real
 * database, the test data must tell them apart too — whichever of the two is right (non-duality in the paper's sense:
 * one result per reading of the question). Never used to make the candidate's own answer non-empty.
 */
export declare function sqlVariants(sql: string): SqlVariant[];
/** What the data agent is told when its rows cannot tell a variant from the candidate (never the SQL itself). */
export declare const VARIANT_GAPS: Record<SqlVariant["kind"], string>;
