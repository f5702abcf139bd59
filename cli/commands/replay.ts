import type { Command } from "../shared/command.ts";
import { UsageError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { REPLAY_CONFIG, REPLAY_OWN_CONFIG } from "../../runner/replay/replay-config.ts";
import { replayFrom } from "../../runner/replay/run-replay.ts";

export const REPLAY_USAGE = `Usage: sqlmend replay RUN_DIR --from SLOT --out DIR [--node SLOT=FILE ...] [--only wrong|right|failed|all]
                      [--ids ID,...] [--concurrency K] [--resume] [--checkpoints FILE|postgres://...] [model flags]

Counterfactual runs on recorded states: each question of the eval run in RUN_DIR is forked from its checkpointed
thread at the last checkpoint before SLOT first ran, onto a thread of its own (the run's threads are only read); the
prefix stays as recorded and only the rest runs, with the swapped nodes. The graph and its options are the run's
(run.json); the models are this command's (as eval takes them).
${usageOf(REPLAY_OWN_CONFIG)}
  --cache off               send every suffix request to the model (with the cache on, a request the original's
                            suffix made alike is served from the cache)
  model flags               --model, --base-url, --config, --role-model, --temperature, --seed, ... as for eval

  A question whose thread never reached SLOT is not replayed: report.md lists it.
  Exit status: 0 every replayed question answered; 3 questions failed; 130 Ctrl-C; 1 user error; 2 usage.`;

/** `sqlmend replay`: argv parsed once into replay's typed config, then the run API's replay body (`runner/replay/run-replay.ts`). */
export const replayCommand: Command = {
  name: "replay",
  usage: REPLAY_USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, flagTableOf(REPLAY_CONFIG));
    const [runDir, extra] = positionals;
    if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
    return (await replayFrom({ config: configFromFlags(REPLAY_CONFIG, values), runDir }, io)).exitCode;
  },
};
