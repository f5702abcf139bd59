import fs from "node:fs";
import path from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { firstLineOf, UserError } from "../../core/errors.ts";
import { opt, optionText, optionUsageError, optionUserError } from "../../core/config.ts";
import { outcomeOf } from "../../graphs/outcome.ts";
import type { Benchmark, Question } from "../../state/question.ts";
import { SPLITS, type Split } from "../../state/splits.ts";
import { emptyUsage, subtractUsage, type Usage, UsageSchema } from "../../state/usage.ts";
import { loadSource } from "../../tools/benchmarks/benchmark.ts";
import type { Semantics } from "../../tools/benchmarks/score.ts";
import { cacheLine } from "../../tools/models/cache-modes.ts";
import { openReadyCheckpointer } from "../../storage/checkpoints.ts";
import { isPostgresLocation } from "../../storage/location.ts";
import { evalRecordStore, recordOfRun, writeEvalOutputs } from "../eval/eval-question.ts";
import { fallbackNotes, type RunIO } from "../run/progress.ts";
import { continueThread, type GraphRunner, iterationsOf, keptOfFailure, type QuestionRun } from "../run/question-thread.ts";
import { nextThread, type QuestionRunResult, runQuestions, unfinishedLines } from "../run/question-loop.ts";
import { exLine, summarize } from "../report/eval-report.ts";
import { type EvalRecord, failureOf, isFailed, parseResults } from "../run/results-record.ts";
import { fileOrder } from "../run/question-sample.ts";
import { prepareOutDir, questionHashes } from "../run/run-json.ts";
import { nodeIdentities } from "../run/run-settings.ts";
import { codeIdentity, moduleIdentity } from "../../tools/version.ts";

/**
 * `sqlmend replay`: counterfactual runs on recorded states. Each question of an eval run is forked from its recorded
 * thread at the last checkpoint before a slot first ran (LangGraph time travel, onto a thread of the replay's own: the
 * original's threads are only read), and only the rest runs, with the replay's graph (swapped nodes). The output is an
 * eval run folder; each record's counts are the suffix's, the prefix's are kept apart in its `replay` field.
 */

export const REPLAY_SELECTIONS = ["all", "wrong", "right", "failed"] as const;
export type ReplaySelection = (typeof REPLAY_SELECTIONS)[number];

/** What an eval's output folder recorded: its run.json and its records. */
export interface RecordedRun {
  dir: string;
  runId: string;
  graph: string;
  bench: string | null;
  split: string;
  questions: string | null;
  dbDir: string | null;
  semantics: Semantics;
  models: Record<string, unknown>;
  /** The answer-shaping settings under their flag names (`answerSettings` + `graphSettings`). */
  settings: Record<string, unknown>;
  preflight: Record<string, unknown>;
  /** Where its threads were checkpointed, when run.json says (a PostgreSQL URL without its password). */
  checkpoints?: string;
  records: Map<string, EvalRecord>;
}

/** Reads an eval output folder (run.json and results.jsonl); one line when it is not one. */
export function readRecordedRun(dir: string): RecordedRun {
  const runFile = path.join(dir, "run.json");
  const resultsFile = path.join(dir, "results.jsonl");
  if (!fs.existsSync(runFile) || !fs.existsSync(resultsFile)) throw new UserError(`${dir}: no run.json and results.jsonl (is it an 'sqlmend eval' --out folder?)`);
  let run: Record<string, unknown>;
  try {
    run = JSON.parse(fs.readFileSync(runFile, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new UserError(`${runFile}: cannot read: ${firstLineOf(error)}`);
  }
  if (typeof run.graph !== "string" || typeof run.runId !== "string") throw new UserError(`${runFile}: names no graph or run id (is it an 'sqlmend eval' --out folder?)`);
  if (typeof run.shard === "string") throw new UserError(`${dir} is shard ${run.shard} of a run: replay the merged run ('sqlmend merge'), or each shard`);
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  return {
    dir,
    runId: run.runId,
    graph: run.graph,
    bench: str(run.bench),
    split: str(run.split) ?? "dev",
    questions: str(run.questions),
    dbDir: str(run.dbDir),
    semantics: run.semantics === "spider" ? "spider" : "bird",
    models: (run.models ?? {}) as Record<string, unknown>,
    settings: (run.settings ?? {}) as Record<string, unknown>,
    preflight: (run.preflight ?? {}) as Record<string, unknown>,
    ...(typeof run.checkpoints === "string" ? { checkpoints: run.checkpoints } : {}),
    records: parseResults(fs.readFileSync(resultsFile, "utf8")).records,
  };
}

/** Where a question's recorded thread is forked, or why it is not replayed. */
export type ForkPlan =
  | { kind: "fork"; checkpointId: string; step: number; prefix: Usage }
  | { kind: "not reached"; why: string }
  | { kind: "prefix failed"; why: string }
  | { kind: "no thread" };

interface HistoryGraph {
  getStateHistory(config: Record<string, unknown>): AsyncIterable<{ values: unknown; next: string[]; config: { configurable?: Record<string, unknown> }; metadata?: Record<string, unknown> }>;
}

/**
 * The last checkpoint of `threadId` before `slot` first ran: the oldest whose next step runs it (time travel from
 * there re-runs that whole step, the slot's parallel siblings included). Reads the thread, never writes it.
 */
export async function forkPoint(graph: HistoryGraph, threadId: string, slot: string): Promise<ForkPlan> {
  const snapshots: { values: unknown; next: string[]; config: { configurable?: Record<string, unknown> }; metadata?: Record<string, unknown> }[] = [];
  for await (const snapshot of graph.getStateHistory({ configurable: { thread_id: threadId } })) snapshots.push(snapshot);
  if (!snapshots.length) return { kind: "no thread" };
  const before = snapshots.reverse().find((s) => s.next.includes(slot));
  if (!before) return { kind: "not reached", why: `its thread never ran '${slot}' (${snapshots.length} checkpoints)` };
  const prefix = UsageSchema.safeParse((before.values as { usage?: unknown }).usage);
  const usage = prefix.success ? prefix.data : emptyUsage();
  if (usage.failed) return { kind: "prefix failed", why: `before '${slot}', ${usage.failed} model call${usage.failed === 1 ? "" : "s"} got no reply${usage.failure ? ` (${usage.failure})` : ""}` };
  return { kind: "fork", checkpointId: String(before.config.configurable?.checkpoint_id), step: Number(before.metadata?.step ?? 0), prefix: usage };
}

/**
 * Copies checkpoint `checkpointId` of thread `from` as the first checkpoint of thread `to` (its metadata saying where
 * it came from). The recorded writes of the step after it are not copied, so that step runs again, in full.
 */
export async function forkThread(saver: BaseCheckpointSaver, from: string, checkpointId: string, to: string): Promise<void> {
  const tuple = await saver.getTuple({ configurable: { thread_id: from, checkpoint_ns: "", checkpoint_id: checkpointId } });
  if (!tuple) throw new Error(`thread '${from}' has no checkpoint ${checkpointId}`);
  const metadata = { ...tuple.metadata, source: "fork" as const, thread_id: to, forkedFrom: { thread: from, checkpoint: checkpointId } };
  // Every channel counts as new on the new thread (PostgreSQL stores the blobs of these versions only).
  await saver.put({ configurable: { thread_id: to, checkpoint_ns: "" } }, tuple.checkpoint, metadata as typeof tuple.metadata & object, tuple.checkpoint.channel_versions);
}

export interface ReplayArgs {
  /** The eval output folder to replay. */
  runDir: string;
  /** The slot before whose first run each thread is forked. */
  from: string;
  outDir: string;
  /**
   * The graph the replay continues the threads with, given what the original recorded (its benchmark loaded; the
   * checkpoint store holding its threads): the CLI builds the registered graph with the recorded options and the
   * swapped nodes. The one place the graph comes from.
   */
  runnerFor(original: RecordedRun, ctx: { bench: Benchmark; benchDir: string | undefined; checkpointer: BaseCheckpointSaver; nodes: string[]; warn: (line: string) => void }): Promise<GraphRunner>;
  /** The node swaps (`SLOT=FILE`), as run.json and the report record them. */
  nodes?: string[];
  only?: ReplaySelection;
  ids?: string[];
  concurrency?: number;
  resume?: boolean;
  /** Where the original's threads are (default: where its run.json says, else the data directory's file). */
  checkpoints?: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  io: RunIO & { stdout?: (text: string) => void };
  /** The command line, for report.md. */
  command?: string;
  /** More settings for report.md (the response cache's mode, ...). */
  reportSettings?: Record<string, unknown>;
}

export interface ReplayResult extends QuestionRunResult<EvalRecord> {
  /** Selected questions not replayed, and why (never reached the slot; a prefix with failed calls). */
  notReplayed: { id: string; why: string }[];
  /** What the prefixes held (reused, not re-run) and what the suffixes cost. */
  reused: { steps: number; calls: number; inputTokens: number; outputTokens: number };
  suffix: { calls: number; inputTokens: number; outputTokens: number };
}

/** The replay of an eval run from a slot (module comment). Writes an eval output folder in `outDir`. */
export async function replayRun(args: ReplayArgs): Promise<ReplayResult> {
  const runDir = path.resolve(args.cwd, args.runDir);
  const outDir = path.resolve(args.cwd, args.outDir);
  if (outDir === runDir) throw optionUsageError`${opt("out")} must be another folder than the run replayed`;
  const original = readRecordedRun(runDir);
  const only = args.only ?? "all";
  const bench = await loadSource({
    ...(original.bench ? { bench: original.bench } : {}),
    ...(isSplit(original.split) ? { split: original.split } : {}),
    ...(original.questions ? { questions: original.questions } : {}),
    ...(original.dbDir ? { dbDir: original.dbDir } : {}),
  });
  const selected = selectRecords(original, only, args.ids);

  const swaps = nodeSwapsOf(original, args.nodes, args.cwd);
  const location = checkpointLocation(args.checkpoints, original);
  const { notes, warn } = fallbackNotes(args.io, "replay");
  // A damaged file is an error here, never set aside: it holds the threads to replay.
  const store = await openReadyCheckpointer(location, args.env, args.cwd, { mustExist: true });
  let release = () => {};
  try {
    const runner = await args.runnerFor(original, { bench, benchDir: original.bench ?? undefined, checkpointer: store.saver, nodes: swaps, warn });
    if (!runner.spec.slots[args.from]) throw new UserError(`graph '${runner.spec.name}' has no slot '${args.from}' (slots: ${Object.keys(runner.spec.slots).join(", ")})`);
    const graph = runner.graph as unknown as HistoryGraph;

    const byId = new Map(bench.questions.map((q) => [q.id, q]));
    const plans = new Map<string, ForkPlan>();
    const missingThreads: string[] = [];
    const notReplayed: { id: string; why: string }[] = [];
    for (const record of selected) {
      if (!byId.has(record.id)) throw new UserError(`question ${record.id} of ${runDir} is no longer in its benchmark (${original.bench ?? original.questions}); nothing to fork it onto`);
      const plan = record.correction?.startsWith("skipped") ? ({ kind: "not reached", why: `its correction was ${record.correction}` } as const) : await forkPoint(graph, record.thread, args.from);
      if (plan.kind === "no thread") missingThreads.push(record.thread);
      else if (plan.kind !== "fork") notReplayed.push({ id: record.id, why: plan.why });
      else plans.set(record.id, plan);
    }
    if (missingThreads.length) {
      throw optionUserError`${missingThreads.length} of the run's threads are not in ${store.location} (first: ${missingThreads[0]}): pass ${opt("checkpoints")} where the run kept them`;
    }
    if (!plans.size) {
      throw new UserError(`none of the ${selected.length} selected questions can be replayed from slot '${args.from}' (first: ${notReplayed[0]?.id}: ${notReplayed[0]?.why}); nothing to replay`);
    }
    const questions = fileOrder([...plans.keys()].map((id) => byId.get(id)!));

    const modelsNow = runner.deps.models.describe();
    const modelsDiffer = JSON.stringify(modelsNow) !== JSON.stringify(original.models);
    if (modelsDiffer) args.io.stderr(`sqlmend replay: note: the suffix runs with other models than the original run (run.json's models differ); report.md shows both\n`);
    const replayInfo = { of: runDir, runId: original.runId, from: args.from, nodes: args.nodes ?? [], only, ids: args.ids ?? null };
    const runFile = prepareOutDir(
      outDir,
      {
        graph: runner.spec.name,
        bench: original.bench,
        split: original.split,
        questions: original.questions,
        dbDir: original.dbDir,
        semantics: original.semantics,
        models: modelsNow,
        settings: settingsOfReplay(original.settings, swaps, { cwd: args.cwd, runDir: outDir }),
        shard: null,
        selection: { ids: questions.map((q) => q.id), limit: null },
        preflight: original.preflight,
        checkpoints: store.location,
        replay: replayInfo,
      },
      args.resume ?? false,
      ["graph", "bench", "split", "questions", "dbDir", "semantics", "models", "settings", "replay"],
      // Like eval: sqlmend's code and the questions' content, so a resume never mixes two versions in one folder.
      { command: "replay", io: args.io, identity: { code: await codeIdentity(), questions: questionHashes(questions) } },
    );
    release = runFile.release;
    const keepDistinct = original.settings["keep-distinct"] === true;
    const run = await runQuestions({
      command: "replay",
      io: args.io,
      questions,
      store: evalRecordStore(outDir),
      concurrency: args.concurrency ?? 4,
      run: (q, previous) => {
        const record = original.records.get(q.id)!;
        return replayQuestion(runner, store.saver, q, record, plans.get(q.id) as Extract<ForkPlan, { kind: "fork" }>, {
          slot: args.from,
          thread: nextThread(`replay:${runFile.runId}:${q.id}`, previous?.thread),
          semantics: original.semantics,
          keepDistinct,
        });
      },
      failed: isFailed,
      progress: { of: (record) => ({ hit: record.correct, tokens: record.inputTokens + record.outputTokens }), extra: () => cacheLine(runner.deps.models.cacheStats) },
      describe: (counts) => `replay: ${runner.spec.name} from '${args.from}' on ${counts.line}${notReplayed.length ? `, ${notReplayed.length} not replayed (never reached '${args.from}')` : ""}`,
    });

    const reused = { steps: 0, calls: 0, inputTokens: 0, outputTokens: 0 };
    const suffix = { calls: 0, inputTokens: 0, outputTokens: 0 };
    for (const r of run.records) {
      reused.steps += r.replay?.prefixSteps ?? 0;
      reused.calls += r.replay?.prefixCalls ?? 0;
      reused.inputTokens += r.replay?.prefixInputTokens ?? 0;
      reused.outputTokens += r.replay?.prefixOutputTokens ?? 0;
      suffix.calls += r.calls;
      suffix.inputTokens += r.inputTokens;
      suffix.outputTokens += r.outputTokens;
    }
    const originalOnThese = run.records.map((r) => original.records.get(r.id)!).filter(Boolean);
    const sections = [
      {
        title: "Replay",
        lines: [
          `- Replay of \`${runDir}\` (graph ${original.graph}, run ${original.runId}) from slot \`${args.from}\`; node swaps: ${args.nodes?.length ? args.nodes.map((n) => `\`${n}\``).join(", ") : "none"}`,
          `- Questions: ${selected.length} selected (--only ${only}${args.ids?.length ? `, --ids ${args.ids.join(",")}` : ""}), ${questions.length} replayed, ${notReplayed.length} not replayed`,
          `- Reused from the recorded prefixes (kept as recorded, not re-run, not in the figures of this report): ${reused.steps} steps, ${reused.calls} model calls, ${reused.inputTokens} input / ${reused.outputTokens} output tokens`,
          `- The suffixes (this replay's own work, every other figure here): ${suffix.calls} model calls, ${suffix.inputTokens} input / ${suffix.outputTokens} output tokens`,
          "- What the questions went through (below) describes each whole thread, its recorded prefix included",
          `- The original on the replayed questions: ${exLine(summarize(originalOnThese))}; this replay: ${exLine(summarize(run.records))} (\`sqlmend compare ${runDir} ${outDir}\` for the questions that flipped)`,
          ...(modelsDiffer ? [`- Models: the suffixes ran with other models than the original (original: \`${JSON.stringify(original.models)}\`)`] : []),
          ...(notReplayed.length ? [`- Not replayed (${notReplayed.length}):`, ...notReplayed.map((n) => `  - ${n.id}: ${n.why}`)] : []),
        ],
      },
    ];
    await writeEvalOutputs(outDir, run.records, {
      graph: runner.spec.name,
      outcome: runner.spec.outcome,
      bench,
      split: bench.split,
      questions,
      skipped: [],
      semantics: original.semantics,
      startedAt: runFile.startedAt,
      settings: {
        concurrency: args.concurrency ?? 4,
        checkpoints: store.location,
        ...args.reportSettings,
        ...settingsOfReplay(original.settings, swaps, { cwd: args.cwd, runDir: outDir }),
        ...original.preflight,
        replay: replayInfo,
      },
      models: modelsNow,
      command: args.command ?? `sqlmend replay ${runDir} --from ${args.from} --out ${outDir}`,
      notes,
      kind: "replay",
      sections,
    });
    args.io.stdout?.(
      `${exLine(summarize(run.records), `, ${original.semantics} semantics`)}; ${notReplayed.length} not replayed (never reached '${args.from}')\n` +
        `Reused ${reused.steps} steps and ${reused.calls} model calls from the recorded prefixes; the suffixes made ${suffix.calls} calls (${suffix.inputTokens} input / ${suffix.outputTokens} output tokens)\n` +
        unfinishedLines(run, failureOf) +
        (run.stopped ? `Stopped early: ${run.notRun} questions not run; --resume finishes the replay.\n` : "") +
        `Report: ${path.join(outDir, "report.md")}\n`,
    );
    return { ...run, notReplayed, reused, suffix };
  } finally {
    release();
    store.close();
  }
}

const isSplit = (value: string): value is Split => (SPLITS as readonly string[]).includes(value);

/** The original records `--only` and `--ids` select, in file order; an id the run does not hold is an error. */
function selectRecords(original: RecordedRun, only: ReplaySelection, ids: string[] | undefined): EvalRecord[] {
  const wanted = ids?.flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean);
  const unknown = wanted?.filter((id) => !original.records.has(id)) ?? [];
  if (unknown.length) throw optionUsageError`${opt("ids")}: ${unknown.slice(0, 5).join(", ")}${unknown.length > 5 ? ", ..." : ""} not in ${original.dir}'s results`;
  const keep = (r: EvalRecord) => (only === "all" ? true : only === "failed" ? isFailed(r) : !isFailed(r) && r.correct === (only === "right"));
  const selected = fileOrder([...original.records.values()].filter((r) => (!wanted || wanted.includes(r.id)) && keep(r)));
  if (!selected.length) throw optionUserError`no question of ${original.dir} is selected (${opt("only")} ${only}${wanted ? optionText`, ${opt("ids")} ${wanted.join(",")}` : ""}); nothing to replay`;
  return selected;
}

/** `--checkpoints`, else where the original's run.json says its threads are, else the default file. */
function checkpointLocation(given: string | undefined, original: RecordedRun): string | undefined {
  if (given !== undefined) return given;
  const recorded = original.checkpoints;
  if (recorded === "memory") throw optionUserError`${original.dir} kept its checkpoints in memory: nothing recorded to replay (run eval with ${opt("checkpoints")} FILE)`;
  // run.json holds a PostgreSQL URL with its password hidden: the user gives it.
  if (isPostgresLocation(recorded) && recorded.includes(":***@")) throw optionUsageError`${original.dir} kept its checkpoints in ${recorded}: pass ${opt("checkpoints")} with that URL and its password`;
  return recorded;
}

/** The original's settings, with the node swaps the suffix ran with (the original's, then the replay's per slot). */
function settingsOfReplay(settings: Record<string, unknown>, swaps: string[], where?: { cwd: string; runDir: string }): Record<string, unknown> {
  const { node: _node, ...rest } = settings;
  if (!swaps.length) return rest;
  // A replay's own run.json records each module by content, as eval does, so its --resume refuses an edited one.
  return { ...rest, node: where ? nodeIdentities(swapsBySlot(swaps), where) : swaps };
}

/** `SLOT=FILE` swaps by slot. */
export const swapsBySlot = (swaps: readonly string[]): Record<string, string> => Object.fromEntries(swaps.map((item) => [item.slice(0, item.indexOf("=")), item.slice(item.indexOf("=") + 1)]));

/**
 * Every `SLOT=FILE` swap the suffix runs with: the original run's (as run.json recorded them: by slot, `{ path,
 * sha256 }`, the path from the run folder when inside it), the replay's winning per slot. An original module not
 * swapped again must be the bytes the prefix ran (its import closure's sha256), or the replay is refused: the suffix
 * would run another node than the prefix did.
 */
function nodeSwapsOf(original: { dir: string; settings: Record<string, unknown> }, given: string[] | undefined, cwd: string): string[] {
  const bySlot = new Map<string, string>();
  const recorded = original.settings.node;
  const givenSlots = new Set((given ?? []).map((item) => item.slice(0, Math.max(0, item.indexOf("=")))));
  if (Array.isArray(recorded)) for (const item of recorded.map(String)) bySlot.set(item.slice(0, Math.max(0, item.indexOf("="))), item);
  else if (recorded && typeof recorded === "object") {
    for (const [slot, value] of Object.entries(recorded as Record<string, { path?: unknown; sha256?: unknown }>)) {
      if (typeof value?.path !== "string") continue;
      const file = path.resolve(original.dir, value.path);
      if (!givenSlots.has(slot) && typeof value.sha256 === "string") {
        let now: string | undefined;
        try {
          now = moduleIdentity(file).sha256;
        } catch {
          now = undefined;
        }
        if (now !== value.sha256) throw optionUserError`the ${opt("node")} ${slot} module ${file} ${now ? "changed" : "is gone"} since ${original.dir} ran: the replay would not continue under what its prefix ran under (swap it with ${opt("node")} ${slot}=FILE)`;
      }
      bySlot.set(slot, `${slot}=${file}`);
    }
  }
  for (const item of given ?? []) bySlot.set(item.slice(0, Math.max(0, item.indexOf("="))), item.includes("=") ? `${item.slice(0, item.indexOf("="))}=${path.resolve(cwd, item.slice(item.indexOf("=") + 1))}` : item);
  return [...bySlot.values()];
}

async function replayQuestion(
  runner: GraphRunner,
  saver: BaseCheckpointSaver,
  q: Question,
  original: EvalRecord,
  plan: Extract<ForkPlan, { kind: "fork" }>,
  ctx: { slot: string; thread: string; semantics: Semantics; keepDistinct: boolean },
): Promise<EvalRecord> {
  const started = performance.now();
  const base = { threadId: ctx.thread, initialSql: original.initialSql, correction: original.correction, initialCorrect: original.initialCorrect };
  let run: QuestionRun;
  try {
    // A resumed replay finds its fork made: it goes on from the fork's last checkpoint.
    if (!(await saver.getTuple({ configurable: { thread_id: ctx.thread, checkpoint_ns: "" } }))) await forkThread(saver, original.thread, plan.checkpointId, ctx.thread);
    const state = await continueThread(runner.graph, ctx.thread);
    run = { ...base, sql: state.sql, state, outcome: outcomeOf(runner.spec, state as unknown as Record<string, unknown>), usage: subtractUsage(state.usage, plan.prefix), latencyMs: performance.now() - started, iterations: iterationsOf(state) };
  } catch (error) {
    if (error instanceof UserError) throw error;
    // What the suffix spent before it broke, as far as the fork's checkpoints say, and the error with its slot.
    const kept = await keptOfFailure(runner.graph, ctx.thread, error, q);
    run = { ...base, sql: "", usage: subtractUsage(kept.usage, plan.prefix), latencyMs: performance.now() - started, iterations: 0, error: kept.error, errorDetail: kept.errorDetail };
  }
  const record = await recordOfRun(runner, q, run, ctx.thread, ctx.semantics, ctx.keepDistinct);
  return {
    ...record,
    replay: {
      from: ctx.slot,
      originalThread: original.thread,
      checkpointId: plan.checkpointId,
      prefixSteps: plan.step,
      prefixCalls: plan.prefix.calls,
      prefixInputTokens: plan.prefix.inputTokens,
      prefixOutputTokens: plan.prefix.outputTokens,
      ...(isFailed(original) ? {} : { originalCorrect: original.correct }),
    },
  };
}
