import { checkConfig, type ConfigOf, defineConfig } from "../../core/config.ts";
import { EVAL_CONFIG } from "../eval/eval-config.ts";
import { type FlagTable, type FlagValues, flagValuesOf } from "../run/api-options.ts";
import { RUN_DIR_FLAGS } from "../run/output-dir-flags.ts";
import { graphFlags, type RunModules, runFlags } from "../run/run-options.ts";

// The options an experiment forwards to every run: eval's, typed once (by the launcher or `runExperiment`), and every
// forwarded flag as given, for what still reads flags.

const { bench: _b, out: _o, limit: _l, resume: _r, ...FORWARDED_EVAL_OPTIONS } = EVAL_CONFIG;

/** eval's options every run of an experiment gets (its model, selection, graph knobs, ...): all but a run's place. */
export const FORWARD_CONFIG = defineConfig(FORWARDED_EVAL_OPTIONS);
export type ForwardConfig = ConfigOf<typeof FORWARD_CONFIG>;

/** What every run gets beside the recipe's own options. */
export interface Forwarded {
  /** eval's options, typed: eval runs take them as they are; the experiment reads its seed, ids and sample from them. */
  config: ForwardConfig;
  /**
   * Every forwarded option as its flag: the graphs' own options (parsed by the graph each run runs), and what magic
   * guideline and memo build runs read, whose bodies take flag values here (`learnFrom`, `memoBuild`).
   */
  flags: FlagValues;
}

/** The flags an experiment forwards to its runs: eval's (and its modules' options), magic guideline's and memo build's. */
export const experimentForwardFlags = (modules?: RunModules): FlagTable => {
  const { bench: _b, out: _o, limit: _l, resume: _r, ...forward } = { ...runFlags, ...graphFlags(modules), ...RUN_DIR_FLAGS, semantics: { type: "string" }, "keep-distinct": { type: "boolean" }, shard: { type: "string" }, server: { type: "string" }, batch: { type: "string" }, samples: { type: "string" }, elicit: { type: "string" }, "sample-temperature": { type: "string" } } as FlagTable;
  return forward;
};

/** A script's forwarded options (`runExperiment`'s other names): eval's checked by their declaration, each named by key. */
export function forwardedOfApi(given: Record<string, unknown>, modules: RunModules): Forwarded {
  const declared = Object.fromEntries(Object.entries(given).filter(([key]) => key in FORWARD_CONFIG));
  return { config: checkConfig("runExperiment", FORWARD_CONFIG, declared), flags: flagValuesOf("runExperiment", given, experimentForwardFlags(modules)) };
}
