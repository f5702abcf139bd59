/**
 * MAGIC's guideline training (§3.1): the initial method's failures on the training split through the
 * feedback-correction cycle, a question at a time through the question runner, the successful feedbacks merged batch
 * by batch into a guideline; the run folder's files and figures. The one body `learnGuideline` and
 * `sqlmend magic guideline` run.
 */
import fs from "node:fs";
import path from "node:path";
import type { CliIO } from "../../../core/io.ts";
import { commandLineOfConfig, opt, optionUsageError, optionUserError } from "../../../core/config.ts";
import { EXIT } from "../../../core/exit.ts";
import { answerSettings, graphSettings } from "../../run/run-settings.ts";
import { graphOptionsFrom, optionsOfGraph } from "../../run/run-options.ts";
import { loadSlotModules } from "../../run/user-modules.ts";
import { modelFlagsFrom } from "../../run/model-options.ts";
import { benchRequired } from "../../run/output-dir-flags.ts";
import type { RunnableGraph } from "../../run/question-thread.ts";
import { jsonLinesStore, runQuestions } from "../../run/question-loop.ts";
import { fileOrder, sampleOf } from "../../run/question-sample.ts";
import { runPlace } from "../../run/run-json.ts";
import { inRunFolder, runQuestionsOf } from "../../run/run-skeleton.ts";
import { manifestOf } from "../../../graphs/registry.ts";
import { magicFeedbackManifest, magicGuidelineManifest } from "../../../graphs/manifests/magic.ts";
import { MAGIC_FEEDBACK_OPTIONS } from "../../../nodes/magic/options.ts";
import { readOptions } from "../../../core/options.ts";
import { loadBenchmark } from "../../../tools/benchmarks/benchmark.ts";
import { type Semantics, writeBirdPredictions } from "../../../tools/benchmarks/score.ts";
import { getSharedExecutor } from "../../../tools/sqlite/executor.ts";
import { isEndpointFailure } from "../../../state/usage.ts";
import { type MagicRecord, parseMagicRecords } from "../../../state/magic-record.ts";
import type { NodeDeps } from "../../../nodes/types.ts";
import { dropUnfinishedInteractions, type HistorySnapshot, INTERACTIONS } from "./guideline-interactions.ts";
import { GuidelineMerger, snapshotName } from "./guideline-merger.ts";
import { computeStats, type MagicStats } from "./guideline-stats.ts";
import { renderSummary } from "./guideline-summary.ts";
import { processQuestion } from "./training-question.ts";
import { GUIDELINE_CONFIG, type GuidelineConfig } from "./guideline-config.ts";

const RESULTS = "results.jsonl";

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

/** The train split of the --bench layout, for few-shot examples (own data has none). */
async function trainSplitOf(benchDir: string | undefined) {
  if (benchDir === undefined) throw optionUserError`${opt("fewShot")} needs a training split: run on a ${opt("bench")} layout that has one (${opt("dbDir")} data has none)`;
  return loadBenchmark(benchDir, { split: "train" });
}

/**
 * Every check `magic guideline` makes of its options before it loads anything slow or spends a call (the graph
 * options were checked by their declarations when parsed). `sqlmend experiment` calls it before the first run.
 */
export function checkGuideline(config: GuidelineConfig): { batchSize: number; concurrency: number } {
  if (config.bench === undefined && config.dbDir === undefined) throw benchRequired();
  if (config.out === undefined) throw optionUsageError`${opt("out")} DIR is required`;
  sampleOf(config);
  modelFlagsFrom(config);
  return { batchSize: config.batch ?? 10, concurrency: config.concurrency ?? 4 };
}

/**
 * The one body `sqlmend magic guideline` and `learnGuideline` run: the typed config, and the graphs' own options (the
 * cycle's, the merge's, the initial generator's), typed, by name.
 */
export async function trainGuideline(config: GuidelineConfig, graphOptions: Record<string, unknown>, io: CliIO): Promise<GuidelineResult> {
  const { batchSize, concurrency } = checkGuideline(config);
  const { bench, source, benchDir, split, questions: selected, skipped, sample } = await runQuestionsOf(config, io, "train");
  const semantics: Semantics = config.semantics ?? (bench.layout === "spider" ? "spider" : "bird");
  const questions = fileOrder(selected);

  // Models, LangGraph and the checkpoint store load once the flags have passed their checks.
  const [{ modelsFrom }, { resolveInitialSource }, { createExampleStore }] = await Promise.all([
    import("../../run/model-setup.ts"),
    import("../../run/initial-sql.ts"),
    import("../../../tools/retrieval/examples.ts"),
  ]);
  await (await import("../../run/model-setup.ts")).checkEndpointsFrom(config, io.env, io.cwd);
  const executor = getSharedExecutor();
  return inRunFolder("magic guideline", config, io, async ({ outDir, notes, warn, checkpoints, claim }) => {
    const models = modelsFrom(config, io.env, io.cwd, "feedback", warn, () => [bench.questions]);
    const shared = graphOptionsFrom(config);
    // An initial generator with --few-shot retrieves from the training split (never the question itself).
    const examples = (shared.fewShot ?? 0) > 0 ? createExampleStore((split === "train" && !bench.customQuestions ? bench : await trainSplitOf(benchDir)).questions) : undefined;
    const deps: NodeDeps = { models, executor, examples };
    const own = optionsOfGraph(magicFeedbackManifest, graphOptions);
    const cycle = readOptions(MAGIC_FEEDBACK_OPTIONS, own);
    const slots = await loadSlotModules(magicFeedbackManifest, config.node, io.cwd);
    const [magicFeedbackSpec, magicGuidelineSpec] = await Promise.all([manifestOf(magicFeedbackManifest.name).load(), manifestOf(magicGuidelineManifest.name).load()]);
    const feedbackGraph: RunnableGraph & { getStateHistory: (config: unknown) => AsyncIterable<HistorySnapshot> } = magicFeedbackSpec.build(deps, {
      ...shared,
      ...own,
      semantics,
      slots,
      checkpointer: checkpoints.saver,
      cwd: io.cwd,
    });
    const mergeGraph: RunnableGraph = magicGuidelineSpec.build(deps, { checkpointer: checkpoints.saver, maxUnusableRetries: cycle.maxUnusableRetries });
    const initial = await resolveInitialSource(config.initial, { cwd: io.cwd, graphOptions, checkpointer: checkpoints.saver, benchQuestions: bench }, deps, shared);

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
          ...answerSettings(config, ["initial"], where),
          ...graphSettings(initial.kind === "graph" ? [magicFeedbackManifest, initial.spec] : [magicFeedbackManifest], graphOptions, io.cwd, outDir),
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
    dropUnfinishedInteractions(interactionsFile, done, (batch) => fs.existsSync(path.join(outDir, snapshotName(batch))));

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
        const { record, interactions } = await processQuestion(q, previous, { initial, feedbackGraph, feedbackSpec: magicFeedbackSpec, deps, semantics, timeoutMs: shared.timeoutMs, runId: runFile.runId });
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
    const command = commandLineOfConfig("magic guideline", [], GUIDELINE_CONFIG, config, graphOptions);
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
