import fs from "node:fs";
import path from "node:path";
import { lazyCrypto } from "../../tools/hash.ts";
import type { Command } from "../shared/command.ts";
import { UsageError, UserError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { examplesWantedBy, graphFlags, graphOptionsOf, loadRunModules, modelFlagsFrom, runGraph, scenarioFrom } from "../../runner/run/run-options.ts";
import { RUN_CONFIG } from "../../runner/run/run-config.ts";
import { configFromFlags, flagTableOf } from "../shared/flag-config.ts";
import { modulesOfArgv } from "../shared/module-flags.ts";
import { graphUsage, RUN_FLAGS_USAGE } from "../usage/run-usage.ts";
import { executeSql } from "../../nodes/execute.ts";
import { formatTable } from "../../tools/format.ts";
import { getSharedExecutor } from "../../tools/sqlite/executor.ts";
import { loadBenchmark } from "../../tools/benchmarks/benchmark.ts";
import { resolveBenchmarkDir } from "../../tools/benchmarks/resolve.ts";
import { formatUsage } from "../../runner/run/progress.ts";
import type { Question } from "../../state/question.ts";
import type { SqlStateValue } from "../../state/sql-state.ts";
import { EXIT } from "../../core/exit.ts";

export const askCommand: Command = {
  name: "ask",
  usage: `Usage: sqlmend ask GRAPH --db FILE [--evidence TEXT] [--thread ID] [--sql SQL] [--examples BENCH] [--json] "QUESTION"

  --db FILE                 the SQLite database (opened read-only)
  --evidence TEXT           external knowledge, as BIRD's evidence
  --description-dir DIR     BIRD-style database_description/ folder for column descriptions
  --thread ID               checkpoint thread id (default: a new one); an unfinished thread is resumed
  --sql SQL                 corrector graphs: the SQL to correct (default: --initial baseline's answer)
  --examples BENCH          benchmark dir (or 'minibench') whose train split feeds --few-shot (and r3's --k-shot)
  --json                    print the outcome as JSON
${RUN_FLAGS_USAGE}`,
  helpFor: graphUsage,
  async run(argv, io) {
    const modules = await loadRunModules(modulesOfArgv(argv), io.cwd);
    const { values, positionals } = parseFlags(argv, {
      ...flagTableOf(RUN_CONFIG),
      ...graphFlags(modules),
      db: { type: "string" },
      evidence: { type: "string" },
      "description-dir": { type: "string" },
      thread: { type: "string" },
      sql: { type: "string" },
      examples: { type: "string" },
      json: { type: "boolean" },
    });
    // `ask GRAPH "QUESTION"`, or `ask --graph FILE "QUESTION"`.
    const spec = runGraph(modules.graph ? undefined : positionals[0], modules);
    // Parsed once: the run's typed config and the graph's own options.
    const config = configFromFlags(RUN_CONFIG, values);
    const graphOptions = graphOptionsOf(spec, values);
    const questionText = positionals.slice(modules.graph ? 0 : 1).join(" ").trim();
    if (!values.db) throw new UsageError("--db FILE is required");
    if (!questionText) throw new UsageError("the question is missing");
    const dbPath = path.resolve(io.cwd, values.db);
    if (!fs.existsSync(dbPath)) throw new UserError(`database not found: ${values.db}`);
    if (values.sql !== undefined && spec.kind !== "corrector") throw new UsageError(`--sql applies to corrector graphs; '${spec.name}' is a generator`);

    // The model flags and --correct are checked now too (buildRunner reads them again): what runs a graph (LangGraph,
    // LangChain, the checkpoint store) loads only once every flag has passed its check.
    modelFlagsFrom(config);
    scenarioFrom(config.correct, false);
    const [{ buildRunner, examplePoolOf }, { openReadyCheckpointer }, { answerQuestion }] = await Promise.all([
      import("../../runner/run/graph-runner.ts"),
      import("../../storage/checkpoints.ts"),
      import("../../runner/run/question-thread.ts"),
    ]);
    const examples = values.examples
      ? examplePoolOf(await loadBenchmark(await resolveBenchmarkDir(values.examples, io.env, io.cwd), { split: "train" }), `--examples ${values.examples}`)
      : undefined;
    const wantedBy = values.examples ? undefined : examplesWantedBy(spec, config, graphOptions);
    if (wantedBy) io.stderr(`sqlmend ask: ${wantedBy} wants training examples; none given (--examples BENCH), so it writes zero-shot\n`);
    const executor = getSharedExecutor();
    const warn = (line: string) => io.stderr(`warning: ${line}\n`);
    // A damaged checkpoint file (the data directory's, shared by every command) is set aside with a warning, as eval does.
    const checkpoints = await openReadyCheckpointer(config.checkpoints, io.env, io.cwd, { onDamagedFile: warn });
    try {
      const runner = await buildRunner({
        warn,
        spec,
        config,
        graphOptions,
        env: io.env,
        cwd: io.cwd,
        executor,
        checkpointer: checkpoints.saver,
        semantics: "bird",
        examples,
        allowOracle: false,
        inlineInitialSql: values.sql,
      });
      const question: Question = {
        id: "ask",
        dbId: path.basename(dbPath).replace(/\.(sqlite3?|db)$/i, ""),
        dbPath,
        question: questionText,
        evidence: values.evidence ?? "",
        descriptionDir: values["description-dir"] ? path.resolve(io.cwd, values["description-dir"]) : undefined,
      };
      const threadId = values.thread ?? `ask-${new Date().toISOString().replace(/[-:]/g, "").slice(0, 15)}-${lazyCrypto().randomUUID().slice(0, 8)}`;
      const outcome = await answerQuestion(runner, question, threadId);
      if (outcome.noInitial !== undefined) throw new UserError(`no initial SQL to correct: ${outcome.noInitial} (thread ${threadId})`);
      if (!outcome.sql) throw new UserError(`no SQL: ${outcome.error ?? whyNoSql(outcome.state)} (thread ${threadId})`);
      const execution = await executeSql(executor, dbPath, outcome.sql, { previewRows: 20, timeoutMs: runner.queryTimeoutMs });
      if (values.json) {
        io.stdout(
          `${JSON.stringify(
            {
              thread: threadId,
              sql: outcome.sql,
              initialSql: outcome.initialSql,
              correction: outcome.correction,
              result: execution.ok ? execution.preview : undefined,
              error: outcome.error ?? (execution.ok ? undefined : `${execution.errorKind}: ${execution.error}`),
              usage: outcome.usage,
              latencyMs: Math.round(outcome.latencyMs),
              iterations: outcome.iterations,
              checkpoints: checkpoints.location,
            },
            null,
            2,
          )}\n`,
        );
      } else {
        if (outcome.initialSql !== undefined) io.stdout(`Initial SQL:\n${outcome.initialSql || "(none)"}\nCorrection: ${outcome.correction ?? "-"}\n\n`);
        io.stdout(`SQL:\n${outcome.sql || "(none)"}\n\n`);
        io.stdout(execution.ok && execution.preview ? `${formatTable(execution.preview)}\n` : `Result: ${execution.errorKind}: ${execution.error}\n`);
        if (outcome.error) io.stdout(`Run error: ${outcome.error}\n`);
        const inspectHint = checkpoints.location === "memory" ? "" : `  (sqlmend inspect ${threadId}${config.checkpoints ? ` --checkpoints ${config.checkpoints}` : ""}${config.graph ? ` --graph ${config.graph}` : ""})`;
        io.stdout(`\nTokens: ${formatUsage(outcome.usage)}\nThread: ${threadId}${inspectHint}\n`);
      }
      return outcome.error ? EXIT.error : EXIT.ok;
    } finally {
      checkpoints.close();
    }
  },
};

/**
 * Why a finished run has no SQL, in one line: the last failed model call of its final step (a model that is down, or
 * a reply without SQL), else that the graph gave none.
 */
function whyNoSql(state: SqlStateValue | undefined): string {
  const failed = (state?.calls ?? []).filter((call) => call.error).at(-1);
  return failed ? `${failed.role}: ${failed.error}` : "the graph gave none";
}
