import { parseFlags } from "../shared/flags.js";
import { SCORE_FLAGS, SCORE_USAGE, scoreFrom } from "../../runner/score-run.js";
/** `sqlmend score`: its flags, then the run API's score (`runner/score-run.ts`). */
export const scoreCommand = {
    name: "score",
    usage: SCORE_USAGE,
    async run(argv, io) {
        const { values, positionals } = parseFlags(argv, SCORE_FLAGS);
        return (await scoreFrom({ values, positionals }, io)).exitCode;
    },
};
