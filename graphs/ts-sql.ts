import { SqlInputState } from "../state/sql-state.ts";
import { END, Send, START, StateGraph } from "@langchain/langgraph";
import { codersOf } from "../nodes/ts-sql/common.ts";
import { coderNode, inspectNode, REPEATED_CODE } from "../nodes/ts-sql/code.ts";
import { checkDataNode, dataNode, sampleDataNode } from "../nodes/ts-sql/data.ts";
import { TS_SQL_OPTIONS } from "../nodes/ts-sql/options.ts";
import { reviseNode, testNode } from "../nodes/ts-sql/revise.ts";
import { NO_ANSWER_NOTE, voteNode } from "../nodes/ts-sql/vote.ts";
import { lineSchemaNode } from "../nodes/schema.ts";
import { CODER_ROWS_SHOWN, REVISER_ROWS_SHOWN, rowsNotShown } from "../nodes/ts-sql/prompts.ts";
import { readOptions } from "../core/options.ts";
import { tsSqlManifest, tsSqlRefineManifest } from "./manifests/ts-sql.ts";
import { SHARED_FACTORIES } from "./slots.ts";
import { type BuildOptions, defineSpec, type SlotNodeOf } from "./spec.ts";
import { type Outcome, type OutcomeSpec, summarizeOutcomes } from "./outcome.ts";
import { TsSqlState, type TsSqlStateValue } from "../state/ts-sql.ts";

/** TS-SQL's own agents' and tools' factories by slot (shared by the generator and the corrector). */
const TS_SQL_FACTORIES = {
  link: SHARED_FACTORIES.link,
  data: dataNode,
  sample: sampleDataNode,
  check: checkDataNode,
  coder: coderNode,
  inspect: inspectNode,
  vote: voteNode,
  test: testNode,
  revise: reviseNode,
  execute: SHARED_FACTORIES.execute,
};

type Route = "data" | "sample" | "execute" | Send;

/**
 * After the data check: back to the data agent while rounds remain and the rows violate the schema or miss what the
 * linking found (coverage gaps; the candidate SQL has no say, see `checkDataNode`); then one `coder` task per coder
 * model (Send); without usable rows, no test case.
 */
export const routeAfterCheck =
  (options: BuildOptions) =>
  (state: TsSqlStateValue): Route | Route[] => {
    const opts = readOptions(TS_SQL_OPTIONS, options);
    const data = state.testData;
    const more = opts.noDataAgent === "off" && state.dataRounds < opts.maxDataRounds && state.dataStopReason === null;
    if (!data) return more ? "data" : "execute";
    if (data.loadError) return "execute";
    const rows = Object.values(data.loaded).reduce((a, b) => a + b, 0);
    if (more && (data.violations.length > 0 || rows === 0 || (data.gaps ?? []).length > 0)) return "data";
    if (rows === 0) return "execute";
    return codersOf(opts.coderModels).map((model) => new Send("coder", { ...state, coderTask: { model, round: 0 } }));
  };

/** After the test: done when the SQL passes or the revisions are used up; else revise. */
export const routeAfterTest =
  (options: BuildOptions) =>
  (state: TsSqlStateValue): "revise" | "execute" => {
    const opts = readOptions(TS_SQL_OPTIONS, options);
    return !state.testRun || state.testRun.match || !state.testCode || state.rounds >= opts.maxRevisions || state.stopReason !== null ? "execute" : "revise";
  };

/**
 * The test-case phase and the revision loop, wired after `entry` (the node whose SQL the test case is built for):
 *   entry → data|sample → check → (data)* → coder×models ⇄ inspect → vote → test → (revise → test)* → execute → END
 */
function buildTsSql(node: SlotNodeOf, options: BuildOptions, generator: boolean) {
  const opts = readOptions(TS_SQL_OPTIONS, options);
  const dataSlot = opts.noDataAgent !== "off" ? "sample" : "data";
  const graph = new StateGraph(TsSqlState, { input: SqlInputState })
    .addNode("link", node("link"))
    .addNode(dataSlot, node(dataSlot))
    .addNode("check", node("check"))
    .addNode("coder", node("coder"), { ends: ["inspect"] })
    .addNode("inspect", node("inspect"), { ends: ["coder", "vote"] })
    // vote → data: no answer in the rows (`NO_ANSWER_GAP`), while data turns remain.
    .addNode("vote", node("vote"), { ends: ["test", "execute", ...(dataSlot === "data" ? ["data"] : [])] })
    .addNode("test", node("test"))
    .addNode("revise", node("revise"))
    .addNode("execute", node("execute"));
  if (generator) {
    graph
      .addNode("schema", node("schema"))
      .addNode("generate", node("generate"))
      // Linking first: its columns rank what the schema keeps under a size budget (the data agent reads it too).
      .addEdge(START, "link")
      .addEdge("link", "schema")
      .addEdge("schema", "generate")
      .addEdge("generate", dataSlot);
  } else {
    graph.addEdge(START, "link").addEdge("link", dataSlot);
  }
  const compiled = graph
    .addEdge(dataSlot, "check")
    .addConditionalEdges("check", routeAfterCheck(options), [dataSlot, "coder", "execute"])
    .addConditionalEdges("test", routeAfterTest(options), ["revise", "execute"])
    .addEdge("revise", "test")
    .addEdge("execute", END)
    .compile({ checkpointer: options.checkpointer });
  return compiled;
}

/**
 * The most steps: [schema, generate,] link; (data → check) per data round; per coder turn coder → inspect; vote;
 * (coder → inspect → vote) for each data round after a vote found no answer in the rows; test, then (revise → test)
 * per revision; execute.
 */
const tsSqlSteps = (generator: boolean) => (options: BuildOptions) => {
  const o = readOptions(TS_SQL_OPTIONS, options);
  return (generator ? 2 : 0) + 1 + 2 * o.maxDataRounds + 3 * (o.maxDataRounds - 1) + 2 * (o.maxCodeRefinements + 1) + 1 + 1 + 2 * o.maxRevisions + 1;
};
/** Why a question was not tested (its test case never got built), or null when it was. */
function skipReason(state: TsSqlStateValue): string | null {
  if (state.testCode && state.testRun && state.testRun.error !== "no test case") return null;
  const data = state.testData;
  if (!data) return state.attempts.some((a) => a.node === "data" && !a.ok) ? "unusable data reply" : "no test data";
  if (data.loadError) return data.loadError === "this executor cannot build scratch databases" ? "no scratch database" : "schema";
  if (!Object.values(data.loaded).some((n) => n > 0)) {
    // Rows given and all refused, or none given at all (an empty reply, or an empty sample).
    const given = Object.values(data.given ?? data.tables).reduce((n, rows) => n + rows.length, 0);
    return given > 0 ? "invalid data" : data.source === "sampled" ? "no rows sampled" : "empty data reply";
  }
  // The test code's result was empty: the data lacked what the question's conditions name, or the code found nothing.
  const empty = state.codeCandidates.find((c) => c.emptyBecause);
  if (empty) {
    return empty.emptyBecause === "data"
      ? "empty test result: the data lacks the linked values"
      : empty.emptyBecause === "answer"
        ? "empty test result: no answer in the data (code and SQL)"
        : "empty test result: the code's";
  }
  return "no usable test code";
}

const TEST_NOTE = /^(passes the test case|result differs|fails on the test data)/;

/**
 * What a TS-SQL question went through (results.jsonl's `outcome`): the test data built (tables, rows, data turns,
 * violations and coverage gaps left), the test code (how it was chosen, coder turns), each tested SQL's verdict,
 * revisions, and why testing was skipped. Read off the finished state; the audit records it too.
 */
export function tsSqlOutcome(raw: Record<string, unknown>): Outcome {
  const state = raw as unknown as TsSqlStateValue;
  const data = state.testData;
  const rows = data ? Object.values(data.loaded).reduce((a, b) => a + b, 0) : 0;
  const tests = state.attempts.filter((a) => a.node === "test" && TEST_NOTE.test(a.note ?? ""));
  const skipped = skipReason(state);
  return {
    tested: skipped === null,
    skipped,
    dataRounds: state.dataRounds,
    testTables: data ? Object.values(data.loaded).filter((n) => n > 0).length : 0,
    testRows: rows,
    dataViolations: data?.violations.length ?? 0,
    // Key repairs in the test data used (issue 40; null when rows were sampled): repeated integer keys renumbered,
    // foreign-key values naming no parent row set to a parent's key, rows repeating a composite or text key left out.
    keysRenumbered: data?.source === "generated" ? (data.keyRepairs?.renumbered ?? 0) : null,
    danglingKeysRemapped: data?.source === "generated" ? (data.keyRepairs?.remapped ?? 0) : null,
    repeatedKeyRowsDropped: data?.source === "generated" ? (data.keyRepairs?.dropped ?? 0) : null,
    // Data turns asked because the test code found no answer in the rows (the vote sent the question back).
    noAnswerDataTurns: state.attempts.filter((a) => a.node === "vote" && a.note?.startsWith(NO_ANSWER_NOTE)).length,
    coverageGaps: data?.gaps?.length ?? 0,
    candidateFindsRows: data?.sqlRan ? data.sqlRows > 0 : null,
    // Under --no-data-agent: tables that got their first rows, not a sample (null when the data agent wrote the rows).
    unsampledTables: data?.source === "sampled" ? (data.firstRowsOf?.length ?? 0) : null,
    // Under --no-data-agent: tables sampled at the cap, less than their 1/10 (null when the data agent wrote the rows).
    cappedSampleTables: data?.source === "sampled" ? (data.cappedOf?.length ?? 0) : null,
    // Test rows the coder's and the reviser's prompts left out (each shows a sample and says so; the code and the SQL
    // run on every row).
    // Columns of the shown tables the data agent's prompt left out as not needed (null when rows were sampled).
    dataColumnsNotShown: data?.source === "generated" ? (data.columnsNotShown ?? 0) : null,
    coderRowsNotShown: data ? rowsNotShown(data.tables, CODER_ROWS_SHOWN) : 0,
    reviserRowsNotShown: data && state.rounds > 0 ? rowsNotShown(data.tables, REVISER_ROWS_SHOWN) : 0,
    testCodeBuilt: Boolean(state.testCode),
    testCodeHow: state.testCode?.how ?? null,
    coderTurns: state.codeCandidates.reduce((n, c) => n + c.rounds, 0),
    // Coder loops that ended because the coder wrote its last code again.
    coderRepeats: state.attempts.filter((a) => a.node === "inspect" && a.note?.includes(REPEATED_CODE)).length,
    comparison: state.testRun?.comparison ?? null,
    testsPassed: tests.filter((a) => a.ok).length,
    testsFailed: tests.filter((a) => !a.ok).length,
    initialPasses: tests.length ? tests[0]!.ok : null,
    finalPasses: tests.length ? tests.at(-1)!.ok : null,
    revisions: state.rounds,
    // A loop cut short because its next prompt would repeat the last one (null: it was not).
    dataStopReason: state.dataStopReason,
    revisionStopReason: state.stopReason,
  };
}

const share = (n: number, d: number) => `${n}/${d}`;

/** report.md's TS-SQL lines: how many questions got a test case and why the rest did not, then the generic sums. */
export function summarizeTsSql(outcomes: Outcome[]): string[] {
  const tested = outcomes.filter((o) => o.tested === true);
  const reasons = new Map<string, number>();
  for (const o of outcomes) if (o.tested === false) reasons.set(String(o.skipped), (reasons.get(String(o.skipped)) ?? 0) + 1);
  const skipped = [...reasons].sort((a, b) => b[1] - a[1]).map(([why, n]) => `${n} ${why}`);
  const lines = [`test case built for ${share(tested.length, outcomes.length)}${skipped.length ? `; skipped: ${skipped.join(", ")}` : ""}`];
  const sum = (key: string) => outcomes.reduce((n, o) => n + (typeof o[key] === "number" ? (o[key] as number) : 0), 0);
  const repaired = outcomes.filter((o) => ["keysRenumbered", "danglingKeysRemapped", "repeatedKeyRowsDropped"].some((k) => typeof o[k] === "number" && (o[k] as number) > 0));
  if (repaired.length) {
    lines.push(
      `test data with repaired keys: ${share(repaired.length, outcomes.length)} questions (${sum("keysRenumbered")} repeated keys renumbered, ${sum("danglingKeysRemapped")} dangling foreign keys set to a parent's key, ${sum("repeatedKeyRowsDropped")} rows repeating a key left out)`,
    );
  }
  const askedAgain = outcomes.filter((o) => typeof o.noAnswerDataTurns === "number" && o.noAnswerDataTurns > 0);
  if (askedAgain.length) lines.push(`data agent asked again because the test code found no answer in the rows: ${share(askedAgain.length, outcomes.length)} questions, ${sum("noAnswerDataTurns")} turns`);
  if (tested.length) {
    const first = tested.filter((o) => o.initialPasses === true).length;
    const last = tested.filter((o) => o.finalPasses === true).length;
    const ordered = tested.filter((o) => o.comparison === "ordered").length;
    lines.push(`tested SQL passing its test case: ${share(first, tested.length)} at first, ${share(last, tested.length)} after revision; compared in order (the test code sorts): ${ordered}`);
  }
  const judged = outcomes.filter((o) => typeof o.oracleTestAgreesWithGold === "boolean");
  if (judged.length) {
    const right = judged.filter((o) => o.oracleTestAgreesWithGold === true).length;
    lines.push(`test cases whose verdict on the first tested SQL agrees with EX (oracle): ${share(right, judged.length)}`);
  }
  return [...lines, ...summarizeOutcomes(outcomes)];
}

/**
 * Eval only (needs the gold): whether the test case judged the first tested SQL as execution accuracy does — passed
 * when EX says right, failed when EX says wrong (the accuracy of test cases, the paper's Figure 5). A disagreement is
 * not always the test's fault: a wrong query can return the gold's rows on the real database.
 */
async function tsSqlOracle(raw: Record<string, unknown>, isGold: (sql: string) => Promise<boolean>): Promise<Outcome> {
  const state = raw as unknown as TsSqlStateValue;
  const first = state.attempts.find((a) => a.node === "test" && TEST_NOTE.test(a.note ?? ""));
  if (!first) return {};
  const correct = await isGold(first.sql);
  return { oracleFirstSqlCorrect: correct, oracleTestAgreesWithGold: first.ok === correct };
}

const TS_SQL_OUTCOME: OutcomeSpec = { of: tsSqlOutcome, summarize: summarizeTsSql, oracle: tsSqlOracle, defining: { step: "a test case built", happened: (o) => o.tested === true } };

/** TS-SQL as a generator: its own initial SQL (A.1), then the test case and Algorithm 1's revision loop. */
export const tsSqlSpec = defineSpec(tsSqlManifest, {
  state: TsSqlState,
  // The schema as a line per table, no stored value (A.1, §3.2; issue 32): the shared selection in fewer tokens.
  factories: { ...TS_SQL_FACTORIES, schema: lineSchemaNode, generate: SHARED_FACTORIES.generate },
  steps: tsSqlSteps(true),
  outcome: TS_SQL_OUTCOME,
  build: (_deps, options, node) => buildTsSql(node, options, true),
});

/** TS-SQL as a corrector (Table 5): builds the test case for the given SQL and revises it. */
export const tsSqlRefineSpec = defineSpec(tsSqlRefineManifest, {
  state: TsSqlState,
  factories: TS_SQL_FACTORIES,
  steps: tsSqlSteps(false),
  outcome: TS_SQL_OUTCOME,
  build: (_deps, options, node) => buildTsSql(node, options, false),
});
