import type { GraphSpec } from "../../graphs/index.ts";
import { type Outcome, outcomeOf } from "../../graphs/outcome.ts";
import { executeSql } from "../../nodes/execute.ts";
import type { NodeDeps } from "../../nodes/types.ts";
import type { Question } from "../../state/question.ts";
import type { SqlInput, SqlStateValue } from "../../state/sql-state.ts";
import { addUsage, emptyUsage, type Usage, UsageSchema } from "../../state/usage.ts";
import { scoreQuestion, type Semantics } from "../../tools/benchmarks/score.ts";
import { DamagedCheckpointError, type ErrorDetail, errorDetailOf, firstLineOf, isAbort, isDamagedCheckpoint, UserError } from "../../core/errors.ts";
import { keepThreadError } from "../../storage/thread-error.ts";
import { lazyCrypto } from "../../tools/hash.ts";

// The compiled graphs' types differ per method; the runner needs only these calls.
export interface RunnableGraph {
  invoke(input: unknown, config: Record<string, unknown>): Promise<unknown>;
  getState(config: Record<string, unknown>): Promise<{ values: unknown; next: string[]; tasks: unknown[] }>;
  /** The compiled graph's checkpointer: a thread whose checkpoints do not read is deleted through it and restarted. */
  checkpointer?: unknown;
  /** Set by `GraphSpec.build` from the graph's loop bounds (`defineSpec`'s `steps`). */
  recursionLimit?: number;
}

export type InitialSource =
  | { kind: "graph"; spec: GraphSpec; graph: RunnableGraph }
  | {
      kind: "predictions";
      file: string;
      predictions: Map<string, string>;
      /** Predictions that were not plain SQL: the SQL was extracted from the text, or it held none (then ""). */
      extraction?: Map<string, "extracted" | "none">;
      /**
       * Ids the file's own run did not answer (a sqlmend run's `results.jsonl` beside the file says so), with why:
       * their "" in the file is no SQL of the initial method's, so they are not corrected.
       */
      unanswered?: Map<string, string>;
    };

/** A question's error in one line; SQLite's word that a file is corrupt is the benchmark database's (checkpoint damage never gets here). */
function errorLineOf(error: unknown, q: Question): string {
  const line = firstLineOf(error);
  if (/checkpoint/i.test(line)) return line;
  return isDamagedCheckpoint(error) || /not a database file|database file is corrupt/i.test(line) ? `benchmark database ${q.dbPath} is unreadable: ${line}` : line;
}

/** MAGIC's three scenarios (Table 1): correct all SQL, only SQL that fails to execute, or only SQL the gold says is wrong. */
export type CorrectScenario = "all" | "errors" | "incorrect";

/** A built graph ready to answer questions: the graph, its dependencies (models, executor), and a corrector's initial SQL and scenario. */
export interface GraphRunner {
  spec: GraphSpec;
  /** The graphs whose declared options shape this run's answers: the graph, and a corrector's initial generator. */
  graphSpecs: GraphSpec[];
  graph: RunnableGraph;
  deps: NodeDeps;
  /** Correctors only: where the initial SQL comes from, and which of it to correct. */
  initial?: InitialSource;
  scenario: CorrectScenario;
  semantics: Semantics;
  queryTimeoutMs?: number;
  /** What each question's trace carries (tracing itself is LangChain's: LANGSMITH_TRACING, or these callbacks). */
  trace?: { run?: string; settings?: Record<string, unknown>; callbacks?: unknown[] };
}

export interface QuestionRun {
  threadId: string;
  sql: string;
  /** Correctors: the SQL before correction. */
  initialSql?: string;
  /** Correctors: "applied", or why correction was skipped under the scenario. */
  correction?: string;
  /** Correctors under the oracle scenario: the gold's verdict on the initial SQL (so it is not scored twice). */
  initialCorrect?: boolean;
  state?: SqlStateValue;
  /** What the question went through (the graph's declared outcome over the shared one), when its graph finished. */
  outcome?: Outcome;
  usage: Usage;
  latencyMs: number;
  iterations: number;
  /** One line, when the question could not be run to the end (naming the slot that threw, when one did). */
  error?: string;
  /** The thrown error in full: slot, class, message, stack (the user's frames first); also kept in the thread. */
  errorDetail?: ErrorDetail;
  /** The root run id of the graph's trace (the corrector's, for a corrector). */
  traceRunId?: string;
  /** `--initial FILE`: the prediction was not plain SQL, and its SQL was extracted from the text, or it held none. */
  initialExtraction?: "extracted" | "none";
  /** What was done about damaged checkpoints (a thread deleted and restarted), a line each. */
  checkpointNotes?: string[];
  /**
   * Correctors: why the question has no initial SQL to correct ("the initial run failed (…)", "not in FILE"). Such a
   * question is failed, not corrected: correcting "" would credit the corrector with the initial method's failure.
   */
  noInitial?: string;
}

/** For a graph not built by a spec (no `recursionLimit` of its own): LangGraph's limit is then this. */
const FALLBACK_RECURSION_LIMIT = 200;

export const inputOf = (q: Question, graph: string, sql?: string): SqlInput => ({
  graph,
  questionId: q.id,
  question: q.question,
  evidence: q.evidence,
  dbId: q.dbId,
  dbPath: q.dbPath,
  descriptionDir: q.descriptionDir,
  ...(sql !== undefined ? { sql } : {}),
});

/**
 * Runs a graph on a thread: continues an unfinished thread from its last checkpoint, returns a finished thread's
 * state as it is, or starts the thread with the input. This is what makes `eval --resume` redo nothing.
 *
 * A thread whose checkpoints do not read (a truncated or changed file) never blocks a run for good: its checkpoints
 * are deleted and the question starts again from scratch on the same thread; `notes` hears what was done (the
 * caller records it for the question). If they cannot be deleted, the question fails (not the run), saying so.
 */
export async function runThread(graph: RunnableGraph, input: SqlInput, threadId: string, trace: TraceConfig = {}, notes?: string[]): Promise<SqlStateValue> {
  try {
    return await runThreadRestarting(graph, input, threadId, trace, notes);
  } finally {
    releaseThread(graph, threadId);
  }
}

/**
 * The thread has ended (finished or failed): the checkpointer may drop what it kept for it (the chunked saver's
 * per-thread dictionaries and memo entries), so memory stays flat over thousands of questions. Its checkpoints stay.
 */
function releaseThread(graph: RunnableGraph, threadId: string): void {
  const saver = graph.checkpointer as { releaseThread?(id: string): void } | undefined;
  if (typeof saver?.releaseThread === "function") saver.releaseThread(threadId);
}

async function runThreadRestarting(graph: RunnableGraph, input: SqlInput, threadId: string, trace: TraceConfig, notes?: string[]): Promise<SqlStateValue> {
  try {
    return await runThreadOnce(graph, input, threadId, trace);
  } catch (error) {
    // Only the checkpointer's own damage (storage says so): a node's error about a corrupt benchmark database reads
    // alike but is no reason to delete the thread.
    if (!(error instanceof DamagedCheckpointError)) throw error;
    const what = firstLineOf(error);
    const saver = graph.checkpointer as { deleteThread?(id: string): Promise<void> } | undefined;
    try {
      if (typeof saver?.deleteThread !== "function") throw new Error("the checkpointer cannot delete threads");
      await saver.deleteThread(threadId);
    } catch (deleting) {
      throw new Error(`thread '${threadId}': ${what}; its checkpoints could not be deleted (${firstLineOf(deleting)}), so the question cannot restart`);
    }
    notes?.push(`thread '${threadId}': ${what}; its checkpoints were deleted and the question restarted from scratch`);
    try {
      return await runThreadOnce(graph, input, threadId, trace);
    } catch (again) {
      // Damage again (the file itself is broken): this question fails, the run goes on.
      if (again instanceof DamagedCheckpointError) throw new Error(`thread '${threadId}': restarted after damaged checkpoints, and failed again: ${firstLineOf(again)}`);
      throw again;
    }
  }
}

async function runThreadOnce(graph: RunnableGraph, input: SqlInput, threadId: string, trace: TraceConfig): Promise<SqlStateValue> {
  try {
    return await runThreadFrom(graph, input, threadId, trace);
  } catch (error) {
    throw await pastStepBound(graph, threadId, error);
  }
}

/**
 * LangGraph's "Recursion limit of N reached … set the recursionLimit config key" said as what it means here: the graph
 * ran more supersteps than its spec's `steps(options)` allows, so `steps()` undercounts a loop; the nodes that ran
 * most in the thread name the loop. Other errors are returned as they are.
 */
export async function pastStepBound(graph: RunnableGraph, threadId: string, error: unknown): Promise<unknown> {
  if ((error as { name?: unknown } | null)?.name !== "GraphRecursionError") return error;
  const name = (graph as { name?: unknown }).name;
  const runs = new Map<string, number>();
  const history = (graph as { getStateHistory?(config: Record<string, unknown>): AsyncIterable<{ tasks?: { name: string }[] }> }).getStateHistory;
  try {
    if (history) for await (const snapshot of history.call(graph, { configurable: { thread_id: threadId } })) for (const task of snapshot.tasks ?? []) if (!task.name.startsWith("__")) runs.set(task.name, (runs.get(task.name) ?? 0) + 1);
  } catch {
    // the history does not read: the message goes without the counts
  }
  const most = [...runs].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([node, n]) => `'${node}' ${n} times`);
  const limit = graph.recursionLimit ?? FALLBACK_RECURSION_LIMIT;
  return new Error(
    `graph${typeof name === "string" ? ` '${name}'` : ""} ran past its step bound (recursion limit ${limit}: the spec's steps(options) plus a margin)${most.length ? `; in thread '${threadId}' ${most.join(", ")}` : ""}: its steps() undercounts a loop — count that loop at its bound in the spec's steps(options)`,
  );
}

async function runThreadFrom(graph: RunnableGraph, input: SqlInput, threadId: string, trace: TraceConfig): Promise<SqlStateValue> {
  const config = { configurable: { thread_id: threadId }, recursionLimit: graph.recursionLimit ?? FALLBACK_RECURSION_LIMIT, ...trace };
  // A new thread (every question of a new run) starts at once: no state snapshot to build (LangGraph computes its tasks).
  if (await isNewThread(graph, threadId)) return (await graph.invoke(input, config)) as SqlStateValue;
  const snapshot = await graph.getState(config).catch((error: unknown) => {
    if (error instanceof DamagedCheckpointError) throw error;
    return undefined;
  });
  const values = snapshot?.values as Partial<SqlStateValue> | undefined;
  if (snapshot && values && Object.keys(values).length && values.question !== undefined) {
    if (values.question !== input.question || values.dbPath !== input.dbPath) {
      throw new UserError(`thread '${threadId}' already holds another question; choose another thread id`);
    }
    return continueFrom(graph, snapshot, config);
  }
  return (await graph.invoke(input, config)) as SqlStateValue;
}

/** Whether the graph's checkpointer holds no checkpoint of the thread; false when it cannot tell (a remote graph). */
async function isNewThread(graph: RunnableGraph, threadId: string): Promise<boolean> {
  const saver = graph.checkpointer as { getTuple?(config: { configurable: Record<string, unknown> }): Promise<unknown> } | undefined;
  if (typeof saver?.getTuple !== "function") return false;
  try {
    return (await saver.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } })) === undefined;
  } catch (error) {
    if (error instanceof DamagedCheckpointError) throw error;
    return false;
  }
}

/**
 * Runs a thread that already holds state (a fork of a recorded thread: `sqlmend replay`) to its end, or returns it as
 * it is when finished. Damaged checkpoints are an error here, never a restart from the input: that would run the
 * whole question again under the fork's name.
 */
export async function continueThread(graph: RunnableGraph, threadId: string, trace: TraceConfig = {}): Promise<SqlStateValue> {
  const config = { configurable: { thread_id: threadId }, recursionLimit: graph.recursionLimit ?? FALLBACK_RECURSION_LIMIT, ...trace };
  try {
    const snapshot = await graph.getState(config);
    if (!Object.keys((snapshot.values ?? {}) as object).length) throw new Error(`thread '${threadId}' holds no state to continue`);
    return await continueFrom(graph, snapshot, config);
  } catch (error) {
    throw await pastStepBound(graph, threadId, error);
  } finally {
    releaseThread(graph, threadId);
  }
}

async function continueFrom(graph: RunnableGraph, snapshot: { values: unknown; next: string[]; tasks: unknown[] }, config: Record<string, unknown>): Promise<SqlStateValue> {
  // Finished means nothing to run and no task whose writes were saved without the next checkpoint (a kill
  // between the two leaves `next` empty but a task pending): only then is the state the answer.
  if (snapshot.next.length === 0 && snapshot.tasks.length === 0) return snapshot.values as SqlStateValue;
  return (await graph.invoke(null, config)) as SqlStateValue;
}

/** What a traced run carries (LangChain's run config): its name, tags, metadata, root run id and handlers. */
export interface TraceConfig {
  runName?: string;
  tags?: string[];
  metadata?: Record<string, unknown>;
  runId?: string;
  callbacks?: unknown[];
}

/**
 * The trace of a question's graph run: the sqlmend run, question, database, graph and the run's settings as metadata
 * (LangSmith shows and filters by them), and a root run id of its own, to which eval attaches the verdict.
 */
function traceOf(runner: GraphRunner, q: Question, graph: string): TraceConfig & { runId: string } {
  return {
    runName: `sqlmend ${graph} ${q.id}`,
    tags: ["sqlmend", graph],
    metadata: { sqlmend_run: runner.trace?.run, question_id: q.id, db_id: q.dbId, graph, ...runner.trace?.settings },
    runId: lazyCrypto().randomUUID(),
    ...(runner.trace?.callbacks ? { callbacks: runner.trace.callbacks } : {}),
  };
}

export const iterationsOf = (state: SqlStateValue | undefined): number => {
  if (!state) return 0;
  const rounds = (state as { rounds?: unknown }).rounds;
  return state.fixRounds + (typeof rounds === "number" ? rounds : 0);
};

/** One question through the runner's graph (and, for a corrector, its initial SQL and scenario). Never throws. */
export async function answerQuestion(runner: GraphRunner, q: Question, threadId: string): Promise<QuestionRun> {
  const notes: string[] = [];
  const run = await answerQuestionWith(runner, q, threadId, notes);
  return notes.length ? { ...run, checkpointNotes: notes } : run;
}

async function answerQuestionWith(runner: GraphRunner, q: Question, threadId: string, notes: string[]): Promise<QuestionRun> {
  const started = performance.now();
  let usage = emptyUsage();
  let initialSql: string | undefined;
  let initialExtraction: "extracted" | "none" | undefined;
  const withExtraction = (run: QuestionRun): QuestionRun => (initialExtraction ? { ...run, initialExtraction } : run);
  try {
    const trace = traceOf(runner, q, runner.spec.name);
    if (runner.spec.kind === "generator") {
      const state = await runThread(runner.graph, inputOf(q, runner.spec.name), threadId, trace, notes);
      return { threadId, traceRunId: trace.runId, sql: state.sql, state, outcome: outcomeOf(runner.spec, state as unknown as Record<string, unknown>), usage: state.usage, latencyMs: performance.now() - started, iterations: iterationsOf(state) };
    }
    const initial = runner.initial;
    if (!initial) throw new Error(`corrector '${runner.spec.name}' needs initial SQL (--initial)`);
    const withoutInitial = (why: string): QuestionRun => withExtraction({ threadId, sql: "", usage, latencyMs: performance.now() - started, iterations: 0, noInitial: why });
    if (initial.kind === "graph") {
      const { runId: _own, ...initialTrace } = traceOf(runner, q, initial.spec.name);
      let first: SqlStateValue;
      try {
        first = await runThread(initial.graph, inputOf(q, initial.spec.name), `${threadId}/initial`, initialTrace, notes);
      } catch (error) {
        if (error instanceof UserError) throw error;
        // What the initial thread spent and where it threw are kept, as for the corrector's own thread.
        const kept = await keptOfFailure(initial.graph, `${threadId}/initial`, error, q);
        usage = addUsage(usage, kept.usage);
        return { ...withoutInitial(`the initial run failed (${kept.error})`), errorDetail: kept.errorDetail };
      }
      usage = addUsage(usage, first.usage);
      // Under eval's rule a generator whose calls got no reply did not answer: nothing of its to correct.
      if (first.usage.failed) return withoutInitial(`the initial run failed (${first.usage.failed} model call${first.usage.failed === 1 ? "" : "s"} got no reply${first.usage.failure ? `: ${first.usage.failure}` : ""})`);
      initialSql = first.sql;
    } else {
      const unanswered = initial.unanswered?.get(q.id);
      if (unanswered) return withoutInitial(unanswered);
      if (!initial.predictions.has(q.id)) return withoutInitial(`not in ${initial.file}`);
      initialSql = initial.predictions.get(q.id)!;
      initialExtraction = initial.extraction?.get(q.id);
    }
    const { skip, initialCorrect } = await correctionSkipReason(runner, q, initialSql);
    if (skip) {
      return withExtraction({ threadId, sql: initialSql, initialSql, correction: skip, initialCorrect, usage, latencyMs: performance.now() - started, iterations: 0 });
    }
    const state = await runThread(runner.graph, inputOf(q, runner.spec.name, initialSql), threadId, trace, notes);
    return withExtraction({
      threadId,
      traceRunId: trace.runId,
      sql: state.sql,
      initialSql,
      correction: "applied",
      initialCorrect,
      state,
      outcome: outcomeOf(runner.spec, state as unknown as Record<string, unknown>),
      usage: addUsage(usage, state.usage),
      latencyMs: performance.now() - started,
      iterations: iterationsOf(state),
    });
  } catch (error) {
    if (error instanceof UserError) throw error;
    const kept = await keptOfFailure(runner.graph, threadId, error, q);
    return withExtraction({ threadId, sql: initialSql ?? "", initialSql, usage: addUsage(usage, kept.usage), latencyMs: performance.now() - started, iterations: 0, error: kept.error, errorDetail: kept.errorDetail });
  }
}

/**
 * What a thread that threw keeps: the calls and tokens it spent (its last checkpoint's usage, plus the usage its
 * step's finished tasks wrote before a sibling threw), the error with the slot that threw (`markSlot`, else the
 * failed task's name in the checkpoint: a validation error LangGraph raises after the node returned) — the error
 * also written into the thread (`keepThreadError`), so `inspect` and `readThread` show its stack.
 */
export async function keptOfFailure(graph: RunnableGraph, threadId: string, error: unknown, q: Question): Promise<{ usage: Usage; error: string; errorDetail: ErrorDetail }> {
  let usage = emptyUsage();
  let failedSlot: string | undefined;
  let checkpointId: string | undefined;
  try {
    const snapshot = (await graph.getState({ configurable: { thread_id: threadId } })) as { values: unknown; tasks: { name?: string; error?: unknown; result?: unknown }[]; config?: { configurable?: Record<string, unknown> } };
    const spent = UsageSchema.safeParse((snapshot.values as { usage?: unknown } | undefined)?.usage);
    if (spent.success) usage = spent.data;
    for (const task of snapshot.tasks ?? []) {
      const written = UsageSchema.safeParse((task.result as { usage?: unknown } | undefined)?.usage);
      if (task.result && written.success) usage = addUsage(usage, written.data);
    }
    failedSlot = (snapshot.tasks ?? []).find((t) => t.error && !isAbort(t.error))?.name ?? (snapshot.tasks ?? []).find((t) => t.error)?.name;
    const id = snapshot.config?.configurable?.checkpoint_id;
    if (typeof id === "string") checkpointId = id;
  } catch {
    // no readable thread (it never started, or a remote graph): nothing spent that we can see
  }
  const errorDetail = errorDetailOf(error, failedSlot);
  const line = errorLineOf(error, q);
  const slot = errorDetail.slot;
  const saver = graph.checkpointer as { putWrites?: unknown } | undefined;
  if (checkpointId && typeof saver?.putWrites === "function") await keepThreadError(saver as Parameters<typeof keepThreadError>[0], threadId, checkpointId, errorDetail);
  return { usage, error: slot && !line.includes(`slot '${slot}'`) ? `slot '${slot}': ${line}` : line, errorDetail };
}

/** MAGIC's three scenarios (Table 1): correct all SQL, only SQL that fails to execute, or only SQL the gold says is wrong. */
async function correctionSkipReason(runner: GraphRunner, q: Question, initialSql: string): Promise<{ skip?: string; initialCorrect?: boolean }> {
  if (runner.scenario === "all") return {};
  if (runner.scenario === "errors") {
    const execution = await executeSql(runner.deps.executor, q.dbPath, initialSql, { timeoutMs: runner.queryTimeoutMs });
    return execution.ok ? { skip: "skipped: initial SQL executes" } : {};
  }
  if (!q.goldSql) return {};
  const verdict = await scoreQuestion(q, initialSql, { executor: runner.deps.executor, semantics: runner.semantics, timeoutMs: runner.queryTimeoutMs });
  return { skip: verdict.correct ? "skipped: initial SQL is correct (oracle)" : undefined, initialCorrect: verdict.correct };
}
