import { DATA_REPLY_ATTEMPTS, TS_SQL_OPTIONS } from "../../nodes/ts-sql/options.ts";
import { readOptions } from "../../core/options.ts";
import { type CallBounds, defineManifest } from "./manifest.ts";
import { SHARED_SLOT_INFO as S, STRUCTURED_CALLS } from "./shared.ts";

/**
 * TS-SQL's calls per question: link (a structured ask) → [generate (1)] → data (a structured ask of at most
 * DATA_REPLY_ATTEMPTS replies) per data round, up to maxDataRounds (no call with --no-data-agent) → per coder model
 * (Send), coder (1) and, after a failed inspection, again up to maxCodeRefinements (once with --no-inspection) →
 * vote (with --code-vote select, one selector call per further distinct result: at most models − 1) → test, then
 * revise (1) while the SQL fails its test, up to maxRevisions. The shortest: usable data at once, code that passes
 * inspection, SQL that passes its test.
 */
const tsSqlCalls =
  (generator: boolean) =>
  (options: Record<string, unknown>): CallBounds => {
    const o = readOptions(TS_SQL_OPTIONS, options);
    const models = new Set(o.coderModels).size || 1;
    const generate = generator ? 1 : 0;
    const data = o.noDataAgent !== "off" ? { min: 0, max: 0 } : { min: 1, max: o.maxDataRounds * DATA_REPLY_ATTEMPTS };
    const coderTurns = o.noInspection ? 1 : 1 + o.maxCodeRefinements;
    const select = o.codeVote === "select" ? models - 1 : 0;
    return {
      min: STRUCTURED_CALLS.min + generate + data.min + models,
      max: STRUCTURED_CALLS.max + generate + data.max + models * coderTurns + select + o.maxRevisions,
    };
  };

/** TS-SQL's own agents and tools as slots (shared by the generator and the corrector). */
const TS_SQL_SLOTS = {
  data: { summary: "write synthetic test rows for the relevant tables (role: data)", requires: ["dataRounds"] },
  sample: { summary: "ablation --no-data-agent schema|sample: sample test rows from the real database", requires: ["testData", "dataRounds"] },
  check: { summary: "load the rows into an in-memory copy of the schema; schema violations, coverage and non-duality gaps" },
  coder: { summary: "one coder model writes JavaScript computing the expected answer (role: coder)", returns: "Command", routesTo: ["inspect"] },
  inspect: { summary: "run the test code in the sandbox; errors and implausible results back to the coder", returns: "Command", routesTo: ["coder", "vote"] },
  // A gate: {} while other coder models are at work, then a Command to test (or execute without usable code).
  vote: { summary: "choose among coder models' test codes: majority or A/B selection (role: selector)" },
  test: { summary: "run the SQL on the test data and compare with the expected result (Algorithm 1)", requires: ["testRun", "initialSql"] },
  revise: { summary: "revise the SQL from the failed test case (role: reviser)", requires: ["rounds"] },
} as const;

/** TS-SQL as a generator: its own initial SQL (A.1), then the test case and Algorithm 1's revision loop. */
export const tsSqlManifest = defineManifest({
  name: "ts-sql",
  summary: "TS-SQL: synthetic test data and voted test code (sandboxed JavaScript) drive SQL revision",
  kind: "generator",
  slots: { link: S.link, schema: S.schema, generate: S.generate, ...TS_SQL_SLOTS, execute: S.execute },
  options: TS_SQL_OPTIONS,
  calls: tsSqlCalls(true),
});

/** TS-SQL as a corrector (Table 5): builds the test case for the given SQL and revises it. */
export const tsSqlRefineManifest = defineManifest({
  name: "ts-sql-refine",
  summary: "corrector: TS-SQL's test case and revision loop on given SQL (Table 5)",
  kind: "corrector",
  slots: { link: S.link, ...TS_SQL_SLOTS, execute: S.execute },
  options: TS_SQL_OPTIONS,
  calls: tsSqlCalls(false),
});
