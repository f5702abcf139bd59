// An audit's records (audit.jsonl): one gold query against its own test case, made from a finished thread, and the
// file read back.
import type { Question } from "../../../state/question.ts";
import type { TestCode, TestData, TestRun, TsSqlStateValue } from "../../../state/ts-sql.ts";
import type { Outcome } from "../../../graphs/outcome.ts";

/** One gold query against its own test case (RQ0). */
export interface AuditRecord {
  id: string;
  dbId: string;
  question: string;
  evidence: string;
  goldSql: string;
  /** passed: the gold gives the test code's result; failed: it does not (listed for review); untested: no test case. */
  status: "passed" | "failed" | "untested" | "error";
  /** Why untested or error, one line. */
  note?: string;
  testData?: TestData["tables"];
  testCode?: Pick<TestCode, "model" | "code" | "how" | "agreeing">;
  expected?: TestCode["expected"];
  gold?: Pick<TestRun, "ok" | "result" | "error">;
  inputTokens: number;
  outputTokens: number;
  calls: number;
  thread: string;
  /** What the question went through, as the graph declares it (`tsSqlOutcome`: test data, code, skip reason). */
  outcome?: Outcome;
}

/** The verdict of one finished audit thread. */
export function auditRecordOf(q: Question, state: TsSqlStateValue | undefined, thread: string, error?: string, outcome?: Outcome): AuditRecord {
  const base = { id: q.id, dbId: q.dbId, question: q.question, evidence: q.evidence, goldSql: q.goldSql ?? "", thread, ...(outcome ? { outcome } : {}) };
  const usage = { inputTokens: state?.usage.inputTokens ?? 0, outputTokens: state?.usage.outputTokens ?? 0, calls: state?.usage.calls ?? 0 };
  if (error || !state) return { ...base, ...usage, status: "error", note: error ?? "no state" };
  // As eval's rule: a model call that got no reply after the retries leaves a test case that is not the method's.
  const lost = state.usage.failed ?? 0;
  if (lost) return { ...base, ...usage, status: "error", note: `${lost} model call${lost === 1 ? "" : "s"} got no reply${state.usage.failure ? ` (first: ${state.usage.failure})` : ""}` };
  const run = state.testRun;
  if (!state.testCode || !run || run.error === "no test case") {
    const last = [...state.attempts].reverse().find((a) => !a.ok && a.note)?.note;
    return { ...base, ...usage, status: "untested", note: last ?? "no test case could be built", ...(state.testData ? { testData: state.testData.tables } : {}) };
  }
  return {
    ...base,
    ...usage,
    status: run.match ? "passed" : "failed",
    testData: state.testData?.tables,
    testCode: { model: state.testCode.model, code: state.testCode.code, how: state.testCode.how, agreeing: state.testCode.agreeing },
    expected: state.testCode.expected,
    gold: { ok: run.ok, ...(run.result ? { result: run.result } : {}), ...(run.error ? { error: run.error } : {}) },
  };
}

/** The audit's lines; a half-written last line from a kill is dropped (that question runs again), the last line of an id wins. */
export function parseAuditRecords(text: string): AuditRecord[] {
  const byId = new Map<string, AuditRecord>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const record = JSON.parse(line) as AuditRecord;
      if (record && typeof record.id === "string") byId.set(record.id, record);
    } catch {
      // a half-written last line from a kill
    }
  }
  return [...byId.values()];
}
