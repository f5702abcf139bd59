import type { Command } from "../shared/command.ts";
import { UsageError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { modulesOfArgv } from "../shared/module-flags.ts";
import { graphUsage, RUN_FLAGS_USAGE } from "../usage/run-usage.ts";
import { defineConfig } from "../../core/config.ts";
import { ASK_CONFIG, askQuestion } from "../../runner/ask/ask.ts";
import { graphFlags, graphOptionsOf, runGraph } from "../../runner/run/run-options.ts";
import { loadRunModules } from "../../runner/run/user-modules.ts";
import { formatUsage } from "../../runner/run/progress.ts";
import { formatTable } from "../../tools/format.ts";
import { EXIT } from "../../core/exit.ts";

const { question: _question, ...ASK_FLAGS } = ASK_CONFIG;
const CLI_FLAGS = defineConfig({ ...ASK_FLAGS, json: { type: "boolean", help: "print the outcome as JSON" } });

export const askCommand: Command = {
  name: "ask",
  usage: `Usage: sqlmend ask GRAPH --db FILE [--evidence TEXT] [--thread ID] [--sql SQL] [--examples BENCH] [--json] "QUESTION"

From a script: ask({ graph, db, question, ... }) returns the answer as data (sqlmend's run API).

${usageOf(CLI_FLAGS, ["db", "evidence", "descriptionDir", "thread", "sql", "examples", "json"])}
${RUN_FLAGS_USAGE}`,
  helpFor: graphUsage,
  async run(argv, io) {
    const modules = await loadRunModules(modulesOfArgv(argv), io.cwd);
    const { values, positionals } = parseFlags(argv, { ...flagTableOf(CLI_FLAGS), ...graphFlags(modules) });
    // `ask GRAPH "QUESTION"`, or `ask --graph FILE "QUESTION"`; parsed once: the typed config and the graph's own options.
    const graph = modules.graph ? undefined : positionals[0];
    const { json, ...config } = configFromFlags(CLI_FLAGS, values);
    const graphOptions = graphOptionsOf(runGraph(graph, modules), values);
    if (config.db === undefined) throw new UsageError("--db FILE is required");
    const question = positionals.slice(modules.graph ? 0 : 1).join(" ").trim();
    if (!question) throw new UsageError("the question is missing");
    const answer = await askQuestion({ config: { ...config, question }, graph, graphOptions, modules }, io);
    if (json) {
      const { graph: _graph, warnings: _warnings, resultError, error, ...rest } = answer;
      const shown = { thread: rest.thread, sql: rest.sql, initialSql: rest.initialSql, correction: rest.correction, result: rest.result, error: error ?? resultError, usage: rest.usage, latencyMs: rest.latencyMs, iterations: rest.iterations, checkpoints: rest.checkpoints };
      io.stdout(`${JSON.stringify(shown, null, 2)}\n`);
    } else {
      if (answer.initialSql !== undefined) io.stdout(`Initial SQL:\n${answer.initialSql || "(none)"}\nCorrection: ${answer.correction ?? "-"}\n\n`);
      io.stdout(`SQL:\n${answer.sql || "(none)"}\n\n`);
      io.stdout(answer.result ? `${formatTable(answer.result)}\n` : `Result: ${answer.resultError}\n`);
      if (answer.error) io.stdout(`Run error: ${answer.error}\n`);
      const inspectHint = answer.checkpoints === "memory" ? "" : `  (sqlmend inspect ${answer.thread}${config.checkpoints ? ` --checkpoints ${config.checkpoints}` : ""}${config.graph ? ` --graph ${config.graph}` : ""})`;
      io.stdout(`\nTokens: ${formatUsage(answer.usage)}\nThread: ${answer.thread}${inspectHint}\n`);
    }
    return answer.error ? EXIT.error : EXIT.ok;
  },
};
