// One training question of a guideline run: its initial SQL, the verdict, and for a failure the feedback-correction
// cycle, as a results.jsonl record and its interactions.
import { firstLineOf, UserError } from "../../../core/errors.ts";
import { type InitialSource, inputOf, type RunnableGraph, runThread } from "../../run/question-thread.ts";
import { nextThread } from "../../run/question-loop.ts";
import { magicFeedbackManifest } from "../../../graphs/manifests/magic.ts";
import { scoreQuestion, type Semantics } from "../../../tools/benchmarks/score.ts";
import { addUsage, emptyUsage, type Usage } from "../../../state/usage.ts";
import type { MagicRecord } from "../../../state/magic-record.ts";
import type { MagicFeedbackValue } from "../../../state/magic.ts";
import type { SqlInput, SqlStateValue } from "../../../state/sql-state.ts";
import type { Question } from "../../../state/question.ts";
import type { NodeDeps } from "../../../nodes/types.ts";
import { type Outcome, outcomeOf } from "../../../graphs/outcome.ts";
import type { GraphSpec } from "../../../graphs/spec.ts";
import { type HistorySnapshot, type Interaction, interactionsOf } from "./guideline-interactions.ts";

/**
 * A training question: its initial SQL, the verdict, and for a failure the feedback-correction cycle. Never throws.
 * `previous`: its failed record from an earlier run, which this one runs again as eval does (`nextThread`): the stage
 * that failed runs on its next thread (`…/initial#2`, `…#2`), a generator's SQL that was made is used again, and the
 * record's tokens are the earlier attempts' (in `previous`) plus this one's new calls, so none is counted twice.
 */
export async function processQuestion(
  q: Question,
  previous: MagicRecord | undefined,
  ctx: {
    initial: InitialSource;
    feedbackGraph: RunnableGraph & { getStateHistory: (config: unknown) => AsyncIterable<HistorySnapshot> };
    feedbackSpec: Pick<GraphSpec, "outcome">;
    deps: NodeDeps;
    semantics: Semantics;
    timeoutMs?: number;
    runId: string;
  },
): Promise<{ record: MagicRecord; interactions: Interaction[] }> {
  // A record from before `failedAt` existed is run again from the start.
  const failedAt = previous ? (previous.failedAt ?? "initial") : undefined;
  let thread = nextThread(`magic:${ctx.runId}:${q.id}`, failedAt === "cycle" ? previous!.thread : undefined);
  const extraction = ctx.initial.kind === "predictions" ? ctx.initial.extraction?.get(q.id) : undefined;
  const base = { id: q.id, dbId: q.dbId, difficulty: q.difficulty, question: q.question, evidence: q.evidence, ...(extraction ? { initialExtraction: extraction } : {}) };
  let usage: Usage = { ...emptyUsage(), byRole: previous?.usageByRole ?? {} };
  let initialSql = "";
  let initialThread: string | undefined;
  // Where a failure leaves the question: before its initial SQL was made, or after (the cycle, or scoring).
  let stage: "initial" | "cycle" = "initial";
  try {
    if (ctx.initial.kind === "graph" && failedAt === "cycle" && previous!.initialThread !== undefined) {
      // The generator answered last time (its tokens are in `previous`): its SQL is used again, no call made.
      initialThread = previous!.initialThread;
      initialSql = previous!.initialSql;
    } else if (ctx.initial.kind === "graph") {
      // A generator whose calls got no reply and so wrote no SQL failed to run: a resumed run generates again on the
      // next thread (`…/initial#2`).
      initialThread = nextThread(`magic:${ctx.runId}:${q.id}/initial`, failedAt === "initial" ? previous!.initialThread : undefined);
      const first = await runThread(ctx.initial.graph, inputOf(q, ctx.initial.spec.name), initialThread);
      initialSql = first.sql;
      usage = addUsage(usage, first.usage);
      if (initialFailed(first)) {
        const error = `initial SQL not generated: ${first.usage.failure ?? "model call failed"}`;
        return { record: { ...base, initialSql, initialCorrect: false, usageByRole: usage.byRole, initialThread, thread: initialThread, failedAt: stage, error }, interactions: [] };
      }
    } else {
      // As eval's correctors: a question the file (or the run that wrote it) did not answer is failed, not cycled on "".
      const missing = ctx.initial.unanswered?.get(q.id) ?? (ctx.initial.predictions.has(q.id) ? undefined : `not in ${ctx.initial.file}`);
      if (missing) return { record: { ...base, initialSql, initialCorrect: false, usageByRole: usage.byRole, failedAt: stage, error: `no initial SQL: ${missing}` }, interactions: [] };
      initialSql = ctx.initial.predictions.get(q.id)!;
    }
    stage = "cycle";
    const threads = { ...(initialThread !== undefined ? { initialThread } : {}) };
    const verdict = await scoreQuestion(q, initialSql, { executor: ctx.deps.executor, semantics: ctx.semantics, timeoutMs: ctx.timeoutMs });
    const notCycled: Outcome = { cycled: false, iterations: 0, success: null };
    const head = { ...base, initialSql, initialCorrect: verdict.correct, usageByRole: usage.byRole, outcome: notCycled, ...threads };
    if (verdict.correct) return { record: head, interactions: [] };
    if (verdict.goldError) return { record: { ...head, skipped: `gold SQL does not execute (${verdict.goldError})` }, interactions: [] };
    if (!initialSql.trim()) return { record: { ...head, skipped: "no initial SQL" }, interactions: [] };

    const input = { ...inputOf(q, magicFeedbackManifest.name, initialSql), incorrectSql: initialSql, goldSql: q.goldSql } as SqlInput;
    // A cycle that ended because the model could not be reached is a finished thread holding that failure: a resumed
    // run runs the cycle again on the next thread (`…#2`, from the record's).
    const state = (await runThread(ctx.feedbackGraph, input, thread)) as unknown as MagicFeedbackValue;
    usage = addUsage(usage, state.usage);
    const interactions = await interactionsOf(ctx.feedbackGraph, thread, q.id, state);
    // A cycle stopped because an agent got no reply from the model is no evidence that the failure cannot be
    // corrected: it is a run error (counted apart, with its first line), not a failure in Figure 3 or Table 4.
    const outcome: Outcome = { cycled: true, ...outcomeOf(ctx.feedbackSpec, state as unknown as Record<string, unknown>) };
    if (state.unreachable) {
      const error = `stopped at iteration ${state.rounds + 1}: ${state.unreachable}`;
      return { record: { ...head, iterations: state.rounds, thread, usageByRole: usage.byRole, outcome, failedAt: stage, error }, interactions };
    }
    return {
      record: {
        ...head,
        outcome,
        corrected: state.corrected,
        iterations: state.rounds,
        verdicts: state.iterations.map((i) => i.correct),
        ...(state.corrected ? { feedback: state.latestFeedback, correctedSql: state.sql } : {}),
        thread,
        usageByRole: usage.byRole,
      },
      interactions,
    };
  } catch (error) {
    if (error instanceof UserError) throw error;
    if (stage === "initial" && initialThread !== undefined) thread = initialThread;
    return {
      record: { ...base, initialSql, initialCorrect: false, usageByRole: usage.byRole, ...(initialThread !== undefined ? { initialThread } : {}), thread, failedAt: stage, error: firstLineOf(error) },
      interactions: [],
    };
  }
}

/** A generator run that wrote no SQL because its model calls got no reply (not one whose reply held no SQL). */
const initialFailed = (state: Pick<SqlStateValue, "sql" | "usage">) => !state.sql?.trim() && (state.usage?.failed ?? 0) > 0;
