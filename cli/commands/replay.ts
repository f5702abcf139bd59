import type { Command } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { REPLAY_FLAGS, REPLAY_USAGE, replayFrom } from "../../runner/replay/run-replay.ts";

/** `sqlmend replay`: its flags, then the run API's replay (`runner/replay/run-replay.ts`). */
export const replayCommand: Command = {
  name: "replay",
  usage: REPLAY_USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, REPLAY_FLAGS);
    return (await replayFrom({ values, positionals, argv }, io)).exitCode;
  },
};
