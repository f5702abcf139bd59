// TS-SQL's audit of gold SQL (RQ0, `sqlmend ts-sql audit`): its records, its review report, its flag table, the body
// the launcher runs and the API a script calls (`auditGold`).
import fs from "node:fs";
import path from "node:path";
import { type CliIO, defaultIO } from "../../core/io.ts";
import { firstLineOf, UsageError, UserError } from "../../core/errors.ts";
import { commandLine } from "../../core/secrets.ts";
import { answerSettings, graphFlags, graphOptionsOf, graphSettings, modelFlagsFrom, runFlags } from "../run/run-options.ts";
import { RUN_CONFIG, SELECTION_CONFIG } from "../run/run-config.ts";
import { jsonLinesStore, nextThread, runQuestions, unfinishedLines } from "../run/question-loop.ts";
import { RUN_DIR_FLAGS, splitFrom } from "../run/output-dir-flags.ts";
import { fileOrder } from "../run/question-sample.ts";
import { inRunFolder, runQuestionsOf } from "../run/run-skeleton.ts";
import { type ApiOptionsOf, asApiErrors, commandLineOf, configOfFlagValues, type FlagTable, type FlagValues, type FlagValuesOf, flagValuesOf, intFlag } from "../run/api-options.ts";
import type { GraphOptionsOf } from "../../graphs/registry.ts";
import { tsSqlRefineManifest } from "../../graphs/manifests/ts-sql.ts";
import { manifestOf } from "../../graphs/registry.ts";
import { showResult, showTables } from "../../nodes/ts-sql/prompts.ts";
import type { Question } from "../../state/question.ts";
import type { TestCode, TestData, TestRun, TsSqlStateValue } from "../../state/ts-sql.ts";
import { getSharedExecutor } from "../../tools/sqlite/executor.ts";
import { type Outcome, outcomeOf, summarizeOutcomes } from "../../graphs/outcome.ts";

const RESULTS = "audit.jsonl";

/** One gold query against its own test case (RQ0). */
export interface AuditRecord {
  id: string;
  dbId: string;
  question: string;
  evidence: string;
  goldSql: string;
  /** passed: the gold gives the test code's result; failed: it does not (listed for review); untested: no test case. */
  status: "passed" | "failed" | "untested" | "error";
  /** Why untested or error, one line. */
  note?: string;
  testData?: TestData["tables"];
  testCode?: Pick<TestCode, "model" | "code" | "how" | "agreeing">;
  expected?: TestCode["expected"];
  gold?: Pick<TestRun, "ok" | "result" | "error">;
  inputTokens: number;
  outputTokens: number;
  calls: number;
  thread: string;
  /** What the question went through, as the graph declares it (`tsSqlOutcome`: test data, code, skip reason). */
  outcome?: Outcome;
}

/** The verdict of one finished audit thread. */
export function auditRecordOf(q: Question, state: TsSqlStateValue | undefined, thread: string, error?: string, outcome?: Outcome): AuditRecord {
  const base = { id: q.id, dbId: q.dbId, question: q.question, evidence: q.evidence, goldSql: q.goldSql ?? "", thread, ...(outcome ? { outcome } : {}) };
  const usage = { inputTokens: state?.usage.inputTokens ?? 0, outputTokens: state?.usage.outputTokens ?? 0, calls: state?.usage.calls ?? 0 };
  if (error || !state) return { ...base, ...usage, status: "error", note: error ?? "no state" };
  // As eval's rule: a model call that got no reply after the retries leaves a test case that is not the method's.
  const lost = state.usage.failed ?? 0;
  if (lost) return { ...base, ...usage, status: "error", note: `${lost} model call${lost === 1 ? "" : "s"} got no reply${state.usage.failure ? ` (first: ${state.usage.failure})` : ""}` };
  const run = state.testRun;
  if (!state.testCode || !run || run.error === "no test case") {
    const last = [...state.attempts].reverse().find((a) => !a.ok && a.note)?.note;
    return { ...base, ...usage, status: "untested", note: last ?? "no test case could be built", ...(state.testData ? { testData: state.testData.tables } : {}) };
  }
  return {
    ...base,
    ...usage,
    status: run.match ? "passed" : "failed",
    testData: state.testData?.tables,
    testCode: { model: state.testCode.model, code: state.testCode.code, how: state.testCode.how, agreeing: state.testCode.agreeing },
    expected: state.testCode.expected,
    gold: { ok: run.ok, ...(run.result ? { result: run.result } : {}), ...(run.error ? { error: run.error } : {}) },
  };
}

/** The review report: counts, then every gold query that fails its own test case with all a reviewer needs. */
export function renderAuditReport(
  records: AuditRecord[],
  meta: { bench: string; split: string; command: string; summarize?: (outcomes: Outcome[]) => string[]; notes?: string[] },
): string {
  const count = (s: AuditRecord["status"]) => records.filter((r) => r.status === s).length;
  const failed = records.filter((r) => r.status === "failed");
  const lines = [
    `# TS-SQL audit of gold SQL (RQ0)`,
    "",
    `Benchmark: ${meta.bench} (${meta.split}); command: \`${meta.command}\``,
    "",
    "| questions | gold passes its test case | gold fails it | no test case | errors |",
    "|---|---|---|---|---|",
    `| ${records.length} | ${count("passed")} | ${count("failed")} | ${count("untested")} | ${count("error")} |`,
    ...(meta.notes?.length ? ["", `Fallbacks during the run: ${meta.notes.length}`, ...meta.notes.map((n) => `- ${n}`)] : []),
    "",
    ...(() => {
      const outcomes = records.flatMap((r) => (r.outcome ? [r.outcome] : []));
      const lines = outcomes.length ? (meta.summarize ?? summarizeOutcomes)(outcomes) : [];
      return lines.length ? ["## What the questions went through", "", ...lines.map((l) => `- ${l}`), ""] : [];
    })(),
    "A failing gold query is a candidate for review, not a verdict: the test case (data and code) may be the one at fault",
    "(the paper's Table 1 counts both). Each entry shows the question, the gold SQL, the synthetic test data, the test",
    "code and both results.",
    "",
  ];
  for (const r of failed) {
    lines.push(
      `## ${r.id} (${r.dbId})`,
      "",
      `**Question:** ${r.question}`,
      ...(r.evidence ? ["", `**Evidence:** ${r.evidence}`] : []),
      "",
      "**Gold SQL:**",
      "```sql",
      r.goldSql,
      "```",
      "",
      "**Test data:**",
      "```",
      showTables(r.testData ?? {}),
      "```",
      "",
      `**Test code** (${r.testCode?.model || "coder"}, ${r.testCode?.how}):`,
      "```javascript",
      r.testCode?.code ?? "",
      "```",
      "",
      `**Expected (test code):** ${showResult(r.expected)}`,
      "",
      `**Gold SQL on the test data:** ${r.gold?.ok ? showResult(r.gold.result) : `error: ${r.gold?.error}`}`,
      "",
    );
  }
  const untested = records.filter((r) => r.status === "untested" || r.status === "error");
  if (untested.length) {
    lines.push("## Not tested", "", "| id | status | why |", "|---|---|---|");
    for (const r of untested) lines.push(`| ${r.id} | ${r.status} | ${(r.note ?? "").replace(/\|/g, "\\|")} |`);
    lines.push("");
  }
  return `${lines.join("\n")}\n`;
}

/** The audit's lines; a half-written last line from a kill is dropped (that question runs again), the last line of an id wins. */
function parseAuditRecords(text: string): AuditRecord[] {
  const byId = new Map<string, AuditRecord>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const record = JSON.parse(line) as AuditRecord;
      if (record && typeof record.id === "string") byId.set(record.id, record);
    } catch {
      // a half-written last line from a kill
    }
  }
  return [...byId.values()];
}

/** What the audit fixes, whatever the flags say: the gold is tested as it is, never revised. */
const AUDIT_FIXED = { maxRevisions: 0 } as const;

/** Flags the audit parses (shared with eval) but has no node to apply them to. */
export const AUDIT_REFUSED: [string, string][] = [
  ["max-revisions", "the audit revises nothing (it runs with 0 revisions)"],
  ["few-shot", "the audit generates no SQL (ts-sql-refine has no generator)"],
  ["max-fix-rounds", "TS-SQL has no execution-error fix loop"],
  ["schema-max-chars", "the schema text is only used by the reviser, which the audit never runs"],
];

/** The audit's flags: the run's (model, graph knobs, node swaps), every graph's own options, the selection's. */
export const auditFlags = () => ({ ...runFlags, ...graphFlags(), ...RUN_DIR_FLAGS }) as const;

/**
 * The options of `sqlmend ts-sql audit`, by name (camelCase): `bench` (a folder, or "minibench") or `questions` with
 * `dbDir`, `out`, `split` (default dev), `limit`, `ids`, `concurrency` (default 2), `resume`, the model's (`model`,
 * `baseUrl`, `config`, `roleModel: { ROLE: MODEL }`, `seed`, `cache`, ...), `checkpoints`, `node: { SLOT: FILE }`, and
 * `options`, TS-SQL's own (camelCase, as ts-sql-refine declares them).
 */
export type AuditOptions = Omit<ApiOptionsOf<typeof runFlags & typeof RUN_DIR_FLAGS>, "out" | "node" | "graph" | "initial" | "correct"> & {
  out: string;
  node?: Readonly<Record<string, string>>;
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
  const { options: graphOptions, ...rest } = options;
  return asApiErrors("auditGold", () => audit({ values: flagValuesOf("auditGold", rest, auditFlags() as FlagTable, graphOptions as Record<string, unknown> | undefined), positionals: [] }, io));
}

/** The audit from its flag values (the launcher's parse after `audit`, or `auditGold`'s): the one body both run. */
export async function audit(input: { values: FlagValues; positionals: string[]; argv?: string[] }, io: CliIO): Promise<AuditResult> {
  const values = input.values as FlagValuesOf<ReturnType<typeof auditFlags>>;
  const { positionals } = input;
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (!values.bench && !values["db-dir"]) throw new UsageError("--bench DIR is required (or --questions FILE --db-dir DIR)");
  if (!values.out) throw new UsageError("--out DIR is required");
  if (values.initial !== undefined || values.correct !== undefined) throw new UsageError("--initial and --correct do not apply: the audit tests the benchmark's gold SQL");
  // Flags of nodes the audit never runs (it revises nothing and generates nothing) are refused, not silently dropped.
  for (const [flag, why] of AUDIT_REFUSED) if (values[flag as keyof typeof values] !== undefined) throw new UsageError(`--${flag} does not apply: ${why}`);
  splitFrom(values.split, "dev");
  const limit = intFlag(values, "limit", 1);
  const concurrency = intFlag(values, "concurrency", 1) ?? 2;
  const spec = manifestOf(tsSqlRefineManifest.name);
  const graphOptions = graphOptionsOf(spec, values);
  const config = configOfFlagValues(RUN_CONFIG, values);
  modelFlagsFrom(config);

  const { bench, source, benchDir, split, questions: selected } = await runQuestionsOf({ ...configOfFlagValues(SELECTION_CONFIG, values), limit }, io, "dev");
  const questions = fileOrder(selected.filter((q) => q.goldSql));

  // Models, LangGraph and the checkpoint store load once the flags have passed their checks.
  const [{ buildRunner, examplesFor }, { inputOf, runThread }, { isEndpointFailure }] = await Promise.all([
    import("../run/graph-runner.ts"),
    import("../run/question-thread.ts"),
    import("../../state/usage.ts"),
  ]);
  await (await import("../run/model-setup.ts")).checkEndpointsFrom(config, io.env, io.cwd);
  return inRunFolder("ts-sql audit", values, io, async ({ outDir, notes, warn, checkpoints, claim }) => {
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
    fs.writeFileSync(path.join(outDir, "report.md"), renderAuditReport(records, { bench: bench.name, split, command: input.argv ? commandLine("ts-sql", input.argv) : commandLineOf("ts-sql", ["audit", ...positionals], values), summarize: runner.spec.outcome?.summarize, notes }));
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
