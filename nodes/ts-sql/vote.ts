import { Command } from "@langchain/langgraph";
import { readOptions } from "../../core/options.ts";
import type { ModelCallRecord } from "../../state/usage.ts";
import type { CodeCandidate, TestCode } from "../../state/ts-sql.ts";
import { callModel } from "../../tools/models/llm.ts";
import { stripThinking } from "../../tools/reply.ts";
import { withCalls } from "../common.ts";
import { codeOrders, comparisonOf, codersOf, coderLabel, isEmptyAnswer, matchesExpected, schemaFacts, testTablesText, type TsSqlNodeFactory } from "./common.ts";
import { TS_SQL_OPTIONS } from "./options.ts";
import { selectPrompt } from "./prompts.ts";

/** What the data agent is told when the test code finds no answer in its rows (in the question's terms; never the SQL). */
export const NO_ANSWER_GAP =
  "the question has no answer on these rows (the test code's result is empty): add rows that meet every condition of the question together (joined through their keys), besides rows that fail each one";
/** The vote's attempt note when it sends the question back to the data agent for that (counted in the outcome). */
export const NO_ANSWER_NOTE = "no answer in the test data: the data agent is asked again";

type Usable = CodeCandidate & { result: NonNullable<CodeCandidate["result"]> };

/** Candidates grouped by equal results (the shared scorer's comparison), groups in order of their first member. */
function groupsByResult(usable: Usable[], asked: { question: string; sql: string }): Usable[][] {
  const groups: Usable[][] = [];
  for (const c of usable) {
    // Codes agree when their results are the same multiset (order counts only where it is asked for and both sort).
    const group = groups.find((g) => matchesExpected(g[0]!.result.rows, c.result, comparisonOf(c, "code", asked) === "ordered" && codeOrders(g[0]!.code) ? "ordered" : "multiset") && g[0]!.result.columns.length === c.result.columns.length);
    if (group) group.push(c);
    else groups.push([c]);
  }
  return groups;
}

/**
 * Slot `vote` (§3.1.3 voting, A.6). Waits for every coder model's final candidate (each coder loop ends here; the
 * last to finish finds them all). Majority: the code whose result most models share (at least two), else the first
 * model's (the paper's fallback), else the first usable one. Select: A/B comparisons by the "selector" role among
 * candidates with different results. Out: testCode, then `test`; with no usable code, straight to `execute`.
 */
export const voteNode: TsSqlNodeFactory = (deps, options) => async (state) => {
  const opts = readOptions(TS_SQL_OPTIONS, options);
  const coders = codersOf(opts.coderModels);
  const finals = coders.map((m) => state.codeCandidates.find((c) => c.model === m && c.done));
  if (finals.some((f) => !f)) return {}; // other coder models are still at work
  const usable = (finals as CodeCandidate[]).filter((c): c is Usable => Boolean(c.result && !isEmptyAnswer(c.result.rows) && !(c.problem && !c.result)));
  if (!usable.length) {
    // Every code's result empty, and nothing says the rows hold an answer (the SQL found nothing there either, or did
    // not run on them): the data agent again while its turns remain, told the question has no answer on its rows
    // (never the SQL), then every coder loop afresh on the new rows.
    const sqlFoundRows = state.testData?.sqlRan === true && state.testData.sqlRows > 0;
    const empty = (finals as CodeCandidate[]).every((c) => c.emptyBecause === "answer" || (c.emptyBecause === "code" && !sqlFoundRows));
    if (empty && state.testData && opts.noDataAgent === "off" && state.dataRounds < opts.maxDataRounds && state.dataStopReason === null) {
      const corroborated = (finals as CodeCandidate[]).every((c) => c.emptyBecause === "answer");
      return new Command({
        update: {
          testData: { ...state.testData, gaps: [...(state.testData.gaps ?? []), NO_ANSWER_GAP] },
          codeCandidates: (finals as CodeCandidate[]).map((c) => ({ ...c, done: false })),
          attempts: [{ node: "vote", sql: state.sql, ok: false, note: `${NO_ANSWER_NOTE}${corroborated ? " (the SQL finds nothing there either)" : " (after the coder's turns)"}` }],
        },
        goto: "data",
      });
    }
    return new Command({
      update: { testCode: null, attempts: [{ node: "vote", sql: state.sql, ok: false, note: "no test code gave a usable result; the SQL is kept untested" }] },
      goto: "execute",
    });
  }
  const groups = groupsByResult(usable, { question: state.question, sql: state.sql });
  const records: ModelCallRecord[] = [];
  let chosen: Usable;
  let how: TestCode["how"];
  let agreeing: number;
  const biggest = groups.reduce((a, b) => (b.length > a.length ? b : a));
  if (coders.length === 1) {
    [chosen, how, agreeing] = [usable[0]!, "single", 1];
  } else if (biggest.length >= 2 && (groups.length === 1 || opts.codeVote === "majority")) {
    [chosen, how, agreeing] = [biggest[0]!, "agreement", biggest.length];
  } else if (opts.codeVote === "select" && groups.length > 1) {
    // A knockout of one representative per distinct result, in coder order.
    const facts = await schemaFacts(deps, state);
    let winner = groups[0]![0]!;
    for (const group of groups.slice(1)) {
      const challenger = group[0]!;
      const call = await callModel(
        deps.models,
        "selector",
        selectPrompt({
          schema: testTablesText(facts, state.testData?.tables ?? {}),
          tables: state.testData?.tables ?? {},
          question: state.question,
          evidence: state.evidence,
          a: winner,
          b: challenger,
        }),
      );
      records.push(call.record);
      const answer = /<answer>\s*([AB])\s*<\/answer>/i.exec(stripThinking(call.text))?.[1]?.toUpperCase();
      if (!answer) call.record.error = call.record.error ?? "the reply holds no <answer>A</answer> or <answer>B</answer>; kept A";
      if (answer === "B") winner = challenger;
    }
    const group = groups.find((g) => g.includes(winner))!;
    [chosen, how, agreeing] = [winner, "selected", group.length];
  } else {
    // No two models agree: the first model's code, as the paper falls back to Gemini's.
    const first = usable.find((c) => c.model === coders[0]) ?? usable[0]!;
    [chosen, how, agreeing] = [first, "fallback", 1];
  }
  const testCode: TestCode = { model: chosen.model, code: chosen.code, expected: chosen.result, how, agreeing };
  const note = `${coderLabel(chosen.model)}'s test code (${how}${agreeing > 1 ? `, ${agreeing} agree` : ""})`;
  return new Command({
    update: withCalls({ testCode, attempts: [{ node: "vote", sql: state.sql, ok: true, note }] }, records),
    goto: "test",
  });
};
