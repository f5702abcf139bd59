import path from "node:path";
import type { Command } from "../shared/command.ts";
import { UsageError, commandLine } from "../shared/command.ts";
import { EXIT } from "../../core/exit.ts";
import { parseFlags } from "../shared/flags.ts";

export const mergeCommand: Command = {
  name: "merge",
  usage: `Usage: sqlmend merge SHARD_DIR... --out DIR

Joins the --out folders of 'sqlmend eval ... --shard I/N' (I = 1..N, each once) into one run in DIR: results.jsonl in
file order, predict_<split>.json and pred_<split>.sql over every selected question, report.md — what one process
running the whole selection would have written. Shards run with different graphs, benchmarks, models, settings or
selections are refused, as --resume refuses them; so is a shard with questions still to run (finish it with --resume).

  --out DIR                 a new folder for the merged run`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, { out: { type: "string" } });
    if (!values.out) throw new UsageError("--out DIR is required");
    if (!positionals.length) throw new UsageError("name the shard folders to merge");
    const { mergeShards, MERGED_RERUN } = await import("../../runner/eval/merge-shards.ts");
    const outDir = path.resolve(io.cwd, values.out);
    const merged = await mergeShards(positionals.map((dir) => path.resolve(io.cwd, dir)), outDir, commandLine("merge", argv));
    const { exLine, summarize } = await import("../../runner/report/eval-report.ts");
    const summary = summarize(merged.records);
    io.stdout(
      `Merged ${merged.shards} shards: ${merged.records.length} questions\n${exLine(summary, "", MERGED_RERUN)}\n` +
        (merged.ignored ? `${merged.ignored} result lines outside their shard's recorded selection not merged (a shard resumed with another --limit/--ids)\n` : "") +
        `Report: ${path.join(outDir, "report.md")}\n`,
    );
    // Failed questions (not answered) are counted apart, as eval does, and the status says so: --resume the shard.
    return summary.failed ? EXIT.incomplete : EXIT.ok;
  },
};
