import type { Command } from "../shared/command.ts";
import { UsageError } from "../shared/command.ts";
import { configFromFlags, flagTableOf } from "../shared/flag-config.ts";
import { parseFlags } from "../shared/flags.ts";
import { BENCH_INFO_CONFIG, describeBench, type SplitSummary } from "../../runner/explore/bench-info.ts";
import { EXIT } from "../../core/exit.ts";

const usage = `Usage: sqlmend bench info DIR|minibench
       sqlmend bench info --questions FILE --db-dir DIR

Prints what a benchmark folder holds: its layout, the splits found (question file and databases folder), and for
each split the questions, how many have gold SQL, the databases present and missing, and the difficulty counts.
With --questions/--db-dir: the same for your own question file over a folder of databases.
From a script: benchInfo({ bench }) or benchInfo({ questions, dbDir }) returns the same as data.`;

const { bench: _dir, ...BENCH_FLAGS } = BENCH_INFO_CONFIG;

const listed = (items: string[], max = 8) => (items.length ? items.slice(0, max).join(", ") + (items.length > max ? `, ... (${items.length - max} more)` : "") : "none");

function renderSplit(s: SplitSummary, indent: string): string[] {
  if (s.error) return [`${indent}error: ${s.error}`];
  const difficulties = Object.entries(s.difficulties).map(([d, n]) => `${d} ${n}`).join(", ");
  return [
    `${indent}questions: ${s.questions}${s.questions > s.runnable ? `, ${s.questions - s.runnable} of them skipped (database missing)` : ""}; ${s.withGold} of the ${s.runnable} runnable have gold SQL`,
    `${indent}databases: ${s.databases.present.length} present, ${s.databases.missing.length} missing${s.databases.missing.length ? ` (${listed(s.databases.missing)})` : ""}`,
    `${indent}difficulty: ${difficulties || "none"}`,
  ];
}

export const benchCommand: Command = {
  name: "bench",
  usage,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, flagTableOf(BENCH_FLAGS));
    if (positionals[0] !== "info") throw new UsageError(positionals[0] ? `unknown bench command '${positionals[0]}' (commands: info)` : "name a bench command: info");
    const config = configFromFlags(BENCH_FLAGS, values);
    if (config.dbDir !== undefined || config.questions !== undefined) {
      if (positionals.length > 1) throw new UsageError("give DIR, or --questions FILE --db-dir DIR, not both");
    } else if (positionals.length !== 2) {
      throw new UsageError(positionals.length > 2 ? `unexpected argument '${positionals[2]}'` : "name the benchmark folder: sqlmend bench info DIR");
    }
    const info = await describeBench({ ...config, ...(positionals[1] !== undefined ? { bench: positionals[1] } : {}) }, io);
    const out: string[] = [];
    if (info.layout === "own") {
      out.push(`questions:   ${info.questionsFile}`, `databases:   ${info.dbDir}`, `layout:      own data (a question file over a folder of databases)`);
      out.push(...renderSplit(info.summary, ""));
    } else {
      out.push(`benchmark:   ${info.dir}`);
      out.push(`layout:      ${info.layout === "spider" ? "Spider" : "BIRD"}`);
      out.push(`splits:      ${info.splits.map((s) => s.split).join(", ")}`);
      if (info.extraFiles.length) out.push(`also:        ${info.extraFiles.join(", ")}`);
      for (const s of info.splits) {
        out.push("", `${s.split}: ${s.file} over ${s.dbFolder}/`);
        out.push(...renderSplit(s, "  "));
      }
    }
    io.stdout(`${out.join("\n")}\n`);
    return EXIT.ok;
  },
};
