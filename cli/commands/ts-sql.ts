import type { Command } from "../shared/command.ts";
import { UsageError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { RUN_FLAGS_USAGE } from "../usage/run-usage.ts";
import { optionsUsage } from "../../core/options.ts";
import { tsSqlRefineManifest } from "../../graphs/manifests/ts-sql.ts";
import { audit, AUDIT_REFUSED, auditFlags } from "../../runner/methods/ts-sql-audit.ts";

const USAGE = `Usage: sqlmend ts-sql audit --bench DIR|minibench --out DIR [--split dev|train] [--limit N] [--ids ID,...]
                          [--concurrency K] [--resume] [TS-SQL options] [model options]

Builds TS-SQL's test case (synthetic data checked for coverage and non-duality, voted test code) for each question
and runs the benchmark's gold SQL on it (the paper's RQ0). Lists the gold queries that fail their own test
case in report.md, with the test data, the code and both results; audit.jsonl holds a line per question.

  --bench DIR|minibench     a layout (--split dev|train|test|minidev; --questions FILE for another question file over
                            its databases), or --questions FILE --db-dir DIR for your own data (questions with gold)
  --out DIR                 audit.jsonl, report.md, run.json
  --limit N  --ids A,B,...  a subset (file order)
  --concurrency K           questions in flight (default 2)
  --resume                  continue a killed or finished audit in --out without redoing finished questions
${RUN_FLAGS_USAGE}

${optionsUsage("TS-SQL options", tsSqlRefineManifest.options)}

Refused here: --initial, --correct, ${AUDIT_REFUSED.map(([flag]) => `--${flag}`).join(", ")} (nothing in the audit uses them);
run.json records max-revisions 0, the value the audit runs with.`;

/** `sqlmend ts-sql audit`: its flags, then the audit (`runner/methods/ts-sql-audit.ts`). */
export const tsSqlCommand: Command = {
  name: "ts-sql",
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, auditFlags());
    if (positionals[0] !== "audit") throw new UsageError(positionals[0] ? `unknown ts-sql command '${positionals[0]}' (commands: audit)` : "name a ts-sql command: audit");
    return (await audit({ values, positionals: positionals.slice(1), argv }, io)).exitCode;
  },
};
