import fs from "node:fs";
import path from "node:path";
import { firstLineOf, UsageError, UserError } from "../../core/errors.ts";
import { findManifest } from "../../graphs/registry.ts";
import type { Split } from "../../state/question.ts";
import { loadSource } from "../../tools/benchmarks/benchmark.ts";
import type { Semantics } from "../../tools/benchmarks/score.ts";
import { writeEvalOutputs } from "./eval-question.ts";
import { EVAL_RESULTS, type EvalRecord, parseResults } from "../run/results-record.ts";
import { fileOrder, type SampleSpec, selectQuestions } from "../run/question-sample.ts";
import { prepareOutDir, sameRunValue } from "../run/run-json.ts";
import { parseShard, shardName, shardOf } from "../run/shards.ts";
import { type CodeIdentity, describeCode } from "../../tools/version.ts";
import { checkConfig, commandLineOfConfig, inApiWords, opt, optionUsageError, optionUserError } from "../../core/config.ts";
import { MERGE_CONFIG, type MergeConfig, type MergeOptions } from "./merge-options.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import { summarize } from "../report/eval-report.ts";

/** What run.json holds of a shard (written by eval). */
interface ShardRunFile {
  runId: string;
  graph: string;
  bench: string | null;
  split: Split;
  questions?: string | null;
  dbDir?: string | null;
  semantics: Semantics;
  models: Record<string, unknown>;
  settings: Record<string, unknown>;
  shard?: string | null;
  selection?: { ids: string[] | null; limit: number | null; sample?: SampleSpec | null };
  /** What the graph's preflight found (eval's report settings). */
  preflight?: Record<string, unknown>;
  /** Where the shard's threads are (`sqlmend replay` reads them). */
  checkpoints?: string;
  /** sqlmend's code identity (tools/version.ts). */
  code?: unknown;
  /** The response cache's mode the shard ran with. */
  cache?: string;
  startedAt: string;
}

/**
 * The keys every shard of one run must share: what shapes answers and verdicts (sqlmend's code included), and what
 * was selected. Files compare by content, so shards run where a --node module sits at another path still merge.
 */
const SAME = ["graph", "bench", "split", "semantics", "models", "settings", "selection", "code"] as const;

function readRunFile(dir: string): ShardRunFile {
  const file = path.join(dir, "run.json");
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as ShardRunFile;
  } catch (error) {
    throw new UserError(`${file}: ${fs.existsSync(file) ? `unreadable (${firstLineOf(error)})` : "not found: is this an eval output folder?"}`);
  }
}

export interface MergeResult {
  records: EvalRecord[];
  questions: number;
  shards: number;
  /** Result lines outside their shard's recorded share (a shard resumed with another selection): not merged. */
  ignored: number;
}

/**
 * Joins shard folders into `outDir`: checks that they are the N shards of one run (same graph, benchmark, split,
 * semantics, models, settings and selection; each of 1..N once; every question of each share recorded), then writes
 * results.jsonl in file order, predictions in both official formats and report.md, as a single run would.
 */
export async function mergeShards(dirs: string[], outDir: string, command: string): Promise<MergeResult> {
  if (!dirs.length) throw new UsageError("name the shard folders to merge");
  const runs = dirs.map((dir) => ({ dir, run: readRunFile(dir) }));
  const first = runs[0]!;
  for (const { dir, run } of runs) {
    if (!run.shard || !run.selection) throw optionUserError`${dir} is not a shard (its run.json has no shard): run eval with ${opt("shard")} I/N`;
    for (const key of SAME) {
      if (!sameRunValue(run[key], first.run[key])) {
        throw new UserError(`${dir} was run with ${key} ${JSON.stringify(run[key])}, ${first.dir} with ${JSON.stringify(first.run[key])}: shards of one run must share it`);
      }
    }
  }
  const shards = runs.map(({ dir, run }) => ({ dir, shard: parseShard(run.shard!) }));
  const count = shards[0]!.shard.count;
  const seen = new Map<number, string>();
  for (const { dir, shard } of shards) {
    if (shard.count !== count) throw new UserError(`${dir} is shard ${shardName(shard)}, ${shards[0]!.dir} is one of ${count}: shards of one run must share N`);
    if (seen.has(shard.index)) throw new UserError(`${dir} and ${seen.get(shard.index)} are both shard ${shardName(shard)}`);
    seen.set(shard.index, dir);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length) throw new UserError(`shard${missing.length > 1 ? "s" : ""} ${missing.map((i) => `${i}/${count}`).join(", ")} missing: name all ${count} shard folders`);

  const run = first.run;
  const bench = await loadSource({ ...(run.bench ? { bench: run.bench } : {}), split: run.split, ...(run.questions ? { questions: run.questions } : {}), ...(run.dbDir ? { dbDir: run.dbDir } : {}) });
  const selection = selectQuestions(bench, run.selection!.ids ?? undefined, run.selection!.limit ?? undefined, run.selection!.sample ?? undefined);
  const records = new Map<string, EvalRecord>();
  let ignored = 0;
  for (const { dir, shard } of shards) {
    const file = path.join(dir, EVAL_RESULTS);
    const share = shardOf(selection, shard).questions;
    const parsed = fs.existsSync(file) ? parseResults(fs.readFileSync(file, "utf8")).records : new Map<string, EvalRecord>();
    const unfinished = share.filter((q) => !parsed.has(q.id));
    if (unfinished.length) {
      throw optionUserError`${dir} (shard ${shardName(shard)}) has no result for ${unfinished.length} of its ${share.length} questions (e.g. ${unfinished[0]!.id}): finish it with ${opt("resume")}, then merge`;
    }
    for (const q of share) records.set(q.id, parsed.get(q.id)!);
    ignored += parsed.size - share.length;
  }
  const ordered = fileOrder(selection.questions).map((q) => records.get(q.id)!);
  const runFile = prepareOutDir(
    outDir,
    { graph: run.graph, bench: run.bench, split: run.split, questions: run.questions ?? null, dbDir: run.dbDir ?? null, semantics: run.semantics, models: run.models, settings: run.settings, shard: null, selection: run.selection, code: run.code ?? null, merged: dirs.map((d) => path.resolve(d)), ...sharedCheckpoints(runs.map((r) => r.run)) },
    false,
    [],
  );
  fs.writeFileSync(path.join(outDir, EVAL_RESULTS), ordered.map((r) => `${JSON.stringify(r)}\n`).join(""));
  const spec = await findManifest(run.graph)?.load();
  await writeEvalOutputs(outDir, ordered, {
    graph: run.graph,
    outcome: spec?.outcome,
    bench,
    split: run.split,
    questions: selection.questions,
    skipped: selection.skipped,
    semantics: run.semantics,
    startedAt: runs.map((r) => r.run.startedAt).sort()[0] ?? runFile.startedAt,
    settings: { code: describeCode(run.code as CodeIdentity | undefined), ...run.settings, ...run.preflight, shards: count, cache: cacheOfShards(runs.map((r) => r.run)) },
    models: run.models,
    command,
    // A merged folder is not resumed: its shards are, then merged again.
    rerun: MERGED_RERUN,
  });
  return { records: ordered, questions: selection.questions.length, shards: count, ignored };
}

/** How a merged run's failed questions are run again: in their shard, not in the merged folder (which --resume refuses). */
export const MERGED_RERUN = "run `--resume` on the shard that holds them, then merge again";

/** The response cache the shards ran with: one mode, or each shard's ("off (shard 1/2), on (shard 2/2)"); unknown for an older shard. */
function cacheOfShards(runs: ShardRunFile[]): string {
  const modes = runs.map((r) => r.cache ?? "not recorded");
  return new Set(modes).size === 1 ? modes[0]! : runs.map((r, i) => `${modes[i]} (shard ${r.shard ?? i + 1})`).join(", ");
}

/** Where the shards' threads are, when they all say one place (one PostgreSQL database): `sqlmend replay` reads them there. */
function sharedCheckpoints(runs: ShardRunFile[]): { checkpoints?: string } {
  const places = new Set(runs.map((r) => r.checkpoints));
  const [only] = places;
  return places.size === 1 && only !== undefined ? { checkpoints: only } : {};
}

/** A merged run's figures, as `sqlmend merge` prints them, and where its files are. */
export interface MergedRun {
  outDir: string;
  shards: number;
  /** Questions with a record (answered or failed). */
  questions: number;
  /** Execution accuracy in percent over the answered questions with gold SQL; null when none was scored. */
  ex: number | null;
  correct: number;
  /** Answered questions with gold SQL (EX's denominator). */
  scored: number;
  /** Not answered: never scored; `--resume` their shard, then merge again. */
  failed: number;
  /** Answered questions without gold SQL (own data): not scored. */
  noGold: number;
  /** Result lines outside their shard's recorded selection (a shard resumed with another selection): not merged. */
  ignored: number;
  /** The merged records, in file order. */
  records: EvalRecord[];
  files: { results: string; report: string; run: string };
}

/** Joins the shard folders of one `eval --shard I/N` run into `out` (paths from `io.cwd`), as `sqlmend merge` does. */
export async function merge(options: MergeOptions, io: Pick<CliIO, "cwd"> = defaultIO()): Promise<MergedRun> {
  return inApiWords("merge", () => mergeRun(checkConfig("merge", MERGE_CONFIG, options), io));
}

/** The body `merge` and the launcher share, on a checked config; report.md's command line is made from it. */
export async function mergeRun(config: MergeConfig, io: Pick<CliIO, "cwd">): Promise<MergedRun> {
  const { shards, ...flags } = config;
  if (!shards?.length) throw optionUsageError`${opt("shards")} is required: the shard folders to merge`;
  if (config.out === undefined) throw optionUsageError`${opt("out")} DIR is required`;
  const outDir = path.resolve(io.cwd, config.out);
  const merged = await mergeShards(
    shards.map((dir) => path.resolve(io.cwd, dir)),
    outDir,
    commandLineOfConfig("merge", shards, MERGE_CONFIG, flags),
  );
  const summary = summarize(merged.records);
  return {
    outDir,
    shards: merged.shards,
    questions: merged.records.length,
    ex: summary.total ? summary.ex : null,
    correct: summary.correct,
    scored: summary.total,
    failed: summary.failed,
    noGold: summary.noGold,
    ignored: merged.ignored,
    records: merged.records,
    files: { results: path.join(outDir, EVAL_RESULTS), report: path.join(outDir, "report.md"), run: path.join(outDir, "run.json") },
  };
}
