import { parseFlags } from "../shared/flags.js";
import { REPLAY_FLAGS, REPLAY_USAGE, replayFrom } from "../../runner/replay-run.js";
/** `sqlmend replay`: its flags, then the run API's replay (`runner/replay-run.ts`). */
export const replayCommand = {
    name: "replay",
    usage: REPLAY_USAGE,
    async run(argv, io) {
        const { values, positionals } = parseFlags(argv, REPLAY_FLAGS);
        return (await replayFrom({ values, positionals, argv }, io)).exitCode;
    },
};
