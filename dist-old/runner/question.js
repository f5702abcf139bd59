import { outcomeOf } from "../graphs/outcome.js";
import { executeSql } from "../nodes/execute.js";
import { addUsage, emptyUsage } from "../state/usage.js";
import { scoreQuestion } from "../tools/benchmarks/score.js";
import { DamagedCheckpointError, firstLineOf, isDamagedCheckpoint, UserError } from "../core/errors.js";
import { lazyCrypto } from "../tools/hash.js";
/** A question's error in one line; SQLite's word that a file is corrupt is the benchmark database's (checkpoint damage never gets here). */
function errorLineOf(error, q) {
    const line = firstLineOf(error);
    if (/checkpoint/i.test(line))
        return line;
    return isDamagedCheckpoint(error) || /not a database file|database file is corrupt/i.test(line) ? `benchmark database ${q.dbPath} is unreadable: ${line}` : line;
}
/** For a graph not built by a spec (no `recursionLimit` of its own): LangGraph's limit is then this. */
const FALLBACK_RECURSION_LIMIT = 200;
export const inputOf = (q, graph, sql) => ({
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
export async function runThread(graph, input, threadId, trace = {}, notes) {
    try {
        return await runThreadOnce(graph, input, threadId, trace);
    }
    catch (error) {
        // Only the checkpointer's own damage (storage says so): a node's error about a corrupt benchmark database reads
        // alike but is no reason to delete the thread.
        if (!(error instanceof DamagedCheckpointError))
            throw error;
        const what = firstLineOf(error);
        const saver = graph.checkpointer;
        try {
            if (typeof saver?.deleteThread !== "function")
                throw new Error("the checkpointer cannot delete threads");
            await saver.deleteThread(threadId);
        }
        catch (deleting) {
            throw new Error(`thread '${threadId}': ${what}; its checkpoints could not be deleted (${firstLineOf(deleting)}), so the question cannot restart`);
        }
        notes?.push(`thread '${threadId}': ${what}; its checkpoints were deleted and the question restarted from scratch`);
        try {
            return await runThreadOnce(graph, input, threadId, trace);
        }
        catch (again) {
            // Damage again (the file itself is broken): this question fails, the run goes on.
            if (again instanceof DamagedCheckpointError)
                throw new Error(`thread '${threadId}': restarted after damaged checkpoints, and failed again: ${firstLineOf(again)}`);
            throw again;
        }
    }
}
async function runThreadOnce(graph, input, threadId, trace) {
    const config = { configurable: { thread_id: threadId }, recursionLimit: graph.recursionLimit ?? FALLBACK_RECURSION_LIMIT, ...trace };
    const snapshot = await graph.getState(config).catch((error) => {
        if (error instanceof DamagedCheckpointError)
            throw error;
        return undefined;
    });
    const values = snapshot?.values;
    if (snapshot && values && Object.keys(values).length && values.question !== undefined) {
        if (values.question !== input.question || values.dbPath !== input.dbPath) {
            throw new UserError(`thread '${threadId}' already holds another question; choose another thread id`);
        }
        return continueFrom(graph, snapshot, config);
    }
    return (await graph.invoke(input, config));
}
/**
 * Runs a thread that already holds state (a fork of a recorded thread: `sqlmend replay`) to its end, or returns it as
 * it is when finished. Damaged checkpoints are an error here, never a restart from the input: that would run the
 * whole question again under the fork's name.
 */
export async function continueThread(graph, threadId, trace = {}) {
    const config = { configurable: { thread_id: threadId }, recursionLimit: graph.recursionLimit ?? FALLBACK_RECURSION_LIMIT, ...trace };
    const snapshot = await graph.getState(config);
    if (!Object.keys((snapshot.values ?? {})).length)
        throw new Error(`thread '${threadId}' holds no state to continue`);
    return continueFrom(graph, snapshot, config);
}
async function continueFrom(graph, snapshot, config) {
    // Finished means nothing to run and no task whose writes were saved without the next checkpoint (a kill
    // between the two leaves `next` empty but a task pending): only then is the state the answer.
    if (snapshot.next.length === 0 && snapshot.tasks.length === 0)
        return snapshot.values;
    return (await graph.invoke(null, config));
}
/**
 * The trace of a question's graph run: the sqlmend run, question, database, graph and the run's settings as metadata
 * (LangSmith shows and filters by them), and a root run id of its own, to which eval attaches the verdict.
 */
function traceOf(runner, q, graph) {
    return {
        runName: `sqlmend ${graph} ${q.id}`,
        tags: ["sqlmend", graph],
        metadata: { sqlmend_run: runner.trace?.run, question_id: q.id, db_id: q.dbId, graph, ...runner.trace?.settings },
        runId: lazyCrypto().randomUUID(),
        ...(runner.trace?.callbacks ? { callbacks: runner.trace.callbacks } : {}),
    };
}
export const iterationsOf = (state) => {
    if (!state)
        return 0;
    const rounds = state.rounds;
    return state.fixRounds + (typeof rounds === "number" ? rounds : 0);
};
/** One question through the runner's graph (and, for a corrector, its initial SQL and scenario). Never throws. */
export async function answerQuestion(runner, q, threadId) {
    const notes = [];
    const run = await answerQuestionWith(runner, q, threadId, notes);
    return notes.length ? { ...run, checkpointNotes: notes } : run;
}
async function answerQuestionWith(runner, q, threadId, notes) {
    const started = performance.now();
    let usage = emptyUsage();
    let initialSql;
    let initialExtraction;
    const withExtraction = (run) => (initialExtraction ? { ...run, initialExtraction } : run);
    try {
        const trace = traceOf(runner, q, runner.spec.name);
        if (runner.spec.kind === "generator") {
            const state = await runThread(runner.graph, inputOf(q, runner.spec.name), threadId, trace, notes);
            return { threadId, traceRunId: trace.runId, sql: state.sql, state, outcome: outcomeOf(runner.spec, state), usage: state.usage, latencyMs: performance.now() - started, iterations: iterationsOf(state) };
        }
        const initial = runner.initial;
        if (!initial)
            throw new Error(`corrector '${runner.spec.name}' needs initial SQL (--initial)`);
        const withoutInitial = (why) => withExtraction({ threadId, sql: "", usage, latencyMs: performance.now() - started, iterations: 0, noInitial: why });
        if (initial.kind === "graph") {
            const { runId: _own, ...initialTrace } = traceOf(runner, q, initial.spec.name);
            let first;
            try {
                first = await runThread(initial.graph, inputOf(q, initial.spec.name), `${threadId}/initial`, initialTrace, notes);
            }
            catch (error) {
                if (error instanceof UserError)
                    throw error;
                return withoutInitial(`the initial run failed (${errorLineOf(error, q)})`);
            }
            usage = addUsage(usage, first.usage);
            // Under eval's rule a generator whose calls got no reply did not answer: nothing of its to correct.
            if (first.usage.failed)
                return withoutInitial(`the initial run failed (${first.usage.failed} model call${first.usage.failed === 1 ? "" : "s"} got no reply${first.usage.failure ? `: ${first.usage.failure}` : ""})`);
            initialSql = first.sql;
        }
        else {
            const unanswered = initial.unanswered?.get(q.id);
            if (unanswered)
                return withoutInitial(unanswered);
            if (!initial.predictions.has(q.id))
                return withoutInitial(`not in ${initial.file}`);
            initialSql = initial.predictions.get(q.id);
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
            outcome: outcomeOf(runner.spec, state),
            usage: addUsage(usage, state.usage),
            latencyMs: performance.now() - started,
            iterations: iterationsOf(state),
        });
    }
    catch (error) {
        if (error instanceof UserError)
            throw error;
        return withExtraction({ threadId, sql: initialSql ?? "", initialSql, usage, latencyMs: performance.now() - started, iterations: 0, error: errorLineOf(error, q) });
    }
}
/** MAGIC's three scenarios (Table 1): correct all SQL, only SQL that fails to execute, or only SQL the gold says is wrong. */
async function correctionSkipReason(runner, q, initialSql) {
    if (runner.scenario === "all")
        return {};
    if (runner.scenario === "errors") {
        const execution = await executeSql(runner.deps.executor, q.dbPath, initialSql, { timeoutMs: runner.queryTimeoutMs });
        return execution.ok ? { skip: "skipped: initial SQL executes" } : {};
    }
    if (!q.goldSql)
        return {};
    const verdict = await scoreQuestion(q, initialSql, { executor: runner.deps.executor, semantics: runner.semantics, timeoutMs: runner.queryTimeoutMs });
    return { skip: verdict.correct ? "skipped: initial SQL is correct (oracle)" : undefined, initialCorrect: verdict.correct };
}
