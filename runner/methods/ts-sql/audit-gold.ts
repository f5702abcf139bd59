/**
 * TS-SQL's audit of gold SQL (RQ0): `auditGold`, the run API, and `audit`, the body `sqlmend ts-sql audit` runs —
 * each selected question's test case built and its gold SQL run on it.
 */
import fs from "node:fs";
import path from "node:path";
import { type CliIO, defaultIO } from "../../../core/io.ts";
import { firstLineOf, UserError } from "../../../core/errors.ts";
import { checkConfig, checkGraphOptions, commandLineOfConfig, type ConfigInput, inApiWords, opt, optionUsageError } from "../../../core/config.ts";
import { answerSettings, graphSettings } from "../../run/run-settings.ts";
import { checkRunGraphOptions } from "../../run/run-options.ts";
import { modelFlagsFrom } from "../../run/model-options.ts";
import { jsonLinesStore, nextThread, runQuestions, unfinishedLines } from "../../run/question-loop.ts";
import { benchRequired } from "../../run/output-dir-flags.ts";
import { fileOrder, sampleOf } from "../../run/question-sample.ts";
import { inRunFolder, runQuestionsOf } from "../../run/run-skeleton.ts";
import { optionDefsOf } from "../../../graphs/manifests/manifest.ts";
import { AUDIT_CONFIG, AUDIT_REFUSED, type AuditConfig } from "./audit-config.ts";
import type { GraphOptionsOf } from "../../../graphs/registry.ts";
import { tsSqlRefineManifest } from "../../../graphs/manifests/ts-sql.ts";
import { manifestOf } from "../../../graphs/registry.ts";
import type { TsSqlStateValue } from "../../../state/ts-sql.ts";
import { getSharedExecutor } from "../../../tools/sqlite/executor.ts";
import { outcomeOf } from "../../../graphs/outcome.ts";
import { type AuditRecord, auditRecordOf, parseAuditRecords } from "./audit-record.ts";
import { renderAuditReport } from "./audit-report.ts";

const RESULTS = "audit.jsonl";

/** What the audit fixes, whatever the flags say: the gold is tested as it is, never revised. */
const AUDIT_FIXED = { maxRevisions: 0 } as const;

/**
 * The options of `sqlmend ts-sql audit` (`AUDIT_CONFIG`), by name: `bench` (a folder, or "minibench") or `questions`
 * with `dbDir`, `out`, `split` (default dev), `limit`, `ids`, `concurrency` (default 2), `resume`, the model's (`model`,
 * `baseUrl`, `config`, `roleModel: { ROLE: MODEL }`, `seed`, `cache`, ...), `checkpoints`, `node: { SLOT: FILE }`, and
 * `options`, TS-SQL's own (camelCase, as ts-sql-refine declares them).
 */
export type AuditOptions = ConfigInput<typeof AUDIT_CONFIG> & {
  out: string;
  /** TS-SQL's own options (as ts-sql-refine declares them), camelCase. */
  options?: GraphOptionsOf<"ts-sql-refine">;
};

/** The files an audit writes in its output folder. */
export interface AuditFiles {
  /** A line per question (`AuditRecord`). */
  results: string;
  report: string;
  run: string;
}

/** What an audit did: the counts its report prints, and where its files are. */
export interface AuditResult {
  /** The launcher's exit status: 0 every gold query tested or found untestable, 3 some failed or not run (--resume runs them), 130/143/129 stopped. */
  exitCode: number;
  outDir: string;
  /** Gold queries with a record (passed, failed, untested or error). */
  audited: number;
  /** Gold queries that give their own test case's result. */
  goldPassing: number;
  /** Gold queries that do not: listed in report.md for review. */
  goldFailing: number;
  /** No test case could be built for them. */
  untested: number;
  /** Not audited (a model call got no reply, the graph could not finish): --resume runs them again. */
  failed: number;
  /** Selected but not run (stopped, or the endpoint looked down). */
  notRun: number;
  inputTokens: number;
  outputTokens: number;
  /** Model calls of the audited questions: chat and embedding requests (the linker's), cached ones included. */
  calls: number;
  files: AuditFiles;
}

/**
 * Builds TS-SQL's test case for each selected question and runs its gold SQL on it (the paper's RQ0), writing the
 * folder `sqlmend ts-sql audit` writes (audit.jsonl, report.md, run.json): the launcher's audit is this.
 */
export async function auditGold(options: AuditOptions, io: CliIO = defaultIO()): Promise<AuditResult> {
  return inApiWords("auditGold", async () => {
    const { options: given, ...rest } = options as AuditOptions & Record<string, unknown>;
    refuseUnused({ ...rest, ...given });
    const config = checkConfig("auditGold", AUDIT_CONFIG, rest);
    return auditQuestions(config, checkGraphOptions("auditGold", optionDefsOf(tsSqlRefineManifest), given), io);
  });
}

/**
 * Options of a run the audit has no node for (it generates nothing, revises nothing, fixes nothing; it tests the gold,
 * so no initial SQL): refused by name with the reason, never dropped. `given`: the options by name, flags or a script's.
 */
export function refuseUnused(given: Record<string, unknown>): void {
  if (given.initial !== undefined || given.correct !== undefined) throw optionUsageError`${opt("initial")} and ${opt("correct")} do not apply: the audit tests the benchmark's gold SQL`;
  for (const [key, why] of Object.entries(AUDIT_REFUSED)) if (given[key] !== undefined) throw optionUsageError`${opt(key)} does not apply: ${why}`;
}

/** The one body `sqlmend ts-sql audit` and `auditGold` run: the typed config and TS-SQL's own options, typed, by name. */
export async function auditQuestions(config: AuditConfig, graphOptions: Record<string, unknown>, io: CliIO): Promise<AuditResult> {
  if (config.bench === undefined && config.dbDir === undefined) throw benchRequired();
  if (config.out === undefined) throw optionUsageError`${opt("out")} DIR is required`;
  refuseUnused(graphOptions);
  const concurrency = config.concurrency ?? 2;
  const spec = manifestOf(tsSqlRefineManifest.name);
  checkRunGraphOptions(spec, {}, graphOptions);
  sampleOf(config);
  modelFlagsFrom(config);

  const { bench, source, benchDir, split, questions: selected } = await runQuestionsOf(config, io, "dev");
  const questions = fileOrder(selected.filter((q) => q.goldSql));

  // Models, LangGraph and the checkpoint store load once the flags have passed their checks.
  const [{ buildRunner }, { examplesFor }, { inputOf, runThread }, { isEndpointFailure }] = await Promise.all([
    import("../../run/graph-runner.ts"),
    import("../../run/training-examples.ts"),
    import("../../run/question-thread.ts"),
    import("../../../state/usage.ts"),
  ]);
  await (await import("../../run/model-setup.ts")).checkEndpointsFrom(config, io.env, io.cwd);
  return inRunFolder("ts-sql audit", config, io, async ({ outDir, notes, warn, checkpoints, claim }) => {
    // The graph as eval builds it (--node, embeddings, few-shot examples, the shared knobs), revising nothing: the
    // audit only builds each gold query's test case and runs the gold on it.
    const runner = await buildRunner({
      warn,
      spec,
      config,
      graphOptions,
      env: io.env,
      cwd: io.cwd,
      executor: getSharedExecutor(),
      checkpointer: checkpoints.saver,
      semantics: bench.layout === "spider" ? "spider" : "bird",
      examples: await examplesFor(spec, config, graphOptions, benchDir, split, bench),
      allowOracle: false,
      noInitial: true,
      fixedOptions: AUDIT_FIXED,
      roleToCheck: "coder",
      known: () => [bench.questions],
    });
    const runFile = claim(
      { command: "ts-sql audit", bench: source.bench ?? null, split, questions: source.questions ?? null, dbDir: source.dbDir ?? null, models: runner.deps.models.describe(), settings: { ...answerSettings(config, [], { cwd: io.cwd, runDir: outDir }), ...graphSettings([spec], graphOptions, io.cwd, outDir), "max-revisions": AUDIT_FIXED.maxRevisions } },
      ["command", "bench", "split", "questions", "dbDir", "models", "settings"],
      { questions },
    );
    const run = await runQuestions<AuditRecord>({
      command: "ts-sql audit",
      io,
      questions,
      store: jsonLinesStore(path.join(outDir, RESULTS), parseAuditRecords),
      concurrency,
      describe: (counts) => `ts-sql audit: ${counts.line.replace(/^\d+ questions/, `${counts.questions} gold queries of ${bench.name}`)}`,
      // An error record's thread holds its failure as finished: a resumed run asks again on the next thread.
      run: async (q, previous) => {
        const thread = nextThread(`audit:${runFile.runId}:${q.id}`, previous?.thread);
        try {
          const state = (await runThread(runner.graph, inputOf(q, spec.name, q.goldSql), thread)) as TsSqlStateValue;
          return auditRecordOf(q, state, thread, undefined, outcomeOf(runner.spec, state as unknown as Record<string, unknown>));
        } catch (error) {
          if (error instanceof UserError) throw error;
          return auditRecordOf(q, undefined, thread, firstLineOf(error));
        }
      },
      failed: (record) => record.status === "error",
      endpointDown: (record) => (record.note && isEndpointFailure(record.note) ? record.note : undefined),
      progress: { metric: { label: "gold passes", as: "share" }, of: (record) => ({ hit: record.status === "passed", tokens: record.inputTokens + record.outputTokens }) },
    });
    const { records } = run;
    fs.writeFileSync(path.join(outDir, "report.md"), renderAuditReport(records, { bench: bench.name, split, command: commandLineOfConfig("ts-sql", ["audit"], AUDIT_CONFIG, config, graphOptions), summarize: runner.spec.outcome?.summarize, notes }));
    const failed = records.filter((r) => r.status === "failed").length;
    io.stdout(
      `${failed} of ${records.length} gold queries fail their own test case (${records.filter((r) => r.status === "untested" || r.status === "error").length} untested)\n` +
        unfinishedLines(run, (r) => r.note) +
        (run.stopped ? `Stopped early: ${run.notRun} questions not run; --resume finishes the audit.\n` : "") +
        `Report: ${path.join(outDir, "report.md")}\n`,
    );
    const count = (status: AuditRecord["status"]) => records.filter((r) => r.status === status).length;
    return {
      exitCode: run.exitCode,
      outDir,
      audited: records.length,
      goldPassing: count("passed"),
      goldFailing: count("failed"),
      untested: count("untested"),
      failed: count("error"),
      notRun: run.notRun,
      inputTokens: records.reduce((a, r) => a + r.inputTokens, 0),
      outputTokens: records.reduce((a, r) => a + r.outputTokens, 0),
      calls: records.reduce((a, r) => a + r.calls, 0),
      files: { results: path.join(outDir, RESULTS), report: path.join(outDir, "report.md"), run: path.join(outDir, "run.json") },
    };
  });
}
