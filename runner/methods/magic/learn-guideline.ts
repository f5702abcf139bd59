/**
 * `learnGuideline`, the run API of MAGIC's guideline training: a script's options checked by name, then the body
 * `sqlmend magic guideline` runs (./guideline-training.ts).
 */
import { type CliIO, defaultIO } from "../../../core/io.ts";
import { checkConfig, checkGraphOptions, type ConfigInput, inApiWords } from "../../../core/config.ts";
import type { GraphOptionsOf } from "../../../graphs/registry.ts";
import { magicFeedbackManifest, magicGuidelineManifest } from "../../../graphs/manifests/magic.ts";
import { optionDefsOf } from "../../../graphs/manifests/manifest.ts";
import { GUIDELINE_CONFIG, guidelineGraphs } from "./guideline-config.ts";
import { type GuidelineResult, trainGuideline } from "./guideline-training.ts";

/** The cycle's and the merge's own options: by name beside the run's (`maxIter: 3`), as they are flags of the command. */
type CycleOptions = GraphOptionsOf<"magic-feedback"> & GraphOptionsOf<"magic-guideline">;

/**
 * The options of `sqlmend magic guideline` (`GUIDELINE_CONFIG`), by name: `bench` (a folder, or "minibench"), `out`,
 * `split` (default train), `initial` (a generator graph's name or a predictions file), `batch`, `limit`, `ids`,
 * `concurrency`, `resume`, `semantics`, the model's (`model`, `baseUrl`, `roleModel: { ROLE: MODEL }`, `temperature`,
 * `cache`, ...), `checkpoints`, `node: { SLOT: FILE }`; the cycle's (`maxIter`, `noManager`, ...) by name too, and
 * `options`, the graphs' own (the initial generator's included).
 */
export type GuidelineOptions = ConfigInput<typeof GUIDELINE_CONFIG> &
  CycleOptions & {
    out: string;
    /** The graphs' own options (magic-feedback's and magic-guideline's, the initial generator's), camelCase. */
    options?: CycleOptions & Record<string, unknown>;
  };

const CYCLE_KEYS: readonly string[] = [...Object.keys(optionDefsOf(magicFeedbackManifest)), ...Object.keys(optionDefsOf(magicGuidelineManifest))];

/**
 * Learns MAGIC's self-correction guideline on a benchmark's training questions and writes the run folder
 * `sqlmend magic guideline` writes: the launcher's command is this, given its flags.
 */
export async function learnGuideline(options: GuidelineOptions, io: CliIO = defaultIO()): Promise<GuidelineResult> {
  return inApiWords("learnGuideline", async () => {
    const { options: given, ...rest } = options as GuidelineOptions & Record<string, unknown>;
    const config = checkConfig("learnGuideline", GUIDELINE_CONFIG, rest, CYCLE_KEYS);
    const cycle = Object.fromEntries(Object.entries(rest).filter(([key]) => CYCLE_KEYS.includes(key)));
    // The graphs whose options the run takes: the cycle, the merge, and the initial generator when one is named.
    const defs = Object.assign({}, ...guidelineGraphs(config.initial).reverse().map((graph) => optionDefsOf(graph)));
    return trainGuideline(config, checkGraphOptions("learnGuideline", defs, { ...cycle, ...given }), io);
  });
}
