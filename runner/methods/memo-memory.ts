// Memo-SQL's memory workflow (`sqlmend memo build|add|show|search|candidates`): each subcommand's flag table and its
// body, and the API a script calls (`buildMemory`, `writeCandidates`). cli/commands/memo.ts loads this module when a
// subcommand runs (not for --help): it needs the model client, the memory store and SQLite.
import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import { type CliIO, defaultIO } from "../../core/io.ts";
import { firstLineOf, UsageError, UserError } from "../../core/errors.ts";
import { modelFlagsFrom, runFlags } from "../run/run-options.ts";
import { MODEL_CONFIG, SELECTION_CONFIG } from "../run/run-config.ts";
import { checkEndpointsFrom, embeddingsFrom, responseCacheFrom } from "../run/model-setup.ts";
import { compactNumber } from "../run/progress.ts";
import { executeSql } from "../../nodes/execute.ts";
import { labelError } from "../../nodes/memo/common.ts";
import { type BuildOptions, type BuiltQuestion, buildMemoryEntry, type Outcome, schemaCache } from "../../nodes/memo/memory-build.ts";
import { type RecordStore, runQuestions, unfinishedLines } from "../run/question-loop.ts";
import { RUN_DIR_FLAGS, splitFrom } from "../run/output-dir-flags.ts";
import { runQuestionsOf } from "../run/run-skeleton.ts";
import { fileOrder, sampleFrom } from "../run/question-sample.ts";
import { lockOutDir } from "../run/out-dir-lock.ts";
import { type ApiOptionsOf, asApiErrors, configOfFlagValues, type FlagTable, type FlagValues, type FlagValuesOf, flagValuesOf, intFlag } from "../run/api-options.ts";
import { addUsage, emptyUsage, isEndpointFailure } from "../../state/usage.ts";
import { ERROR_TYPES, MemoryStore, type RetrievalMode } from "../../tools/retrieval/memory-store.ts";
import { resolveModelConfig } from "../../tools/models/models.ts";
import { createModelProvider, usesMock } from "../../tools/models/provider.ts";
import { readSchema, renderSchema } from "../../tools/schema.ts";
import type { Semantics } from "../../tools/benchmarks/score.ts";
import { getSharedExecutor } from "../../tools/sqlite/executor.ts";
import type { SqlExecutor } from "../../tools/sqlite/types.ts";
import { createExampleStore } from "../../tools/retrieval/examples.ts";
import type { ModelProvider } from "../../tools/models/models.ts";
import type { Question } from "../../state/question.ts";
import type { Usage } from "../../state/usage.ts";
import type { Embedder } from "../../tools/models/embeddings.ts";
import { inputOf } from "../run/question-thread.ts";
import { type CodeIdentity, codeChange, codeIdentity, sameCode } from "../../tools/version.ts";

/** A subcommand's flag values (the launcher's parse, or the API's options turned into flags by `flagValuesOf`). */
export interface MemoInput {
  values: FlagValues;
  positionals: string[];
  argv?: string[];
}

const MODEL_FLAGS = [
  "model",
  "base-url",
  "config",
  "role-model",
  "temperature",
  "seed",
  "request-timeout-ms",
  "max-retries",
  "max-requests",
  "stream",
  "structured-method",
  "embedding-model",
  "embedding-base-url",
  "cache",
  "mock-error-rate",
] as const;
const modelFlags = Object.fromEntries(MODEL_FLAGS.map((k) => [k, runFlags[k]])) as Pick<typeof runFlags, (typeof MODEL_FLAGS)[number]>;

/** `memo build`'s flags: the model's, the selection's (bench, split, questions, limit, ids, concurrency, resume), its own. */
export const memoBuildFlags = {
  ...modelFlags,
  ...RUN_DIR_FLAGS,
  samples: { type: "string" },
  elicit: { type: "string" },
  "sample-temperature": { type: "string" },
  semantics: { type: "string" },
  "query-timeout-ms": { type: "string" },
} as const;

export const memoAddFlags = {
  ...modelFlags,
  memory: { type: "string" },
  db: { type: "string" },
  question: { type: "string" },
  evidence: { type: "string" },
  wrong: { type: "string" },
  correct: { type: "string" },
  "description-dir": { type: "string" },
} as const;

export const memoShowFlags = { ...modelFlags, entries: { type: "string" }, json: { type: "boolean" } } as const;

export const memoSearchFlags = { ...modelFlags, sql: { type: "string" }, retrieval: { type: "string" }, "exclude-id": { type: "string" }, json: { type: "boolean" } } as const;

export const memoCandidatesFlags = { run: { type: "string" }, out: { type: "string" }, checkpoints: { type: "string" } } as const;

/** The models of a memo command; `known`: the questions whose gold the mock model may answer from (only the mock gets them). */
function modelsFor(values: Record<string, unknown>, io: CliIO, sampleTemperature?: number, known?: Question[]) {
  const config = resolveModelConfig(modelFlagsFrom(configOfFlagValues(MODEL_CONFIG, values)), io.env, io.cwd);
  // Diversity comes from sampling: the sampler role runs warm unless the config sets its temperature.
  if (sampleTemperature !== undefined) config.roles = { ...config.roles, sampler: { temperature: sampleTemperature, ...config.roles.sampler } };
  const cache = usesMock(config) ? undefined : responseCacheFrom(configOfFlagValues(MODEL_CONFIG, values), io.env, io.cwd, (line) => io.stderr(`warning: ${line}\n`));
  const models = createModelProvider(config, io.env, { ...(cache ? { cache } : {}), ...(known ? { known: () => [known] } : {}) });
  models.forRole("labeler");
  return models;
}

/** The shared embedder when one is configured (flags, env, config file), as for eval. */
const embedderFor = (values: Record<string, unknown>, io: CliIO): Embedder | undefined => embeddingsFrom(configOfFlagValues(MODEL_CONFIG, values), io.env, io.cwd);

/** Embeds the keys of entries that have none yet (build, add), and says in one line how retrieval will rank. */
async function embedKeys(store: MemoryStore, embedder: Embedder | undefined): Promise<{ line: string; embedded: boolean }> {
  if (!embedder) return { line: "Ranking: lexical (no embedding model configured)", embedded: false };
  const done = await store.embedPending();
  const calls = done.records.length ? `, ${done.records.length} request${done.records.length === 1 ? "" : "s"}` : "";
  if (done.error) return { line: `Ranking: lexical until the keys are embedded — ${done.embedded} embedded now, then: ${done.error}`, embedded: false };
  return { line: `Ranking: embeddings (${embedder.model}; ${store.embeddedCount} of ${store.size} keys embedded, ${done.embedded} now${calls})`, embedded: true };
}

/**
 * The options of `sqlmend memo build`, by name (camelCase): `bench` (a folder, or "minibench") or `questions` with
 * `dbDir`, `out` (the memory file), `split` (default train), `limit`, `ids`, `concurrency`, `resume`, `elicit`
 * ("sampling" or "pipeline"), `samples`, `sampleTemperature`, `semantics`, `queryTimeoutMs`, and the model's
 * (`model`, `baseUrl`, `config`, `roleModel: { ROLE: MODEL }`, `temperature`, `seed`, `cache`, `embeddingModel`, ...).
 */
export type MemoryBuildOptions = Omit<ApiOptionsOf<typeof memoBuildFlags>, "out" | "elicit" | "semantics"> & {
  out: string;
  elicit?: "sampling" | "pipeline";
  semantics?: "bird" | "spider";
};

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
  return asApiErrors("buildMemory", () => memoBuild({ values: flagValuesOf("buildMemory", options, memoBuildFlags as FlagTable), positionals: [] }, io));
}

/** Every check `memo build` makes of its flag values before it loads anything slow; `sqlmend experiment` calls it before the first run. */
export function checkMemoBuildFlags(input: MemoInput) {
  const values = input.values as FlagValuesOf<typeof memoBuildFlags>;
  const { positionals } = input;
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (!values.bench && !values["db-dir"]) throw new UsageError("--bench DIR is required (or --questions FILE --db-dir DIR)");
  if (!values.out) throw new UsageError("--out FILE is required");
  splitFrom(values.split, "train");
  const limit = intFlag(values, "limit", 1);
  const concurrency = intFlag(values, "concurrency", 1) ?? 4;
  const samples = intFlag(values, "samples", 1) ?? 4;
  const temperature = values["sample-temperature"] !== undefined ? Number(values["sample-temperature"]) : 0.8;
  if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2) throw new UsageError(`--sample-temperature takes a number in 0..2, not '${values["sample-temperature"]}'`);
  if (values.semantics !== undefined && values.semantics !== "bird" && values.semantics !== "spider") throw new UsageError(`--semantics takes bird or spider, not '${values.semantics}'`);
  const elicit = values.elicit ?? "sampling";
  if (elicit !== "sampling" && elicit !== "pipeline") throw new UsageError(`--elicit takes sampling or pipeline, not '${values.elicit}'`);
  sampleFrom(values);
  return { limit, concurrency, samples, temperature, elicit };
}

/** `memo build` from its flag values: the one body the launcher and `buildMemory` run. */
export async function memoBuild(input: MemoInput, io: CliIO): Promise<MemoryBuildResult> {
  const values = input.values as FlagValuesOf<typeof memoBuildFlags>;
  const { limit, concurrency, samples, temperature, elicit } = checkMemoBuildFlags(input);

  const { bench, source: benchSource, split, questions: selected } = await runQuestionsOf({ ...configOfFlagValues(SELECTION_CONFIG, values), limit }, io, "train");
  const semantics: Semantics = (values.semantics as Semantics | undefined) ?? (bench.layout === "spider" ? "spider" : "bird");
  // The memory learns from gold SQL: questions without one are not selected.
  const questions = fileOrder(selected.filter((q) => q.goldSql));
  await checkEndpointsFrom(configOfFlagValues(MODEL_CONFIG, values), io.env, io.cwd);
  const models = modelsFor(values, io, temperature, bench.questions);
  const embeddings = embedderFor(values, io);

  const file = path.resolve(io.cwd, values.out!);
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
      if (!values.resume) throw new UserError(`${values.out} already holds a memory: pass --resume to continue its build, or choose another --out`);
      const before = store.getMeta("build");
      if (before && before !== source) throw new UserError(`--resume: ${values.out}: ${sourceChange(before, source)}: resume with the same, or build a new memory with another --out`);
      // Entries made by other code (an edited prompt) would mix two methods in one memory.
      const codeBefore = store.getMeta("code");
      const recorded = codeBefore ? (JSON.parse(codeBefore) as CodeIdentity) : undefined;
      if (!sameCode(recorded, code)) {
        throw new UserError(`--resume: ${values.out}: sqlmend's code changed since the memory's build started (${codeChange(recorded, code)}): finish it with the code it started with, or build a new memory with another --out`);
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
      timeoutMs: intFlag(values, "query-timeout-ms", 1),
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
        `Error types:\n${histogram(stats.histogram)}\n` +
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

/** One training question's fate in a memory build; `failed` ones are not kept (a resumed build runs them again). */
type BuildRecord = { id: string; outcome: Outcome | "failed"; note?: string; usage: Usage; entry?: BuiltQuestion["entry"] };

/** The memory file as the question runner's record store: a question's entry and its "done" mark in one transaction. */
function memoryRecordStore(store: MemoryStore): RecordStore<BuildRecord> {
  return {
    load: () => new Map([...store.done()].map(([id, done]) => [id, { id, outcome: done.outcome as Outcome, note: done.note, usage: emptyUsage() }])),
    append: (record) => {
      if (record.outcome === "failed") return;
      if (record.entry) store.add(record.entry, { id: record.id, outcome: record.outcome });
      else store.markDone(record.id, record.outcome, record.note);
    },
  };
}

/**
 * memo-sql's candidates as the source of wrong queries: the whole generation half (decompositions, ReAct+Reflect,
 * three styles, exemplars from the same split — never the question itself), without correction or memory.
 */
async function pipelineElicitor(models: ModelProvider, executor: SqlExecutor, questions: Question[], embeddings: Embedder | undefined) {
  const { memoSqlSpec } = await import("../../graphs/memo-sql.ts");
  const graph = memoSqlSpec.build({ models, executor, examples: createExampleStore(questions), ...(embeddings ? { embeddings } : {}) }, { noRefine: true, retrieval: "none" });
  return async (q: Question) => {
    const state = (await graph.invoke(inputOf(q, "memo-sql"), { recursionLimit: graph.recursionLimit })) as { candidates: { sql: string }[]; usage: Usage };
    return { sqls: state.candidates.map((c) => c.sql), usage: state.usage };
  };
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

function histogram(counts: Record<string, number>): string {
  const max = Math.max(1, ...Object.values(counts));
  const total = Object.values(counts).reduce((a, b) => a + b, 0) || 1;
  return ERROR_TYPES.map((t) => `  ${t.padEnd(26)} ${String(counts[t] ?? 0).padStart(6)}  ${(((counts[t] ?? 0) / total) * 100).toFixed(1).padStart(5)}%  ${"#".repeat(Math.round(((counts[t] ?? 0) / max) * 30))}`).join("\n");
}

/** `memo add` from its flag values: label one correction (user feedback) and store it. */
export async function memoAdd(input: MemoInput, io: CliIO): Promise<number> {
  const values = input.values as FlagValuesOf<typeof memoAddFlags>;
  const { positionals } = input;
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  for (const flag of ["memory", "db", "question", "wrong", "correct"] as const) if (!values[flag]?.trim()) throw new UsageError(`--${flag} is required`);
  const dbPath = path.resolve(io.cwd, values.db!);
  if (!fs.existsSync(dbPath)) throw new UserError(`database not found: ${values.db}`);
  const executor = getSharedExecutor();
  const [right, wrong] = await Promise.all([executeSql(executor, dbPath, values.correct!), executeSql(executor, dbPath, values.wrong!)]);
  if (!right.ok) throw new UserError(`--correct SQL does not execute: ${right.errorKind}: ${right.error}`);
  if (!wrong.ok) throw new UserError(`--wrong SQL does not execute (${wrong.errorKind}: ${wrong.error}); the memory keeps semantic mistakes, execution errors are the debug loop's`);
  const models = modelsFor(values, io);
  const descriptionDir = values["description-dir"] ? path.resolve(io.cwd, values["description-dir"]) : undefined;
  const schemaText = renderSchema(await readSchema(dbPath, { descriptionDir, executor }), { question: values.question, evidence: values.evidence });
  const embeddings = embedderFor(values, io);
  const store = MemoryStore.open(path.resolve(io.cwd, values.memory!), { create: true, embedder: embeddings });
  try {
    const label = await labelError(models, { schemaText, question: values.question!, evidence: values.evidence ?? "", linkingText: "", goldSql: values.correct!, wrongSql: values.wrong! });
    if (!label.ok) throw new UserError(`the labeler gave no usable label: ${label.error}`);
    const entry = store.add({
      sourceId: `added:${createHash("sha256").update(values.question!).digest("hex").slice(0, 12)}`,
      dbId: path.basename(dbPath).replace(/\.(sqlite3?|db)$/i, ""),
      question: values.question!,
      evidence: values.evidence ?? "",
      goldSql: values.correct!,
      wrongSql: values.wrong!,
      errorTypes: label.errorTypes,
      suggestions: label.suggestions,
    });
    if (right.fingerprint === wrong.fingerprint) io.stderr("note: both queries return the same result on this database; stored anyway\n");
    const ranking = await embedKeys(store, embeddings);
    io.stdout(`Added entry #${entry.id} (${entry.errorTypes.join(", ")})\nSuggestions: ${entry.suggestions}\nMemory: ${store.size} entries\n${ranking.line}\n`);
    return 0;
  } finally {
    store.close();
  }
}

/** `memo show` from its flag values: a memory's counts, error types and latest entries. */
export async function memoShow(input: MemoInput, io: CliIO): Promise<number> {
  const values = input.values as FlagValuesOf<typeof memoShowFlags>;
  const { positionals } = input;
  if (positionals.length !== 1) throw new UsageError("name one memory file");
  const embeddings = embedderFor(values, io);
  const store = MemoryStore.open(path.resolve(io.cwd, positionals[0]!), { embedder: embeddings });
  try {
    const stats = store.stats();
    const vectors = store.vectorModels();
    const ranking = embeddings
      ? `embeddings (${embeddings.model}; ${store.embeddedCount} of ${stats.entries} keys embedded, the rest at the first retrieval)`
      : "lexical (no embedding model configured)";
    const n = intFlag(values, "entries", 0) ?? 3;
    const recent = store.entries().slice(-n);
    if (values.json) {
      io.stdout(`${JSON.stringify({ ...store.identity(), ...stats, vectors, ranking: embeddings ? "embeddings" : "lexical", recent }, null, 2)}\n`);
      return 0;
    }
    io.stdout(
      `Memory: ${store.file}\nEntries: ${stats.entries}\nBuilt from: ${(({ build }) => (build ? `${build.bench} (${build.split})` : "-"))(store.identity())}; sha256 ${store.identity().sha256}\nQuestions done by builds: ${Object.entries(stats.done).map(([k, v]) => `${k} ${v}`).join(", ") || "-"}\n` +
        `Key vectors: ${Object.entries(vectors).map(([model, n]) => `${n} by ${model}`).join(", ") || "none"}\nRanking: ${ranking}\n` +
        `Error types:\n${histogram(stats.histogram)}\n` +
        (recent.length ? `\nLatest ${recent.length}:\n${recent.map((e) => `#${e.id} [${e.sourceId}] ${e.question}\n  wrong: ${e.wrongSql}\n  types: ${e.errorTypes.join(", ")}`).join("\n")}\n` : ""),
    );
    return 0;
  } finally {
    store.close();
  }
}

/** `memo search` from its flag values: what retrieval returns for a question and SQL. */
export async function memoSearch(input: MemoInput, io: CliIO): Promise<number> {
  const values = input.values as FlagValuesOf<typeof memoSearchFlags>;
  const { positionals } = input;
  if (positionals.length !== 2) throw new UsageError('usage: sqlmend memo search FILE "QUESTION" --sql SQL');
  const mode = (values.retrieval ?? "filtered") as RetrievalMode;
  if (!["filtered", "top4", "random"].includes(mode)) throw new UsageError(`--retrieval takes filtered, top4 or random, not '${values.retrieval}'`);
  const embeddings = embedderFor(values, io);
  const store = MemoryStore.open(path.resolve(io.cwd, positionals[0]!), { embedder: embeddings });
  try {
    const question = positionals[1]!;
    const started = performance.now();
    const r = await store.retrieve({ question, sql: values.sql ?? "", exclude: { ids: values["exclude-id"] ? [values["exclude-id"]] : [], question } }, { mode });
    const ms = performance.now() - started;
    if (values.json) {
      io.stdout(`${JSON.stringify({ ...r, ms }, null, 2)}\n`);
      return 0;
    }
    const how =
      r.ranking === "embeddings" ? `embeddings (${embeddings!.model})` : r.ranking === "lexical" ? `lexical (${r.note?.replace(/; ranked lexically$/, "") ?? "no embedding model configured"})` : r.ranking;
    const requests = r.records.length ? `; ${r.records.length} embedding request${r.records.length === 1 ? "" : "s"}` : "";
    io.stdout(`Key: ${r.key.question} | ${r.key.skeleton}\nRanking: ${how}; mode ${r.mode}; ${r.ranked.length} ranked, ${r.entries.length} kept (${ms.toFixed(1)} ms${requests})\n\n`);
    for (const [i, x] of r.ranked.entries()) {
      const fate = x.kept ? "KEPT" : `dropped (types within #${x.subsumedBy})`;
      io.stdout(`${String(i + 1).padStart(3)}. ${x.score.toFixed(3).padStart(8)}  #${x.entry.id} ${fate}  [${x.entry.errorTypes.join(", ")}]  ${x.entry.question}\n`);
    }
    return 0;
  } finally {
    store.close();
  }
}

/** The options of `sqlmend memo candidates`, by name: `run` (a memo-sql eval's folder), `out` (the file), `checkpoints`. */
export interface CandidatesOptions {
  run: string;
  out: string;
  /** Where the eval's threads are, as its --checkpoints (default: the eval's own store). */
  checkpoints?: string;
}

/** What `memo candidates` wrote. */
export interface CandidatesResult {
  exitCode: number;
  file: string;
  /** Questions with their candidates as written, and those candidates in all. */
  questions: number;
  candidates: number;
  /** Questions of the run left out: no candidates as written in their thread. */
  missing: string[];
}

/**
 * Each question's candidates as its writers wrote them, from a finished memo-sql eval (its threads in the checkpoint
 * store), for memo-refine's `candidates` option — so Table 3's variants all correct the same nine candidates (A.8).
 * `sqlmend memo candidates` is this.
 */
export async function writeCandidates(options: CandidatesOptions, io: CliIO = defaultIO()): Promise<CandidatesResult> {
  return memoCandidates({ values: flagValuesOf("writeCandidates", { ...options }, memoCandidatesFlags as FlagTable), positionals: [] }, io);
}

/** `memo candidates` from its flag values: the one body the launcher and `writeCandidates` run. */
export async function memoCandidates(input: MemoInput, io: CliIO): Promise<CandidatesResult> {
  const values = input.values as FlagValuesOf<typeof memoCandidatesFlags>;
  const { positionals } = input;
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (!values.run) throw new UsageError("--run DIR is required (a memo-sql eval's output directory)");
  if (!values.out) throw new UsageError("--out FILE is required");
  const runDir = path.resolve(io.cwd, values.run);
  const [{ parseResults }, { openReadyCheckpointer }, { memoSqlSpec }, { CANDIDATES_KIND }] = await Promise.all([
    import("../run/results-record.ts"),
    import("../../storage/checkpoints.ts"),
    import("../../graphs/memo-sql.ts"),
    import("../../nodes/memo/candidates.ts"),
  ]);
  let text: string;
  try {
    text = fs.readFileSync(path.join(runDir, "results.jsonl"), "utf8");
  } catch {
    throw new UserError(`no results.jsonl in ${values.run}`);
  }
  const records = [...parseResults(text).records.values()];
  const store = await openReadyCheckpointer(values.checkpoints, io.env, io.cwd, { mustExist: true });
  try {
    // Reading checkpoints runs no node: deps that refuse to be used.
    const inert = { models: { forRole: () => { throw new Error("no model"); } }, executor: { run: () => { throw new Error("no SQL"); }, close: async () => {} } } as unknown as Parameters<typeof memoSqlSpec.build>[0];
    const graph = memoSqlSpec.build(inert, { checkpointer: store.saver });
    const questions: Record<string, { dbId: string; question: string; candidates: { id: string; sql: string }[] }> = {};
    const missing: string[] = [];
    for (const r of records) {
      const state = (await graph.getState({ configurable: { thread_id: r.thread } })) as { values: { candidates?: { id: string; sql: string; meta?: { order?: number; written?: string; rounds?: number } }[] } };
      const list = [...(state.values.candidates ?? [])].sort((a, b) => (a.meta?.order ?? 0) - (b.meta?.order ?? 0));
      // The SQL as written; a candidate from before `written` was recorded is usable only if it was never refined.
      if (!list.length || list.some((c) => c.meta?.written === undefined && (c.meta?.rounds ?? 0) > 0)) {
        missing.push(r.id);
        continue;
      }
      questions[r.id] = { dbId: r.dbId, question: r.question, candidates: list.map((c) => ({ id: c.id, sql: c.meta?.written ?? c.sql })) };
    }
    const file = path.resolve(io.cwd, values.out);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify({ kind: CANDIDATES_KIND, source: { run: runDir, questions: records.length }, questions }, null, 1)}\n`);
    const counts = Object.values(questions).map((q) => q.candidates.length);
    const total = counts.reduce((a, b) => a + b, 0);
    io.stdout(`Candidates: ${total} for ${counts.length} questions → ${file}\n${missing.length ? `No candidates as written for ${missing.length} questions (first: ${missing[0]}): left out\n` : ""}`);
    return { exitCode: 0, file, questions: counts.length, candidates: total, missing };
  } finally {
    store.close();
  }
}

/** How a refused memory resume names what differs in its source: "--split was \"train\", now \"dev\"" (one field). */
function sourceChange(before: string, now: string): string {
  let a: Record<string, unknown>;
  let b: Record<string, unknown>;
  try {
    a = JSON.parse(before) as Record<string, unknown>;
    b = JSON.parse(now) as Record<string, unknown>;
  } catch {
    return `it was built from ${before}, not ${now}`;
  }
  const key = [...new Set([...Object.keys(a), ...Object.keys(b)])].find((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  const show = (v: unknown) => (v === undefined ? "(not set)" : JSON.stringify(v));
  return key ? `it was built with --${key === "bench" ? "bench" : key} ${show(a[key])}, now ${show(b[key])}` : `it was built from ${before}, not ${now}`;
}
