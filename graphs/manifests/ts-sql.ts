import { codersOf, DATA_REPLY_ATTEMPTS, TS_SQL_OPTIONS } from "../../nodes/ts-sql/options.ts";
import { readOptions } from "../../core/options.ts";
import { type CallBounds, defineManifest, type SlotRule } from "./manifest.ts";
import { SHARED_SLOT_INFO as SHARED, STRUCTURED_CALLS } from "./shared.ts";

/**
 * TS-SQL's calls per question: link (a structured ask) → [generate (1)] → data (a structured ask of at most
 * DATA_REPLY_ATTEMPTS replies) per data round, up to maxDataRounds (no call with --no-data-agent) → per coder model
 * (Send), coder (1) and, after a failed inspection, again up to maxCodeRefinements (once with --no-inspection) →
 * vote (back to data when no code or SQL finds an answer in the rows, within maxDataRounds: the coder loops again;
 * with --code-vote select, one selector call per further distinct result: at most models − 1) → test, then
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
    // Each data turn after a vote found no answer in the rows runs every coder loop again.
    const coderTurns = (o.noInspection ? 1 : 1 + o.maxCodeRefinements) * (o.noDataAgent !== "off" ? 1 : o.maxDataRounds);
    const select = o.codeVote === "select" ? models - 1 : 0;
    return {
      min: STRUCTURED_CALLS.min + generate + data.min + models,
      max: STRUCTURED_CALLS.max + generate + data.max + models * coderTurns + select + o.maxRevisions,
    };
  };

type CodeLike = { model?: unknown; done?: unknown };
const codesIn = (value: unknown): CodeLike[] => (Array.isArray(value) ? value : []);

/** The vote waits for every coder model's final code, so a code handed to it not done would keep it waiting. */
const HANDS_OVER_DONE: SlotRule = {
  must: "mark the code candidate it routes to vote done (done: true), or the vote waits for it forever",
  broken: ({ update, goto }) => {
    if (!goto.includes("vote")) return undefined;
    const codes = codesIn(update.codeCandidates);
    if (!codes.length) return "got no codeCandidates in its update";
    const open = codes.filter((c) => c.done !== true).map((c) => `'${String(c.model) || "coder"}'`);
    return open.length ? `got ${open.join(", ")} not done` : undefined;
  },
};

/**
 * The vote gate decides once every coder model's code is done: an update then would end the question untested. It
 * may route back to data when no code's result is usable because the rows hold no answer (`NO_ANSWER_GAP`).
 */
const VOTE_DECIDES: SlotRule = {
  must: "return a Command routing to test, execute or data once every coder model's code is done ({} only while coders work)",
  broken: ({ command, goto }, state, options) => {
    const codes = codesIn(state.codeCandidates);
    const coders = codersOf(readOptions(TS_SQL_OPTIONS, options).coderModels);
    if (!coders.every((m) => codes.some((c) => c.model === m && c.done === true))) return undefined;
    if (command && (goto.includes("test") || goto.includes("execute") || goto.includes("data"))) return undefined;
    return `got ${command ? `a Command routing to ${goto.join(", ") || "nowhere"}` : "a plain update"} with every coder's code done (${coders.map((m) => m || "coder").join(", ")})`;
  },
};

/** TS-SQL's own agents and tools as slots (shared by the generator and the corrector). */
const TS_SQL_SLOTS = {
  data: {
    summary: "write synthetic test rows for the relevant tables (the last turn's problems sent back)",
    role: "data",
    reads: ["question", "evidence", "dbPath", "descriptionDir", "linking", "sql", "testData", "dataRounds", "attempts"],
    writes: ["testData", "dataRounds", "lastPrompts", "dataStopReason"],
    requires: ["dataRounds"],
  },
  sample: {
    summary: "ablation --no-data-agent schema|sample: sample test rows from the real database",
    reads: ["questionId", "question", "dbPath", "descriptionDir", "linking", "sql", "dataRounds"],
    writes: ["testData", "dataRounds"],
    requires: ["testData", "dataRounds"],
  },
  check: {
    summary: "load the rows into an in-memory copy of the schema; schema violations, coverage and non-duality gaps",
    reads: ["testData", "dbPath", "descriptionDir", "linking", "sql"],
    writes: ["testData"],
  },
  coder: {
    summary: "one coder model writes JavaScript computing the expected answer (a Send per coder model, with coderTask)",
    role: "coder",
    payload: "TsSqlStateValue",
    reads: ["coderTask", "codeCandidates", "testData", "question", "evidence", "dbId", "dbPath", "descriptionDir"],
    writes: ["codeCandidates"],
    returns: "Command",
    routesTo: ["inspect"],
  },
  inspect: {
    summary: "run the test code in the sandbox; errors and implausible results back to the coder",
    payload: "TsSqlStateValue",
    reads: ["coderTask", "codeCandidates", "testData", "sql"],
    writes: ["codeCandidates"],
    returns: "Command",
    routesTo: ["coder", "vote"],
    rules: [HANDS_OVER_DONE],
  },
  vote: {
    summary: "a gate: {} while other coder models are at work; then choose among their test codes (majority or A/B selection) and route to test (execute without usable code; data while data turns remain when no code or SQL finds an answer in the rows) with a Command",
    role: "selector",
    reads: ["codeCandidates", "testData", "question", "evidence", "dbPath", "descriptionDir", "sql", "dataRounds", "dataStopReason"],
    writes: ["testCode", "testData", "codeCandidates"],
    rules: [VOTE_DECIDES],
  },
  test: {
    summary: "run the SQL on the test data and compare with the expected result (Algorithm 1)",
    reads: ["sql", "initialSql", "dbPath", "testCode", "testData", "rounds", "lastRunnableSql", "stopReason"],
    writes: ["initialSql", "testRun", "lastRunnableSql", "sql"],
    requires: ["testRun", "initialSql"],
  },
  revise: {
    summary: "revise the SQL from the failed test case (never a row of the real database)",
    role: "reviser",
    reads: ["question", "evidence", "dbPath", "descriptionDir", "testRun", "testData", "testCode", "sql", "rounds"],
    writes: ["sql", "rounds", "lastPrompts", "stopReason"],
    requires: ["rounds"],
  },
} as const;

const TS_SQL_STATE = { value: "TsSqlStateValue", update: "TsSqlStateUpdate" } as const;

/** TS-SQL as a generator: its own initial SQL (A.1), then the test case and Algorithm 1's revision loop. */
export const tsSqlManifest = defineManifest({
  name: "ts-sql",
  summary: "TS-SQL: synthetic test data and voted test code (sandboxed JavaScript) drive SQL revision",
  kind: "generator",
  stateType: TS_SQL_STATE,
  slots: { link: SHARED.link, schema: SHARED.schema, generate: SHARED.generate, ...TS_SQL_SLOTS, execute: SHARED.execute },
  options: TS_SQL_OPTIONS,
  calls: tsSqlCalls(true),
});

/** TS-SQL as a corrector (Table 5): builds the test case for the given SQL and revises it. */
export const tsSqlRefineManifest = defineManifest({
  name: "ts-sql-refine",
  summary: "corrector: TS-SQL's test case and revision loop on given SQL (Table 5)",
  kind: "corrector",
  stateType: TS_SQL_STATE,
  slots: { link: SHARED.link, ...TS_SQL_SLOTS, execute: SHARED.execute },
  options: TS_SQL_OPTIONS,
  calls: tsSqlCalls(false),
});
