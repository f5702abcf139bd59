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
import fs from "node:fs";
import path from "node:path";
import type { BaseCheckpointSaver, CheckpointTuple } from "@langchain/langgraph-checkpoint";
import { type ErrorDetail, firstLineOf, isAbort, UserError } from "../../core/errors.ts";
import { inertDeps } from "../../graphs/inert-deps.ts";
import { findManifest } from "../../graphs/registry.ts";
import { outcomeOf } from "../../graphs/outcome.ts";
import type { GraphSpec } from "../../graphs/spec.ts";
import type { Question } from "../../state/question.ts";
import type { SqlExecutor } from "../../tools/sqlite/types.ts";
import { ERROR_DETAIL_CHANNEL, ERROR_DETAIL_TASK } from "../../storage/thread-error.ts";
import type { FieldDiff, ReadThreadOptions, StepError, ThreadView, TraceCall, TraceStep } from "./trace-types.ts";
import { modulesOf, readRunFile, str } from "./read-run.ts";


/** LangGraph's own channels and the runner's error write: not state. */
const isInternalChannel = (channel: string): boolean => channel.startsWith("__") || channel.includes(":");
/** Task writes that are not output (LangGraph's `isTaskOutput`). */
const NOT_OUTPUT = new Set(["__error__", "__error_source_node__", "__interrupt__", "__resume__"]);

type Version = number | string;
const newer = (a: Version | undefined, b: Version | undefined): boolean => {
  if (a === undefined) return false;
  if (b === undefined) return true;
  return typeof a === "number" && typeof b === "number" ? a > b : String(a) > String(b);
};

interface PlannedTask {
  id: string;
  name: string;
}

/**
 * The tasks LangGraph runs after checkpoint `tuple` (its next step), with their ids: a pull task for every node whose
 * `branch:to:NODE` channel (the input's `__start__`) is newer than the node has seen, a push task per pending Send.
 */
function plannedTasks(tuple: CheckpointTuple, uuid5: (name: string, namespace: string) => string): PlannedTask[] {
  const cp = tuple.checkpoint;
  const step = Number((tuple.metadata as { step?: unknown } | undefined)?.step ?? -1) + 1;
  const out: PlannedTask[] = [];
  const versions = (cp.channel_versions ?? {}) as Record<string, Version>;
  const seen = (cp.versions_seen ?? {}) as Record<string, Record<string, Version>>;
  const values = (cp.channel_values ?? {}) as Record<string, unknown>;
  for (const channel of Object.keys(versions)) {
    const name = channel === "__start__" ? "__start__" : channel.startsWith("branch:to:") ? channel.slice("branch:to:".length) : undefined;
    // A trigger is available (its value is in the checkpoint: consumed ones are cleared) and newer than the node saw.
    if (!name || !(channel in values) || !newer(versions[channel], seen[name]?.[channel])) continue;
    out.push({ name, id: uuid5(JSON.stringify([name, String(step), name, "__pregel_pull", [channel]]), cp.id) });
  }
  const sends = (cp.channel_values as Record<string, unknown> | undefined)?.__pregel_tasks;
  if (Array.isArray(sends)) {
    sends.forEach((send, index) => {
      const node = (send as { node?: unknown } | null)?.node;
      if (typeof node === "string") out.push({ name: node, id: uuid5(JSON.stringify([node, String(step), node, "__pregel_push", String(index)]), cp.id) });
    });
  }
  return out;
}

interface TaskWrites {
  id: string;
  name: string;
  writes: [string, unknown][];
  output: boolean;
  error?: { message?: string; name?: string };
}

/** A checkpoint's pending writes by task, in the order of the planned tasks (unknown tasks last). */
function tasksOf(tuple: CheckpointTuple, planned: PlannedTask[], names: Map<string, string>): { tasks: TaskWrites[]; detail?: ErrorDetail } {
  const byId = new Map<string, TaskWrites>();
  let detail: ErrorDetail | undefined;
  for (const [taskId, channel, value] of tuple.pendingWrites ?? []) {
    if (taskId === ERROR_DETAIL_TASK || channel === ERROR_DETAIL_CHANNEL) {
      if (value && typeof value === "object") detail = value as ErrorDetail;
      continue;
    }
    let task = byId.get(taskId);
    if (!task) byId.set(taskId, (task = { id: taskId, name: names.get(taskId) ?? `task ${taskId.slice(0, 8)}`, writes: [], output: false }));
    if (channel === "__error__") task.error = (value ?? {}) as TaskWrites["error"];
    else if (!NOT_OUTPUT.has(channel)) {
      task.output = true;
      task.writes.push([channel, value]);
    }
  }
  const order = new Map(planned.map((t, i) => [t.id, i]));
  const tasks = [...byId.values()].sort((a, b) => (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity));
  return { tasks, ...(detail ? { detail } : {}) };
}

/** The state of a checkpoint: its channel values less LangGraph's own (the graph's fields only, when known). */
function stateOf(tuple: CheckpointTuple | undefined, fields: Set<string> | undefined): Record<string, unknown> {
  const values = (tuple?.checkpoint.channel_values ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) if (fields ? fields.has(key) : !isInternalChannel(key)) out[key] = value;
  return out;
}

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/** Field by field, what changed from `before` to `after`. */
export function diffStates(before: Record<string, unknown>, after: Record<string, unknown>): FieldDiff[] {
  const out: FieldDiff[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const had = field in before && before[field] !== undefined;
    const has = field in after && after[field] !== undefined;
    if (!had && has) out.push({ field, change: "added", after: after[field] });
    else if (had && !has) out.push({ field, change: "removed", before: before[field] });
    else if (had && has && !same(before[field], after[field])) out.push({ field, change: "changed", before: before[field], after: after[field] });
  }
  return out;
}

const callOf = (c: Record<string, unknown>): TraceCall => ({
  role: String(c.role ?? "?"),
  model: String(c.model ?? "?"),
  ...(typeof c.node === "string" ? { node: c.node } : {}),
  messages: Array.isArray(c.messages) ? (c.messages as { role?: unknown; content?: unknown }[]).map((m) => ({ role: String(m.role ?? ""), content: String(m.content ?? "") })) : [],
  reply: String(c.reply ?? ""),
  inputTokens: Number(c.inputTokens ?? 0),
  outputTokens: Number(c.outputTokens ?? 0),
  latencyMs: Number(c.latencyMs ?? 0),
  ...(typeof c.method === "string" ? { method: c.method } : {}),
  ...(c.cached ? { cached: true } : {}),
  ...(c.reused ? { reused: true } : {}),
  ...(typeof c.error === "string" ? { error: c.error } : {}),
  ...(typeof c.savedInputTokens === "number" ? { savedInputTokens: c.savedInputTokens } : {}),
  ...(typeof c.savedOutputTokens === "number" ? { savedOutputTokens: c.savedOutputTokens } : {}),
});

/** How many rows of a result a step shows. */
const STEP_ROWS = 20;

function executionOf(value: unknown): TraceStep["execution"] | undefined {
  const e = value as { ok?: boolean; preview?: { rowCount?: number; columns?: string[]; rows?: unknown[][] }; error?: string; errorKind?: string } | null | undefined;
  if (!e || typeof e !== "object") return undefined;
  return {
    ok: e.ok === true,
    ...(e.preview?.rowCount !== undefined ? { rowCount: e.preview.rowCount } : {}),
    ...(e.preview?.columns ? { columns: e.preview.columns } : {}),
    ...(e.preview?.rows ? { rows: e.preview.rows.slice(0, STEP_ROWS) } : {}),
    ...(e.error !== undefined ? { error: e.error } : {}),
    ...(e.errorKind !== undefined ? { errorKind: e.errorKind } : {}),
  };
}

/** The graph a thread was run by: the module `--graph` gave, the run's recorded module, or a built-in by name. */
async function graphFor(name: string | undefined, module: { path: string; sha256?: string } | undefined): Promise<{ spec?: GraphSpec; note?: string }> {
  if (module) {
    if (!fs.existsSync(module.path)) return { note: `its graph module ${module.path} is gone: steps read from the checkpoints alone` };
    try {
      const { importModule } = await import("../../tools/import-module.ts");
      const loaded = (await importModule(module.path)).default as GraphSpec | undefined;
      if (!loaded || typeof loaded.build !== "function" || !loaded.slots) return { note: `${module.path} exports no graph: steps read from the checkpoints alone` };
      if (name && loaded.name !== name) {
        // Another graph's thread of the run (a corrector's initial generator, say): a built-in by the state's name.
        const builtIn = findManifest(name);
        if (builtIn) return { spec: await builtIn.load() };
        return { note: `${module.path} is graph '${loaded.name}', not '${name}': steps read from the checkpoints alone` };
      }
      let note: string | undefined;
      if (module.sha256) {
        const { sha256OfFile } = await import("../../tools/hash.ts");
        if (sha256OfFile(module.path) !== module.sha256) note = `its graph module ${module.path} changed since the run (sha256 differs): slots and roles are the module's as it is now`;
      }
      return { spec: loaded, ...(note ? { note } : {}) };
    } catch (error) {
      return { note: `its graph module ${module.path} does not load (${firstLineOf(error)}): steps read from the checkpoints alone` };
    }
  }
  if (!name) return { note: "its state names no graph: steps read from the checkpoints alone" };
  const manifest = findManifest(name);
  if (!manifest) return { note: `it was run by graph '${name}', which this version does not have (a graph module: --graph FILE, or --run DIR): steps read from the checkpoints alone` };
  return { spec: await manifest.load() };
}

/** Extra options of `readThread` beyond `ReadThreadOptions`. */
export interface ReadThreadMore {
  /** An opened checkpoint saver (the caller closes it); over `checkpoints`. */
  saver?: BaseCheckpointSaver;
  /** The graph: a built-in's name or a `--graph` module file (default: the run's module, else the name its state holds). */
  graph?: string;
  /** For the default data directory and relative paths. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** With `gold`: the question (its gold SQL and database) when the caller has it; else the run's benchmark is read. */
  question?: Pick<Question, "id" | "dbId" | "dbPath" | "question" | "goldSql">;
  /** With `gold`: an executor to score with, kept open by the caller (a server scoring many threads); else one is started. */
  executor?: SqlExecutor;
  /** With `gold`: where verdicts are cached (default: the data directory's `trace-gold/`). */
  goldCacheDir?: string;
}

/** `readRun`'s run.json facts a thread needs: where its checkpoints are, its graph module. */
function runFacts(runDir: string | undefined): { checkpoints?: string; module?: { path: string; sha256?: string }; graph?: string } {
  if (!runDir) return {};
  const run = readRunFile(runDir);
  const settings = (run.settings && typeof run.settings === "object" ? run.settings : {}) as Record<string, unknown>;
  const { graphModule } = modulesOf(runDir, settings);
  return { ...(str(run.checkpoints) ? { checkpoints: str(run.checkpoints) } : {}), ...(graphModule ? { module: graphModule } : {}), ...(str(run.graph) ? { graph: str(run.graph) } : {}) };
}

/** The checkpoint location to open: given, else the run's (a PostgreSQL URL with a hidden password needs giving). */
function locationOf(given: string | undefined, recorded: string | undefined): string | undefined {
  if (given !== undefined) return given;
  if (!recorded) return undefined;
  if (recorded === "memory") throw new UserError("the run kept its checkpoints in memory: no thread to read");
  if (recorded.includes(":***@")) throw new UserError(`the run kept its checkpoints in ${recorded}: pass the checkpoints with that URL and its password`);
  return recorded;
}

/**
 * A thread's steps from its checkpoints (module comment): per step the nodes that ran, each task's writes, the diff
 * from the state before, the model calls, the execution, the error of a node that threw; the final state, whether it
 * finished, a replay's fork. With `gold`, each step that changed the SQL gets the gold's verdict (`goldForThread`).
 */
export async function readThread(threadId: string, options: ReadThreadOptions & ReadThreadMore = {}): Promise<ThreadView> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const runDir = options.run ? path.resolve(cwd, options.run) : undefined;
  const facts = runFacts(runDir);
  let store: { saver: BaseCheckpointSaver; close(): void; location: string } | undefined;
  const { openReadyCheckpointer } = await import("../../storage/checkpoints.ts");
  if (!options.saver) store = await openReadyCheckpointer(locationOf(options.checkpoints, facts.checkpoints), env, cwd, { mustExist: true });
  const saver = options.saver ?? store!.saver;
  try {
    const tuples: CheckpointTuple[] = [];
    for await (const tuple of saver.list({ configurable: { thread_id: threadId, checkpoint_ns: "" } })) tuples.push(tuple);
    if (!tuples.length) throw new UserError(`no thread '${threadId}' in ${store?.location ?? "the checkpoint store"}`);
    tuples.reverse();
    const last = tuples.at(-1)!;
    const lastValues = (last.checkpoint.channel_values ?? {}) as Record<string, unknown>;
    const stateGraph = typeof lastValues.graph === "string" && lastValues.graph ? lastValues.graph : undefined;
    // Which graph: --graph (a name or a module file), the run's module, or the name the state holds.
    const givenModule = options.graph && /[\\/]|\.[cm]?[jt]s$/.test(options.graph) ? { path: path.resolve(cwd, options.graph) } : undefined;
    const graphName = givenModule ? stateGraph : (options.graph ?? stateGraph ?? facts.graph);
    // A graph named for a thread whose state names another: its slots would be the wrong ones, so none is used.
    const mismatch = !givenModule && options.graph && stateGraph && options.graph !== stateGraph;
    const { spec, note } = mismatch
      ? { spec: undefined, note: `the thread was run by graph '${stateGraph}', not '${options.graph}': steps read from the checkpoints alone` }
      : await graphFor(graphName, givenModule ?? (options.graph ? undefined : facts.module));
    const fields = spec ? new Set(Object.keys(spec.state.fields)) : undefined;

    const { uuid5 } = await import("@langchain/langgraph-checkpoint");
    const planned = tuples.map((t) => plannedTasks(t, uuid5));
    const names = new Map<string, string>();
    for (const tasks of planned) for (const t of tasks) names.set(t.id, t.name);
    // Tasks no rule named (another LangGraph's ids): the graph's own history names them, when the graph builds.
    const unnamed = tuples.some((t) => (t.pendingWrites ?? []).some(([id, channel]) => id !== ERROR_DETAIL_TASK && channel !== ERROR_DETAIL_CHANNEL && !names.has(id)));
    if (unnamed && spec) await namesFromHistory(spec, saver, threadId, names);

    const steps: TraceStep[] = [];
    let threadError: StepError | undefined;
    for (let i = 0; i < tuples.length; i++) {
      const before = tuples[i]!;
      const after = tuples[i + 1];
      const stepNo = Number((before.metadata as { step?: unknown } | undefined)?.step ?? i - 1) + 1;
      const { tasks, detail } = tasksOf(before, planned[i]!, names);
      if (stepNo < 1 && after) continue; // the input
      if (!after && !tasks.length) break; // the last checkpoint, nothing pending
      const stateBefore = stateOf(before, fields);
      const stateAfter = after ? stateOf(after, fields) : undefined;
      const step = stepOf(stepNo, before, after, tasks, stateBefore, stateAfter, spec, options.state === true);
      step.next = after ? [...new Set(planned[i + 1]!.map((t) => t.name))] : [];
      const failed = tasks.find((t) => t.error && !t.output && !isAbort(t.error)) ?? tasks.find((t) => t.error && !t.output);
      if (failed || (detail && !after)) {
        const error: StepError = {
          ...(detail ?? { errorClass: failed?.error?.name || "Error", message: failed?.error?.message ?? "unknown error" }),
          ...(failed && !detail?.slot ? { slot: failed.name } : {}),
        };
        step.error = error;
        if (!after) threadError = error;
      }
      steps.push(step);
    }
    const state = stateOf(last, fields);
    const pendingStep = steps.at(-1)?.pending === true;
    const next = pendingStep ? [...new Set(steps.at(-1)!.slots)] : [...new Set(planned.at(-1)!.map((t) => t.name))];
    const finished = !pendingStep && next.length === 0;
    const inputSql = inputWrite(tuples[0]!, "sql");
    const forked = (tuples[0]!.metadata as { forkedFrom?: { thread?: unknown; checkpoint?: unknown }; step?: unknown } | undefined) ?? {};
    const view: ThreadView = {
      threadId,
      ...(spec?.name ?? graphName ? { graph: spec?.name ?? graphName } : {}),
      readAs: spec ? "graph" : "generic",
      finished,
      next,
      ...(typeof state.question === "string" ? { question: state.question } : {}),
      ...(typeof state.dbId === "string" ? { dbId: state.dbId } : {}),
      ...(typeof inputSql === "string" && inputSql ? { initialSql: inputSql } : typeof state.initialSql === "string" && state.initialSql ? { initialSql: state.initialSql } : {}),
      ...(typeof state.sql === "string" ? { finalSql: state.sql } : {}),
      state,
      steps,
      ...(threadError ? { error: threadError } : {}),
      ...(forked.forkedFrom && typeof forked.forkedFrom.thread === "string"
        ? { forkedFrom: { threadId: forked.forkedFrom.thread, checkpointId: String(forked.forkedFrom.checkpoint ?? ""), prefixSteps: Number(forked.step ?? 0) } }
        : {}),
      ...(finished && spec ? { outcome: safeOutcome(spec, state) } : {}),
      ...(note ? { note } : {}),
      ...(store ? { checkpoints: store.location } : {}),
    };
    if (options.gold) {
      const { goldForThread } = await import("./gold-per-step.ts");
      await goldForThread(view, { ...options, env, cwd, ...(runDir ? { run: runDir } : {}), ...(options.goldCacheDir ? { cacheDir: options.goldCacheDir } : {}) });
    }
    return view;
  } finally {
    store?.close();
  }
}

function safeOutcome(spec: GraphSpec, state: Record<string, unknown>): ThreadView["outcome"] {
  try {
    return outcomeOf(spec, state);
  } catch (error) {
    return { outcomeError: firstLineOf(error) };
  }
}

/** The value the input wrote to a channel (a corrector's SQL to correct), from the thread's first checkpoint's writes. */
function inputWrite(first: CheckpointTuple, channel: string): unknown {
  if (Number((first.metadata as { step?: unknown } | undefined)?.step) !== -1) return undefined;
  return (first.pendingWrites ?? []).find(([, c]) => c === channel)?.[2];
}

function stepOf(
  stepNo: number,
  before: CheckpointTuple,
  after: CheckpointTuple | undefined,
  tasks: TaskWrites[],
  stateBefore: Record<string, unknown>,
  stateAfter: Record<string, unknown> | undefined,
  spec: GraphSpec | undefined,
  withState: boolean,
): TraceStep {
  const count = new Map<string, number>();
  for (const t of tasks) count.set(t.name, (count.get(t.name) ?? 0) + 1);
  const seen = new Map<string, number>();
  const writes: TraceStep["writes"] = {};
  const calls: TraceCall[] = [];
  for (const task of tasks) {
    const nth = (seen.get(task.name) ?? 0) + 1;
    seen.set(task.name, nth);
    const fields: Record<string, unknown> = {};
    for (const [channel, value] of task.writes) {
      if (channel === "calls") {
        if (Array.isArray(value)) calls.push(...value.map((c) => callOf(c as Record<string, unknown>)));
        continue;
      }
      if (channel === "usage" || isInternalChannel(channel)) continue;
      fields[channel] = value;
    }
    if (task.output || task.error) writes[(count.get(task.name) ?? 0) > 1 ? `${task.name}#${nth}` : task.name] = fields;
  }
  const slots = tasks.map((t) => t.name);
  const roles = [...new Set([...slots.map((s) => spec?.slots[s]?.role).filter((r): r is string => typeof r === "string"), ...calls.map((c) => c.role)])];
  const step: TraceStep = {
    step: stepNo,
    checkpointId: after?.checkpoint.id ?? before.checkpoint.id,
    slots,
    roles,
    writes,
    diff: stateAfter ? diffStates(stateBefore, stateAfter) : [],
    calls,
    next: [],
    ...(after?.checkpoint.ts ? { createdAt: after.checkpoint.ts } : {}),
  };
  if (!after) step.pending = true;
  if (withState && stateAfter) step.state = stateAfter;
  const wroteExecution = tasks.some((t) => t.writes.some(([c]) => c === "execution"));
  if (wroteExecution) {
    const execution = executionOf(stateAfter ? stateAfter.execution : tasks.flatMap((t) => t.writes).find(([c]) => c === "execution")?.[1]);
    if (execution) step.execution = execution;
  }
  if (stateAfter && typeof stateAfter.sql === "string" && stateAfter.sql !== stateBefore.sql) step.sql = stateAfter.sql;
  return step;
}

/** Task names from the graph's own state history (`getStateHistory`): for task ids the naming rule did not find. */
async function namesFromHistory(spec: GraphSpec, saver: BaseCheckpointSaver, threadId: string, names: Map<string, string>): Promise<void> {
  try {
    const graph = spec.build(inertDeps("reading a thread"), { checkpointer: saver });
    for await (const snapshot of graph.getStateHistory({ configurable: { thread_id: threadId } }) as AsyncIterable<{ tasks: { id: string; name: string }[] }>) {
      for (const task of snapshot.tasks) if (!names.has(task.id)) names.set(task.id, task.name);
    }
  } catch {
    // the graph does not build without its options: the tasks keep their ids as names
  }
}
