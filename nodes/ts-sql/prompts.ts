import type { ChatInput } from "../../tools/models/llm.ts";
import { questionBlock } from "../prompts.ts";
import type { TestResult, TestTablesValue } from "../../state/ts-sql.ts";
import { columnarTables } from "../../state/ts-sql-tables.ts";
export { columnarTables };

/**
 * TS-SQL's prompts (Appendix A), in our own words. Who sees what:
 *   data agent (A.3)   — relevant tables a line each (`compactSchema`), only the columns the question needs (the
 *                        others counted and said to be left NULL), foreign keys inline, linked columns and values,
 *                        a few example values of the real database, question, evidence; writes synthetic rows
 *                        (each table's columns once, rows as arrays).
 *   coder (A.4, A.5)   — each test table's columns (types and keys, no values) over a sample of its synthetic rows
 *                        (at most CODER_ROWS_SHOWN a table), question, evidence; the 1-shot example on its first
 *                        turn only.
 *   selector (A.6)     — the same plus two candidate codes and their results on the synthetic rows.
 *   reviser (A.2)      — schema without values, a few synthetic rows (REVISER_ROWS_SHOWN a table), test code,
 *                        expected result, the SQL and its result or error on the synthetic rows. Never a row of the
 *                        real database.
 */

/**
 * Rows of each test table a prompt shows. The coder sees a sample (A.4's "DataFrames with data samples"; its code runs
 * on every row), the reviser fewer (A.2 shows none: the test code and both results carry the feedback), and each
 * prompt says how many it left out. The outcome counts them (`coderRowsNotShown`, `reviserRowsNotShown`).
 */
export const CODER_ROWS_SHOWN = 5;
export const REVISER_ROWS_SHOWN = 3;
/** Rows of a result (the expected one, the SQL's, a code's) a prompt shows. */
export const RESULT_ROWS_SHOWN = 10;

const MAX_CELL_CHARS = 200;

/** JSON for a prompt: a string cell longer than a few lines (a test code may return a megabyte) is cut and measured. */
export const showJson = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (typeof v === "string" && v.length > MAX_CELL_CHARS ? `${v.slice(0, MAX_CELL_CHARS)}… (${v.length} characters)` : v), 0);

/** Rows of `tables` a prompt showing at most `maxRows` a table leaves out. */
export const rowsNotShown = (tables: TestTablesValue, maxRows: number): number => Object.values(tables).reduce((n, rows) => n + Math.max(0, rows.length - maxRows), 0);

/**
 * The test tables for a prompt: per table its columns once, then a JSON array per row (keys are not repeated on
 * every row); at most `maxRows` rows a table, the rest counted ("... 4 more rows not shown").
 */
export function showTables(tables: TestTablesValue, maxRows = Number.POSITIVE_INFINITY, headers: Record<string, string> = {}): string {
  return Object.entries(tables)
    .map(([name, rows]) => {
      const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
      const shown = rows.slice(0, maxRows).map((r) => `  ${showJson(columns.map((c) => r[c] ?? null))}`);
      const more = rows.length > maxRows ? [`  ... ${rows.length - maxRows} more rows not shown`] : [];
      // A header naming the columns with their types and keys (`testTableHeaders`, in the same order) replaces the list.
      const head = headers[name] ? `${name} (${rows.length} rows): ${headers[name]}` : `${name} (${rows.length} rows; columns ${columns.join(", ")})`;
      return `${head}:\n${[...shown, ...more].join("\n")}`;
    })
    .join("\n");
}

export function showResult(result: TestResult | undefined, limit = RESULT_ROWS_SHOWN): string {
  if (!result) return "(none)";
  if (!result.rows.length) return `columns ${showJson(result.columns)}; no rows`;
  const rows = result.rows.slice(0, limit).map((r) => `  ${showJson(r)}`);
  const more = result.rows.length > limit ? `\n  ... ${result.rows.length - limit} more rows not shown` : "";
  return `columns ${showJson(result.columns)}; ${result.rows.length} row(s):\n${rows.join("\n")}${more}`;
}

/**
 * The 1-shot example of the data agent (A.3) and the coder (A.4), written for this project and kept small (issue 32:
 * one example, ~200 tokens): two tables, a question with a condition, a join, a grouping and a "most", test rows
 * that cover each condition both ways with a single right answer, and the commented test code that answers it.
 * `test/ts-sql-checks.test.ts` loads the rows into the schema, runs the code in the sandbox and the SQL on the rows,
 * and checks all three agree with `expected` and that dropping either condition changes the answer.
 */
export const ONE_SHOT = {
  schema:
    "CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT);\n" +
    "CREATE TABLE book (id INTEGER PRIMARY KEY, author_id INTEGER NOT NULL REFERENCES author(id), year INTEGER);",
  /** The same tables' columns as the prompts show them (`compactSchema`, `testTableHeaders`). */
  headers: { author: "id INTEGER key; name TEXT not null; country TEXT", book: "id INTEGER key; author_id INTEGER not null -> author.id; year INTEGER" },
  question: "Which French author wrote the most books published after 2000?",
  evidence: "French refers to country = 'France'; after 2000 refers to year > 2000",
  tables: {
    author: [
      { id: 1, name: "Claire Roux", country: "France" },
      { id: 2, name: "Paul Martin", country: "France" },
      { id: 3, name: "Anna Weber", country: "Germany" },
    ],
    book: [
      { id: 1, author_id: 1, year: 2004 },
      { id: 2, author_id: 2, year: 1995 },
      { id: 3, author_id: 2, year: 2000 },
      { id: 4, author_id: 3, year: 2005 },
      { id: 5, author_id: 3, year: 2009 },
    ],
  } as TestTablesValue,
  reasoning:
    "Claire Roux has one book after 2000; Paul Martin has more books but none after 2000 (2000 is not after 2000), so a " +
    "query without the year filter picks him; Anna Weber has the most after 2000 but is German, so a query without the " +
    "country filter picks her. One right answer, no tie.",
  code:
    "// French authors (evidence: country = 'France')\n" +
    "const french = new Map(tables.author.filter((a) => a.country === \"France\").map((a) => [a.id, a.name]));\n" +
    "// count their books published strictly after 2000\n" +
    "const counts = new Map();\n" +
    "for (const b of tables.book) if (french.has(b.author_id) && b.year > 2000) counts.set(b.author_id, (counts.get(b.author_id) ?? 0) + 1);\n" +
    "// most books first; keep only the name the question asks for\n" +
    "const [best] = [...counts].sort((x, y) => y[1] - x[1]);\n" +
    "result = best ? [{ name: french.get(best[0]) }] : [];",
  expected: { columns: ["name"], rows: [["Claire Roux"]] } as TestResult,
  /** A query that answers the question (the example's own check; never shown to an agent as a hint). */
  sql:
    "SELECT a.name FROM author a JOIN book b ON b.author_id = a.id WHERE a.country = 'France' AND b.year > 2000 " +
    "GROUP BY a.id ORDER BY COUNT(*) DESC LIMIT 1",
};


const ONE_SHOT_BLOCK = (part: "data" | "code") =>
  "Example (another database):\n" +
  (part === "data"
    ? `Tables:\n${Object.entries(ONE_SHOT.headers).map(([t, h]) => `${t}: ${h}`).join("\n")}\n${questionBlock(ONE_SHOT.question, ONE_SHOT.evidence)}\n` +
      `Reasoning: ${ONE_SHOT.reasoning}\n\`\`\`json\n${JSON.stringify({ tables: columnarTables(ONE_SHOT.tables) })}\n\`\`\``
    : `Tables and test data:\n${showTables(ONE_SHOT.tables, Number.POSITIVE_INFINITY, ONE_SHOT.headers)}\n${questionBlock(ONE_SHOT.question, ONE_SHOT.evidence)}\n` +
      `\`\`\`javascript\n${ONE_SHOT.code}\n\`\`\``) +
  "\n(End of the example.)";

const DATA_SYSTEM =
  "You are a software tester who designs small synthetic test databases for SQL questions. You write rows that " +
  "respect every constraint of the schema and that make the question's answer unambiguous.";

export function dataPrompt(args: {
  /** The tables as `compactSchema` shows them (with example values), foreign keys inline. */
  schema: string;
  relevant: string;
  question: string;
  evidence: string;
  feedback?: { previous: string; problems: string };
}): ChatInput[] {
  const retry = args.feedback
    ? `\n\nYour previous test data:\n${args.feedback.previous}\n\nIt cannot be used as it is:\n${args.feedback.problems}\nWrite the whole test data again, fixed.`
    : "";
  return [
    { role: "system", content: DATA_SYSTEM },
    {
      role: "user",
      content:
        `${ONE_SHOT_BLOCK("data")}\n\n` +
        "Tables (the real schema, only the tables and columns this question needs; rows are loaded into it with every " +
        `constraint enforced and foreign keys on, a column not shown is left NULL):\n${args.schema}\n\n` +
        `What the question refers to:\n${args.relevant || "(nothing linked)"}\n\n` +
        `${questionBlock(args.question, args.evidence)}\n\n` +
        "Write test data for this question:\n" +
        "- 3 to 8 rows per table (more only where the question names a larger count, as in \"at least 10\"), for each " +
        "table under \"What the question refers to\" and the tables their foreign keys point to;\n" +
        "- rows that satisfy every condition of the question and rows that fail each one, so a wrong query gives another answer;\n" +
        "- a single right answer: no ties at a maximum or minimum unless the question allows them;\n" +
        "- values written as the real database writes them (the examples' codes, formats and spelling).\n" +
        'Reply with one JSON object in a ```json block: {"tables": {"<table>": {"columns": ["<column>", ...], "rows": [[value, ...], ...]}}}, ' +
        "each row's values in its columns' order; values are numbers, strings or null." +
        retry,
    },
  ];
}

const CODE_SYSTEM =
  "You are a data scientist who answers questions about tables by writing plain JavaScript (no SQL, no libraries).";

const CODE_RULES =
  "Rules for the code:\n" +
  "- `tables.<name>` (also the global `<name>`) is an array of row objects {column: value}; plain JavaScript only " +
  "(filter, map, reduce, sort, Set, Map), no SQL, require or import;\n" +
  "- assign the answer to a top-level `result`: row objects holding exactly the columns the question asks for, in " +
  "its order (not those used only to sort or filter), or a single number or string;\n" +
  "- for a highest or lowest, sort and take the first rows rather than matching the maximum;\n" +
  "- comment each step: what it computes and why.\n" +
  "Reply with the code in one ```javascript block.";

export function coderPrompt(args: {
  /** The tables as `compactSchema` shows them, foreign keys inline (shown when `headers` is not given). */
  schema: string;
  /**
   * Per test table its columns described (`testTableHeaders`), shown over its rows instead of a separate schema,
   * with `notes` (column descriptions) after them.
   */
  headers?: Record<string, string>;
  notes?: string;
  /** The test rows; null under `--no-data-agent schema` (Table 4: the code is written from the schema alone). */
  tables: TestTablesValue | null;
  dbId: string;
  question: string;
  evidence: string;
  previous?: { code: string; result?: TestResult; problem: string };
}): ChatInput[] {
  const retry = args.previous
    ? `\n\nYour previous code:\n\`\`\`javascript\n${args.previous.code}\n\`\`\`\nIts result: ${showResult(args.previous.result)}\n` +
      `Inspection found a problem: ${args.previous.problem}\nRevise the code so it runs and answers the question.`
    : "";
  const tablesBlock =
    args.tables && args.headers
      ? `Tables and test data (each table's columns, then its rows as arrays in that order; at most ${CODER_ROWS_SHOWN} rows of each table shown; the code runs on every row):\n` +
        `${showTables(args.tables, CODER_ROWS_SHOWN, args.headers)}${args.notes ? `\n\nColumn descriptions:\n${args.notes}` : ""}`
      : `Tables:\n${args.schema}\n\n` +
        (args.tables
          ? `Test data (at most ${CODER_ROWS_SHOWN} rows of each table shown; the code runs on every row):\n${showTables(args.tables, CODER_ROWS_SHOWN)}`
          : "Test data:\n(not shown: write the code from the tables' structure above; it runs on the database's rows, each table as tables.<name>)");
  return [
    { role: "system", content: CODE_SYSTEM },
    {
      role: "user",
      content:
        // The example opens the first turn only: an inspection round (A.5) revises the model's own code.
        (args.previous ? "" : `${ONE_SHOT_BLOCK("code")}\n\n`) +
        `Database: ${args.dbId || "(unnamed)"}\n${tablesBlock}\n\n${questionBlock(args.question, args.evidence)}\n\n${CODE_RULES}${retry}`,
    },
  ];
}

/** The `noTestCode` ablation (Table 4, w/o CG): the expected result predicted directly from the data. */
export function expectedResultPrompt(args: {
  schema: string;
  tables: TestTablesValue;
  question: string;
  evidence: string;
  previous?: { reply: string; problem: string };
}): ChatInput[] {
  const retry = args.previous ? `\n\nYour previous answer:\n${args.previous.reply}\nProblem: ${args.previous.problem}\nAnswer again.` : "";
  return [
    { role: "system", content: "You answer questions about small tables by reading them carefully." },
    {
      role: "user",
      content:
        `Tables:\n${args.schema}\n\nTest data:\n${showTables(args.tables)}\n\n` +
        `${questionBlock(args.question, args.evidence)}\n\n` +
        "What is the answer on exactly this data? Think it through, then reply with one JSON object in a ```json block: " +
        '{"columns": ["<column>", ...], "rows": [[value, ...], ...]} holding only the columns the question asks for.' +
        retry,
    },
  ];
}

export function selectPrompt(args: {
  schema: string;
  tables: TestTablesValue;
  question: string;
  evidence: string;
  a: { code: string; result?: TestResult };
  b: { code: string; result?: TestResult };
}): ChatInput[] {
  return [
    {
      role: "system",
      content:
        "Two candidate programs answer the same question on the same tables, with different results. One is right. " +
        "Compare what each computes and what it returns against the question, and pick the right one.",
    },
    {
      role: "user",
      content:
        `Tables:\n${args.schema}\n\n` +
        `Test data (at most ${CODER_ROWS_SHOWN} rows of each table shown; both programs ran on every row):\n${showTables(args.tables, CODER_ROWS_SHOWN)}\n\n` +
        `${questionBlock(args.question, args.evidence)}\n\n` +
        `Candidate A:\n\`\`\`javascript\n${args.a.code}\n\`\`\`\nResult: ${showResult(args.a.result)}\n\n` +
        `Candidate B:\n\`\`\`javascript\n${args.b.code}\n\`\`\`\nResult: ${showResult(args.b.result)}\n\n` +
        "Reply with <answer>A</answer> or <answer>B</answer>.",
    },
  ];
}

export function revisePrompt(args: {
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
}): ChatInput[] {
  const logic =
    args.codeKind === "code"
      ? `Test code (computes the expected result on the test data):\n\`\`\`javascript\n${args.code}\n\`\`\`\n\n`
      : "";
  const outcome = args.sqlError ? `The SQL fails on the test data: ${args.sqlError}` : `The SQL's result on the test data: ${showResult(args.sqlResult)}`;
  return [
    {
      role: "system",
      content:
        "You are an expert in SQLite. A test case checks a query: test data, and the result the question should " +
        "give on it. Reply with one SQLite query in a ```sql fenced block, the last block of your reply.",
    },
    {
      role: "user",
      content:
        `Database schema:\n${args.schema}\n\n${questionBlock(args.question, args.evidence)}\n\n` +
        `Test data (at most ${REVISER_ROWS_SHOWN} rows of each table shown; the results below are on every row):\n${showTables(args.tables, REVISER_ROWS_SHOWN)}\n\n${logic}` +
        `Expected result on the test data: ${showResult(args.expected)}\n\n` +
        `Generated SQL:\n\`\`\`sql\n${args.sql}\n\`\`\`\n${outcome}\n\n` +
        "The SQL does not pass the test. Work out, step by step, where the SQL departs from the question" +
        `${args.codeKind === "code" ? " and from the logic of the test code" : ""}, then write the revised SQL for the real database.`,
    },
  ];
}
