import type { Command } from "../shared/command.ts";
import { UsageError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { SUBSET_USAGE } from "../usage/run-usage.ts";
import { MODEL_CONFIG } from "../../runner/run/run-config.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { optionsUsage } from "../../core/options.ts";
import { tsSqlRefineManifest } from "../../graphs/manifests/ts-sql.ts";
import { AUDIT_CONFIG, AUDIT_REFUSED } from "../../runner/methods/ts-sql/audit-config.ts";
import { flagOf } from "../../core/options.ts";

const USAGE = `Usage: sqlmend ts-sql audit --bench DIR|minibench --out DIR [--split dev|train] [--limit N] [--ids ID,...]
                          [--concurrency K] [--resume] [TS-SQL options] [model options]

Builds TS-SQL's test case (synthetic data checked for coverage and non-duality, voted test code) for each question
and runs the benchmark's gold SQL on it (the paper's RQ0). Lists the gold queries that fail their own test
case in report.md, with the test data, the code and both results; audit.jsonl holds a line per question.

${usageOf(AUDIT_CONFIG, ["bench", "split", "questions", "dbDir", "out"])}
${SUBSET_USAGE}
${usageOf(AUDIT_CONFIG, ["concurrency", "resume"])}
Model:
${usageOf(MODEL_CONFIG)}
Graph:
${usageOf(AUDIT_CONFIG, ["queryTimeoutMs", "node", "checkpoints"])}

${optionsUsage("TS-SQL options", tsSqlRefineManifest.options)}

Refused here: --initial, --correct, ${Object.keys(AUDIT_REFUSED).map((key) => `--${flagOf(key)}`).join(", ")} (nothing in the audit uses them);
run.json records max-revisions 0, the value the audit runs with.`;

/** `sqlmend ts-sql audit`: its flags, then the audit (`runner/methods/ts-sql/audit-gold.ts`). */
export const tsSqlCommand: Command = {
  name: "ts-sql",
  usage: USAGE,
  async run(argv, io) {
    const [{ auditQuestions, refuseUnused }, { graphFlags, graphOptionsOf }] = await Promise.all([import("../../runner/methods/ts-sql/audit-gold.ts"), import("../../runner/run/run-options.ts")]);
    // The audit's options, every graph's own (TS-SQL's are taken), and the run's it refuses with the reason.
    const refused = Object.fromEntries(["initial", "correct", ...Object.keys(AUDIT_REFUSED)].map((key) => [flagOf(key), { type: "string" as const }]));
    const { values, positionals } = parseFlags(argv, { ...graphFlags(), ...flagTableOf(AUDIT_CONFIG), ...refused });
    if (positionals[0] !== "audit") throw new UsageError(positionals[0] ? `unknown ts-sql command '${positionals[0]}' (commands: audit)` : "name a ts-sql command: audit");
    if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
    // What the audit cannot use is refused first, by its flag; then the run's options and TS-SQL's own, typed.
    refuseUnused(Object.fromEntries(Object.entries(values).map(([flag, value]) => [flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()), value])));
    return (await auditQuestions(configFromFlags(AUDIT_CONFIG, values), graphOptionsOf(tsSqlRefineManifest, values), io)).exitCode;
  },
};
