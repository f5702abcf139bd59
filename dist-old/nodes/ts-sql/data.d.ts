import { z } from "zod";
import { type TestData, type TestTablesValue } from "../../state/ts-sql.ts";
import type { DbSchema } from "../../tools/schema.ts";
import type { Linking } from "../../state/linking.ts";
import { type TsSqlNodeFactory } from "./common.ts";
/**
 * The data agent's reply schema for one question: its tables by name, each a list of rows naming that table's
 * columns (a JSON scalar or null each). What is sent to the server is strict-mode JSON schema (every property listed
 * and required, no others), so a schema-following model knows which tables and columns to fill and a strict
 * `json_schema` server takes it as it is. Parsing is looser than what is asked: a table left out has no rows, a column
 * left out takes its default (as an INSERT without it would), names match whatever their case; an unknown table or
 * column is refused and asked again.
 */
export declare function dataReplySchema(schema: DbSchema, tables: string[]): z.ZodObject<{
    tables: z.ZodPreprocess<z.ZodObject<{
        [x: string]: z.ZodOptional<z.ZodArray<z.ZodPreprocess<z.ZodObject<{
            [x: string]: z.ZodOptional<z.ZodUnion<readonly [z.ZodNull, z.ZodNumber, z.ZodString, z.ZodBoolean]>>;
        }, z.core.$strict>, unknown>>>;
    }, z.core.$strict>, unknown>;
}, z.core.$strict>;
/**
 * What goes back to the data agent: the schema violations and the coverage gaps (linked tables without rows, linked
 * values absent). Never what the candidate SQL made of the data: a wrong candidate must not shape the test data.
 */
export declare function dataProblems(data: TestData | null): string;
/**
 * Slot `data` (role "data", §3.1.1, A.3). In: question, evidence, linking, sql, testData (the previous attempt and
 * its problems). Out: testData (tables only; `checkData` loads them), dataRounds + 1. A bad reply keeps the previous
 * data and says why.
 */
export declare const dataNode: TsSqlNodeFactory;
/**
 * Slot `sample` (`--no-data-agent schema|sample`, the paper's w/o DG set-ups): test rows sampled from the real
 * database instead of the data agent — 1/10 of each relevant table's rows (Figure 4), at most SAMPLE_CAP a table
 * (`cappedOf` says where) — with the rows their foreign keys point to. No model call. Real rows then reach the
 * reviser's prompt, and the coder's under `sample` (under `schema` the coder sees the schema alone, Table 4).
 */
export declare const sampleDataNode: TsSqlNodeFactory;
/**
 * Coverage gaps of test data (§3.1.1's "high coverage", checked without any SQL): a table the linking points to
 * that has no row, and for each keyword that matched stored values, its best-scored value absent from that column.
 * These depend on the question alone, never on the candidate SQL being right.
 */
export declare function coverageGaps(linking: Linking | null, tables: string[], kept: TestTablesValue): string[];
/**
 * Slot `check` (the scratch database). In: testData, linking, sql. Loads the rows into an in-memory database built
 * from the real CREATE statements (constraints enforced, foreign keys on); the rows the database kept become
 * testData.tables (`given` keeps the rows as written when some were refused). Non-duality without a gold query:
 * the schema violations and the gaps go back to the data agent — coverage (`coverageGaps`: linked tables non-empty,
 * linked values present) and discrimination (the candidate's variants that disagree with it on the real database,
 * `sqlVariants`, must disagree on the test data: which of the two is right does not matter). What the candidate
 * itself finds in the data is only recorded (`sqlRan`, `sqlRows`, `sqlNote`), never a reason to ask for other data:
 * a wrong candidate would otherwise get data shaped to fit it.
 * No model call.
 */
export declare const checkDataNode: TsSqlNodeFactory;
