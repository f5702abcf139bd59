import { defineOptions } from "../../core/options.js";
/** How many SQL a voting baseline samples: the paper's 20 (MAGIC §4, "Baselines"). */
const SAMPLES = { type: "int", default: 20, min: 1, max: 100, help: "SQL samples to vote over (MAGIC's baselines: 20)" };
/**
 * The sampler role's temperature for every sample (`ModelProvider.variant`): diversity comes from sampling. The paper
 * gives none; 0.8 is the house's sampler default (`memo build --sample-temperature`).
 */
const SAMPLE_TEMPERATURE = { type: "number", default: 0.8, min: 0, max: 2, help: "temperature of the sampler role (the paper gives none)" };
/** Self-consistency (Wang et al., 2022): N samples of the generation prompt, majority of execution results. */
export const SELF_CONSISTENCY_OPTIONS = defineOptions({ samples: SAMPLES, sampleTemperature: SAMPLE_TEMPERATURE });
/** Multiple-prompt (Lee et al., 2024): up to N prompts, each with the tables in another order, then the same vote. */
export const MULTIPLE_PROMPT_OPTIONS = defineOptions({ samples: SAMPLES, sampleTemperature: SAMPLE_TEMPERATURE });
/**
 * Self-debugging (Chen et al., 2023): explain, judge, correct, until the explainer calls the SQL correct. Chen et al.
 * allow up to 10 debugging turns on Spider (most successful runs end within 3).
 */
export const SELF_DEBUGGING_OPTIONS = defineOptions({
    maxTurns: { type: "int", default: 10, min: 1, max: 50, help: "debugging turns (SQL rewrites) at most (Chen et al.: 10)" },
});
