import type { Command } from "../shared/command.ts";
import { UsageError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { RUN_FLAGS_USAGE } from "../usage/run-usage.ts";
import { optionsUsage } from "../../core/options.ts";
import { MAGIC_FEEDBACK_OPTIONS } from "../../nodes/magic/options.ts";

/** `sqlmend magic guideline`: its flags, then MAGIC's training below the CLI (`runner/methods/magic-guideline.ts`). */
export const magicCommand: Command = {
  name: "magic",
  usage: `Usage: sqlmend magic guideline --bench DIR|minibench --out DIR [--split train] [--initial GRAPH|FILE]
                    [--batch 10] [--max-iter 5] [--no-manager] [--limit N] [--ids ...] [--concurrency K] [--resume]

MAGIC's guideline generation (§3.1): the initial method's failures on the training split go through the manager's
feedback-correction cycle (graph magic-feedback, one thread each); the successful feedbacks, in benchmark order,
are merged batch by batch into a self-correction guideline (graph magic-guideline, one thread per merge).

  --bench DIR|minibench     Spider or BIRD layout, or the project's own small benchmark; --questions FILE takes
                            another question file over its databases, --questions FILE --db-dir DIR your own data
  --split train|dev         default train (the guideline must not be learnt on the evaluation split)
  --initial GRAPH|FILE      the initial method: a generator graph run now (default baseline) or its predictions file
  --out DIR                 guideline.md, guideline-batch-NNN.md after each batch, interactions.jsonl (a line per
                            agent call), results.jsonl (a line per question), stats.json, run.json,
                            predict_<split>.json (the answers after the cycle, for 'sqlmend score --ves')
  --batch B                 successful feedbacks per merge (default 10)
  --max-iter N              iterations per failure (default 5)   --no-manager   Table 4's ablation
  --limit N  --ids A,B,...  a subset, in file order
  --concurrency K           failures in flight (default 4); --max-requests caps model requests
  --resume                  continue a killed or finished run in --out: no failure and no merge is redone; it
                            may add questions, never drop or change any
  --semantics bird|spider   how revisions are judged against the gold (default: the benchmark's own)
${RUN_FLAGS_USAGE}

Exit status: 0 done; 3 finished, but some work failed (a question whose model calls got no reply, a merge whose
reply stayed unusable: the guideline stops before that batch) — --resume retries it; 1 error; 2 usage; 130 / 143 / 129
stopped by Ctrl-C / SIGTERM / SIGHUP.`,
  helpFor: () => `\n\n${optionsUsage("Options of magic-feedback (the cycle)", MAGIC_FEEDBACK_OPTIONS)}`,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== "guideline") throw new UsageError(sub ? `unknown subcommand '${sub}' (magic has: guideline)` : "name a subcommand: sqlmend magic guideline ...");
    // Loaded when it runs, not for --help: the training loop's imports are heavier than a usage line's.
    const { learnFrom, MAGIC_GUIDELINE_FLAGS } = await import("../../runner/methods/magic-guideline.ts");
    const { values, positionals } = parseFlags(rest, MAGIC_GUIDELINE_FLAGS);
    return (await learnFrom({ values, positionals, argv: rest }, io)).exitCode;
  },
};
