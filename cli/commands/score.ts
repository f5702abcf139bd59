import type { Command } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { SCORE_FLAGS, SCORE_USAGE, scoreFrom } from "../../runner/score/score-predictions.ts";

/** `sqlmend score`: its flags, then the run API's score (`runner/score/score-predictions.ts`). */
export const scoreCommand: Command = {
  name: "score",
  usage: SCORE_USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, SCORE_FLAGS);
    return (await scoreFrom({ values, positionals }, io)).exitCode;
  },
};
