import { checkConfig, checkGraphOptions, type ConfigOf, defineConfig } from "../../core/config.ts";
import { EVAL_CONFIG } from "../eval/eval-config.ts";
import { GUIDELINE_CONFIG } from "../methods/magic/guideline-config.ts";
import { MEMORY_BUILD_CONFIG } from "../methods/memo/memory-build-config.ts";
import { allGraphOptionDefs } from "../run/run-options.ts";
import { type RunModules } from "../run/user-modules.ts";

// The options an experiment forwards to every run, typed once (by the launcher from argv, or by `runExperiment` from
// a script): eval's, the guideline and memo steps' own, and the graphs' own by name.

const { bench: _b, out: _o, limit: _l, resume: _r, ...FORWARDED_EVAL_OPTIONS } = EVAL_CONFIG;

/** eval's options every run of an experiment gets (its model, selection, graph knobs, ...): all but a run's place. */
export const FORWARD_CONFIG = defineConfig(FORWARDED_EVAL_OPTIONS);
export type ForwardConfig = ConfigOf<typeof FORWARD_CONFIG>;

/** The options only magic-guideline and memo-build runs take (beside eval's): each goes to the runs whose step declares it. */
export const STEP_CONFIG = defineConfig({
  batch: GUIDELINE_CONFIG.batch,
  elicit: MEMORY_BUILD_CONFIG.elicit,
  samples: MEMORY_BUILD_CONFIG.samples,
  sampleTemperature: MEMORY_BUILD_CONFIG.sampleTemperature,
});
export type StepConfig = ConfigOf<typeof STEP_CONFIG>;

/** What every run gets beside the recipe's own options, typed. */
export interface Forwarded {
  /** eval's options: eval runs take them as they are; the experiment reads its seed, ids and sample from them. */
  config: ForwardConfig;
  /** The guideline and memo steps' own options. */
  steps: StepConfig;
  /** The graphs' own options (any graph's, the modules'), camelCase: each run takes those its graphs declare. */
  graphOptions: Record<string, unknown>;
}

/**
 * A script's forwarded options (`runExperiment`'s other names), each checked by its declaration and named by key:
 * eval's, the steps', and the graphs' own (by name beside them, or in `options`).
 */
export function forwardedOfApi(given: Record<string, unknown>, modules: RunModules): Forwarded {
  const { options, ...rest } = given as { options?: Record<string, unknown> } & Record<string, unknown>;
  const pick = (defs: object, inside: boolean) => Object.fromEntries(Object.entries(rest).filter(([key]) => key in defs === inside));
  const graphDefs = allGraphOptionDefs(modules);
  const others = pick({ ...FORWARD_CONFIG, ...STEP_CONFIG }, false);
  // A name no declaration has is refused as `checkConfig` refuses it (not as a graph option).
  const unknown = Object.keys(others).find((key) => !(key in graphDefs));
  if (unknown !== undefined) checkConfig("runExperiment", FORWARD_CONFIG, { [unknown]: others[unknown] });
  return {
    config: checkConfig("runExperiment", FORWARD_CONFIG, pick(FORWARD_CONFIG, true)),
    steps: checkConfig("runExperiment", STEP_CONFIG, pick(STEP_CONFIG, true)),
    // A step's option a graph declares too (`samples`) goes to both, as the launcher's flag does.
    graphOptions: checkGraphOptions("runExperiment", graphDefs, { ...Object.fromEntries(Object.entries(pick(STEP_CONFIG, true)).filter(([key]) => key in graphDefs)), ...others, ...options }),
  };
}
