import { type Command, UsageError } from "../shared/command.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { parseFlags } from "../shared/flags.ts";
import { defineConfig } from "../../core/config.ts";
import { LINK_CONFIG, linkOne } from "../../runner/explore/link.ts";
import { formatUsage } from "../../runner/run/progress.ts";
import { count } from "../../tools/format.ts";
import { EXIT } from "../../core/exit.ts";

const { question: _question, ...LINK_FLAGS } = LINK_CONFIG;
const CLI_FLAGS = defineConfig({ ...LINK_FLAGS, json: { type: "boolean", help: "print the linking as JSON" } });

const usage = `Usage: sqlmend link --db FILE [--evidence TEXT] [--description-dir DIR] [--keywords A,B,...] [--json] "QUESTION"

What schema and value linking finds for a question (the baseline's --link, Memo-SQL's and TS-SQL's first step):
the keywords (from the linker role's model, or --keywords, or the question's own words when no model is
configured), the columns they point to, the stored values they match (value index in the data directory, built on
first use), and whether embeddings or the lexical fallback ranked them.

${usageOf(CLI_FLAGS, ["db", "evidence", "descriptionDir", "keywords", "json"])}
  --model NAME  --base-url URL  --config FILE  --role-model linker=NAME   the linker's model (as for ask)
  --embedding-model NAME  --embedding-base-url URL                       rank by embeddings (default: lexical)
  (every model option of 'sqlmend ask --help' but --cache)
From a script: link({ db, question, ... }) returns the same as data (the --json object).`;

/** Where the keywords came from, as the text output says it. */
const SOURCE_TEXT = { keywords: "--keywords", linker: "linker", question: "the question's own words (no model configured)" } as const;

export const linkCommand: Command = {
  name: "link",
  usage,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, flagTableOf(CLI_FLAGS));
    const { json, ...config } = configFromFlags(CLI_FLAGS, values);
    if (config.db === undefined) throw new UsageError("--db FILE is required");
    const question = positionals.join(" ").trim();
    if (!question) throw new UsageError("the question is missing");
    const found = await linkOne({ ...config, question }, io);
    if (json) {
      io.stdout(`${JSON.stringify(found, null, 2)}\n`);
      return EXIT.ok;
    }
    const lines = [`Keywords (${SOURCE_TEXT[found.keywordSource]}): ${found.keywords.join(", ") || "(none)"}`];
    lines.push(`Ranking: ${found.ranking}${found.note ? ` (${found.note})` : ""}`);
    lines.push("", "Columns:");
    if (!found.columns.length) lines.push("  (none)");
    for (const c of found.columns) lines.push(`  ${`${c.table}.${c.column}`.padEnd(36)} ${c.score.toFixed(3)}  ${c.via.padEnd(11)} ${c.keyword ?? ""}`);
    lines.push("", "Values:");
    if (!found.values.length) lines.push("  (none)");
    for (const v of found.values) {
      lines.push(`  ${v.keyword} → ${v.table}.${v.column} = '${v.value}'  (score ${v.score.toFixed(3)}, distance ${(v.distance ?? 0).toFixed(2)})`);
    }
    const index = found.index;
    if (index) {
      const how = index.reused ? "reused" : `built in ${((index.buildMs ?? 0) / 1000).toFixed(2)} s`;
      lines.push("", `Value index: ${how}, ${count(index.entries)} entries, ${(index.bytes / 2 ** 20).toFixed(1)} MiB (${index.file})`);
    }
    if (found.usage.calls) lines.push("", `Tokens: ${formatUsage(found.usage)}`);
    io.stdout(`${lines.join("\n")}\n`);
    return EXIT.ok;
  },
};
