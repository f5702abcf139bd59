import type { ChatInput } from "../../tools/models/llm.ts";
import { questionBlock } from "../prompts.ts";
import type { TestResult, TestTablesValue } from "../../state/ts-sql.ts";

/**
 * TS-SQL's prompts (Appendix A), in our own words. Who sees what:
 *   data agent (A.3)   — relevant tables' CREATE statements, foreign keys, linked columns and values, a few example
 *                        values of the real database, question, evidence; writes synthetic rows.
 *   coder (A.4, A.5)   — CREATE statements (no values), foreign keys, the synthetic rows, question, evidence.
 *   selector (A.6)     — the same plus two candidate codes and their results on the synthetic rows.
 *   reviser (A.2)      — schema without values, the synthetic rows, test code, expected result, the SQL and its
 *                        result or error on the synthetic rows. Never a row of the real database.
 */

const MAX_ROWS_SHOWN = 50;

const MAX_CELL_CHARS = 200;

/** JSON for a prompt: a string cell longer than a few lines (a test code may return a megabyte) is cut and measured. */
export const showJson = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (typeof v === "string" && v.length > MAX_CELL_CHARS ? `${v.slice(0, MAX_CELL_CHARS)}… (${v.length} characters)` : v), 0);

/** The test tables as JSON, a line per row (rows beyond a cap are counted, not shown). */
export function showTables(tables: TestTablesValue): string {
  return Object.entries(tables)
    .map(([name, rows]) => {
      const shown = rows.slice(0, MAX_ROWS_SHOWN).map((r) => `  ${showJson(r)}`);
      const more = rows.length > MAX_ROWS_SHOWN ? [`  ... ${rows.length - MAX_ROWS_SHOWN} more rows`] : [];
      return `${name} (${rows.length} rows):\n${[...shown, ...more].join("\n")}`;
    })
    .join("\n");
}

export function showResult(result: TestResult | undefined, limit = 20): string {
  if (!result) return "(none)";
  if (!result.rows.length) return `columns ${showJson(result.columns)}; no rows`;
  const rows = result.rows.slice(0, limit).map((r) => `  ${showJson(r)}`);
  const more = result.rows.length > limit ? `\n  ... ${result.rows.length - limit} more rows` : "";
  return `columns ${showJson(result.columns)}; ${result.rows.length} row(s):\n${rows.join("\n")}${more}`;
}

const DATA_SYSTEM =
  "You are a software tester who designs small synthetic test databases for SQL questions. You write rows that " +
  "respect every constraint of the schema and that make the question's answer unambiguous.";

export function dataPrompt(args: {
  schema: string;
  foreignKeys: string;
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
        `Tables (the real schema; rows you write are loaded into it with every constraint enforced and foreign keys on):\n${args.schema}\n\n` +
        `Foreign keys:\n${args.foreignKeys || "(none)"}\n\n` +
        `What the question refers to:\n${args.relevant || "(nothing linked)"}\n\n` +
        `${questionBlock(args.question, args.evidence)}\n\n` +
        "Write test data for this question:\n" +
        "- 3 to 8 rows per table, only for the tables the question needs (and the tables their foreign keys point to);\n" +
        "- rows that cover the question: some that satisfy every condition of the question and some that fail each one, " +
        "so that a wrong query gives a different answer than the right one;\n" +
        "- a single right answer: no ties at a maximum or minimum unless the question allows them;\n" +
        "- values written the way the real database writes them (same codes, formats and spelling as the examples).\n" +
        'Reply with one JSON object in a ```json block: {"tables": {"<table>": [{"<column>": value, ...}, ...]}}. ' +
        "Values are numbers, strings or null." +
        retry,
    },
  ];
}

const CODE_SYSTEM =
  "You are a data scientist who answers questions about tables by writing plain JavaScript (no SQL, no libraries).";

const CODE_RULES =
  "Rules for the code:\n" +
  "- `tables.<name>` is an array of row objects ({column: value}); each table is also a global of its name;\n" +
  "- compute the answer with plain JavaScript (filter, map, reduce, sort, Set, Map); no SQL, no require or import;\n" +
  "- assign the answer to a top-level `result`: an array of row objects whose keys are exactly the columns the " +
  "question asks for, in that order (a single number or string for a single value);\n" +
  "- when the question asks for the highest or lowest, sort and take the first rows rather than matching the maximum;\n" +
  "- keep only the columns the question asks for (not the ones used to sort or filter);\n" +
  "- comment each step: say in a comment what it computes and why.\n" +
  "Reply with the code in one ```javascript block.";

export function coderPrompt(args: {
  schema: string;
  foreignKeys: string;
  tables: TestTablesValue;
  dbId: string;
  question: string;
  evidence: string;
  previous?: { code: string; result?: TestResult; problem: string };
}): ChatInput[] {
  const retry = args.previous
    ? `\n\nYour previous code:\n\`\`\`javascript\n${args.previous.code}\n\`\`\`\nIts result: ${showResult(args.previous.result)}\n` +
      `Inspection found a problem: ${args.previous.problem}\nRevise the code so it runs and answers the question.`
    : "";
  return [
    { role: "system", content: CODE_SYSTEM },
    {
      role: "user",
      content:
        `Database: ${args.dbId || "(unnamed)"}\nTables:\n${args.schema}\n\nForeign keys:\n${args.foreignKeys || "(none)"}\n\n` +
        `Test data:\n${showTables(args.tables)}\n\n${questionBlock(args.question, args.evidence)}\n\n${CODE_RULES}${retry}`,
    },
  ];
}

/** The `noTestCode` ablation (Table 4, w/o CG): the expected result predicted directly from the data. */
export function expectedResultPrompt(args: {
  schema: string;
  foreignKeys: string;
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
        `Tables:\n${args.schema}\n\nForeign keys:\n${args.foreignKeys || "(none)"}\n\nTest data:\n${showTables(args.tables)}\n\n` +
        `${questionBlock(args.question, args.evidence)}\n\n` +
        "What is the answer on exactly this data? Think it through, then reply with one JSON object in a ```json block: " +
        '{"columns": ["<column>", ...], "rows": [[value, ...], ...]} holding only the columns the question asks for.' +
        retry,
    },
  ];
}

export function selectPrompt(args: {
  schema: string;
  foreignKeys: string;
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
        `Tables:\n${args.schema}\n\nForeign keys:\n${args.foreignKeys || "(none)"}\n\nTest data:\n${showTables(args.tables)}\n\n` +
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
        `Test data:\n${showTables(args.tables)}\n\n${logic}` +
        `Expected result on the test data: ${showResult(args.expected)}\n\n` +
        `Generated SQL:\n\`\`\`sql\n${args.sql}\n\`\`\`\n${outcome}\n\n` +
        "The SQL does not pass the test. Work out, step by step, where the SQL departs from the question" +
        `${args.codeKind === "code" ? " and from the logic of the test code" : ""}, then write the revised SQL for the real database.`,
    },
  ];
}
