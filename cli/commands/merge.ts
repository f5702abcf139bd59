import type { Command } from "../shared/command.ts";
import { UsageError } from "../shared/command.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { EXIT } from "../../core/exit.ts";
import { parseFlags } from "../shared/flags.ts";
import { MERGE_CONFIG } from "../../runner/eval/merge-options.ts";

const { shards: _dirs, ...MERGE_FLAGS } = MERGE_CONFIG;

export const mergeCommand: Command = {
  name: "merge",
  usage: `Usage: sqlmend merge SHARD_DIR... --out DIR

Joins the --out folders of 'sqlmend eval ... --shard I/N' (I = 1..N, each once) into one run in DIR: results.jsonl in
file order, predict_<split>.json and pred_<split>.sql over every selected question, report.md — what one process
running the whole selection would have written. Shards run with different graphs, benchmarks, models, settings or
selections are refused, as --resume refuses them; so is a shard with questions still to run (finish it with --resume).
From a script: merge({ shards, out }) returns the merged run's figures.

${usageOf(MERGE_FLAGS)}`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, flagTableOf(MERGE_FLAGS));
    const config = configFromFlags(MERGE_FLAGS, values);
    if (config.out === undefined) throw new UsageError("--out DIR is required");
    if (!positionals.length) throw new UsageError("name the shard folders to merge");
    // The merge (and the report it writes) loads only once the flags have passed.
    const [{ mergeRun, MERGED_RERUN }, { exLine, summarize }] = await Promise.all([import("../../runner/eval/merge-shards.ts"), import("../../runner/report/eval-report.ts")]);
    const merged = await mergeRun({ ...config, shards: positionals }, io);
    const summary = summarize(merged.records);
    io.stdout(
      `Merged ${merged.shards} shards: ${merged.questions} questions\n${exLine(summary, "", MERGED_RERUN)}\n` +
        (merged.ignored ? `${merged.ignored} result lines outside their shard's recorded selection not merged (a shard resumed with another --limit/--ids)\n` : "") +
        `Report: ${merged.files.report}\n`,
    );
    // Failed questions (not answered) are counted apart, as eval does, and the status says so: --resume the shard.
    return merged.failed ? EXIT.incomplete : EXIT.ok;
  },
};
