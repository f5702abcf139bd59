/**
 * MAGIC's guideline training (§3.1), below the CLI: the initial method's failures on the training split through the
 * feedback-correction cycle, the successful feedbacks merged batch by batch into a guideline. `learnGuideline` is the
 * run API; `sqlmend magic guideline` parses `MAGIC_GUIDELINE_FLAGS` and calls `learnFrom`, the one body.
 */
import fs from "node:fs";
import path from "node:path";
import { type CliIO, defaultIO } from "../../core/io.ts";
import { firstLineOf, UsageError, UserError } from "../../core/errors.ts";
import { commandLine } from "../../core/secrets.ts";
import { EXIT } from "../../core/exit.ts";
import { answerSettings, declaredOptionsFrom, graphFlags, graphOptionsFrom, graphOptionsOfValues, graphSettings, loadSlotModules, modelFlagsFrom, runFlags } from "../run/run-options.ts";
import { RUN_CONFIG, SELECTION_CONFIG } from "../run/run-config.ts";
import { type InitialSource, inputOf, type RunnableGraph, runThread } from "../run/question-thread.ts";
import { compactNumber } from "../run/progress.ts";
import { jsonLinesStore, nextThread, runQuestions } from "../run/question-loop.ts";
import { RUN_DIR_FLAGS, splitFrom } from "../run/output-dir-flags.ts";
import { fileOrder, sampleFrom } from "../run/question-sample.ts";
import { runPlace } from "../run/run-json.ts";
import { inRunFolder, runQuestionsOf } from "../run/run-skeleton.ts";
import { readJsonLines } from "../run/atomic-files.ts";
import { type ApiOptionsOf, asApiErrors, commandLineOf, configOfFlagValues, type FlagTable, type FlagValues, type FlagValuesOf, flagValuesOf, intFlag } from "../run/api-options.ts";
import type { GraphOptionsOf } from "../../graphs/registry.ts";
import { findManifest, manifestOf } from "../../graphs/registry.ts";
import { magicFeedbackManifest, magicGuidelineManifest } from "../../graphs/manifests/magic.ts";
import { MAGIC_FEEDBACK_OPTIONS } from "../../nodes/magic/options.ts";
import { readOptions } from "../../core/options.ts";
import { loadBenchmark } from "../../tools/benchmarks/benchmark.ts";
import { scoreQuestion, type Semantics, writeBirdPredictions } from "../../tools/benchmarks/score.ts";
import { getSharedExecutor } from "../../tools/sqlite/executor.ts";
import { addUsage, emptyUsage, isEndpointFailure, type ModelCallRecord, type Usage } from "../../state/usage.ts";
import { type MagicRecord, parseMagicRecords } from "../../state/magic-record.ts";
import type { MagicFeedbackValue, MagicGuidelineValue, SuccessfulFeedback } from "../../state/magic.ts";
import type { SqlInput, SqlStateValue } from "../../state/sql-state.ts";
import type { Question } from "../../state/question.ts";
import type { NodeDeps } from "../../nodes/types.ts";
import { type Outcome, outcomeOf } from "../../graphs/outcome.ts";
import type { GraphSpec } from "../../graphs/spec.ts";

const RESULTS = "results.jsonl";
const INTERACTIONS = "interactions.jsonl";
const snapshotName = (batch: number) => `guideline-batch-${String(batch).padStart(3, "0")}.md`;

/** One line of interactions.jsonl: one agent call (the shape of the authors' released interactions). */
interface Interaction {
  questionId: string | null;
  agent: string;
  node?: string;
  iteration?: number;
  batch?: number;
  prompt: { role: string; content: string }[];
  reply: string;
  success: boolean;
  error?: string;
  inputTokens: number;
  outputTokens: number;
}

/** The train split of the --bench layout, for few-shot examples (own data has none). */
async function trainSplitOf(benchDir: string | undefined) {
  if (benchDir === undefined) throw new UserError("--few-shot needs a training split: run on a --bench layout that has one (--db-dir data has none)");
  return loadBenchmark(benchDir, { split: "train" });
}

/** `sqlmend magic guideline`'s flags: the run's (model, graph knobs, node swaps), the graphs' own options, the selection's, its own. */
const GUIDELINE_OWN_FLAGS = { batch: { type: "string" }, semantics: { type: "string" } } as const;
export const MAGIC_GUIDELINE_FLAGS = {
  ...runFlags,
  ...graphFlags(),
  ...RUN_DIR_FLAGS,
  ...GUIDELINE_OWN_FLAGS,
} as const;

/**
 * The options of `sqlmend magic guideline`, by name (camelCase): `bench` (a folder, or "minibench"), `out`, `split`
 * (default train), `initial` (a generator graph's name or a predictions file), `batch`, `maxIter`, `noManager`, `limit`,
 * `ids`, `concurrency`, `resume`, `semantics`, the model flags (`model`, `baseUrl`, `roleModel: { ROLE: MODEL }`,
 * `temperature`, `cache`, ...), `checkpoints`, `node: { SLOT: FILE }`, and `options`, the graphs' own (camelCase).
 */
export type GuidelineOptions = Omit<ApiOptionsOf<typeof runFlags & typeof RUN_DIR_FLAGS & typeof GUIDELINE_OWN_FLAGS>, "out" | "node" | "graph"> &
  // The feedback cycle's and the merge's knobs are flags of the command: by name here too (`maxIter: 3`).
  GraphOptionsOf<"magic-feedback"> &
  GraphOptionsOf<"magic-guideline"> & {
  out: string;
  node?: Readonly<Record<string, string>>;
  /** The graphs' own options (magic-feedback's and magic-guideline's, the initial generator's), camelCase. */
  options?: GraphOptionsOf<"magic-feedback"> & GraphOptionsOf<"magic-guideline"> & Record<string, unknown>;
};

/** The files a guideline run writes in its output folder. */
export interface GuidelineFiles {
  /** A line per question: its initial SQL's verdict and, for a failure, the cycle's outcome. */
  results: string;
  /** A line per agent call (the authors' released interactions' shape). */
  interactions: string;
  stats: string;
  run: string;
  /** The answers after the cycle (BIRD format), for `sqlmend score --ves`. */
  predictions: string;
  /** `guideline-batch-NNN.md`: the guideline after each merged batch, in order. */
  snapshots: string[];
}

/** stats.json: the figures, and what they were learnt on. */
export interface GuidelineStats extends MagicStats {
  /** The initial method: a generator graph's name, or its predictions file (absolute, and from the run folder). */
  initial: string | { path: string; fromRun: string };
  bench: string | null;
  questionsFile: string | null;
  dbDir: string | null;
  split: string;
  semantics: Semantics;
  batch: number;
  /** What fell back during the run (the response cache turned off, a damaged checkpoint file set aside). */
  fallbacks: string[];
  /** The command line that does what this run did (secrets masked). */
  command: string;
}

/** What a guideline run did. */
export interface GuidelineResult {
  /** `core/exit.ts`: 0 done; 3 some work failed (a question, a merge): --resume retries it; 130/143/129 stopped. */
  exitCode: number;
  outDir: string;
  /** guideline.md, or null when no batch has been merged. */
  guideline: string | null;
  files: GuidelineFiles;
  /** As stats.json holds them. */
  stats: GuidelineStats;
}

/**
 * Learns MAGIC's self-correction guideline on a benchmark's training questions and writes the run folder
 * `sqlmend magic guideline` writes: the launcher's command is this, given its flags.
 */
export async function learnGuideline(options: GuidelineOptions, io: CliIO = defaultIO()): Promise<GuidelineResult> {
  const { options: graphOptions, ...rest } = options;
  return asApiErrors("learnGuideline", () => learnFrom({ values: flagValuesOf("learnGuideline", rest, MAGIC_GUIDELINE_FLAGS as FlagTable, graphOptions), positionals: [] }, io));
}

/** magic guideline from its flag values (the launcher's parse, or `learnGuideline`'s): the one body both run. */
/**
 * Every check `magic guideline` makes of its flag values before it loads anything slow or spends a call (the cycle's
 * options and its initial generator's included). `sqlmend experiment` calls it for a guideline run before the first run.
 */
export function checkGuidelineFlags(input: { values: FlagValues; positionals: string[] }): { batchSize: number; concurrency: number; limit: number | undefined } {
  const values = input.values as FlagValuesOf<typeof MAGIC_GUIDELINE_FLAGS>;
  const { positionals } = input;
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (!values.bench && !values["db-dir"]) throw new UsageError("--bench DIR is required (or --questions FILE --db-dir DIR)");
  if (!values.out) throw new UsageError("--out DIR is required");
  if (values.correct !== undefined) throw new UsageError("--correct applies to eval and ask; the cycle runs on every failure");
  splitFrom(values.split, "train");
  if (values.semantics !== undefined && values.semantics !== "bird" && values.semantics !== "spider") {
    throw new UsageError(`--semantics takes bird or spider, not '${values.semantics}'`);
  }
  const batchSize = intFlag(values, "batch", 1) ?? 10;
  const concurrency = intFlag(values, "concurrency", 1) ?? 4;
  const limit = intFlag(values, "limit", 1);
  sampleFrom(values);
  modelFlagsFrom(configOfFlagValues(RUN_CONFIG, values));
  const generator = findManifest((values.initial as string | undefined) ?? "baseline");
  declaredOptionsFrom(magicFeedbackManifest, values, generator ? [generator] : []);
  return { batchSize, concurrency, limit };
}

export async function learnFrom(input: { values: FlagValues; positionals: string[]; argv?: string[] }, io: CliIO): Promise<GuidelineResult> {
  const values = input.values as FlagValuesOf<typeof MAGIC_GUIDELINE_FLAGS>;
  const { batchSize, concurrency, limit } = checkGuidelineFlags(input);

  const { bench, source, benchDir, split, questions: selected, skipped, sample } = await runQuestionsOf({ ...configOfFlagValues(SELECTION_CONFIG, values), limit }, io, "train");
  const semantics: Semantics = (values.semantics as Semantics | undefined) ?? (bench.layout === "spider" ? "spider" : "bird");
  const questions = fileOrder(selected);

  // Models, LangGraph and the checkpoint store load once the flags have passed their checks.
  const [{ modelsFrom }, { resolveInitialSource }, { createExampleStore }] = await Promise.all([
    import("../run/model-setup.ts"),
    import("../run/graph-runner.ts"),
    import("../../tools/retrieval/examples.ts"),
  ]);
  const config = configOfFlagValues(RUN_CONFIG, values);
  await (await import("../run/model-setup.ts")).checkEndpointsFrom(config, io.env, io.cwd);
  const executor = getSharedExecutor();
  return inRunFolder("magic guideline", values, io, async ({ outDir, notes, warn, checkpoints, claim }) => {
    const models = modelsFrom(config, io.env, io.cwd, "feedback", warn, () => [bench.questions]);
    const graphOptions = graphOptionsFrom(config);
    // An initial generator with --few-shot retrieves from the training split (never the question itself).
    const examples = (graphOptions.fewShot ?? 0) > 0 ? createExampleStore((split === "train" && !bench.customQuestions ? bench : await trainSplitOf(benchDir)).questions) : undefined;
    const deps: NodeDeps = { models, executor, examples };
    const generator = findManifest((values.initial as string | undefined) ?? "baseline");
    const own = declaredOptionsFrom(magicFeedbackManifest, values, generator ? [generator] : []);
    const cycle = readOptions(MAGIC_FEEDBACK_OPTIONS, own);
    const slots = await loadSlotModules(magicFeedbackManifest, config.node, io.cwd);
    const typedOptions = graphOptionsOfValues(generator ? [magicFeedbackManifest, generator] : [magicFeedbackManifest], values);
    const [magicFeedbackSpec, magicGuidelineSpec] = await Promise.all([manifestOf(magicFeedbackManifest.name).load(), manifestOf(magicGuidelineManifest.name).load()]);
    const feedbackGraph: RunnableGraph & { getStateHistory: (config: unknown) => AsyncIterable<HistorySnapshot> } = magicFeedbackSpec.build(deps, {
      ...graphOptions,
      ...own,
      semantics,
      slots,
      checkpointer: checkpoints.saver,
      cwd: io.cwd,
    });
    const mergeGraph: RunnableGraph = magicGuidelineSpec.build(deps, { checkpointer: checkpoints.saver, maxUnusableRetries: cycle.maxUnusableRetries });
    const initial = await resolveInitialSource(config.initial, { cwd: io.cwd, graphOptions: typedOptions, checkpointer: checkpoints.saver, benchQuestions: bench }, deps, graphOptions);

    if (initial.kind === "predictions" && initial.extraction?.size) {
      const extracted = [...initial.extraction.values()].filter((how) => how === "extracted").length;
      io.stderr(`sqlmend magic guideline: --initial ${path.basename(initial.file)}: ${extracted} predictions were not plain SQL (SQL extracted from the text), ${initial.extraction.size - extracted} held none (empty initial SQL)\n`);
    }
    const where = { cwd: io.cwd, runDir: outDir };
    const runFile = claim(
      {
        command: "magic guideline",
        bench: source.bench ?? null,
        split,
        questions: source.questions ?? null,
        dbDir: source.dbDir ?? null,
        semantics,
        initial: initial.kind === "graph" ? initial.spec.name : runPlace(initial.file, outDir),
        batch: batchSize,
        // --sample N --sample-seed S: a resume takes the same sample.
        sample,
        models: models.describe(),
        settings: {
          ...answerSettings({ ...config, keepDistinct: (values as Record<string, unknown>)["keep-distinct"] as boolean | undefined }, ["initial"], where),
          ...graphSettings(initial.kind === "graph" ? [magicFeedbackManifest, initial.spec] : [magicFeedbackManifest], typedOptions, io.cwd, outDir),
        },
      },
      ["command", "bench", "split", "questions", "dbDir", "semantics", "initial", "batch", "sample", "models", "settings"],
      // A resume may add questions (later batches), never drop any: fewer would rewrite the learnt guideline.
      { questions: [...questions, ...skipped] },
    );
    const resultsFile = path.join(outDir, RESULTS);
    const interactionsFile = path.join(outDir, INTERACTIONS);
    const results = jsonLinesStore(resultsFile, parseMagicRecords);
    const done = results.load();
    // Interactions of a question whose result line a kill prevented, of a question that failed (a resumed run runs it
    // again), or of a merge whose snapshot a kill prevented, are written again when that work finishes: drop them now
    // so each call has one line.
    readJsonLines(interactionsFile, (text) =>
      text
        .split("\n")
        .filter((line) => line.trim())
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Interaction];
          } catch {
            return [];
          }
        })
        .filter((i) =>
          i.questionId !== null
            ? done.has(i.questionId) && done.get(i.questionId)!.error === undefined
            : i.batch !== undefined && fs.existsSync(path.join(outDir, snapshotName(i.batch))),
        ),
    );

    if (split !== "train") io.stderr("sqlmend magic guideline: note: a guideline learnt on the dev split must not be evaluated on it (MAGIC §3)\n");
    const merger = new GuidelineMerger(mergeGraph, outDir, runFile.runId, batchSize, questions, done, interactionsFile);
    await merger.advance(false);
    const run = await runQuestions<MagicRecord>({
      command: "magic guideline",
      io,
      questions,
      // The runner and the merger read the same map: a record counts for the batches the moment it is kept.
      store: { load: () => done, append: (record) => results.append(record), compact: () => results.compact?.() },
      concurrency,
      describe: (counts) =>
        `magic guideline: initial ${initial.kind === "graph" ? initial.spec.name : path.basename(initial.file)} on ${bench.name}: ` +
        `${counts.line.replace(/\)$/, `, ${skipped.length} skipped)`)}, max ${cycle.maxIter} iterations${cycle.noManager ? ", no manager" : ""}, batches of ${batchSize}`,
      run: async (q, previous) => {
        const { record, interactions } = await processQuestion(q, previous, { initial, feedbackGraph, feedbackSpec: magicFeedbackSpec, deps, semantics, timeoutMs: graphOptions.timeoutMs, runId: runFile.runId });
        // Before the record: a kill between the two leaves interactions without a record, which a resumed run drops.
        if (interactions.length) fs.appendFileSync(interactionsFile, interactions.map((i) => `${JSON.stringify(i)}\n`).join(""));
        return record;
      },
      failed: (record) => record.error !== undefined,
      endpointDown: (record) => (record.error && isEndpointFailure(record.error) ? record.error : undefined),
      progress: {
        metric: { label: "correct after the cycle", as: "share" },
        of: (record) => ({
          hit: record.initialCorrect || record.corrected === true,
          tokens: Object.values(record.usageByRole).reduce((n, t) => n + t.inputTokens + t.outputTokens, 0),
        }),
      },
      // A failed merge rejects the chain; the final advance below reports it (one line), so none is lost here.
      afterEach: () => void merger.advance(false).catch(() => {}),
    });
    await merger.advance(!run.stopped);

    const records = questions.map((q) => done.get(q.id)).filter((r): r is MagicRecord => !!r);
    const stats = computeStats(records, {
      maxIter: cycle.maxIter,
      noManager: cycle.noManager,
      batches: merger.merged,
      mergeFailure: merger.failure,
      mergeUsage: merger.usage,
      unusableMergeReplies: merger.unusableReplies,
      stripped: merger.stripped,
      skipped: skipped.length,
    });
    // The answers after the cycle (Table 4's EX and VES): the corrected SQL where the cycle succeeded, else the initial.
    await writeBirdPredictions(
      path.join(outDir, `predict_${split}.json`),
      records.map((r) => ({ id: r.id, dbId: r.dbId, sql: r.corrected && r.correctedSql !== undefined ? r.correctedSql : r.initialSql })),
    );
    const command = input.argv ? commandLine("magic guideline", input.argv) : commandLineOf("magic guideline", input.positionals, values);
    const written: GuidelineStats = { ...stats, initial: runFile.initial, bench: source.bench ?? null, questionsFile: source.questions ?? null, dbDir: source.dbDir ?? null, split, semantics, batch: batchSize, fallbacks: notes, command };
    fs.writeFileSync(path.join(outDir, "stats.json"), `${JSON.stringify(written, null, 2)}\n`);
    io.stdout(renderSummary(stats, outDir, merger.merged > 0, run.failed.length));
    if (merger.failure) io.stderr(`sqlmend magic guideline: ${merger.failure}; later batches wait: --resume retries the merge\n`);
    const runErrors = run.failed;
    if (runErrors.length) {
      io.stderr(
        `sqlmend magic guideline: ${runErrors.length} question${runErrors.length === 1 ? "" : "s"} not run to the end, e.g. ${runErrors[0]!.id}: ${runErrors[0]!.error}` +
          ` (--resume runs ${runErrors.length === 1 ? "it" : "them"} again; no batch after the first of them is merged until then)\n`,
      );
    }
    if (run.endpointDown) io.stderr(`sqlmend magic guideline: stopped: ${run.endpointDown}; ${run.notRun} questions not run; check the endpoint, then --resume continues
`);
    if (run.stopped) io.stdout(`Stopped early: ${run.notRun} questions not run; --resume finishes the run.\n`);
    const guidelineFile = path.join(outDir, "guideline.md");
    return {
      // Finished, but the guideline is not what a complete run gives (the runner's exit status says so of the
      // questions): --resume retries the merge. A stopped run's status is the signal's.
      exitCode: !run.stopped && merger.failure ? EXIT.incomplete : run.exitCode,
      outDir,
      guideline: fs.existsSync(guidelineFile) ? guidelineFile : null,
      files: {
        results: resultsFile,
        interactions: interactionsFile,
        stats: path.join(outDir, "stats.json"),
        run: path.join(outDir, "run.json"),
        predictions: path.join(outDir, `predict_${split}.json`),
        snapshots: Array.from({ length: merger.merged }, (_, i) => path.join(outDir, snapshotName(i + 1))),
      },
      stats: written,
    };
  });
}

interface HistorySnapshot {
  values: MagicFeedbackValue;
  tasks: { name: string; result?: unknown }[];
}

/**
 * A training question: its initial SQL, the verdict, and for a failure the feedback-correction cycle. Never throws.
 * `previous`: its failed record from an earlier run, which this one runs again as eval does (`nextThread`): the stage
 * that failed runs on its next thread (`…/initial#2`, `…#2`), a generator's SQL that was made is used again, and the
 * record's tokens are the earlier attempts' (in `previous`) plus this one's new calls, so none is counted twice.
 */
async function processQuestion(
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

/** Which iteration a node's call belongs to, from the iterations done when it ran. */
const iterationOfCall = (node: string | undefined, rounds: number) => (node === "judge" ? rounds : rounds + 1);

/** Every agent call of a finished cycle, oldest first, from the thread's checkpoint history. */
async function interactionsOf(
  graph: { getStateHistory: (config: unknown) => AsyncIterable<HistorySnapshot> },
  thread: string,
  questionId: string,
  final: MagicFeedbackValue,
): Promise<Interaction[]> {
  const snapshots: HistorySnapshot[] = [];
  for await (const snapshot of graph.getStateHistory({ configurable: { thread_id: thread } })) snapshots.push(snapshot);
  const out: Interaction[] = [];
  for (const snapshot of snapshots.reverse()) {
    for (const task of snapshot.tasks) {
      const calls = (task.result as { calls?: ModelCallRecord[] } | undefined)?.calls;
      if (!Array.isArray(calls)) continue;
      const iteration = iterationOfCall(task.name, snapshot.values.rounds ?? 0);
      for (const call of calls) {
        out.push({
          questionId,
          agent: call.role,
          node: task.name,
          iteration,
          prompt: call.messages,
          reply: call.reply,
          success: final.iterations[iteration - 1]?.correct ?? false,
          ...(call.error ? { error: call.error } : {}),
          inputTokens: call.inputTokens,
          outputTokens: call.outputTokens,
        });
      }
    }
  }
  return out;
}

/**
 * Merges successful feedbacks into the guideline, batch by batch, in benchmark order: batch n holds the n-th B
 * successes among the questions in file order, so it can be merged once every question up to its last member has
 * finished. Merges run one at a time, each on its own checkpointed thread: a resumed run gets finished merges back
 * from their checkpoints (no model call) and merges the rest.
 */
class GuidelineMerger {
  merged = 0;
  /** Why a merge could not be made (its reply was unusable): later batches wait, and a resumed run retries it. */
  failure: string | undefined;
  usage: Usage = emptyUsage();
  /** Merge replies that could not replace the guideline, over the merges this run ran or read back. */
  unusableReplies = 0;
  /** Lines of merge replies outside the numbered reminders (chat, stray SQL), dropped; and the merges that had any. */
  stripped = { merges: 0, lines: 0 };
  private guideline = "";
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly graph: RunnableGraph,
    private readonly outDir: string,
    private readonly runId: string,
    private readonly batchSize: number,
    private readonly order: Question[],
    private readonly done: Map<string, MagicRecord>,
    private readonly interactionsFile: string,
  ) {}

  /** Merges every complete batch; with `final`, once all questions are done, the remainder too. */
  advance(final: boolean): Promise<void> {
    this.chain = this.chain.then(async () => {
      const { successes, complete } = this.successes();
      while (!this.failure && successes.length >= (this.merged + 1) * this.batchSize) await this.merge(successes.slice(this.merged * this.batchSize, (this.merged + 1) * this.batchSize));
      if (!this.failure && final && complete && successes.length > this.merged * this.batchSize) await this.merge(successes.slice(this.merged * this.batchSize));
    });
    return this.chain;
  }

  private successes(): { successes: SuccessfulFeedback[]; complete: boolean } {
    const successes: SuccessfulFeedback[] = [];
    for (const q of this.order) {
      const record = this.done.get(q.id);
      // A question not yet run, or one that failed (a resumed run runs it again and it may succeed), holds back every
      // batch after it: batch n is the n-th B successes in file order, and a merged batch never changes.
      if (!record || record.error !== undefined) return { successes, complete: false };
      if (record.corrected && record.feedback !== undefined && record.correctedSql !== undefined) {
        successes.push({ questionId: q.id, question: q.question, evidence: q.evidence, incorrectSql: record.initialSql, correctedSql: record.correctedSql, feedback: record.feedback });
      }
    }
    return { successes, complete: true };
  }

  private async merge(batch: SuccessfulFeedback[]): Promise<void> {
    const batchNo = this.merged + 1;
    const snapshot = path.join(this.outDir, snapshotName(batchNo));
    const fresh = !fs.existsSync(snapshot);
    const input = { graph: magicGuidelineManifest.name, questionId: `batch-${batchNo}`, question: `guideline batch ${batchNo}`, dbPath: "", batchNo, batch, guideline: this.guideline };
    // A merge whose reply was unusable finished its thread without merging: a resumed run retries it on the next
    // thread (`nextThread`, as a question's rerun). Unlike a question, a failed merge leaves no record to take the
    // thread from (no snapshot, and its interactions lines are dropped on resume): its finished threads are read back
    // from the checkpoints, and their tokens and unusable replies still counted.
    let state: MagicGuidelineValue | undefined;
    const base = `magic:${this.runId}:guideline:${String(batchNo).padStart(3, "0")}`;
    for (let thread = base; !state; thread = nextThread(base, thread)) {
      const saved = await this.graph.getState({ configurable: { thread_id: thread } }).catch(() => undefined);
      const values = saved?.values as Partial<MagicGuidelineValue> | undefined;
      const failedBefore = values?.question !== undefined && values.merged === false && saved!.next.length === 0 && saved!.tasks.length === 0;
      if (!failedBefore) state = (await runThread(this.graph, input as SqlInput, thread)) as unknown as MagicGuidelineValue;
      else {
        // An earlier run's attempt (this run merges a batch at most once): its cost is part of the guideline's.
        if (values.usage) this.usage = addUsage(this.usage, values.usage);
        this.unusableReplies += values.unusableReplies ?? 0;
      }
    }
    this.usage = addUsage(this.usage, state.usage);
    this.unusableReplies += state.unusableReplies ?? 0;
    if (state.merged && state.strippedLines) this.stripped = { merges: this.stripped.merges + 1, lines: this.stripped.lines + state.strippedLines };
    if (fresh) {
      const lines = state.calls.map(
        (call): Interaction => ({
          questionId: null,
          agent: call.role,
          node: "merge",
          batch: batchNo,
          prompt: call.messages,
          reply: call.reply,
          success: state.merged,
          ...(call.error ? { error: call.error } : {}),
          inputTokens: call.inputTokens,
          outputTokens: call.outputTokens,
        }),
      );
      fs.appendFileSync(this.interactionsFile, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    }
    if (!state.merged) {
      // No snapshot: batch N's snapshot must hold batch N (Table 3), so nothing after it is merged until it is.
      this.failure = `the merge of batch ${batchNo} failed (${state.attempts.at(-1)?.note ?? "unusable reply"})`;
      return;
    }
    this.guideline = state.guideline;
    if (this.guideline.trim()) {
      fs.writeFileSync(snapshot, `${this.guideline.trim()}\n`);
      fs.writeFileSync(path.join(this.outDir, "guideline.md"), `${this.guideline.trim()}\n`);
    }
    this.merged = batchNo;
  }
}

export interface MagicStats {
  questions: number;
  initiallyCorrect: number;
  /** Failures put through the cycle (finished without a run error). */
  failures: number;
  corrected: number;
  /** AVG_i: mean iterations until a stopping rule fired, over the failures. */
  avgIterations: number;
  /**
   * Figure 3: failures corrected had --max-iter been k, k = 1..maxIter: the verdict on the revision the cycle would
   * have ended with, iteration min(k, where it stopped). With the manager that is "corrected within k iterations";
   * without it the feedback agent may go past a correct revision, so the curve need not rise.
   */
  correctedWithin: number[];
  /** Table 4's EX on the split: initially correct plus corrected, over the questions answered (run errors left out, as everywhere). */
  exAfter: number;
  /** The questions exAfter is over: run without a run error. */
  answered: number;
  maxIter: number;
  noManager: boolean;
  /** Failures not put through the cycle, with the reason; questions whose run failed. */
  notCycled: Record<string, number>;
  errors: number;
  skippedQuestions: number;
  batchesMerged: number;
  /** Why the next batch's merge failed, when it did (a resumed run retries it). */
  mergeFailure?: string;
  /** Merges that failed this run (0 or 1: later batches wait for it), and merge replies refused as unusable. */
  failedMerges: number;
  unusableMergeReplies: number;
  /** Merges whose reply held lines outside its numbered reminders, and those lines: dropped from the guideline. */
  strippedMergeReplies: number;
  strippedMergeLines: number;
  /** The cycles' outcomes summed (results.jsonl's `outcome`), over the failures that entered the cycle. */
  leakRefusals: number;
  redactions: number;
  promptRevisions: { feedback: number; correction: number };
  /** Revisions that kept the previous prompt (after the re-asks), and manager replies refused as unusable. */
  failedRevisions: number;
  unusableManagerReplies: number;
  tokensByRole: Record<string, { calls: number; inputTokens: number; outputTokens: number }>;
}

export function computeStats(
  records: MagicRecord[],
  ctx: { maxIter: number; noManager: boolean; batches: number; mergeFailure?: string; mergeUsage: Usage; unusableMergeReplies?: number; stripped?: { merges: number; lines: number }; skipped: number },
): MagicStats {
  const sum = (key: string) => records.reduce((n, r) => n + (typeof r.outcome?.[key] === "number" ? (r.outcome[key] as number) : 0), 0);
  const cycled = records.filter((r) => r.corrected !== undefined);
  const corrected = cycled.filter((r) => r.corrected);
  const notCycled: Record<string, number> = {};
  for (const r of records) if (r.skipped) notCycled[r.skipped.replace(/ \(.*\)$/, "")] = (notCycled[r.skipped.replace(/ \(.*\)$/, "")] ?? 0) + 1;
  const tokensByRole: MagicStats["tokensByRole"] = {};
  const add = (byRole: Record<string, { calls: number; inputTokens: number; outputTokens: number }>) => {
    for (const [role, t] of Object.entries(byRole)) {
      const acc = (tokensByRole[role] ??= { calls: 0, inputTokens: 0, outputTokens: 0 });
      acc.calls += t.calls;
      acc.inputTokens += t.inputTokens;
      acc.outputTokens += t.outputTokens;
    }
  };
  for (const r of records) add(r.usageByRole);
  add(ctx.mergeUsage.byRole);
  // A question whose run failed has no answer of the method's: EX is over the others (the failed are `errors`).
  const answered = records.filter((r) => r.error === undefined);
  const initiallyCorrect = answered.filter((r) => r.initialCorrect).length;
  return {
    questions: records.length,
    initiallyCorrect,
    failures: cycled.length,
    corrected: corrected.length,
    avgIterations: cycled.length ? cycled.reduce((n, r) => n + (r.iterations ?? 0), 0) / cycled.length : 0,
    correctedWithin: Array.from({ length: ctx.maxIter }, (_, k) => cycled.filter((r) => correctedAtCap(r, k + 1)).length),
    exAfter: answered.length ? ((initiallyCorrect + corrected.length) / answered.length) * 100 : 0,
    answered: answered.length,
    maxIter: ctx.maxIter,
    noManager: ctx.noManager,
    notCycled,
    errors: records.filter((r) => r.error).length,
    skippedQuestions: ctx.skipped,
    batchesMerged: ctx.batches,
    ...(ctx.mergeFailure ? { mergeFailure: ctx.mergeFailure } : {}),
    failedMerges: ctx.mergeFailure ? 1 : 0,
    unusableMergeReplies: ctx.unusableMergeReplies ?? 0,
    strippedMergeReplies: ctx.stripped?.merges ?? 0,
    strippedMergeLines: ctx.stripped?.lines ?? 0,
    leakRefusals: sum("leakRefusals"),
    redactions: sum("redactions"),
    promptRevisions: { feedback: sum("feedbackRevisions"), correction: sum("correctionRevisions") },
    failedRevisions: sum("failedRevisions"),
    unusableManagerReplies: sum("unusableManagerReplies"),
    tokensByRole,
  };
}

/** Would this failure have ended corrected with the cycle capped at `cap` iterations? */
function correctedAtCap(r: MagicRecord, cap: number): boolean {
  const stoppedAt = r.iterations ?? 0;
  if (!r.verdicts?.length) return !!r.corrected && stoppedAt <= cap; // a record written before verdicts were kept
  return r.verdicts[Math.min(cap, r.verdicts.length) - 1] === true;
}

function renderSummary(s: MagicStats, outDir: string, hasGuideline: boolean, failed: number): string {
  const held = failed ? `; batches after the first failed question wait for it: --resume runs the ${failed} failed again` : "";
  const pct = (n: number, d: number) => (d ? `${((n / d) * 100).toFixed(1)}%` : "-");
  const notCycled = Object.entries(s.notCycled).map(([why, n]) => `${n} ${why}`).join(", ");
  const roles = Object.entries(s.tokensByRole)
    .map(([role, t]) => `${role} ${compactNumber(t.inputTokens)} in / ${compactNumber(t.outputTokens)} out (${t.calls} calls)`)
    .join("; ");
  return (
    `Failures: ${s.failures} through the cycle of ${s.questions} questions (${s.initiallyCorrect} initially correct${notCycled ? `; not cycled: ${notCycled}` : ""}${s.errors ? `; ${s.errors} run errors` : ""})\n` +
    `Corrected: ${s.corrected} (${pct(s.corrected, s.failures)}); AVG_i ${s.avgIterations.toFixed(2)} (max ${s.maxIter}${s.noManager ? ", no manager" : ""})\n` +
    `Corrected with --max-iter 1..${s.maxIter}: ${s.correctedWithin.join(", ")}\n` +
    `EX on the split after correction: ${s.exAfter.toFixed(2)}% (${s.initiallyCorrect} + ${s.corrected} of ${s.answered} answered${s.errors ? `; ${s.errors} run errors left out` : ""})\n` +
    `Outcomes: ${s.leakRefusals} leak refusals (${s.redactions} redacted); prompt revisions ${s.promptRevisions.feedback} feedback, ${s.promptRevisions.correction} correction; ` +
    `${s.failedRevisions} failed revisions (${s.unusableManagerReplies} unusable manager replies); ${s.failedMerges} failed merges (${s.unusableMergeReplies} unusable merge replies); ` +
    `${s.strippedMergeLines} lines outside the numbered reminders dropped from ${s.strippedMergeReplies} merge replies\n` +
    `Tokens by role: ${roles || "none"}\n` +
    (hasGuideline
      ? `Guideline: ${path.join(outDir, "guideline.md")} (${s.batchesMerged} batch${s.batchesMerged === 1 ? "" : "es"} merged${s.mergeFailure ? `; ${s.mergeFailure}: --resume retries it` : ""}${held})\n`
      : `Guideline: none written (${s.mergeFailure ? `${s.mergeFailure}: --resume retries it` : failed ? held.slice(2) : "no successful feedback yet"})\n`)
  );
}
