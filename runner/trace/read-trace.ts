/**
 * The trace API: a run folder (`readRun`) and a thread's checkpoints (`readThread`) as plain JSON-safe data
 * (runner/trace/trace-types.ts). `inspect`, `threads`, `sqlmend view` and notebooks read runs through these.
 *
 * A thread is read from its checkpoints alone (`saver.list()`): each checkpoint's channel values are the state after a
 * step, its pending writes the next step's tasks' writes. Which node each task was is worked out as LangGraph names
 * its tasks (a pull task per `branch:to:NODE` channel newer than the node has seen, a push task per `Send`; the task id
 * is the same uuid5 of the step, node and trigger), so a thread reads with or without its graph: the graph (a
 * built-in, or the `--graph` module run.json records) adds its slots' roles, its state fields and its outcome.
 */
export type * from "./trace-types.ts";
export { readRun, readRunFile, verdictOf } from "./read-run.ts";
export { diffStates, readThread, type ReadThreadMore } from "./read-thread.ts";
