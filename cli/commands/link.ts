import fs from "node:fs";
import path from "node:path";
import { type Command, UsageError, UserError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { modelFlagsFrom } from "../../runner/run/run-options.ts";
import { RUN_CONFIG } from "../../runner/run/run-config.ts";
import { configFromFlags, flagTableOf } from "../shared/flag-config.ts";
import { formatUsage } from "../../runner/run/progress.ts";
import { count } from "../../tools/format.ts";
import { createExecutor } from "../../tools/sqlite/executor.ts";
import { EXIT } from "../../core/exit.ts";

const usage = `Usage: sqlmend link --db FILE [--evidence TEXT] [--description-dir DIR] [--keywords A,B,...] [--json] "QUESTION"

What schema and value linking finds for a question (the baseline's --link, Memo-SQL's and TS-SQL's first step):
the keywords (from the linker role's model, or --keywords, or the question's own words when no model is
configured), the columns they point to, the stored values they match (value index in the data directory, built on
first use), and whether embeddings or the lexical fallback ranked them.

  --db FILE                 the SQLite database (read-only)
  --evidence TEXT           external knowledge, as BIRD's evidence
  --description-dir DIR     BIRD-style database_description/ folder (default: beside the database)
  --keywords A,B,...        use these keywords; no model call
  --json                    print the linking as JSON
  --model NAME  --base-url URL  --config FILE  --role-model linker=NAME   the linker's model (as for ask)
  --embedding-model NAME  --embedding-base-url URL                       rank by embeddings (default: lexical)`;

export const linkCommand: Command = {
  name: "link",
  usage,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      ...flagTableOf(RUN_CONFIG),
      db: { type: "string" },
      evidence: { type: "string" },
      "description-dir": { type: "string" },
      keywords: { type: "string" },
      json: { type: "boolean" },
    });
    if (!values.db) throw new UsageError("--db FILE is required");
    const question = positionals.join(" ").trim();
    if (!question) throw new UsageError("the question is missing");
    const dbPath = path.resolve(io.cwd, values.db);
    if (!fs.existsSync(dbPath)) throw new UserError(`database not found: ${values.db}`);
    const keywords = values.keywords?.split(",").map((k) => k.trim()).filter(Boolean);
    if (values.keywords !== undefined && !keywords?.length) throw new UsageError("--keywords takes a comma-separated list");

    // The model client loads once the flags have passed their checks.
    const runConfig = configFromFlags(RUN_CONFIG, values);
    const modelFlags = modelFlagsFrom(runConfig);
    const [{ embeddingsFrom }, { linkQuestion }, { resolveModelConfig, resolveRoleSettings }, { createModelProvider }, { lexicalKeywords }, { usageOfCalls }] =
      await Promise.all([
        import("../../runner/run/model-setup.ts"),
        import("../../nodes/link.ts"),
        import("../../tools/models/models.ts"),
        import("../../tools/models/provider.ts"),
        import("../../tools/linking/link.ts"),
        import("../../state/usage.ts"),
      ]);
    const config = resolveModelConfig(modelFlags, io.env, io.cwd);
    // Without a model for the linker, the question's own words stand in for its keywords.
    const hasModel = resolveRoleSettings(config, "linker") !== undefined;
    const executor = createExecutor({ size: 1 });
    try {
      const embeddings = embeddingsFrom(runConfig, io.env, io.cwd);
      const deps = { models: createModelProvider(config, io.env), executor, ...(embeddings ? { embeddings } : {}) };
      const { linking, records, index } = await linkQuestion(deps, {
        question,
        evidence: values.evidence ?? "",
        dbPath,
        descriptionDir: values["description-dir"] ? path.resolve(io.cwd, values["description-dir"]) : undefined,
        keywords: keywords ?? (hasModel ? undefined : lexicalKeywords(question, values.evidence ?? "")),
      });
      const keywordSource = keywords ? "--keywords" : hasModel ? "linker" : "the question's own words (no model configured)";
      const used = usageOfCalls(records);
      if (values.json) {
        io.stdout(`${JSON.stringify({ ...linking, keywordSource, usage: used, ...(index ? { index } : {}) }, null, 2)}\n`);
        return EXIT.ok;
      }
      const lines = [`Keywords (${keywordSource}): ${linking.keywords.join(", ") || "(none)"}`];
      lines.push(`Ranking: ${linking.ranking}${linking.note ? ` (${linking.note})` : ""}`);
      lines.push("", "Columns:");
      if (!linking.columns.length) lines.push("  (none)");
      for (const c of linking.columns) lines.push(`  ${`${c.table}.${c.column}`.padEnd(36)} ${c.score.toFixed(3)}  ${c.via.padEnd(11)} ${c.keyword ?? ""}`);
      lines.push("", "Values:");
      if (!linking.values.length) lines.push("  (none)");
      for (const v of linking.values) {
        lines.push(`  ${v.keyword} → ${v.table}.${v.column} = '${v.value}'  (score ${v.score.toFixed(3)}, distance ${(v.distance ?? 0).toFixed(2)})`);
      }
      if (index) {
        const how = index.reused ? "reused" : `built in ${((index.buildMs ?? 0) / 1000).toFixed(2)} s`;
        lines.push("", `Value index: ${how}, ${count(index.entries)} entries, ${(index.bytes / 2 ** 20).toFixed(1)} MiB (${index.file})`);
      }
      if (used.calls) lines.push("", `Tokens: ${formatUsage(used)}`);
      io.stdout(`${lines.join("\n")}\n`);
      return EXIT.ok;
    } finally {
      await executor.close();
    }
  },
};

