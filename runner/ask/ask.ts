import fs from "node:fs";
import path from "node:path";
import { checkConfig, checkGraphOptions, type ConfigInput, type ConfigOf, defineConfig, inApiWords, opt, optionUsageError } from "../../core/config.ts";
import { UserError } from "../../core/errors.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import type { BuiltInGraphName, GraphOptionsOf } from "../../graphs/registry.ts";
import type { GraphSpec } from "../../graphs/spec.ts";
import { executeSql } from "../../nodes/execute.ts";
import type { AnyNodeFactory } from "../../nodes/types.ts";
import type { Question } from "../../state/question.ts";
import type { ResultPreview } from "../../state/result.ts";
import type { SqlStateValue } from "../../state/sql-state.ts";
import type { Usage } from "../../state/usage.ts";
import { loadBenchmark } from "../../tools/benchmarks/benchmark.ts";
import { resolveBenchmarkDir } from "../../tools/benchmarks/resolve.ts";
import { lazyCrypto } from "../../tools/hash.ts";
import { getSharedExecutor } from "../../tools/sqlite/executor.ts";
import { QUESTION_CONFIG, RUN_CONFIG } from "../run/run-config.ts";
import { examplesWantedBy, runGraph, runOptionDefs, scenarioFrom } from "../run/run-options.ts";
import { loadRunModules, type RunModules, withObjectModules } from "../run/user-modules.ts";
import { modelFlagsFrom } from "../run/model-options.ts";

// `sqlmend ask` as a function: one question on one database through a graph, on a checkpointed thread; the SQL, its
// result and what it cost returned as data. What runs a graph (LangGraph, LangChain, the checkpoint store) loads only
// once every option has passed its check, so the command's --help and flag checks load none of it.

/** ask's own options, beside the run's (models, graph knobs, correction: `RUN_CONFIG`). */
export const ASK_OWN_CONFIG = defineConfig({
  ...QUESTION_CONFIG,
  thread: { type: "string", metavar: "ID", help: "checkpoint thread id (default: a new one); an unfinished thread is resumed" },
  sql: { type: "string", metavar: "SQL", help: "corrector graphs: the SQL to correct (default: --initial baseline's answer)" },
  examples: { type: "string", metavar: "BENCH", help: "benchmark dir (or 'minibench') whose train split feeds --few-shot (and r3's --k-shot)" },
});

/** Every option of `sqlmend ask` and `ask`, declared once (a graph's own options come from the graph). */
export const ASK_CONFIG = defineConfig({ ...ASK_OWN_CONFIG, ...RUN_CONFIG });
export type AskConfig = ConfigOf<typeof ASK_CONFIG>;

type AskCommon = Omit<ConfigInput<typeof ASK_CONFIG>, "graph" | "node" | "question" | "db"> & {
  question: string;
  db: string;
  /** Slot swaps: by slot, a module file or the node factory itself. */
  node?: Readonly<Record<string, string | AnyNodeFactory>>;
};
/**
 * ask's options by name (camelCase): `graph` (a built-in's name) or `graphModule` (a file, or a spec made with
 * `defineGraph`), `question`, `db`, any other option of `sqlmend ask` — `evidence`, `thread`, `sql`, `examples`,
 * `model`, `baseUrl`, `roleModel: { ROLE: MODEL }`, `maxFixRounds`, `checkpoints`, `initial`, ... — and `options`,
 * the graph's own. Closed: a misspelt option does not compile.
 */
export type AskOptions<G extends BuiltInGraphName = BuiltInGraphName> =
  | (AskCommon & { graph: G; graphModule?: undefined; options?: GraphOptionsOf<G> })
  | (AskCommon & { graph?: undefined; graphModule: string | GraphSpec; options?: Record<string, unknown> });

/** What `ask` gives back: the thread's final SQL, its result, what the question cost. */
export interface AskAnswer {
  /** The graph that ran. */
  graph: string;
  /** The checkpoint thread (`sqlmend inspect THREAD` reads it). */
  thread: string;
  /** Where the thread is checkpointed: a file, a PostgreSQL URL (masked), or "memory". */
  checkpoints: string;
  /** The final SQL. */
  sql: string;
  /** Correctors: the SQL before correction, and "applied" or why correction was skipped. */
  initialSql?: string;
  correction?: string;
  /** The final SQL's result, its first 20 rows (absent when it did not run: `resultError` says why). */
  result?: ResultPreview;
  /** Why the final SQL did not run: "sql: no such column: x", a timeout, a refused statement. */
  resultError?: string;
  /** The graph could not finish (the slot that threw): the SQL is the last it had. */
  error?: string;
  /** Calls, tokens and latency, by role. */
  usage: Usage;
  latencyMs: number;
  iterations: number;
  /** What fell back on the way (training examples missing, a damaged checkpoint set aside), a line each; also on `io.stderr`. */
  warnings: string[];
}

/** What ask runs, typed: its config, the built-in graph named (else `config.graph`'s module), the graph's own options, the loaded modules. */
export interface AskInput {
  config: AskConfig;
  graph?: string | undefined;
  graphOptions: Record<string, unknown>;
  modules: RunModules;
}

/**
 * Answers one question on one database with a graph (paths from `io.cwd`; warnings on `io.stderr`): what `sqlmend
 * ask` prints, as data. A question with no SQL at the end (no initial SQL to correct, a model that never replied) is a
 * `UserError` naming its thread.
 */
export async function ask<G extends BuiltInGraphName>(options: AskOptions<G>, io: Pick<CliIO, "env" | "cwd" | "stderr"> = defaultIO()): Promise<AskAnswer> {
  const { graph, graphModule, options: graphOptions, node, ...rest } = options as AskOptions<G>;
  return inApiWords("ask", async () => {
    const config = checkConfig("ask", ASK_CONFIG, { ...rest, ...withObjectModules(node, graphModule) });
    const modules = await loadRunModules(config, io.cwd);
    const spec = runGraph(graph, modules);
    const typed = checkGraphOptions("ask", runOptionDefs(spec, config.initial), graphOptions as Record<string, unknown> | undefined);
    return askQuestion({ config, graph, graphOptions: typed, modules }, io);
  });
}

/** The body `ask` and the launcher share, on a checked config. */
export async function askQuestion(input: AskInput, io: Pick<CliIO, "env" | "cwd" | "stderr">): Promise<AskAnswer> {
  const { config, graphOptions, modules } = input;
  const spec = runGraph(modules.graph ? undefined : input.graph, modules);
  if (config.db === undefined) throw optionUsageError`${opt("db")} FILE is required`;
  const questionText = config.question?.trim();
  if (!questionText) throw optionUsageError`the question is missing (${opt("question")})`;
  const dbPath = path.resolve(io.cwd, config.db);
  if (!fs.existsSync(dbPath)) throw new UserError(`database not found: ${config.db}`);
  if (config.sql !== undefined && spec.kind !== "corrector") throw optionUsageError`${opt("sql")} applies to corrector graphs; '${spec.name}' is a generator`;

  // The models and `correct` are checked now too (buildRunner reads them again), before anything slow loads.
  modelFlagsFrom(config);
  scenarioFrom(config.correct, false);
  const [{ buildRunner }, { examplePoolOf }, { openReadyCheckpointer }, { answerQuestion }] = await Promise.all([
    import("../run/graph-runner.ts"),
    import("../run/training-examples.ts"),
    import("../../storage/checkpoints.ts"),
    import("../run/question-thread.ts"),
  ]);
  const warnings: string[] = [];
  const warn = (line: string) => {
    warnings.push(line);
    io.stderr(`warning: ${line}\n`);
  };
  const examples = config.examples
    ? examplePoolOf(await loadBenchmark(await resolveBenchmarkDir(config.examples, io.env, io.cwd), { split: "train" }), `--examples ${config.examples}`)
    : undefined;
  const wantedBy = config.examples ? undefined : examplesWantedBy(spec, config, graphOptions);
  if (wantedBy) warn(`${wantedBy} wants training examples; none given (--examples BENCH), so it writes zero-shot`);
  const executor = getSharedExecutor();
  // A damaged checkpoint file (the data directory's, shared by every command) is set aside with a warning, as eval does.
  const checkpoints = await openReadyCheckpointer(config.checkpoints, io.env, io.cwd, { onDamagedFile: warn });
  try {
    const runner = await buildRunner({
      warn,
      spec,
      config,
      graphOptions,
      modules,
      env: io.env,
      cwd: io.cwd,
      executor,
      checkpointer: checkpoints.saver,
      semantics: "bird",
      examples,
      allowOracle: false,
      inlineInitialSql: config.sql,
    });
    const question: Question = {
      id: "ask",
      dbId: path.basename(dbPath).replace(/\.(sqlite3?|db)$/i, ""),
      dbPath,
      question: questionText,
      evidence: config.evidence ?? "",
      descriptionDir: config.descriptionDir ? path.resolve(io.cwd, config.descriptionDir) : undefined,
    };
    const threadId = config.thread ?? `ask-${new Date().toISOString().replace(/[-:]/g, "").slice(0, 15)}-${lazyCrypto().randomUUID().slice(0, 8)}`;
    const outcome = await answerQuestion(runner, question, threadId);
    for (const note of outcome.checkpointNotes ?? []) warn(note);
    if (outcome.noInitial !== undefined) throw new UserError(`no initial SQL to correct: ${outcome.noInitial} (thread ${threadId})`);
    if (!outcome.sql) throw new UserError(`no SQL: ${outcome.error ?? whyNoSql(outcome.state)} (thread ${threadId})`);
    const execution = await executeSql(executor, dbPath, outcome.sql, { previewRows: 20, timeoutMs: runner.queryTimeoutMs });
    return {
      graph: runner.spec.name,
      thread: threadId,
      checkpoints: checkpoints.location,
      sql: outcome.sql,
      ...(outcome.initialSql !== undefined ? { initialSql: outcome.initialSql } : {}),
      ...(outcome.correction !== undefined ? { correction: outcome.correction } : {}),
      ...(execution.ok && execution.preview ? { result: execution.preview } : {}),
      ...(execution.ok ? {} : { resultError: `${execution.errorKind}: ${execution.error}` }),
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      usage: outcome.usage,
      latencyMs: Math.round(outcome.latencyMs),
      iterations: outcome.iterations,
      warnings,
    };
  } finally {
    checkpoints.close();
  }
}

/**
 * Why a finished run has no SQL, in one line: the last failed model call of its final step (a model that is down, or
 * a reply without SQL), else that the graph gave none.
 */
function whyNoSql(state: SqlStateValue | undefined): string {
  const failed = (state?.calls ?? []).filter((call) => call.error).at(-1);
  return failed ? `${failed.role}: ${failed.error}` : "the graph gave none";
}
