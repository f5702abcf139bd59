import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { sqlStateFields } from "./sql-state.ts";

/** TS-SQL's state (§3, Algorithm 1): the shared fields plus the test case and the revision loop's counters. */

export const JsonScalarSchema = z.union([z.null(), z.number(), z.string(), z.boolean()]);
/** Test tables: rows as objects of column → JSON scalar, by table name. */
export const TestTablesSchema = z.record(z.string(), z.array(z.record(z.string(), JsonScalarSchema)));
export type TestTablesValue = z.infer<typeof TestTablesSchema>;

/** A result in the sandbox's fixed shape. */
export const TestResultSchema = z.object({ columns: z.array(z.string()), rows: z.array(z.array(JsonScalarSchema)) });
export type TestResult = z.infer<typeof TestResultSchema>;

/** The test data and what loading it into the scratch database (the real schema, in memory) said. */
export const TestDataSchema = z.object({
  /** The rows: as written (or sampled) until `check` loads them, then the rows the scratch database kept. */
  tables: TestTablesSchema,
  /** The rows as written, when the scratch database refused some (the data agent's feedback shows these). */
  given: TestTablesSchema.optional(),
  /** Written by the data agent, or sampled from the real database (the `noDataAgent` ablation). */
  source: z.enum(["generated", "sampled"]),
  /** Sampled only: tables given their first rows instead of a sample (a WITHOUT ROWID table has no rowid to scramble). */
  firstRowsOf: z.array(z.string()).optional(),
  /** Sampled only: tables whose 1/10 was more than the cap per table (they got the cap's worth). */
  cappedOf: z.array(z.string()).optional(),
  /** Generated only: columns of the shown tables the data agent's prompt left out as not needed (said there; left NULL). */
  columnsNotShown: z.number().int().nonnegative().optional(),
  /**
   * Generated only: what `repairKeys` changed before loading (issue 40: key constraints a JSON schema cannot state),
   * a line per column, and the counts. Absent when nothing was repaired.
   */
  keyRepairs: z.object({ notes: z.array(z.string()), renumbered: z.number().int().nonnegative(), remapped: z.number().int().nonnegative(), dropped: z.number().int().nonnegative() }).optional(),
  /** Rows kept per table after the schema's constraints. */
  loaded: z.record(z.string(), z.number()).default({}),
  /** Schema violations of the last load (one line each). */
  violations: z.array(z.string()).default([]),
  /** Coverage gaps (`coverageGaps`): linked tables without rows, linked values absent; sent back to the data agent. */
  gaps: z.array(z.string()).default([]),
  /** The candidate's variants (`sqlVariants` kinds) that disagree with it on the real database, worked out once per SQL. */
  variants: z.object({ sql: z.string(), differ: z.array(z.enum(["distinct", "limit", "order"])) }).optional(),
  /** What the candidate SQL made of the data (recorded, never sent back: a wrong candidate must not shape the data): it ran... */
  sqlRan: z.boolean().default(false),
  /** ...and returned this many rows (0 when they hold only NULLs). */
  sqlRows: z.number().int().nonnegative().default(0),
  /** Why the candidate found nothing (recorded for inspect and the outcome). */
  sqlNote: z.string().optional(),
  /** Set when no data can be loaded at all (no scratch executor, unreadable database): retrying is pointless. */
  loadError: z.string().optional(),
});
export type TestData = z.infer<typeof TestDataSchema>;

/** One coder model's test code (or, under `noTestCode`, its predicted result) and what inspection found. */
export const CodeCandidateSchema = z.object({
  /** The coder model ("" = the `coder` role's own model). */
  model: z.string(),
  code: z.string(),
  /** Coder turns used (generation + regenerations after inspection). */
  rounds: z.number().int().nonnegative(),
  /** Inspection is over for this model (passed, or out of rounds). */
  done: z.boolean(),
  result: TestResultSchema.optional(),
  /** Why the code failed or looked implausible (sent back to the coder). */
  problem: z.string().optional(),
  /**
   * An empty result: whose fault — `data` when the test rows lack what the question's linked conditions name (no
   * code can find rows there: not sent back), `answer` when the SQL finds nothing in the rows either (two readings
   * agree the rows hold no answer: the data agent is asked again while data turns remain, the coder is not), `code`
   * otherwise.
   */
  emptyBecause: z.enum(["data", "answer", "code"]).optional(),
  /** This turn's code is the model's previous turn's, verbatim: its loop ends (the same code gives the same result). */
  repeated: z.boolean().optional(),
});
export type CodeCandidate = z.infer<typeof CodeCandidateSchema>;

/** Which coder model's loop a `coder` / `inspect` task belongs to (carried by `Send`, never written). */
export const CoderTaskSchema = z.object({ model: z.string(), round: z.number().int().nonnegative() });
export type CoderTask = z.infer<typeof CoderTaskSchema>;

export const TestCodeSchema = z.object({
  model: z.string(),
  code: z.string(),
  expected: TestResultSchema,
  /** How voting chose it: the only candidate, models agreeing, the first model's fallback, or the A/B selector. */
  how: z.enum(["single", "agreement", "fallback", "selected"]),
  agreeing: z.number().int().nonnegative(),
});
export type TestCode = z.infer<typeof TestCodeSchema>;

/** Algorithm 1, lines 3-5: the SQL on the test data against the expected result. */
export const TestRunSchema = z.object({
  sql: z.string(),
  ok: z.boolean(),
  match: z.boolean(),
  /** How the results were compared: in order (the test code sorts) or as a multiset (`comparisonOf`). */
  comparison: z.enum(["ordered", "multiset"]).optional(),
  result: TestResultSchema.optional(),
  error: z.string().optional(),
});
export type TestRun = z.infer<typeof TestRunSchema>;

const mergeByModel = (current: CodeCandidate[], next: CodeCandidate[]): CodeCandidate[] => {
  const out = [...current];
  for (const c of next) {
    const at = out.findIndex((o) => o.model === c.model);
    if (at >= 0) out[at] = c;
    else out.push(c);
  }
  return out;
};

export const tsSqlStateFields = {
  ...sqlStateFields,
  /** The SQL the test case is built for (the generator's or the given one), kept for the fallback. */
  initialSql: z.string().default(""),
  testData: TestDataSchema.nullable().default(null),
  /** Data agent turns used. */
  dataRounds: z.number().int().nonnegative().default(0),
  codeCandidates: new ReducedValue(z.array(CodeCandidateSchema).default(() => []), { inputSchema: z.array(CodeCandidateSchema), reducer: mergeByModel }),
  coderTask: CoderTaskSchema.nullable().default(null),
  testCode: TestCodeSchema.nullable().default(null),
  testRun: TestRunSchema.nullable().default(null),
  /** Revisions made (Algorithm 1's iterations); the launcher reports it as iterations. */
  rounds: z.number().int().nonnegative().default(0),
  /** The latest SQL that ran without error on the test data (the answer when no revision passes). */
  lastRunnableSql: z.string().default(""),
  /** The last prompt each retrying slot sent (`data`, `revise`), as a sha256: a retry that would send it again stops. */
  lastPrompts: z.record(z.string(), z.string()).default({}),
  /** Why the data turns stopped before --max-data-rounds (null: they did not). */
  dataStopReason: z.string().nullable().default(null),
  /** Why the revisions stopped before --max-revisions without a pass (null: they did not). */
  stopReason: z.string().nullable().default(null),
};

export const TsSqlState = new StateSchema(tsSqlStateFields);
export type TsSqlStateValue = typeof TsSqlState.State;
export type TsSqlStateUpdate = typeof TsSqlState.Update;
