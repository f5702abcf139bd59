/**
 * Memo-SQL's memory build (`sqlmend memo build`, `buildMemory`): per training question, wrong candidates elicited,
 * executed against the gold, one kept and labelled into the memory file; resumable, one build per file at a time.
 */
import fs from "node:fs";
import path from "node:path";
import { type CliIO, defaultIO } from "../../../core/io.ts";
import { firstLineOf } from "../../../core/errors.ts";
import { checkConfig, type ConfigInput, inApiWords, opt, optionUsageError, optionUserError } from "../../../core/config.ts";
import { checkEndpointsFrom } from "../../run/model-setup.ts";
import { compactNumber } from "../../run/progress.ts";
import { type BuildOptions, buildMemoryEntry, schemaCache } from "../../../nodes/memo/memory-build.ts";
import { runQuestions, unfinishedLines } from "../../run/question-loop.ts";
import { runQuestionsOf } from "../../run/run-skeleton.ts";
import { fileOrder, sampleOf } from "../../run/question-sample.ts";
import { benchRequired } from "../../run/output-dir-flags.ts";
import { modelFlagsFrom } from "../../run/model-options.ts";
import { lockOutDir } from "../../run/out-dir-lock.ts";
import { addUsage, emptyUsage, isEndpointFailure } from "../../../state/usage.ts";
import { ERROR_TYPES, MemoryStore } from "../../../tools/retrieval/memory-store.ts";
import type { Semantics } from "../../../tools/benchmarks/score.ts";
import { getSharedExecutor } from "../../../tools/sqlite/executor.ts";
import type { Question } from "../../../state/question.ts";
import { type CodeIdentity, codeChange, codeIdentity, sameCode } from "../../../tools/version.ts";
import { embedderFor, embedKeys, modelsFor } from "./memo-models.ts";
import { MEMORY_BUILD_CONFIG, type MemoryBuildConfig } from "./memory-build-config.ts";
import { errorTypeHistogram } from "./error-type-histogram.ts";
import { type BuildRecord, memoryRecordStore } from "./memory-record-store.ts";
import { pipelineElicitor } from "./pipeline-elicitor.ts";

/**
 * The options of `memo build` (`MEMORY_BUILD_CONFIG`), by name: `bench` (a folder, or "minibench") or `questions` with
 * `dbDir`, `out` (the memory file), `split` (default train), `limit`, `ids`, `concurrency`, `resume`, `elicit`,
 * `samples`, `sampleTemperature`, `semantics`, `queryTimeoutMs`, and the model's (`model`, `baseUrl`, `config`,
 * `roleModel: { ROLE: MODEL }`, `temperature`, `seed`, `cache`, `embeddingModel`, ...).
 */
export type MemoryBuildOptions = ConfigInput<typeof MEMORY_BUILD_CONFIG> & { out: string };

/** What a memory build did: the figures its summary prints. */
export interface MemoryBuildResult {
  /** The launcher's exit status: 0 every selected question done, 3 some failed or not run (--resume runs them), 130/143/129 stopped. */
  exitCode: number;
  /** The memory file. */
  file: string;
  /** Entries the file holds now, and how many this run added. */
  entries: number;
  added: number;
  /** Selected questions (those with gold SQL), and how many of them are done (by this or an earlier run of the build). */
  questions: number;
  done: number;
  /** Questions this run ran (failed ones included). */
  ranNow: number;
  /** This run's questions that failed (a model call got no reply, an error): not marked done, --resume runs them again. */
  failed: number;
  /** Selected but not run (stopped, or the endpoint looked down). */
  notRun: number;
  /** Every done question of the file by outcome (entry, all-correct, none-executable, ...). */
  outcomes: Record<string, number>;
  /** The file's entries by error type. */
  errorTypes: Record<string, number>;
  /** The memory's content hash, as `memo show` and eval's report name it. */
  sha256: string;
  /** How retrieval will rank its entries. */
  ranking: "embeddings" | "lexical";
  /** This run's model calls (sampling or the pipeline, and labelling), as its "Tokens this run" line. */
  inputTokens: number;
  outputTokens: number;
  calls: number;
}

/**
 * Builds (or, with `resume`, continues) Memo-SQL's error-correction memory from a benchmark split's gold SQL, as
 * `sqlmend memo build` does: the same memory file and lock, and the figures its summary prints.
 */
export async function buildMemory(options: MemoryBuildOptions, io: CliIO = defaultIO()): Promise<MemoryBuildResult> {
  return inApiWords("buildMemory", () => buildMemoryFile(checkConfig("buildMemory", MEMORY_BUILD_CONFIG, options), io));
}

/** Every check `memo build` makes of its options before it loads anything slow; `sqlmend experiment` calls it before the first run. */
export function checkMemoryBuild(config: MemoryBuildConfig) {
  if (config.bench === undefined && config.dbDir === undefined) throw benchRequired();
  if (config.out === undefined) throw optionUsageError`${opt("out")} FILE is required`;
  sampleOf(config);
  modelFlagsFrom(config);
  return { concurrency: config.concurrency ?? 4, samples: config.samples ?? 4, temperature: config.sampleTemperature ?? 0.8, elicit: config.elicit ?? "sampling" };
}

/** The one body `sqlmend memo build` and `buildMemory` run, on the typed config. */
export async function buildMemoryFile(config: MemoryBuildConfig, io: CliIO): Promise<MemoryBuildResult> {
  const { concurrency, samples, temperature, elicit } = checkMemoryBuild(config);
  const { bench, source: benchSource, split, questions: selected } = await runQuestionsOf(config, io, "train");
  const semantics: Semantics = config.semantics ?? (bench.layout === "spider" ? "spider" : "bird");
  // The memory learns from gold SQL: questions without one are not selected.
  const questions = fileOrder(selected.filter((q) => q.goldSql));
  await checkEndpointsFrom(config, io.env, io.cwd);
  const models = modelsFor(config, io, temperature, bench.questions);
  const embeddings = embedderFor(config, io);

  const file = path.resolve(io.cwd, config.out!);
  // As eval makes its --out folder: the memory's folder is made when missing.
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // One build writes a memory at a time, as one eval writes an --out folder: a second refuses, naming the first.
  const lock = lockOutDir(file, "memo build", `${file}.lock`);
  if (lock.note) io.stderr(`sqlmend memo build: ${file}: ${lock.note}\n`);
  const code = await codeIdentity();
  const existed = fs.existsSync(file);
  let store: MemoryStore;
  try {
    store = MemoryStore.open(file, { create: true, embedder: embeddings });
  } catch (error) {
    lock.release();
    throw error;
  }
  try {
    // As before for a layout's own questions (so memories built earlier resume), with the question file or folder otherwise.
    const source = JSON.stringify({ bench: benchSource.bench ?? benchSource.dbDir, split, ...(benchSource.questions ? { questions: benchSource.questions } : {}) });
    const executor = getSharedExecutor();
    if (existed && (store.done().size || store.size)) {
      if (!config.resume) throw optionUserError`${config.out} already holds a memory: pass ${opt("resume")} to continue its build, or choose another ${opt("out")}`;
      const before = store.getMeta("build");
      if (before && before !== source) {
        const change = sourceChange(before, source);
        throw change
          ? optionUserError`${opt("resume")}: ${config.out}: it was built with ${opt(change.key)} ${change.was}, now ${change.now}: resume with the same, or build a new memory with another ${opt("out")}`
          : optionUserError`${opt("resume")}: ${config.out}: it was built from ${before}, not ${source}: resume with the same, or build a new memory with another ${opt("out")}`;
      }
      // Entries made by other code (an edited prompt) would mix two methods in one memory.
      const codeBefore = store.getMeta("code");
      const recorded = codeBefore ? (JSON.parse(codeBefore) as CodeIdentity) : undefined;
      if (!sameCode(recorded, code)) {
        throw optionUserError`${opt("resume")}: ${config.out}: sqlmend's code changed since the memory's build started (${codeChange(recorded, code)}): finish it with the code it started with, or build a new memory with another ${opt("out")}`;
      }
    }
    store.setMeta("build", source);
    store.setMeta("code", JSON.stringify(code));
    const entriesBefore = store.size;
    const options: BuildOptions = {
      models,
      executor,
      semantics,
      samples,
      timeoutMs: config.queryTimeoutMs,
      elicit: elicit === "pipeline" ? await pipelineElicitor(models, executor, bench.questions, embeddings) : undefined,
      schemaOf: schemaCache(executor),
    };
    let usage = emptyUsage();
    const outcomes: Record<string, number> = {};
    const run = await runQuestions<BuildRecord>({
      command: "memo build",
      io,
      questions,
      store: memoryRecordStore(store),
      concurrency,
      describe: (counts) => `memo build: ${bench.name}: ${counts.line}, ${samples} samples each`,
      run: async (q) => {
        try {
          const built = await buildMemoryEntry(q, options);
          usage = addUsage(usage, built.usage);
          // As eval's rule: a model call with no reply after the retries leaves an entry (or its absence) that is not
          // the method's: not marked done, so --resume asks again.
          const lost = built.usage.failed ?? 0;
          if (lost) {
            const note = `${lost} model call${lost === 1 ? "" : "s"} got no reply${built.usage.failure ? ` (first: ${built.usage.failure})` : ""}`;
            return { id: q.id, outcome: "failed", note, usage: built.usage };
          }
          return { id: q.id, ...built };
        } catch (error) {
          // Not marked done in the memory: a rerun with --resume tries it again.
          io.stderr(`${io.isTTY ? "\n" : ""}question ${q.id}: failed: ${firstLineOf(error)}\n`);
          return { id: q.id, outcome: "failed", note: firstLineOf(error), usage: emptyUsage() };
        }
      },
      failed: (record) => record.outcome === "failed",
      endpointDown: (record) => (record.outcome === "failed" && record.note && isEndpointFailure(record.note) ? record.note : undefined),
      progress: { metric: { label: "entries", as: "count" }, of: (record) => ({ hit: record.outcome === "entry", tokens: record.usage.inputTokens + record.usage.outputTokens }) },
      afterEach: (_q, record) => void (outcomes[record.outcome] = (outcomes[record.outcome] ?? 0) + 1),
    });
    const stopping = run.stopped;
    // The memory's identity: its source (bench, split; the done table holds the question ids) and a content hash.
    const identity = store.identity();
    store.setMeta("sha256", identity.sha256);
    const ranking = await embedKeys(store, embeddings);
    const stats = store.stats();
    const done = store.done();
    io.stdout(
      `Memory: ${file}\n${questionsLine(questions, done, outcomes)}\n` +
        `Entries: ${stats.entries} (+${stats.entries - entriesBefore} this run); built from ${benchSource.questions ? `${benchSource.questions} over ` : ""}${benchSource.bench ?? benchSource.dbDir} (${split}); sha256 ${identity.sha256.slice(0, 16)}\n` +
        `Outcomes: ${Object.entries(stats.done).map(([k, v]) => `${k} ${v}`).join(", ") || "-"}${outcomes.failed ? `, failed this run ${outcomes.failed} (retried by --resume)` : ""}\n` +
        `Tokens this run: ${compactNumber(usage.inputTokens)} in, ${compactNumber(usage.outputTokens)} out, ${usage.calls} calls\n` +
        `${ranking.line}\n` +
        `Error types:\n${errorTypeHistogram(stats.histogram)}\n` +
        unfinishedLines(run, (r) => r.note) +
        (stopping ? "Stopped early: --resume finishes the build.\n" : ""),
    );
    return {
      exitCode: run.exitCode,
      file,
      entries: stats.entries,
      added: stats.entries - entriesBefore,
      questions: questions.length,
      done: questions.filter((q) => done.has(q.id)).length,
      ranNow: Object.values(outcomes).reduce((a, b) => a + b, 0),
      failed: outcomes.failed ?? 0,
      notRun: run.notRun,
      outcomes: stats.done,
      errorTypes: Object.fromEntries(ERROR_TYPES.map((t) => [t, stats.histogram[t] ?? 0])),
      sha256: identity.sha256,
      ranking: ranking.embedded ? "embeddings" : "lexical",
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      calls: usage.calls,
    };
  } finally {
    store.close();
    lock.release();
  }
}

/** The selected questions' fate: done (in any run of this build) and this run; the file may hold more (another --limit). */
function questionsLine(questions: Question[], done: Map<string, unknown>, outcomes: Record<string, number>): string {
  const selectedDone = questions.filter((q) => done.has(q.id)).length;
  const thisRun = Object.values(outcomes).reduce((a, b) => a + b, 0);
  const failed = outcomes.failed ?? 0;
  const others = done.size - selectedDone;
  return (
    `Questions: ${questions.length} selected, ${selectedDone} done (${thisRun - failed} this run${failed ? `, ${failed} failed` : ""})` +
    `${selectedDone < questions.length ? `, ${questions.length - selectedDone} left for --resume` : ""}${others ? `; ${others} more done outside this selection` : ""}`
  );
}

/** What differs in a memory's source from the build's (one field: "split" was "train", now "dev"), or undefined when none can be named. */
function sourceChange(before: string, now: string): { key: string; was: string; now: string } | undefined {
  let a: Record<string, unknown>;
  let b: Record<string, unknown>;
  try {
    a = JSON.parse(before) as Record<string, unknown>;
    b = JSON.parse(now) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const key = [...new Set([...Object.keys(a), ...Object.keys(b)])].find((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  const show = (v: unknown) => (v === undefined ? "(not set)" : JSON.stringify(v));
  return key ? { key, was: show(a[key]), now: show(b[key]) } : undefined;
}
