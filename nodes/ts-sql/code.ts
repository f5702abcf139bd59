import { Command, Send } from "@langchain/langgraph";
import { readOptions } from "../../core/options.ts";
import { type CodeCandidate, type CoderTask, TestResultSchema, type TestResult, type TsSqlStateValue } from "../../state/ts-sql.ts";
import { callModel } from "../../tools/models/llm.ts";
import { extractJson, stripThinking } from "../../tools/reply.ts";
import { runSandboxed } from "../../tools/sandbox/sandbox.ts";
import { withCalls } from "../common.ts";
import { coderLabel, isEmptyAnswer, schemaFacts, testTableHeaders, testTablesText, type TsSqlNodeFactory } from "./common.ts";
import { coverageGaps } from "./data.ts";
import { TS_SQL_OPTIONS } from "./options.ts";
import { coderPrompt, expectedResultPrompt } from "./prompts.ts";

const FENCE = /```([A-Za-z0-9_-]*)[^\S\n]*\n([\s\S]*?)```/g;
const JS_LANGS = new Set(["javascript", "js", "typescript", "ts", "node"]);

/** The last ```javascript block of a reply (else the last unlabelled block); null when there is none. */
export function extractCode(reply: string): string | null {
  const blocks = [...stripThinking(reply).matchAll(FENCE)].map((m) => ({ lang: (m[1] ?? "").toLowerCase(), body: (m[2] ?? "").trim() }));
  const pick = (blocks.some((b) => JS_LANGS.has(b.lang)) ? blocks.filter((b) => JS_LANGS.has(b.lang)) : blocks.filter((b) => b.lang === "")).at(-1);
  return pick?.body ? pick.body : null;
}

const hasComments = (code: string) => /\/\/|\/\*/.test(code);

/** The inspect note's mark when a coder wrote its last turn's code again (its loop ends; counted in the outcome). */
export const REPEATED_CODE = "the same code as its last turn: no further turn";

/** The coder's task in a Send payload; the coder role's own model, first round, when run outside a fan-out. */
const taskOf = (state: TsSqlStateValue): CoderTask => state.coderTask ?? { model: "", round: 0 };

/**
 * Slot `coder` (role "coder", §3.1.2, A.4 / A.5). One turn of one coder model, run under `Send` with `coderTask`
 * {model, round}. In: testData, question, evidence, the model's previous candidate and inspection problem. Out:
 * codeCandidates (this model's entry), then on to `inspect` with the same task. The temperature rises 0.01 a round.
 * Under `noTestCode` the model predicts the expected result (JSON) instead of writing code.
 */
export const coderNode: TsSqlNodeFactory = (deps, options) => async (state) => {
  const opts = readOptions(TS_SQL_OPTIONS, options);
  const task = taskOf(state);
  const data = state.testData;
  const previous = state.codeCandidates.find((c) => c.model === task.model);
  const facts = await schemaFacts(deps, state);
  const shared = {
    schema: testTablesText(facts, data?.tables ?? {}),
    tables: data?.tables ?? {},
    question: state.question,
    evidence: state.evidence,
  };
  const retry = task.round > 0 && previous?.problem ? previous : undefined;
  const prompt = opts.noTestCode
    ? expectedResultPrompt({ ...shared, previous: retry ? { reply: retry.code, problem: retry.problem! } : undefined })
    : coderPrompt({ ...shared, ...(opts.noDataAgent === "schema" ? { tables: null } : testTableHeaders(facts, data?.tables ?? {})), dbId: state.dbId, previous: retry ? { code: retry.code, result: retry.result, problem: retry.problem! } : undefined });
  const base = deps.models.forRole("coder").settings.temperature;
  // Appendix B: the temperature rises by 0.01 with each inspection round.
  const temperature = Math.round((base + 0.01 * task.round) * 100) / 100;
  const call = await callModel(deps.models, "coder", prompt, { overrides: { ...(task.model ? { model: task.model } : {}), temperature } });
  const code = call.ok ? (opts.noTestCode ? stripThinking(call.text) : extractCode(call.text)) : null;
  if (!code) call.record.error = call.record.error ?? "the reply holds no ```javascript block";
  const candidate: CodeCandidate = {
    model: task.model,
    code: code ?? "",
    rounds: task.round + 1,
    done: false,
    ...(code ? {} : { problem: call.record.error }),
    ...(code && retry && code.trim() === retry.code.trim() ? { repeated: true } : {}),
  };
  return new Command({
    update: withCalls({ codeCandidates: [candidate] }, [call.record]),
    goto: new Send("inspect", { ...state, coderTask: task, codeCandidates: [candidate] }),
  });
};

/** A predicted result ({columns, rows}) out of a reply, for the `noTestCode` ablation. */
function predictedResult(reply: string): { result?: TestResult; problem?: string } {
  const parsed = extractJson(reply);
  if (!parsed.ok) return { problem: parsed.error };
  const checked = TestResultSchema.safeParse(parsed.value);
  if (!checked.success) return { problem: `the answer is not {"columns": [...], "rows": [[...], ...]}: ${checked.error.issues[0]?.message}` };
  if (checked.data.rows.some((r) => r.length !== checked.data.columns.length)) return { problem: "rows and columns differ in width" };
  return { result: checked.data };
}

/**
 * Slot `inspect` (§3.1.3, A.5): runs the candidate code on the test data in the sandbox. An error, an empty result
 * or code without comments goes back to the same coder model (a new `coder` task, round + 1) while refinements
 * remain; otherwise the candidate is final and `vote` is told. No model call. Under `noInspection` the first code
 * is final whatever it gives.
 */
export const inspectNode: TsSqlNodeFactory = (deps, options) => async (state) => {
  const opts = readOptions(TS_SQL_OPTIONS, options);
  const task = taskOf(state);
  const candidate = state.codeCandidates.find((c) => c.model === task.model) ?? { model: task.model, code: "", rounds: task.round + 1, done: false };
  let result: TestResult | undefined;
  let problem = candidate.problem;
  let emptyBecause: CodeCandidate["emptyBecause"];
  if (candidate.code) {
    if (opts.noTestCode) ({ result, problem } = predictedResult(candidate.code));
    else {
      const run = await runSandboxed(candidate.code, state.testData?.tables ?? {}, { timeoutMs: opts.sandboxTimeoutMs });
      if (run.ok) result = { columns: run.columns, rows: run.rows };
      else problem = `${run.kind === "error" ? "the code fails" : run.kind === "shape" ? "the result has the wrong shape" : `the code was stopped (${run.kind})`}: ${run.message}`;
    }
    if (result && isEmptyAnswer(result.rows)) {
      // Whose fault: the data, when its rows lack what the question's linked conditions name (no code finds rows
      // there, so asking the coder again would only loosen its filters); else the code's filters and joins.
      // Also the data's when the SQL finds nothing in the rows either: two independent readings of the question agree
      // the rows hold no answer (issue 40: a schema-following model's rows often meet no condition).
      const facts = await schemaFacts(deps, state);
      const gaps = coverageGaps(state.linking, facts.schema, state.testData?.tables ?? {});
      const sqlFindsNothing = state.testData?.sqlRan === true && state.testData.sqlRows === 0;
      emptyBecause = gaps.length ? "data" : sqlFindsNothing ? "answer" : "code";
      problem = gaps.length
        ? `the result is empty (no rows, or only null): the test data lacks what the question's conditions name (${gaps.join("; ")})`
        : sqlFindsNothing
          ? "the result is empty (no rows, or only null), and the SQL finds no answer in the test data either: the rows meet no reading of the question's conditions"
          : "the result is empty (no rows, or only null), but the test data has rows with what the question's conditions name; check the filters and joins";
    }
    else if (result && !opts.noTestCode && !hasComments(candidate.code)) problem = "the code carries no comments: say in comments what each step computes";
  }
  // Not again: the data is to blame, the coder wrote its last code again (it would give the same), or turns are out.
  const again = Boolean(problem) && emptyBecause !== "data" && emptyBecause !== "answer" && !candidate.repeated && !opts.noInspection && task.round < opts.maxCodeRefinements;
  const checked: CodeCandidate = { ...candidate, ...(result ? { result } : {}), ...(problem ? { problem } : { problem: undefined }), emptyBecause, done: !again };
  const note = problem ? `${coderLabel(task.model)} round ${task.round + 1}: ${problem}${candidate.repeated ? ` (${REPEATED_CODE})` : ""}` : undefined;
  const update = { codeCandidates: [checked], attempts: [{ node: "inspect", sql: state.sql, ok: !problem, ...(note ? { note } : {}) }] };
  if (again) {
    const next: CoderTask = { model: task.model, round: task.round + 1 };
    return new Command({ update, goto: new Send("coder", { ...state, coderTask: next, codeCandidates: [checked] }) });
  }
  return new Command({ update, goto: "vote" });
};
