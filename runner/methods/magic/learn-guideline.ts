/**
 * `learnGuideline`, the run API of MAGIC's guideline training: a script's options, then the body
 * `sqlmend magic guideline` runs (./guideline-training.ts).
 */
import { type CliIO, defaultIO } from "../../../core/io.ts";
import { type ApiOptionsOf, asApiErrors, type FlagTable, flagValuesOf } from "../../run/api-options.ts";
import type { runFlags } from "../../run/run-options.ts";
import type { RUN_DIR_FLAGS } from "../../run/output-dir-flags.ts";
import type { GraphOptionsOf } from "../../../graphs/registry.ts";
import { type GUIDELINE_OWN_FLAGS, MAGIC_GUIDELINE_FLAGS } from "./guideline-options.ts";
import { type GuidelineResult, learnFrom } from "./guideline-training.ts";

/**
 * The options of `sqlmend magic guideline`, by name (camelCase): `bench` (a folder, or "minibench"), `out`, `split`
 * (default train), `initial` (a generator graph's name or a predictions file), `batch`, `maxIter`, `noManager`, `limit`,
 * `ids`, `concurrency`, `resume`, `semantics`, the model flags (`model`, `baseUrl`, `roleModel: { ROLE: MODEL }`,
 * `temperature`, `cache`, ...), `checkpoints`, `node: { SLOT: FILE }`, and `options`, the graphs' own (camelCase).
 */
export type GuidelineOptions = Omit<ApiOptionsOf<typeof runFlags & typeof RUN_DIR_FLAGS & typeof GUIDELINE_OWN_FLAGS>, "out" | "node" | "graph"> &
  // The feedback cycle's and the merge's knobs are flags of the command: by name here too (`maxIter: 3`).
  GraphOptionsOf<"magic-feedback"> &
  GraphOptionsOf<"magic-guideline"> & {
  out: string;
  node?: Readonly<Record<string, string>>;
  /** The graphs' own options (magic-feedback's and magic-guideline's, the initial generator's), camelCase. */
  options?: GraphOptionsOf<"magic-feedback"> & GraphOptionsOf<"magic-guideline"> & Record<string, unknown>;
};


/**
 * Learns MAGIC's self-correction guideline on a benchmark's training questions and writes the run folder
 * `sqlmend magic guideline` writes: the launcher's command is this, given its flags.
 */
export async function learnGuideline(options: GuidelineOptions, io: CliIO = defaultIO()): Promise<GuidelineResult> {
  const { options: graphOptions, ...rest } = options;
  return asApiErrors("learnGuideline", () => learnFrom({ values: flagValuesOf("learnGuideline", rest, MAGIC_GUIDELINE_FLAGS as FlagTable, graphOptions), positionals: [] }, io));
}
