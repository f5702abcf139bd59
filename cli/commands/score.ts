import type { Command } from "../shared/command.ts";
import { UsageError } from "../../core/errors.ts";
import { parseFlags } from "../shared/flags.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { SCORE_CONFIG } from "../../runner/score/score-config.ts";
import { SELECTION_USAGE } from "../usage/selection-usage.ts";
import { BENCHMARK_CONFIG } from "../../runner/run/run-config.ts";


/** What `sqlmend score` prints for `--help`: the benchmark as every command names it, then score's own options. */
export const SCORE_USAGE = `Usage: sqlmend score --bench DIR|minibench --pred FILE|gold [options]
       sqlmend score --questions FILE --db-dir DIR[:DIR...] --pred FILE|gold [options]

Scores predicted SQL by execution accuracy (EX), overall and per difficulty, and on request VES, R-VES,
Soft F1 (BIRD mini-dev) and test-suite accuracy (Spider).

Options:
${SELECTION_USAGE}
${usageOf(SCORE_CONFIG, Object.keys(SCORE_CONFIG).filter((key) => !(key in BENCHMARK_CONFIG)), 26)}`;

/** `sqlmend score`: its flags parsed once into score's typed config, then the run API's body (`runner/score/score-predictions.ts`). */
export const scoreCommand: Command = {
  name: "score",
  usage: SCORE_USAGE,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, flagTableOf(SCORE_CONFIG));
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    // Loaded here, not for --help: the scorer and its SQL workers.
    const { scoreFrom } = await import("../../runner/score/score-predictions.ts");
    return (await scoreFrom(configFromFlags(SCORE_CONFIG, values), io)).exitCode;
  },
};
