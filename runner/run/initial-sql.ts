// A corrector's initial SQL: a generator graph, a predictions file, or what another run answered.
import { opt, optionUserError } from "../../core/config.ts";
import fs from "node:fs";
import path from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { findManifest } from "../../graphs/registry.ts";
import type { NodeDeps } from "../../nodes/types.ts";
import type { Benchmark } from "../../state/question.ts";
import { noAnswerOf, pairPredictions, predictionPairing, readPredictionFile } from "../../tools/benchmarks/score.ts";
import { fileOrder } from "./question-sample.ts";
import { extractSql } from "../../tools/reply.ts";
import { firstLineOf } from "../../core/errors.ts";
import type { InitialSource } from "./question-thread.ts";
import { EVAL_RESULTS } from "./results-record.ts";
import { type EvalRecord, failureOf, isFailed, parseResults } from "./results-record.ts";
import { graphOptionsFrom, optionsOfGraph } from "./run-options.ts";

/**
 * `initial` GRAPH|FILE: a generator graph (built with its own declared options, taken from the run's typed graph
 * options), or a predictions file in either official format. Default: baseline.
 */
export async function resolveInitialSource(
  initial: string | undefined,
  ctx: {
    cwd: string;
    /** The run's typed graph options: the generator takes those it declares. */
    graphOptions: Record<string, unknown>;
    checkpointer: BaseCheckpointSaver;
    /** Every question of the split, skipped ones included: the lines a text-format predictions file must have. */
    benchQuestions?: Benchmark;
  },
  deps: NodeDeps,
  options: ReturnType<typeof graphOptionsFrom>,
): Promise<InitialSource> {
  const name = initial ?? "baseline";
  const generator = findManifest(name);
  if (generator) {
    if (generator.runBy) throw optionUserError`${opt("initial")} ${name}: '${name}' is run by '${generator.runBy}'; name a generator graph`;
    if (generator.kind !== "generator") throw optionUserError`${opt("initial")} ${name}: '${name}' is a corrector; name a generator graph`;
    const own = optionsOfGraph(generator, ctx.graphOptions);
    const spec = await generator.load();
    return { kind: "graph", spec, graph: spec.build(deps, { ...options, ...own, checkpointer: ctx.checkpointer }) };
  }
  const file = path.resolve(ctx.cwd, name);
  if (!fs.existsSync(file)) throw optionUserError`${opt("initial")} ${name}: neither a generator graph nor a predictions file`;
  const read = await readPredictionFile(file);
  // A text-format file's n-th line is the n-th question's, of every question of the split (as eval writes them).
  const bench = ctx.benchQuestions;
  const paired = bench
    ? pairPredictions(file, read, fileOrder([...bench.questions, ...bench.skipped]), { pairing: predictionPairing(bench), hint: "; --initial needs a line per question of the split, or the .json format" })
    : read.predictions;
  const predictions = new Map<string, string>();
  const extraction = new Map<string, "extracted" | "none">();
  // Eval's no-answer marks: questions the run that wrote the file failed or did not run, with or without its results.
  const marked = new Map<string, string>();
  for (const [id, text] of paired) {
    const mark = noAnswerOf(text);
    if (mark) {
      marked.set(id, `the initial run ${mark === "not run" ? "did not run it" : "failed"} (marked in ${path.basename(file)})`);
      predictions.set(id, "");
      continue;
    }
    const { sql, how } = initialSqlOf(text);
    predictions.set(id, sql);
    if (how !== "as written") extraction.set(id, how);
  }
  const beside = unansweredBy(file, predictions);
  // The run's own record, when it is beside the file, says more than the mark.
  const unanswered = marked.size || beside ? new Map([...marked, ...(beside ?? [])]) : undefined;
  return { kind: "predictions", file, predictions, extraction, unanswered };
}

/**
 * A predictions file that a sqlmend run wrote (`results.jsonl` beside it) has a line for every question, "" where the
 * run failed or did not get to it: those ids, with why, so a corrector fails them rather than correcting "" (a
 * `--resume` then corrects them once the initial run has answered them).
 */
function unansweredBy(file: string, predictions: Map<string, string>): Map<string, string> | undefined {
  const results = path.join(path.dirname(file), EVAL_RESULTS);
  if (!fs.existsSync(results)) return undefined;
  let records: Map<string, EvalRecord>;
  try {
    records = parseResults(fs.readFileSync(results, "utf8")).records;
  } catch (error) {
    throw optionUserError`${opt("initial")} ${file}: the run's ${EVAL_RESULTS} beside it does not read (${firstLineOf(error)})`;
  }
  const unanswered = new Map<string, string>();
  for (const id of predictions.keys()) {
    const record = records.get(id);
    if (!record) unanswered.set(id, `the initial run (${path.dirname(file)}) has not run it`);
    else if (isFailed(record)) unanswered.set(id, `the initial run failed (${failureOf(record) ?? "no reason recorded"})`);
  }
  return unanswered;
}

/**
 * `--initial FILE` holds SQL, but often raw model text: fences, prose, `<think>` around the query. Plain SQL is taken
 * as written; anything else goes through the reply parser the graphs use (`extractSql`): "extracted", or "none" when
 * it holds no SQL (then the initial SQL is empty). Counted per question in the record and the report.
 */
export function initialSqlOf(text: string): { sql: string; how: "as written" | "extracted" | "none" } {
  const trimmed = text.trim();
  if (/^(WITH|SELECT|VALUES)\b/i.test(trimmed) && !trimmed.includes("```") && !/<\/?think/i.test(trimmed)) return { sql: trimmed, how: "as written" };
  const sql = trimmed ? extractSql(trimmed) : null;
  return sql ? { sql, how: "extracted" } : { sql: "", how: "none" };
}
