// The helpers a node uses, one typed example each. Two nodes:
//  - `sampleThenRun`, for baseline's `generate` slot: asks the generator role three times at a higher temperature
//    (a per-call setting), runs each SQL on the question's database, keeps every try as a candidate and answers
//    with the first that executes;
//  - `resultOnlyReview`, for R³'s `review` slot: run by a Send fan-out, it is given its branch's payload (not the
//    state) and returns one review.
// Run them: sqlmend eval baseline --node generate=./node-helpers.ts --bench minibench --out runs/sample3
import { callModel, executeSql, extractSql, withCalls, type Candidate, type ModelCallRecord, type NodeFactory, type r3Spec, type Review, type SlotFactory, type SqlStateUpdate, type SqlStateValue } from "sqlmend";

export const sampleThenRun: NodeFactory<SqlStateValue, SqlStateUpdate> = (deps) => async (state) => {
  const prompt = [
    { role: "system" as const, content: "Write one SQLite query that answers the question, in a ```sql block." },
    { role: "user" as const, content: `${state.schemaText}\n\nQuestion: ${state.question}\nEvidence: ${state.evidence || "none"}` },
  ];
  const records: ModelCallRecord[] = [];
  const candidates: Candidate[] = [];
  for (let i = 0; i < 3; i++) {
    // Every call names its agent role; `overrides` change the role's settings for this call only.
    const call = await callModel(deps.models, "generator", prompt, { overrides: { temperature: 0.7, seed: i } });
    records.push(call.record);
    const sql = call.ok ? extractSql(call.text) : null;
    if (!sql) continue;
    // Runs model-written SQL safely: a worker process, read-only, a time limit; errors come back, never thrown.
    const execution = await executeSql(deps.executor, state.dbPath, sql, { timeoutMs: 10_000 });
    candidates.push({ id: `sample-${i}`, sql, source: "generate:sample", execution, meta: { temperature: 0.7 } });
  }
  const chosen = candidates.find((c) => c.execution?.ok) ?? candidates[0];
  // withCalls adds the calls and their usage to the update: inspect shows them, the report counts them.
  if (!chosen) return withCalls({ attempts: [{ node: "generate", sql: state.sql, ok: false, note: "no sample held SQL; kept the previous SQL" }] }, records);
  return withCalls({ sql: chosen.sql, candidates, attempts: [{ node: "generate", sql: chosen.sql, ok: true }] }, records);
};

// A Send-run slot's factory type says its payload: here R³'s ReviewPayload (reviewerIndex, personas, rounds, schemaText,
// question, evidence, sql, execution).
export const resultOnlyReview: SlotFactory<typeof r3Spec, "review"> = (deps) => async (payload) => {
  const round = payload.rounds + 1;
  const persona = payload.personas[payload.reviewerIndex];
  const result = payload.execution?.ok ? JSON.stringify(payload.execution.preview?.rows.slice(0, 5)) : `error: ${payload.execution?.error}`;
  const call = await callModel(deps.models, "reviewer", [
    { role: "user" as const, content: `You are a ${persona?.profession ?? "SQL reviewer"}. Question: ${payload.question}\nResult: ${result}\nReply AGREE, or what is wrong.` },
  ]);
  const review: Review = { round, reviewer: payload.reviewerIndex, profession: persona?.profession ?? "SQL reviewer", ok: call.ok, text: call.text, ...(call.ok ? {} : { error: call.record.error ?? "no reply" }) };
  return withCalls({ reviews: [review] }, [call.record]);
};

export default sampleThenRun;
