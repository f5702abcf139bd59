import type { Command } from "../shared/command.ts";
import { UsageError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { SUBSET_USAGE } from "../usage/run-usage.ts";
import { MODEL_CONFIG } from "../../runner/run/run-config.ts";
import { GUIDELINE_CONFIG } from "../../runner/methods/magic/guideline-config.ts";
import { optionsUsage } from "../../core/options.ts";
import { MAGIC_FEEDBACK_OPTIONS } from "../../nodes/magic/options.ts";

/** `sqlmend magic guideline`: its flags, then MAGIC's training below the CLI (`runner/methods/magic/`). */
export const magicCommand: Command = {
  name: "magic",
  usage: `Usage: sqlmend magic guideline --bench DIR|minibench --out DIR [--split train] [--initial GRAPH|FILE]
                    [--batch 10] [--max-iter 5] [--no-manager] [--limit N] [--ids ...] [--concurrency K] [--resume]

MAGIC's guideline generation (§3.1): the initial method's failures on the training split go through the manager's
feedback-correction cycle (graph magic-feedback, one thread each); the successful feedbacks, in benchmark order,
are merged batch by batch into a self-correction guideline (graph magic-guideline, one thread per merge).

${usageOf(GUIDELINE_CONFIG, ["bench", "split", "questions", "dbDir", "initial", "out", "batch"])}
  --max-iter N  --no-manager  the cycle's own options (below; --no-manager: Table 4's ablation)
${SUBSET_USAGE}
${usageOf(GUIDELINE_CONFIG, ["concurrency", "resume", "semantics"])}
Model:
${usageOf(MODEL_CONFIG)}
Graph (the cycle's, and an initial generator's):
${usageOf(GUIDELINE_CONFIG, ["maxFixRounds", "fewShot", "schemaMaxChars", "queryTimeoutMs", "node", "checkpoints"])}

Exit status: 0 done; 3 finished, but some work failed (a question whose model calls got no reply, a merge whose
reply stayed unusable: the guideline stops before that batch) — --resume retries it; 1 error; 2 usage; 130 / 143 / 129
stopped by Ctrl-C / SIGTERM / SIGHUP.`,
  helpFor: () => `\n\n${optionsUsage("Options of magic-feedback (the cycle)", MAGIC_FEEDBACK_OPTIONS)}`,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== "guideline") throw new UsageError(sub ? `unknown subcommand '${sub}' (magic has: guideline)` : "name a subcommand: sqlmend magic guideline ...");
    // Loaded when it runs, not for --help: the training loop's imports are heavier than a usage line's.
    const [{ trainGuideline }, { guidelineGraphOptionsOfValues }, { graphFlags }] = await Promise.all([
      import("../../runner/methods/magic/guideline-training.ts"),
      import("../../runner/methods/magic/guideline-config.ts"),
      import("../../runner/run/run-options.ts"),
    ]);
    // The run's options, and every graph's own as flags (the cycle's, the merge's, the initial generator's are taken).
    const { values, positionals } = parseFlags(rest, { ...graphFlags(), ...flagTableOf(GUIDELINE_CONFIG), correct: { type: "string" } });
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    if (values.correct !== undefined) throw new UsageError("--correct applies to eval and ask; the cycle runs on every failure");
    return (await trainGuideline(configFromFlags(GUIDELINE_CONFIG, values), guidelineGraphOptionsOfValues(values), io)).exitCode;
  },
};
